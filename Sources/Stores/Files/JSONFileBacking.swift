import Foundation

/// A store's state kept in a JSON file, each action a transaction. The persistence of every
/// file-backed store.
///
/// An action on a store opened on a file runs as:
/// 1. take an exclusive lock on a lock file beside the data file (`todos.json.lock`; see
///    ``FileLock``), waiting at most the lock timeout;
/// 2. if the file changed since this backing last read or wrote it — told cheaply by its
///    identity, confirmed by content when that identity is racy (see ``FileVersion``) —
///    reload it first (merging back what this store wrote when the file lacks it, and taking
///    a hand edit's changes as the newest), then merge in what the sync engine left;
/// 3. run the reducer, once, on that state (positions were resolved to identities before, so
///    an action on fresher state keeps its intent);
/// 4. if the state changed, write it to a new temporary file in the same folder (streamed as
///    it is encoded, see ``FileOutput``; a list's items the action did not change are copied
///    from the text of the last write, see ``EncodedList``), flush it, rename it over the
///    data file, flush the folder (see ``FileSystem/replace(_:in:creating:replacing:path:flushes:committed:writing:)``:
///    `fsync` twice on Linux, one flush of the drive's cache on Apple platforms);
/// 5. release the lock; the store then notifies its observers.
///
/// The folder is held open from the store's opening (see ``DataFolder``), and every step
/// happens relative to it: a folder swapped for a link is refused, by writes and reloads. The
/// first transaction of a backing also removes the temporary files that writers killed in
/// the middle of step 4 left behind.
///
/// So two processes never lose each other's updates, a crash leaves the old file or the
/// new one, never a torn one, and what an action returned from is on disk. When the file
/// did not change, a transaction neither reads nor decodes it.
///
/// A state merged across devices (`Sync` is not ``NoSync``) is written with its stamps: each
/// change is stamped by this device's ``HybridClock`` against the stored state it met (step
/// 3), tombstones are dropped once older than ``Stamp/tombstoneLifetime`` by every writer's
/// clock (see ``WriterClocks``), and in step 2 the conflict copies a sync engine left beside
/// the file (see ``ConflictCopies``) are read and merged in — and removed only once the merge
/// is written. A copy that is not a valid file
/// of this state stays where it is and is reported.
///
/// A file in iCloud Drive (its URL ubiquitous when the store opens; see
/// ``Platform/fileCoordination(for:timeout:)``) is reached as Apple requires: every read runs
/// inside a coordinated read, every transaction's steps 2 to 4 inside a coordinated read with a
/// follow-up write `.forReplacing` (so iCloud's conflict versions are merged, marked resolved
/// and removed inside it), and ``watch(onChange:)`` also registers a file presenter. A
/// placeholder of a file not downloaded yet is never taken for a missing file: opening,
/// reloading or acting on it starts its download and throws
/// ``StoreFileError/Problem/notDownloaded``, reading and writing nothing. A file elsewhere
/// (a local folder, an App Group, Linux) is reached directly, as above, with no call to any
/// of that.
///
/// Reading never creates or writes anything: a missing file is the empty state, and the
/// folder (`0700`), the lock file and the data file (`0600`, or the old file's
/// permissions and owner) are created by the first write. A symbolic link is followed: its
/// target is read and replaced, the link stays (a link to a missing folder is not followed
/// into it: writing fails).
final class JSONFileBacking<State: PersistentState, Sync: StateSync<State>>: StoreBacking,
  MergeReporting, @unchecked Sendable
{
  /// The data file's path as given (the link, when it is one).
  let path: String
  /// How long a transaction waits for another process's lock.
  let lockTimeout: Duration
  /// The file as last read or written; `nil` when it was missing.
  var version: FileVersion?
  /// The path of the file `version` is of: a link pointed elsewhere since makes another file,
  /// whose state is not this one's next version.
  var versionTarget: String?
  /// The stamps of the file as last read or written — once decoded: see ``unreadStamps``.
  /// While a transaction stamps them in place, stamps of no state (see ``noStamps``).
  var stamps: Sync
  /// The stamps of the file as the store opened it, as the text they are, until something
  /// needs them: ``readStamps(stillHeld:)`` then decodes them into ``stamps``. `nil` once
  /// decoded (or dropped), and for a store opened on no file.
  var unreadStamps: StampsText<State, Sync>?
  /// Stamps this device's changes.
  let clock: HybridClock
  /// The versions of the file kept outside its folder (iCloud Drive's), merged as copies are.
  let conflictVersions: ConflictVersions
  /// How the file is reached alongside other processes: directly, or coordinated (iCloud
  /// Drive), chosen when the store opened.
  private let coordination: any FileCoordination
  /// What ``watch(onChange:)`` calls when the file's presenter hears of a change.
  private var onPresentedChange: (@MainActor () -> Void)?
  /// The folder of the file's target, held open from the store's opening (or, when it did
  /// not exist then, from the first write that made it).
  var folder: DataFolder?
  private var watcher: FileWatcher?
  /// Whether this backing has removed the temporary files of crashed writers.
  private var removedStaleTemporaries = false
  /// The file's decoding and encoding, made where the backing is opened and `State` is
  /// known, so that they run specialised for it (the backing itself is called through
  /// `any StoreBacking`, where generic code would run unspecialised, many times slower).
  let decode: (Data, String) throws(StoreFileError) -> (State, Sync)
  /// The file's decoding for opening it: its stamps left as text (see ``StampsText``)…
  let decodeState: (Data, String) throws(StoreFileError) -> (State, StampsText<State, Sync>)
  /// … and the decoding of that text, when they are needed.
  let decodeStamps: (StampsText<State, Sync>, String) throws(StoreFileError) -> Sync
  private let encode: (State, Sync, FileOutput, Sync.WriteCache?) throws(StoreFileError) -> Void
  /// What the last write keeps for the next (see ``StateSync/WriteCache``): about the file's
  /// size in memory for a list; `nil` for a backing that keeps nothing between its writes.
  private let writeCache: Sync.WriteCache?
  /// Stamps of no state, held in place of ``stamps`` while a transaction stamps them.
  private let noStamps = Sync(unstamped: State())
  /// This device's outbox for the file (see ``Outbox``) at ``outboxTarget``; `nil` for a
  /// state not merged across devices, and where the device has no local state folder.
  private(set) var outbox: Outbox?
  /// The target of the file whose outbox ``outbox`` is.
  private var outboxTarget: String?
  /// Makes this device's outbox for the file at a target.
  private let makeOutbox: (String) -> Outbox?
  /// The identity of the outbox as this store last wrote it or weighed the file against it:
  /// an outbox of another identity is new to it (another process of the device wrote it).
  var outboxSeen: FileIdentity?
  /// What the latest transaction or reload did with conflict copies.
  var mergeReport = MergeReport()
  /// The furthest ahead of the wall clock, in milliseconds, that a stamp read was (see
  /// ``observe(_:)``).
  var largestClockSkew: Int64 = 0
  /// The conflict copies beside the file that could not be merged, by name: the identity each
  /// had when it was refused, and why. While a copy keeps that identity it is not read again,
  /// only reported again (see ``mergeLeftovers(of:in:target:into:)``).
  var refusedCopies: [String: RefusedCopy] = [:]

  private init(
    path: String, lockTimeout: Duration, clock: HybridClock, versions: ConflictVersions,
    coordination: any FileCoordination, keepsWriteCache: Bool,
    outbox: @escaping (String) -> Outbox?,
    decode: @escaping (Data, String) throws(StoreFileError) -> (State, Sync),
    decodeState:
      @escaping (Data, String) throws(StoreFileError) -> (
        State, StampsText<State, Sync>
      ),
    decodeStamps: @escaping (StampsText<State, Sync>, String) throws(StoreFileError) -> Sync,
    encode: @escaping (State, Sync, FileOutput, Sync.WriteCache?) throws(StoreFileError) -> Void
  ) {
    self.path = path
    self.lockTimeout = lockTimeout
    self.clock = clock
    conflictVersions = versions
    self.coordination = coordination
    self.decode = decode
    self.decodeState = decodeState
    self.decodeStamps = decodeStamps
    self.encode = encode
    makeOutbox = outbox
    writeCache = keepsWriteCache ? Sync.makeWriteCache() : nil
    stamps = Sync(unstamped: State())
  }

  /// Opens the file at `url` and reads its state (the empty state when there is no file),
  /// its stamps kept as the text they are until needed (see ``unreadStamps``): O(*n*) in the
  /// size of the file, as reading the state alone is, plus a copy of that text. How the file
  /// is reached is chosen now, once, by `coordination` (given the file's target and the lock
  /// timeout); the versions kept outside the folder are `versions`, or
  /// when `nil` those the chosen coordination knows. With `keepsWriteCache`, each write keeps
  /// the text it wrote for the next (see ``StateSync/WriteCache``); without, every write
  /// encodes the whole state, streamed to the file, and nothing is kept. A state merged
  /// across devices keeps an outbox (see ``Outbox``), made by `outbox` from the file's target
  /// and the clock's device — in the local state folder by default: when it holds another version than the file, the first
  /// transaction or refresh weighs the file against it.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or its state is not valid
  ///   (its stamps are checked when read), or is in iCloud Drive and not downloaded yet
  ///   (``StoreFileError/Problem/notDownloaded``: its download was started); the file is left
  ///   untouched.
  static func open(
    _ url: URL, lockTimeout: Duration, clock: HybridClock, versions: ConflictVersions?,
    coordination choose: (URL, Duration) -> any FileCoordination, keepsWriteCache: Bool = true,
    outbox: @escaping (String, @escaping () -> DeviceID) -> Outbox? = Outbox.local(of:device:)
  ) throws(StoreFileError) -> (JSONFileBacking, State) {
    let path = url.standardizedFileURL.path
    let target = try FileSystem.resolvingLinks(path)
    let coordination = choose(URL(fileURLWithPath: target), lockTimeout)
    let backing = JSONFileBacking(
      path: path, lockTimeout: lockTimeout, clock: clock,
      versions: versions ?? ConflictVersions(coordination), coordination: coordination,
      keepsWriteCache: keepsWriteCache,
      // A file in iCloud Drive needs none: its engine coordinates with the write.
      outbox: {
        Sync.self == NoSync<State>.self || !(coordination is LocalFile)
          ? nil : outbox($0, { clock.device })
      },
      decode: { data, path throws(StoreFileError) in
        try StateFileCoding.decode(data, path: path, sync: Sync.self)
      },
      decodeState: { data, path throws(StoreFileError) in
        try StateFileCoding.decode(data, path: path, stampsOf: Sync.self)
      },
      decodeStamps: { text, path throws(StoreFileError) in
        try StateFileCoding.stamps(of: text, path: path)
      },
      encode: { state, stamps, output, cache throws(StoreFileError) in
        try StateFileCoding.write(state, sync: stamps, path: path, to: output, cache: cache)
      })
    // The folder is pinned now, not at the first write: swapped for a link later, it is
    // noticed rather than followed.
    backing.folder = try? DataFolder(opening: Self.folderPath(of: target), for: path)
    try backing.requireLocalContents()
    // Opening writes nothing, and reads no stamp: they are decoded when first needed (edits
    // made without stamps are stamped then, in memory, and written with the store's first
    // change or reload).
    let (state, stamps, version, data) = try backing.coordinatedRead {
      () throws(StoreFileError) in try backing.readState(target)
    }
    (backing.version, backing.unreadStamps, backing.versionTarget) = (version, stamps, target)
    // A file that keeps conflicts has its stamps read now, so that the store lists them from
    // the start (a stamp that is not valid still fails the first action, not the opening).
    if let stamps, stamps.mentions("\"conflicts\"") { try? backing.readStampsNow() }
    // An outbox that holds the file as it is needs no weighing (compared in parts, not
    // decoded).
    backing.useOutbox(of: target)
    if let data, let identity = backing.outbox?.identity(holding: data) {
      backing.outboxSeen = identity
    }
    return (backing, state)
  }

  func transaction(
    from current: State, _ update: (inout State) throws -> Bool
  ) throws -> BackingTransaction<State>? {
    try transaction(from: current, mergingCopies: false, update)
  }

  /// Resolves `conflict` by `choice` as a transaction on the freshest state (see
  /// ``StateSync/resolving(_:choosing:in:stamp:)``); `nil` when it is not open there, or
  /// nothing changed.
  func resolve(
    _ conflict: SyncConflict, choosing choice: SyncConflict.Choice, from current: State
  ) throws -> BackingTransaction<State>? {
    try transaction(from: current, mergingCopies: true, resolving: (conflict, choice)) { _ in
      false
    }
  }

  /// The conflicts open in `state`, the state of the file as last read or written, once its
  /// stamps are read (see ``unreadStamps``); else `nil`.
  func openConflicts(in state: State) -> [SyncConflict]? {
    unreadStamps == nil ? stamps.openConflicts(in: state) : nil
  }

  /// Runs `update` as a transaction (see ``StoreBacking/transaction(from:_:)``); with
  /// `mergingCopies`, takes the lock and merges the conflict copies beside the file even when
  /// `update` changes nothing.
  ///
  /// Under the lock, five steps: ``catchUp(with:in:at:from:)`` finds the stored state,
  /// ``mergeLeftovers(of:in:target:into:)`` merges in what the sync engine left beside it,
  /// ``apply(_:to:early:leftovers:current:)`` runs `update` once on the result — by identity,
  /// so on whatever the file and the copies hold — and stamps what changed,
  /// ``encoding(_:)`` encodes it (through the write cache) as ``commit(_:of:in:replacing:)``
  /// writes it durably over the file. A sync engine that replaced the file meanwhile starts
  /// them again.
  private func transaction(
    from current: State, mergingCopies: Bool,
    resolving resolution: (SyncConflict, SyncConflict.Choice)? = nil,
    _ update: (inout State) throws -> Bool
  ) throws -> BackingTransaction<State>? {
    mergeReport = MergeReport()
    let target = try FileSystem.resolvingLinks(path)
    try requireLocalContents()
    // While the file holds the state in memory, the action runs before the lock: one that
    // changes nothing needs no lock and no write, and so creates no file. (A new outbox is
    // weighed against the file, which is read again for it, under the lock.)
    var early: State?
    useOutbox(of: target)
    let isOutboxNew = isOutboxNew
    if !mergingCopies, !isOutboxNew, try isCurrent(at: target) {
      var state = current
      guard try update(&state) else { return nil }
      early = state
    }
    if !isOutboxNew {
      try readStamps { () throws(StoreFileError) in try isCurrent(at: target) }
    }
    let folder = try dataFolder(for: target)
    let name = (target as NSString).lastPathComponent
    return try FileLock.withLock(of: name, in: folder, timeout: lockTimeout, path: path) {
      deadline in
      // Under the lock, and inside the file's coordinated write (for a file in iCloud Drive).
      try coordinatedReplace { () throws -> BackingTransaction<State>? in
        removeStaleTemporariesOnce(of: name, in: folder)
        while true {
          let file = try FileSystem.openLocked(
            name, in: folder, until: deadline, timeout: lockTimeout, path: path)
          var stored = try catchUp(with: file, in: folder, at: target, from: current)
          let leftovers = mergeLeftovers(of: name, in: folder, target: target, into: &stored)
          let applied = try apply(
            update, to: &stored, early: early, leftovers: leftovers, current: current,
            resolving: resolution)
          if applied.mustWrite {
            do {
              stored.version = try commit(
                encoding(applied), of: name, in: folder, replacing: file)
            } catch {
              putBack(applied)
              // Another writer or a sync engine replaced the file: start again.
              if error is FileSystem.Raced { continue }
              throw error
            }
            leftovers.removeMerged(in: folder, target: target, versions: conflictVersions)
          } else if let weighed = stored.weighedOutbox {
            // The file holds the outbox: copied to it (when they differ), so that a store
            // opening the file later finds them equal and need not weigh them again.
            outboxSeen = weighed.file.flatMap { outbox?.write($0) } ?? weighed.identity
          }
          (version, versionTarget, stamps) = (stored.version, target, applied.stamps)
          unreadStamps = nil
          mergeReport = leftovers.report
          let reloaded = stored.state != current
          guard applied.changed || reloaded else { return nil }
          return BackingTransaction(
            state: applied.state, reloaded: reloaded, changed: applied.changed)
        }
      }
    }
  }

  /// Whether `stamps` record changes: not a file without stamps, all ``Stamp/origin``.
  static func isStamped(_ stamps: Sync) -> Bool {
    Sync.self != NoSync<State>.self && (stamps.latest.map { $0 > .origin } ?? false)
  }

  /// A transaction's state after its action, with its stamps.
  private struct Applied {
    var state: State
    var stamps: Sync
    /// What stamping the action replaced (see ``StateSync/stamp(before:after:stamp:cache:)``),
    /// and whether the stamps were the backing's own ``stamps`` (see
    /// ``Stored/hasKnownStamps``), handed over to be stamped in place: both to put back when
    /// the write fails (see ``putBack(_:)``).
    var prior: (replaced: Sync.Prior, isOwn: Bool)?
    /// Whether the action changed the state.
    var changed: Bool
    /// Whether the file must be written: the action changed the state, or the stored state
    /// differs from the file's (see ``Stored/mustWrite``), or copies were merged.
    var mustWrite: Bool
  }

  /// Step 3: `update` run on `stored` — or `early`, its result on the state in memory, when
  /// the file still held that and nothing was merged — and what it changed stamped by this
  /// device's clock, this device noted as the file's writer. A state read from the file first
  /// takes what `current`, the state in memory, keeps only in memory.
  private func apply(
    _ update: (inout State) throws -> Bool, to stored: inout Stored, early: State?,
    leftovers: Leftovers, current: State, resolving resolution: (SyncConflict, SyncConflict.Choice)?
  ) throws -> Applied {
    var state: State
    var changed: Bool
    if let early, !stored.isReloaded, leftovers.isEmpty {
      (state, changed) = (early, true)
    } else {
      stored.state.keepMemoryOnlyState(from: current)
      state = stored.state
      changed = try update(&state)
    }
    var stamps = stored.stamps
    var prior: (replaced: Sync.Prior, isOwn: Bool)?
    if changed {
      // The stamps the store knew, when the file still holds them and nothing was merged in,
      // are handed over, so that no other reference to their buffers makes stamping copy them.
      let isOwn = stored.hasKnownStamps
      stored.stamps = noStamps
      if isOwn { self.stamps = noStamps }
      let replaced = stamps.stamp(
        before: stored.state, after: state, stamp: clock.stamp(), cache: writeCache)
      prior = (replaced, isOwn)
    } else if let (conflict, choice) = resolution,
      let resolved = stamps.resolving(conflict, choosing: choice, in: &state, stamp: clock.stamp())
    {
      (stamps, changed) = (resolved, true)
    }
    if changed || stored.stampedEdits { stamps.noteWrite(by: clock.device, at: clock.now) }
    return Applied(
      state: state, stamps: stamps, prior: prior, changed: changed,
      mustWrite: changed || stored.mustWrite || !leftovers.isEmpty)
  }

  /// Puts back what `applied`, whose write failed, stamped: the stamps this store knew, when
  /// they were handed over to it, and what the write cache was told.
  private func putBack(_ applied: Applied) {
    guard let (replaced, isOwn) = applied.prior else { return }
    var stamps = applied.stamps
    stamps.restore(replaced, cache: writeCache)
    if isOwn { self.stamps = stamps }
  }

  /// Step 4: what writes `applied` to a file — its envelope and stamps — streamed as it is
  /// encoded, the items unchanged since the last write copied from the write cache (see
  /// ``EncodedList``).
  private func encoding(_ applied: Applied) -> (FileOutput) throws(StoreFileError) -> Void {
    { [encode, writeCache] output throws(StoreFileError) in
      try encode(applied.state, applied.stamps, output, writeCache)
    }
  }

  /// Step 5: writes the file `name` in `folder` with `write` durably — a temporary file,
  /// flushed, renamed over `file` (created when `nil`), the folder flushed — and returns its
  /// version.
  ///
  /// - Throws: `FileSystem.Raced` when another writer created or replaced the file since it
  ///   was opened; a ``StoreFileError`` when it cannot be written (the file is unchanged).
  private func commit(
    _ write: (FileOutput) throws(StoreFileError) -> Void, of name: String, in folder: DataFolder,
    replacing file: OpenFile?
  ) throws -> FileVersion? {
    try FileSystem.replace(
      name, in: folder, creating: file == nil, replacing: file?.identity, path: path,
      committed: { [outbox] written, size in
        // Copied to the outbox once in place: never a version the file did not get.
        self.outboxSeen = outbox?.write(copying: written, size: size)
      }, writing: write)
  }

  /// Uses the device's outbox for the file at `target`: another than before when a link to
  /// the file was pointed elsewhere since, which is then new to this store.
  private func useOutbox(of target: String) {
    guard target != outboxTarget else { return }
    (outbox, outboxTarget, outboxSeen) = (makeOutbox(target), target, nil)
  }

  /// Whether the device's outbox for the file is one this store has not written or weighed
  /// (see ``outboxSeen``): another process of the device wrote the file since. One or two
  /// `stat`s.
  var isOutboxNew: Bool {
    guard let outbox, let identity = outbox.identity else { return false }
    return identity != outboxSeen
  }

  /// Removes, once per backing, the temporary files that writers killed mid-write left.
  private func removeStaleTemporariesOnce(of name: String, in folder: DataFolder) {
    guard !removedStaleTemporaries else { return }
    FileSystem.removeStaleTemporaries(of: name, in: folder)
    removedStaleTemporaries = true
  }

  /// Whether the file at `target` still holds the version last read or written, read inside
  /// a coordinated read.
  private func isCurrent(at target: String) throws(StoreFileError) -> Bool {
    try coordinatedRead { () throws(StoreFileError) in
      try isCurrent(
        FileSystem.identity(of: target),
        hashing: { () throws(StoreFileError) in try FileSystem.contentHash(of: target, path: path) }
      )
    }
  }

  /// Throws ``StoreFileError/Problem/notDownloaded`` when the file is a placeholder of a file
  /// in iCloud Drive not downloaded yet (its download is then started): never to be read as a
  /// missing file, which would write a new file beside the one in the cloud.
  private func requireLocalContents() throws(StoreFileError) {
    guard coordination.hasLocalContents() else {
      throw StoreFileError(path: path, problem: .notDownloaded)
    }
  }

  /// `body`'s result, run inside a coordinated read of the file (directly for a local file).
  private func coordinatedRead<T>(
    _ body: () throws(StoreFileError) -> T
  ) throws(StoreFileError) -> T {
    do {
      return try coordination.coordinateReading { () throws -> T in try body() }
    } catch let error as StoreFileError {
      throw error
    } catch {
      throw StoreFileError(path: path, problem: .notCoordinated(detail: "\(error)"))
    }
  }

  /// `body`'s result, run inside a coordinated read with a follow-up write, for replacing, of
  /// the file (directly for a local file). Errors of `body` pass through; a failure to
  /// coordinate is ``StoreFileError/Problem/notCoordinated(detail:)``.
  private func coordinatedReplace<T>(_ body: () throws -> T) throws -> T {
    var failed: (any Error)?
    do {
      return try coordination.coordinateReplacing { () throws -> T in
        do {
          return try body()
        } catch {
          failed = error
          throw error
        }
      }
    } catch {
      if let failed { throw failed }
      throw StoreFileError(path: path, problem: .notCoordinated(detail: "\(error)"))
    }
  }

  func reloadIfChanged(from current: State) throws -> State? {
    let target = try FileSystem.resolvingLinks(path)
    if let folder, folder.path == Self.folderPath(of: target), folder.status == .replaced {
      throw StoreFileError(path: path, problem: .folderReplaced(folder: folder.path))
    }
    let folderPath = Self.folderPath(of: target)
    let name = (target as NSString).lastPathComponent
    mergeReport = MergeReport()
    try requireLocalContents()
    useOutbox(of: target)
    if Sync.self != NoSync<State>.self {
      mergeReport.arriving = ConflictCopies.arriving(of: name, inFolder: folderPath)
    }
    if Sync.self != NoSync<State>.self,
      hasCopiesToRead(ConflictCopies.copies(of: name, inFolder: folderPath), inFolder: folderPath)
        || !conflictVersions.unresolved(URL(fileURLWithPath: target)).isEmpty
    {
      // Copies to merge: under the lock, written back. (Copies refused before and unchanged
      // since are only reported: they need no lock.)
      return try transaction(from: current, mergingCopies: true) { _ in false }?.state
    }
    var change = try coordinatedRead { () throws(StoreFileError) in
      try readChange(at: target, from: current, weighingOutbox: true)
    }
    if case .outboxToWeigh = change {
      // Under the lock, written back — unless that fails (the file's stamps are not valid,
      // which only a change needs; the file or its folder cannot be written; the lock is
      // held): the refresh then goes on as if the outbox were not new, and it stays new, to
      // be weighed by the next store or action.
      do {
        return try transaction(from: current, mergingCopies: true) { _ in false }?.state
      } catch let error as StoreFileError where error.path == path {}
      change = try coordinatedRead { () throws(StoreFileError) in
        try readChange(at: target, from: current, weighingOutbox: false)
      }
    }
    switch change {
    case .none(let outboxHeld):
      if let outboxHeld { outboxSeen = outboxHeld }
      return nil
    case .read(var state, let newStamps, let newVersion, let outboxHeld):
      state.keepMemoryOnlyState(from: current)
      (version, stamps, versionTarget) = (newVersion, newStamps, target)
      if let outboxHeld { outboxSeen = outboxHeld }
      return state
    case .toMerge, .outboxToWeigh:
      return try transaction(from: current, mergingCopies: true) { _ in false }?.state
    }
  }

  /// What a reload finds of the file at `target`, the store's state being `current`; with
  /// `weighingOutbox`, the device's outbox new to this store (see ``isOutboxNew``) is
  /// compared with the file. Read with no lock: a reader never waits for a writer, and only
  /// what must be merged and written goes through the transaction. O(*n*) in the size of the
  /// file when it changed or the outbox is new; one or two `stat`s otherwise.
  private func readChange(at target: String, from current: State, weighingOutbox: Bool)
    throws(StoreFileError) -> StoredChange
  {
    let isOutboxNew = weighingOutbox && isOutboxNew
    if !isOutboxNew,
      try isCurrent(
        FileSystem.identity(of: target),
        hashing: { () throws(StoreFileError) in
          try FileSystem.contentHash(of: target, path: path)
        })
    {
      return .none(outboxHeld: nil)
    }
    // Whether the file holds the version last read or written is told by the file read, not
    // by a look at its path before: another process may have renamed its write over it since,
    // whose bytes the outbox then holds — never to be noted as seen by a store that did not
    // read them.
    let file = try FileSystem.read(target, path: path)
    let isCurrent = try isCurrent(file?.1, hashing: { file.map { FileVersion.hash($0.0) } })
    if isCurrent && !isOutboxNew { return .none(outboxHeld: nil) }
    if !isCurrent { try readStamps { false } }
    // The stamped version this store read or wrote last, if any.
    let own =
      version != nil && versionTarget == target && Self.isStamped(stamps)
      ? (state: current, stamps: stamps) : nil
    guard let (data, identity) = file else {
      // Gone: so is what this device last wrote to it, which the transaction notes (its
      // outbox goes) when this store knew a stamped version or the outbox is new.
      if isOutboxNew { return .outboxToWeigh }
      if own != nil { return .toMerge }
      return .read(State(), Sync(unstamped: State()), nil, outboxHeld: nil)
    }
    // The outbox, new, holding another version than the file: the device's latest write,
    // which the file may have lost, weighed under the lock. Holding the file's very bytes, it
    // is seen once the file is read.
    var outboxHeld: FileIdentity?
    if isOutboxNew {
      guard let held = outbox?.identity(holding: data) else { return .outboxToWeigh }
      if isCurrent { return .none(outboxHeld: held) }
      outboxHeld = held
    }
    let (state, fileStamps) = try decode(data, path)
    let (stamps, isCovered, stampedEdits) = adopt(state, fileStamps, knowing: own)
    // Edits made without stamps are stamped as this device's change and written at once, as a
    // transaction does: left unstamped in the file, they would be stamped by whichever device
    // read them next, as its change then. A file that lost something of the version this
    // store knew — another device's version the engine renamed over its last write — has it
    // merged back, under the lock (see ``catchUp(with:in:at:from:)``).
    if stampedEdits { return .toMerge }
    if let own, !isCovered, Self.isStamped(fileStamps),
      lacks(own, read: (state, stamps), writers: fileStamps.writers)
    {
      return .toMerge
    }
    let version = FileVersion(
      identity: identity, content: data, changeTimesAreExact: folder?.changeTimesAreExact ?? false)
    return .read(state, stamps, version, outboxHeld: outboxHeld)
  }

  func keepMemoryOnlyState(_ state: inout State, from memory: State) {
    state.keepMemoryOnlyState(from: memory)
  }

  func readStampsNow() throws(StoreFileError) { try readStamps { true } }

  /// What a reload found of the file.
  private enum StoredChange {
    /// The file holds the version last read or written. The device's outbox, new to the
    /// store, holds the same bytes (`outboxHeld`, its identity, to note as seen), or was not
    /// weighed (`nil`): so below.
    case none(outboxHeld: FileIdentity?)
    /// It changed, and was read.
    case read(State, Sync, FileVersion?, outboxHeld: FileIdentity?)
    /// It lost something of the stamped version the store knew, or is gone, or holds edits
    /// made without stamps: to be merged under the lock, and written.
    case toMerge
    /// The device's outbox, new to the store, holds another version: to be weighed against
    /// the file under the lock.
    case outboxToWeigh
  }

  /// Watches the file (``FileWatcher``) and, for a file in iCloud Drive, registers its
  /// presenter too: either calls `onChange` on the main actor.
  @MainActor func watch(onChange: @escaping @MainActor () -> Void) throws {
    guard watcher == nil else { return }
    watcher = FileWatcher(path: path) { onChange() }
    onPresentedChange = onChange
    coordination.present { [weak self] in
      DispatchQueue.main.async { MainActor.assumeIsolated { self?.onPresentedChange?() } }
    }
  }

  @MainActor func stopWatching() {
    watcher = nil
    onPresentedChange = nil
    coordination.stopPresenting()
  }

  /// Whether the file whose identity is now `identity` (`nil`: missing) still holds the
  /// version last read or written; `contentHash` hashes what it holds when that must be
  /// confirmed (read in parts: no copy of the file is held).
  func isCurrent(
    _ identity: FileIdentity?, hashing contentHash: () throws(StoreFileError) -> Int?
  ) throws(StoreFileError) -> Bool {
    guard let identity, var known = version else { return identity == nil && version == nil }
    let current = try known.isCurrent(identity, contentHash: contentHash)
    version = known
    return current
  }

  /// The folder of `target`, held open: the one opened before while it is still at its path,
  /// else the folder there now — never one put there as a link or by someone else.
  private func dataFolder(for target: String) throws(StoreFileError) -> DataFolder {
    let folderPath = Self.folderPath(of: target)
    if let folder, folder.path == folderPath {
      switch folder.status {
      case .current: return folder
      case .replaced:
        throw StoreFileError(path: path, problem: .folderReplaced(folder: folderPath))
      case .missing, .remade: break
      }
    }
    // The data folder is created, never a folder a link points into: a dangling link whose
    // target's folder is missing fails to write.
    try FileSystem.createFolder((path as NSString).deletingLastPathComponent, for: path)
    let opened = try DataFolder(opening: folderPath, for: path)
    folder = opened
    return opened
  }

  private static func folderPath(of target: String) -> String {
    (target as NSString).deletingLastPathComponent
  }

}

/// What a backing did with the conflict copies beside its file in its latest transaction or
/// reload.
package struct MergeReport: Sendable {
  /// The copies merged into the file, and removed.
  package var merged: [String] = []
  /// The errors of the copies that are not valid files of the store: left where they are.
  package var notMerged: [StoreFileError] = []
  /// The copies and versions merged that brought back items or keys whose removal may have
  /// been forgotten, by name, with how many (see ``StateSync/forgottenRemovals(_:_:)``): a
  /// version made more than ``Stamp/tombstoneLifetime`` before the file's writers last wrote.
  package var forgottenRemovals: [(name: String, count: Int)] = []
  /// The versions of the file a sync engine is bringing (see
  /// ``ConflictCopies/arriving(of:inFolder:)``).
  package var arriving: [String] = []
}

/// A backing that merges conflict copies.
package protocol MergeReporting<State>: AnyObject {
  associatedtype State
  var mergeReport: MergeReport { get }
  /// The conflicts open in `state`, the state of the file as last read or written, once its
  /// stamps are read; else `nil`.
  func openConflicts(in state: State) -> [SyncConflict]?
  /// Resolves `conflict` by `choice` as a transaction on the freshest state; `nil` when it
  /// is not open there.
  func resolve(
    _ conflict: SyncConflict, choosing choice: SyncConflict.Choice, from current: State
  ) throws -> BackingTransaction<State>?
  /// The furthest ahead of the wall clock, in milliseconds, that a stamp read was.
  var largestClockSkew: Int64 { get }
  /// Decodes the file's stamps, as opened, if nothing needed them yet: so that
  /// ``largestClockSkew`` counts them.
  func readStampsNow() throws(StoreFileError)
}

extension Store where State: PersistentState {
  /// A core for a store kept in the JSON file at `url`, with the file's state (the empty
  /// state when there is no file), whose effects use `environment`, and whose actions wait at
  /// most `lockTimeout` for another process's lock. Each store's `init(contentsOf:)` is built
  /// on it.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid. Its stamps are
  ///   read when first needed, not now: a stamp that is not valid fails the first action
  ///   (which writes nothing), not the opening.
  public static func fileCore(
    contentsOf url: URL, environment: StoreEnvironment = .live,
    lockTimeout: Duration = .defaultLockTimeout
  ) throws(StoreFileError) -> StoreCore<Self> {
    try fileCore(
      contentsOf: url, environment: environment, lockTimeout: lockTimeout, clock: .local)
  }

  /// A core as ``fileCore(contentsOf:environment:lockTimeout:)`` makes, whose changes are
  /// stamped by `clock` (a device of its own, for tests) and which merges the `versions` of
  /// its file kept outside the folder (a test's own, for tests).
  ///
  /// How the file is reached is chosen by `coordination` (``Platform/fileCoordination(for:timeout:)``:
  /// iCloud Drive's coordination for a file there, directly otherwise; a stand-in's in tests);
  /// `versions`, when given, replaces the versions the chosen coordination knows.
  ///
  /// With `keepsWriteCache` (the default), each write keeps the text of a list's items for the
  /// next, which then encodes only what changed — about the file's size more in memory while
  /// the store lives. A process that writes the file once and exits (`diary`) passes `false`:
  /// its one write encodes everything anyway, and holds nothing beyond one part of the file.
  package static func fileCore(
    contentsOf url: URL, environment: StoreEnvironment = .live,
    lockTimeout: Duration = .defaultLockTimeout, clock: HybridClock,
    versions: ConflictVersions? = nil,
    coordination: (URL, Duration) -> any FileCoordination = Platform.fileCoordination(for:timeout:),
    keepsWriteCache: Bool = true
  ) throws(StoreFileError) -> StoreCore<Self> {
    let (backing, state) = try openBacking(
      State.self, url: url, lockTimeout: lockTimeout, clock: clock, versions: versions,
      coordination: coordination, keepsWriteCache: keepsWriteCache,
      sync: StateFileCoding.syncType(of: State.self))
    return StoreCore(state: state, backing: backing, environment: environment)
  }

  private static func openBacking<Sync: StateSync<State>>(
    _ state: State.Type, url: URL, lockTimeout: Duration, clock: HybridClock,
    versions: ConflictVersions?, coordination: (URL, Duration) -> any FileCoordination,
    keepsWriteCache: Bool, sync: Sync.Type
  ) throws(StoreFileError) -> (any StoreBacking<State>, State) {
    try JSONFileBacking<State, Sync>.open(
      url, lockTimeout: lockTimeout, clock: clock, versions: versions,
      coordination: coordination, keepsWriteCache: keepsWriteCache)
  }
}
