import Foundation

// Step 1 of a transaction, and what a reload reads: the file's state as stored, caught up with.
extension JSONFileBacking {
  /// The state a transaction found stored, before its action.
  struct Stored {
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

  /// Step 1: the state stored in `file` at `target` (open under the lock; `nil`: missing):
  /// the state in memory, `current`, while the file still holds it; else the file's, read.
  ///
  /// A sync engine checks the file, then renames another device's version over it: a write
  /// that landed in between — this store's last one — is gone, though the engine thinks the
  /// file held nothing new. So the version this store knew is merged back into a stamped file
  /// it finds changed: a join, which changes nothing when the file descends from it. Only
  /// between stamped versions: a file written without stamps (by hand, or by version 1) is
  /// taken as it is.
  func catchUp(
    with file: OpenFile?, in folder: DataFolder, at target: String, from current: State
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
  /// as this device's newest change (`isCovered`); otherwise its parts without a stamp are,
  /// and, when `known` is given, those holding another value than `known` under the very
  /// stamp it holds them with — edited by hand though their digests match (see
  /// ``StateSync/noteEdits(of:underStampsOf:)``) — (`stampedEdits` says whether anything was
  /// stamped).
  /// So a hand edit or a script's is never undone by what this store remembered, nor by an
  /// older value elsewhere.
  func adopt(
    _ state: State, _ stamps: Sync, knowing known: State?
  ) -> (stamps: Sync, isCovered: Bool, stampedEdits: Bool) {
    if let latest = stamps.latest { clock.observe(latest) }
    if let known, version != nil, Self.isStamped(self.stamps),
      Sync.isCovered((state, stamps), by: (known, self.stamps))
    {
      guard state != known else { return (self.stamps, true, false) }
      return (self.stamps.stamped(before: known, after: state, stamp: clock.stamp()), true, true)
    }
    var stamps = stamps
    if let known, version != nil, Self.isStamped(self.stamps) {
      stamps.noteEdits(of: state, underStampsOf: (known, self.stamps))
    }
    guard stamps.hasUnstamped else { return (stamps, false, false) }
    stamps.stampUnstamped(clock.stamp())
    // This device's change, written with the next write: its writer is noted now, so that a
    // version from before it (the same writers) is never taken for a hand edit of this one —
    // not even when a reload or an open read it and wrote nothing.
    stamps.noteWrite(by: clock.device, at: clock.now)
    return (stamps, false, true)
  }

  /// The state stored at `target` (the empty state when there is no file), its stamps left as
  /// the text they are (`nil`: no file), and its version: what opening a store reads.
  func readState(_ target: String) throws(StoreFileError) -> (
    state: State, stamps: StampsText<State, Sync>?, version: FileVersion?
  ) {
    guard let (data, identity) = try FileSystem.read(target, path: path) else {
      return (State(), nil, nil)
    }
    let (state, stamps) = try decodeState(data, path)
    let exact = folder?.changeTimesAreExact ?? false
    return (
      state, stamps, FileVersion(identity: identity, content: data, changeTimesAreExact: exact)
    )
  }

  /// Decodes the stamps of the file as the store opened it (``unreadStamps``), the first time
  /// something needs them — an action, a reload of the file changed since — and makes them
  /// ready as a read would have (see ``adopt(_:_:knowing:)``): the clock moves past them, and
  /// edits made without stamps are stamped now, as this device's change, to be written with
  /// the next write. Nothing to do once they are decoded. O(*n*) in the size of the state,
  /// once.
  ///
  /// - Throws: ``StoreFileError`` when they are not valid and `stillHeld()` says the file
  ///   still holds them (an action then fails, writing nothing). When it no longer does,
  ///   they are dropped, unstamped: a store whose stamps were never decoded has written
  ///   nothing, so nothing of its own is to be merged back into the file.
  func readStamps(stillHeld: () throws(StoreFileError) -> Bool) throws(StoreFileError) {
    guard let unread = unreadStamps else { return }
    do throws(StoreFileError) {
      let read = try decodeStamps(unread, path)
      unreadStamps = nil
      stamps = adopt(unread.state, read, knowing: nil).stamps
    } catch {
      guard try !stillHeld() else { throw error }
      unreadStamps = nil
    }
  }

  /// The state stored at `target` (the empty state when there is no file), its stamps made
  /// ready to use knowing the state in memory, `known` (see ``adopt(_:_:knowing:)``), its
  /// version, and whether edits made without stamps were stamped (in memory only).
  func read(_ target: String, knowing known: State?) throws(StoreFileError) -> (
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
