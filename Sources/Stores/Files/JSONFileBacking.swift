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
///    from the text of the last write, see ``EncodedList``), `fsync`, rename it over the data
///    file, `fsync` the folder;
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
@MainActor
final class JSONFileBacking<State: PersistentState, Sync: StateSync<State>>: StoreBacking,
  MergeReporting
{
  /// The data file's path as given (the link, when it is one).
  let path: String
  /// How long a transaction waits for another process's lock.
  let lockTimeout: Duration
  /// The file as last read or written; `nil` when it was missing.
  private var version: FileVersion?
  /// The path of the file `version` is of: a link pointed elsewhere since makes another file,
  /// whose state is not this one's next version.
  private var versionTarget: String?
  /// The stamps of the file as last read or written.
  private var stamps: Sync
  /// Stamps this device's changes.
  private let clock: HybridClock
  /// The versions of the file kept outside its folder (iCloud Drive's), merged as copies are.
  private let conflictVersions: ConflictVersions
  /// How the file is reached alongside other processes: directly, or coordinated (iCloud
  /// Drive), chosen when the store opened.
  private let coordination: any FileCoordination
  /// What ``watch(onChange:)`` calls when the file's presenter hears of a change.
  private var onPresentedChange: (@MainActor () -> Void)?
  /// The folder of the file's target, held open from the store's opening (or, when it did
  /// not exist then, from the first write that made it).
  private var folder: DataFolder?
  private var watcher: FileWatcher?
  /// Whether this backing has removed the temporary files of crashed writers.
  private var removedStaleTemporaries = false
  /// The file's decoding and encoding, made where the backing is opened and `State` is
  /// known, so that they run specialised for it (the backing itself is called through
  /// `any StoreBacking`, where generic code would run unspecialised, many times slower).
  private let decode: (Data, String) throws(StoreFileError) -> (State, Sync)
  private let encode: (State, Sync, FileOutput, Sync.WriteCache) throws(StoreFileError) -> Void
  /// What the last write keeps for the next (see ``StateSync/WriteCache``).
  private let writeCache = Sync.makeWriteCache()
  /// The conflict copies beside the file that could not be merged, by name: the identity each
  /// had when it was refused, and why. While a copy keeps that identity it is not read again,
  /// only reported again (see ``mergeCopies(of:in:into:_:base:)``).
  private var refusedCopies: [String: RefusedCopy] = [:]

  private init(
    path: String, lockTimeout: Duration, clock: HybridClock, versions: ConflictVersions,
    coordination: any FileCoordination,
    decode: @escaping (Data, String) throws(StoreFileError) -> (State, Sync),
    encode: @escaping (State, Sync, FileOutput, Sync.WriteCache) throws(StoreFileError) -> Void
  ) {
    self.path = path
    self.lockTimeout = lockTimeout
    self.clock = clock
    conflictVersions = versions
    self.coordination = coordination
    self.decode = decode
    self.encode = encode
    stamps = Sync(unstamped: State())
  }

  /// Opens the file at `url` and reads its state (the empty state when there is no file).
  /// How the file is reached is chosen now, once, by `coordination` (given the file's
  /// target and the lock timeout); the versions kept outside the folder are `versions`, or
  /// when `nil` those the chosen coordination knows.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is not a valid file of
  ///   this state, or is in iCloud Drive and not downloaded yet
  ///   (``StoreFileError/Problem/notDownloaded``: its download was started); the file is left
  ///   untouched.
  static func open(
    _ url: URL, lockTimeout: Duration, clock: HybridClock, versions: ConflictVersions?,
    coordination choose: (URL, Duration) -> any FileCoordination
  ) throws(StoreFileError) -> (JSONFileBacking, State) {
    let path = url.standardizedFileURL.path
    let target = try FileSystem.resolvingLinks(path)
    let coordination = choose(URL(fileURLWithPath: target), lockTimeout)
    let backing = JSONFileBacking(
      path: path, lockTimeout: lockTimeout, clock: clock,
      versions: versions ?? ConflictVersions(coordination), coordination: coordination,
      decode: { data, path throws(StoreFileError) in
        try StateFileCoding.decode(data, path: path, sync: Sync.self)
      },
      encode: { state, stamps, output, cache throws(StoreFileError) in
        try StateFileCoding.write(state, sync: stamps, path: path, to: output, cache: cache)
      })
    // The folder is pinned now, not at the first write: swapped for a link later, it is
    // noticed rather than followed.
    backing.folder = try? DataFolder(opening: Self.folderPath(of: target), for: path)
    try backing.requireLocalContents()
    // Opening writes nothing: edits made without stamps are stamped in memory, and written
    // with the store's first change or reload.
    let (state, stamps, version, _) = try backing.coordinatedRead {
      () throws(StoreFileError) in try backing.read(target, knowing: nil)
    }
    (backing.version, backing.stamps, backing.versionTarget) = (version, stamps, target)
    return (backing, state)
  }

  func transaction(
    from current: State, _ update: (inout State) throws -> Bool
  ) throws -> BackingTransaction<State>? {
    try transaction(from: current, mergingCopies: false, update)
  }

  /// Runs `update` as a transaction (see ``StoreBacking/transaction(from:_:)``); with
  /// `mergingCopies`, takes the lock and merges the conflict copies beside the file even when
  /// `update` changes nothing.
  ///
  /// Under the lock, in this order: the stored state is found (``storedState(in:file:at:from:)``),
  /// what the sync engine left beside it is merged in (``mergeLeftovers(of:in:target:into:)``),
  /// then `update` runs once on the result — by identity, so on whatever the file and the
  /// copies hold — and what changed is stamped and written (``commit(_:in:file:)``).
  private func transaction(
    from current: State, mergingCopies: Bool, _ update: (inout State) throws -> Bool
  ) throws -> BackingTransaction<State>? {
    mergeReport = MergeReport()
    let target = try FileSystem.resolvingLinks(path)
    try requireLocalContents()
    // When the file still holds the state in memory, the action runs before the lock: one
    // that changes nothing needs no lock and no write, and so creates no file. Its result is
    // used only if nothing else turns up under the lock.
    var early: State?
    if !mergingCopies,
      try coordinatedRead({ () throws(StoreFileError) in
        try isCurrent(
          FileSystem.identity(of: target),
          reading: { () throws(StoreFileError) in try FileSystem.read(target, path: path)?.0 })
      })
    {
      var state = current
      guard try update(&state) else { return nil }
      early = state
    }
    let folder = try dataFolder(for: target)
    let name = (target as NSString).lastPathComponent
    return try FileLock.withLock(of: name, in: folder, timeout: lockTimeout, path: path) {
      deadline in
      // Under the lock, and inside the file's coordinated write (for a file in iCloud Drive).
      try coordinatedReplace { () throws -> BackingTransaction<State>? in
        if !removedStaleTemporaries {
          FileSystem.removeStaleTemporaries(of: name, in: folder)
          removedStaleTemporaries = true
        }
        while true {
          let file = try FileSystem.openLocked(
            name, in: folder, until: deadline, timeout: lockTimeout, path: path)
          // 1. The stored state: the file as it is now.
          var stored = try storedState(in: folder, file: file, at: target, from: current)
          // 2. What the sync engine left beside the file, merged in.
          let leftovers = mergeLeftovers(of: name, in: folder, target: target, into: &stored)
          // 3. The action, once, on the merged state.
          var state: State
          let didChange: Bool
          if let early, !stored.isReloaded, leftovers.isEmpty {
            (state, didChange) = (early, true)
          } else {
            stored.state.keepMemoryOnlyState(from: current)
            state = stored.state
            didChange = try update(&state)
          }
          // 4. What changed, stamped and written.
          if didChange || stored.mustWrite || !leftovers.isEmpty {
            if didChange {
              stored.stamps = stored.stamps.stamped(
                before: stored.state, after: state, stamp: clock.stamp())
            }
            if didChange || stored.stampedEdits {
              stored.stamps.noteWrite(by: clock.device, at: clock.now)
            }
            do {
              stored.version = try FileSystem.replace(
                name, in: folder, creating: file == nil, replacing: file?.identity, path: path
              ) { output throws(StoreFileError) in
                try encode(state, stored.stamps, output, writeCache)
              }
            } catch is FileSystem.Raced {
              // Another writer created the file, or a sync engine replaced it, meanwhile: start
              // again from what it wrote.
              continue
            }
            leftovers.removeMerged(in: folder, target: target, versions: conflictVersions)
          }
          (version, versionTarget) = (stored.version, target)
          stamps = stored.stamps
          mergeReport = leftovers.report
          let reloaded = stored.state != current
          guard didChange || reloaded else { return nil }
          return BackingTransaction(state: state, reloaded: reloaded, changed: didChange)
        }
      }
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

  /// The state a transaction found stored, before its action.
  private struct Stored {
    var state: State
    var stamps: Sync
    var version: FileVersion?
    /// Whether the file no longer held the state in memory, and was read.
    var isReloaded: Bool
    /// Whether the state differs from the file's and must be written even if the action
    /// changes nothing: what this store knew, lost from the file, was merged back in, or
    /// edits made without stamps were stamped.
    var mustWrite: Bool
    /// Whether edits made without stamps were stamped, as this device's change.
    var stampedEdits = false
    /// How many of the removals the file may have forgotten the merge-back brought back (see
    /// ``StateSync/forgottenRemovals(_:_:)``).
    var forgottenRemovals = 0
  }

  /// The state stored in `file` at `target` (open under the lock; `nil`: missing): the state
  /// in memory, `current`, while the file still holds it; else the file's, read.
  ///
  /// A sync engine checks the file, then renames another device's version over it: a write
  /// that landed in between — this store's last one — is gone, though the engine thinks the
  /// file held nothing new. So the version this store knew is merged back into a stamped file
  /// it finds changed: a join, which changes nothing when the file descends from it. Only
  /// between stamped versions: a file written without stamps (by hand, or by version 1) is
  /// taken as it is.
  private func storedState(
    in folder: DataFolder, file: OpenFile?, at target: String, from current: State
  ) throws(StoreFileError) -> Stored {
    if try isCurrent(
      file?.identity,
      reading: { () throws(StoreFileError) in try file?.contents(path: path) })
    {
      return Stored(
        state: current, stamps: stamps, version: version, isReloaded: false, mustWrite: false)
    }
    guard let file else {
      return Stored(
        state: State(), stamps: Sync(unstamped: State()), version: nil, isReloaded: true,
        mustWrite: false)
    }
    let data = try file.contents(path: path)
    let (read, readStamps) = try decode(data, path)
    var stored = Stored(
      state: read, stamps: readStamps,
      version: FileVersion(
        identity: file.identity, content: data,
        changeTimesAreExact: folder.changeTimesAreExact ?? false),
      isReloaded: true, mustWrite: false)
    let isKnown = versionTarget == target
    let (adopted, isCovered, stampedEdits) = adopt(
      read, readStamps, knowing: isKnown ? current : nil)
    stored.stamps = adopted
    // Edits stamped now are written now, this device noted as their writer: so a version
    // from before them (the same writers) is never taken for another hand edit.
    (stored.stampedEdits, stored.mustWrite) = (stampedEdits, stampedEdits)
    if !isCovered, isKnown, version != nil, Self.isStamped(stamps), Self.isStamped(readStamps),
      !Sync.descends((read, stored.stamps), from: (current, stamps))
    {
      stored.forgottenRemovals = Sync.forgottenRemovals(
        (read, stored.stamps), (current, stamps))
      (stored.state, stored.stamps) = Sync.merge((read, stored.stamps), (current, stamps))
      stored.mustWrite = stored.mustWrite || stored.state != read
    }
    return stored
  }

  /// The stamps of `state`, just read with `stamps` from the file, ready to use: the clock
  /// moves past them; when this store knew a stamped version of the file, `known` (its
  /// state in memory), that the file covers (see ``StateSync/isCovered(_:by:)``), the file was
  /// changed by a program that does not stamp, and its differences from `known` are stamped
  /// as this device's newest change (`isCovered`); otherwise its parts without a stamp are
  /// (`stampedEdits` says whether anything was stamped).
  /// So a hand edit or a script's is never undone by what this store remembered, nor by an
  /// older value elsewhere.
  private func adopt(
    _ state: State, _ stamps: Sync, knowing known: State?
  ) -> (stamps: Sync, isCovered: Bool, stampedEdits: Bool) {
    if let latest = stamps.latest { clock.observe(latest) }
    if let known, version != nil, Self.isStamped(self.stamps),
      Sync.isCovered((state, stamps), by: (known, self.stamps))
    {
      guard state != known else { return (self.stamps, true, false) }
      return (self.stamps.stamped(before: known, after: state, stamp: clock.stamp()), true, true)
    }
    guard stamps.hasUnstamped else { return (stamps, false, false) }
    var stamps = stamps
    stamps.stampUnstamped(clock.stamp())
    // This device's change, written with the next write: its writer is noted now, so that a
    // version from before it (the same writers) is never taken for a hand edit of this one —
    // not even when a reload or an open read it and wrote nothing.
    stamps.noteWrite(by: clock.device, at: clock.now)
    return (stamps, false, true)
  }

  /// Merges into `stored` the conflict copies of `name` beside it in `folder` and the
  /// versions the platform keeps of the file at `target`.
  private func mergeLeftovers(
    of name: String, in folder: DataFolder, target: String, into stored: inout Stored
  ) -> Leftovers {
    // Each copy and version is weighed against the file as stored, whatever was merged before
    // it (see ``StateSync/forgottenRemovals(_:_:)``).
    let base = (stored.state, stored.stamps)
    let copies = mergeCopies(of: name, in: folder, into: &stored.state, &stored.stamps, base: base)
    let versions = mergeVersions(of: target, into: &stored.state, &stored.stamps, base: base)
    let mergedBack = stored.forgottenRemovals > 0 ? [(name, stored.forgottenRemovals)] : []
    return Leftovers(
      copies: copies.merged, versions: versions.merged, copiesNotMerged: copies.notMerged,
      versionsNotMerged: versions.notMerged,
      forgottenRemovals: mergedBack + copies.forgottenRemovals + versions.forgottenRemovals)
  }

  /// What a transaction merged of what the sync engine left beside the file.
  private struct Leftovers {
    /// The names of the conflict copies merged.
    var copies: [String]
    /// The platform's versions merged.
    var versions: [ConflictVersion]
    /// The errors of the copies and versions that are not valid files of the store, left
    /// where they are.
    var copiesNotMerged: [StoreFileError]
    var versionsNotMerged: [StoreFileError]
    /// See ``MergeReport/forgottenRemovals``.
    var forgottenRemovals: [(name: String, count: Int)]

    var isEmpty: Bool { copies.isEmpty && versions.isEmpty }

    var report: MergeReport {
      MergeReport(
        merged: copies + versions.map(\.name), notMerged: copiesNotMerged + versionsNotMerged,
        forgottenRemovals: forgottenRemovals)
    }

    /// Removes what was merged, once the merge is durable.
    func removeMerged(in folder: DataFolder, target: String, versions platform: ConflictVersions) {
      for copy in copies { unlinkat(folder.descriptor, copy, 0) }
      for version in versions { version.markMerged() }
      if !versions.isEmpty, versionsNotMerged.isEmpty {
        platform.removeMerged(URL(fileURLWithPath: target))
      }
    }
  }

  /// Whether `stamps` record changes: not a file without stamps, all ``Stamp/origin``.
  private static func isStamped(_ stamps: Sync) -> Bool {
    Sync.self != NoSync<State>.self && (stamps.latest.map { $0 > .origin } ?? false)
  }

  /// What the latest transaction or reload did with conflict copies.
  private(set) var mergeReport = MergeReport()

  /// Reads each conflict copy of `name` in `folder` and merges it into `state` and `stamps`;
  /// returns the copies merged, the errors of those that are not valid files of this state
  /// (left where they are), and the copies that brought back what `base` may have forgotten
  /// (see ``merge(_:into:_:base:)``).
  ///
  /// A copy that cannot be merged is read once per change of it: it is remembered with its
  /// identity (device, inode, size, modification and change times), and while it keeps it, it
  /// is reported again without being read — unless a change could keep that identity (where
  /// the folder's change times are coarse and the copy's is recent, see ``FileVersion``): such a
  /// copy is read again until its change time is safely old. A copy larger than
  /// ``copySizeLimit(of:in:)`` is
  /// refused without being read. O(entries of the folder), plus one `lstat` per copy and one
  /// read of each copy that is new or changed.
  private func mergeCopies(
    of name: String, in folder: DataFolder, into state: inout State, _ stamps: inout Sync,
    base: (State, Sync)
  ) -> (
    merged: [String], notMerged: [StoreFileError],
    forgottenRemovals: [(name: String, count: Int)]
  ) {
    guard Sync.self != NoSync<State>.self else { return ([], [], []) }
    var merged: [String] = []
    var notMerged: [StoreFileError] = []
    var forgotten: [(name: String, count: Int)] = []
    var refused: [String: RefusedCopy] = [:]
    let copies = ConflictCopies.copies(of: name, inFolder: folder.path)
    let limit = copies.isEmpty ? 0 : Self.copySizeLimit(of: name, in: folder.path)
    for copy in copies {
      let copyPath = (folder.path as NSString).appendingPathComponent(copy)
      let identity = Self.entryIdentity(copyPath)
      if let known = refusedCopies[copy], let identity, known.identity == identity {
        notMerged.append(known.error)
        refused[copy] = known
        continue
      }
      do throws(StoreFileError) {
        guard let file = try OpenFile(copy, in: folder.descriptor, path: copyPath) else {
          continue
        }
        let other = try decodeCopy(try file.contents(path: copyPath, limit: limit), copyPath)
        if let count = merge(other, into: &state, &stamps, base: base) {
          forgotten.append((copy, count))
        }
        merged.append(copy)
      } catch {
        notMerged.append(error)
        if let identity, folder.changeTimesAreExact == true || Self.isSafelyOld(identity) {
          refused[copy] = RefusedCopy(identity: identity, error: error)
        }
      }
    }
    refusedCopies = refused
    return (merged, notMerged, forgotten)
  }

  /// Merges `other`, a copy or version of the file just read, into `state` and `stamps`;
  /// returns how many of the removals it or `base` (the file as stored) may have forgotten it
  /// brought back (see ``StateSync/forgottenRemovals(_:_:)``), if any.
  private func merge(
    _ other: (State, Sync), into state: inout State, _ stamps: inout Sync, base: (State, Sync)
  ) -> Int? {
    let other = (other.0, adopt(other.0, other.1, knowing: nil).stamps)
    let forgotten = Sync.forgottenRemovals(base, other)
    (state, stamps) = Sync.merge((state, stamps), other)
    return forgotten > 0 ? forgotten : nil
  }

  /// A conflict copy that could not be merged, as it was then.
  private struct RefusedCopy {
    /// The copy's identity when it was refused.
    var identity: FileIdentity
    /// Why it was refused.
    var error: StoreFileError
  }

  /// The most bytes read from a conflict copy of the file `name` in the folder at `folder`:
  /// four times the file's size, and at least 64 MiB. A copy is another device's version of
  /// the file, which differs from it by what that device changed meanwhile; one far larger is
  /// not read into memory (a 2 GB file named as a copy cost every action 4 GB and 20 s).
  private static func copySizeLimit(of name: String, in folder: String) -> Int64 {
    let size = entryIdentity((folder as NSString).appendingPathComponent(name))?.size ?? 0
    return max(64 << 20, size.multipliedReportingOverflow(by: 4).partialValue)
  }

  /// Whether the change time of the file of `identity` is old enough that any change to the
  /// file, however coarse the file system's clock, would change it (see ``FileVersion``).
  private static func isSafelyOld(_ identity: FileIdentity) -> Bool {
    let changed = Double(identity.changed.tv_sec) + Double(identity.changed.tv_nsec) / 1e9
    return Date().timeIntervalSince1970 - changed >= FileVersion.safeAge
  }

  /// The identity of the entry at `path` (a link itself, not followed), or `nil` when there
  /// is none.
  private static func entryIdentity(_ path: String) -> FileIdentity? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return FileIdentity(info)
  }

  /// Whether a copy among `copies` of the folder at `folder` is new or changed since it was
  /// refused: one to read and merge. Reports the others, still refused, in ``mergeReport``.
  /// One `lstat` per copy.
  private func hasCopiesToRead(_ copies: [String], inFolder folder: String) -> Bool {
    var notMerged: [StoreFileError] = []
    for copy in copies {
      guard let known = refusedCopies[copy],
        Self.entryIdentity((folder as NSString).appendingPathComponent(copy)) == known.identity
      else { return true }
      notMerged.append(known.error)
    }
    mergeReport.notMerged = notMerged
    return false
  }

  /// The state and stamps of a copy or version of the file, `data` read from `path`; one
  /// stamped after ``Stamp/latestFollowedMilliseconds`` (a clock far past the year 9998) is
  /// refused, so that no stamp merged is one this device's clock cannot pass.
  private func decodeCopy(_ data: Data, _ path: String) throws(StoreFileError) -> (State, Sync) {
    let copy = try decode(data, path)
    if let latest = copy.1.latest, latest.milliseconds > Stamp.latestFollowedMilliseconds {
      throw StoreFileError(
        path: path,
        problem: .invalidContent(
          keyPath: "sync",
          detail:
            "a change stamped \(latest), later than the year 9998: made by a clock far ahead, "
            + "it would win over every later change; set that device's clock right"))
    }
    return copy
  }

  /// Reads each conflict version the platform keeps of the file at `target` (see
  /// ``ConflictVersion``) and merges it into `state` and `stamps`; returns those merged, the
  /// errors of the others, and those that brought back what `base` may have forgotten (see
  /// ``merge(_:into:_:base:)``). None on Linux.
  private func mergeVersions(
    of target: String, into state: inout State, _ stamps: inout Sync, base: (State, Sync)
  ) -> (
    merged: [ConflictVersion], notMerged: [StoreFileError],
    forgottenRemovals: [(name: String, count: Int)]
  ) {
    guard Sync.self != NoSync<State>.self else { return ([], [], []) }
    var merged: [ConflictVersion] = []
    var notMerged: [StoreFileError] = []
    var forgotten: [(name: String, count: Int)] = []
    for version in conflictVersions.unresolved(URL(fileURLWithPath: target)) {
      guard version.hasLocalContents else {
        // Not on this device yet: skipped, left unresolved, reported; merged once it is.
        notMerged.append(
          StoreFileError(path: path, problem: .versionNotDownloaded(version: version.name)))
        continue
      }
      do throws(StoreFileError) {
        guard let (data, _) = try FileSystem.read(version.url.path, path: version.url.path)
        else { continue }
        let other = try decodeCopy(data, version.url.path)
        if let count = merge(other, into: &state, &stamps, base: base) {
          forgotten.append((version.name, count))
        }
        merged.append(version)
      } catch {
        notMerged.append(error)
      }
    }
    return (merged, notMerged, forgotten)
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
    if Sync.self != NoSync<State>.self,
      hasCopiesToRead(ConflictCopies.copies(of: name, inFolder: folderPath), inFolder: folderPath)
        || !conflictVersions.unresolved(URL(fileURLWithPath: target)).isEmpty
    {
      // Copies to merge: under the lock, written back. (Copies refused before and unchanged
      // since are only reported: they need no lock.)
      return try transaction(from: current, mergingCopies: true) { _ in false }?.state
    }
    let change = try coordinatedRead { () throws(StoreFileError) -> StoredChange in
      let identity = try FileSystem.identity(of: target)
      guard
        try !isCurrent(
          identity,
          reading: { () throws(StoreFileError) in try FileSystem.read(target, path: path)?.0 })
      else { return .none }
      if version != nil, versionTarget == target, Self.isStamped(stamps) { return .changed }
      let (state, stamps, version, stampedEdits) = try read(
        target, knowing: versionTarget == target ? current : nil)
      // Edits made without stamps are stamped as this device's change and written at once,
      // as a transaction does: left unstamped in the file, they would be stamped by whichever
      // device read them next, as its change then.
      return stampedEdits ? .changed : .read(state, stamps, version)
    }
    switch change {
    case .none:
      return nil
    case .changed:
      // Changed since this store wrote or read a stamped version: another device's version
      // the engine renamed over it may have taken this store's last write away, which goes
      // back in as in a transaction (see ``storedState(in:file:at:from:)``), under the lock.
      return try transaction(from: current, mergingCopies: true) { _ in false }?.state
    case .read(var state, let newStamps, let newVersion):
      state.keepMemoryOnlyState(from: current)
      (version, stamps, versionTarget) = (newVersion, newStamps, target)
      return state
    }
  }

  /// What a reload found of the file.
  private enum StoredChange {
    /// The file holds the version last read or written.
    case none
    /// It changed since a stamped version, or holds edits made without stamps: to be merged
    /// under the lock, and written.
    case changed
    /// It changed, and was read.
    case read(State, Sync, FileVersion?)
  }

  /// Watches the file (``FileWatcher``) and, for a file in iCloud Drive, registers its
  /// presenter too: either calls `onChange` on the main actor.
  func watch(onChange: @escaping @MainActor () -> Void) throws {
    guard watcher == nil else { return }
    watcher = FileWatcher(path: path) { onChange() }
    onPresentedChange = onChange
    coordination.present { [weak self] in
      DispatchQueue.main.async { MainActor.assumeIsolated { self?.onPresentedChange?() } }
    }
  }

  func stopWatching() {
    watcher = nil
    onPresentedChange = nil
    coordination.stopPresenting()
  }

  /// Whether the file whose identity is now `identity` (`nil`: missing) still holds the
  /// version last read or written; `contents` reads it when that must be confirmed.
  private func isCurrent(
    _ identity: FileIdentity?, reading contents: () throws(StoreFileError) -> Data?
  ) throws(StoreFileError) -> Bool {
    guard let identity, var known = version else { return identity == nil && version == nil }
    let current = try known.isCurrent(identity, content: contents)
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

  /// The state stored at `target` (the empty state when there is no file), its stamps made
  /// ready to use knowing the state in memory, `known` (see ``adopt(_:_:knowing:)``), its
  /// version, and whether edits made without stamps were stamped (in memory only).
  private func read(_ target: String, knowing known: State?) throws(StoreFileError) -> (
    state: State, stamps: Sync, version: FileVersion?, stampedEdits: Bool
  ) {
    guard let (data, identity) = try FileSystem.read(target, path: path) else {
      return (State(), Sync(unstamped: State()), nil, false)
    }
    let exact = folder?.changeTimesAreExact ?? false
    let (state, read) = try decode(data, path)
    let adopted = adopt(state, read, knowing: known)
    return (
      state, adopted.stamps,
      FileVersion(identity: identity, content: data, changeTimesAreExact: exact),
      adopted.stampedEdits
    )
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
}

/// A backing that merges conflict copies.
@MainActor
package protocol MergeReporting: AnyObject {
  var mergeReport: MergeReport { get }
}

extension Store where State: PersistentState {
  /// A core for a store kept in the JSON file at `url`, with the file's state (the empty
  /// state when there is no file), whose effects use `environment`, and whose actions wait at
  /// most `lockTimeout` for another process's lock. Each store's `init(contentsOf:)` is built
  /// on it.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
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
  package static func fileCore(
    contentsOf url: URL, environment: StoreEnvironment = .live,
    lockTimeout: Duration = .defaultLockTimeout, clock: HybridClock,
    versions: ConflictVersions? = nil,
    coordination: (URL, Duration) -> any FileCoordination = Platform.fileCoordination(for:timeout:)
  ) throws(StoreFileError) -> StoreCore<Self> {
    let (backing, state) = try openBacking(
      State.self, url: url, lockTimeout: lockTimeout, clock: clock, versions: versions,
      coordination: coordination, sync: StateFileCoding.syncType(of: State.self))
    return StoreCore(state: state, backing: backing, environment: environment)
  }

  private static func openBacking<Sync: StateSync<State>>(
    _ state: State.Type, url: URL, lockTimeout: Duration, clock: HybridClock,
    versions: ConflictVersions?, coordination: (URL, Duration) -> any FileCoordination,
    sync: Sync.Type
  ) throws(StoreFileError) -> (any StoreBacking<State>, State) {
    try JSONFileBacking<State, Sync>.open(
      url, lockTimeout: lockTimeout, clock: clock, versions: versions,
      coordination: coordination)
  }
}
