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
    /// Whether `stamps` are the backing's ``JSONFileBacking/stamps``, as the store knew them:
    /// the file held them, and no copy beside it was merged in since.
    var hasKnownStamps = false
    /// Whether the state differs from the file's and must be written even if the action
    /// changes nothing: what this store knew, lost from the file, was merged back in, or
    /// edits made without stamps were stamped.
    var mustWrite: Bool
    /// Whether edits made without stamps were stamped, as this device's change.
    var stampedEdits = false
    /// The device's outbox weighed against the file, when it was new to this store: its
    /// identity, and the file's bytes when they differ from it — what the outbox holds from
    /// now on when nothing is written (see ``JSONFileBacking/outboxSeen``).
    var weighedOutbox: (identity: FileIdentity, file: Data?)?
    /// How many of the removals the file may have forgotten the merge-back brought back (see
    /// ``StateSync/forgottenRemovals(_:_:)``).
    var forgottenRemovals = 0
  }

  /// Step 1: the state stored in `file` at `target` (open under the lock; `nil`: missing):
  /// the state in memory, `current`, while the file still holds it and the device's outbox
  /// (see ``Outbox``) holds nothing new to this store; else the file's, read.
  ///
  /// A sync engine checks the file, then renames another device's version over it: a write
  /// that landed in between — this store's last one, or another process's of this device —
  /// is gone, though the engine thinks the file held nothing new. So the version this store
  /// knew, and the outbox when it is new to this store, are merged back into a stamped file
  /// that does not descend from them — a join, which changes nothing when it does, and is
  /// written even when only stamps changed (a removal's tombstone) — unless the file's
  /// writers include theirs (see ``WriterClocks/includes(_:)``): made from them or from a
  /// later version, the file lacks of them only what was removed since, by hand too. Only
  /// between stamped versions: a file written without stamps (by hand, or by version 1) is
  /// taken as it is; so is a missing file (removed, by a person or an engine: the outbox
  /// goes with it).
  func catchUp(
    with file: OpenFile?, in folder: DataFolder, at target: String, from current: State
  ) throws(StoreFileError) -> Stored {
    let isOutboxNew = isOutboxNew
    if !isOutboxNew,
      try isCurrent(
        file?.identity,
        hashing: { () throws(StoreFileError) in try file?.contentHash(path: path) })
    {
      // Not read yet when the outbox was new as the transaction began, and is gone since.
      try readStamps { true }
      return Stored(
        state: current, stamps: stamps, version: version, isReloaded: false, hasKnownStamps: true,
        mustWrite: false)
    }
    guard let file else {
      // Removed — by a person, or by the engine as another device removed it: so is what this
      // device last wrote to it.
      self.outbox?.remove()
      outboxSeen = nil
      return Stored(
        state: State(), stamps: Sync(unstamped: State()), version: nil, isReloaded: true,
        mustWrite: false)
    }
    let data = try file.contents(path: path)
    let (outbox, weighed) = isOutboxNew ? weighOutbox(against: data) : (nil, nil)
    let (read, readStamps) = try decode(data, path)
    var stored = Stored(
      state: read, stamps: readStamps,
      version: FileVersion(
        identity: file.identity, content: data,
        changeTimesAreExact: folder.changeTimesAreExact ?? false),
      isReloaded: true, mustWrite: false)
    // What this store knew of the file — once it decoded its stamps: before, it wrote nothing.
    let own =
      versionTarget == target && version != nil && unreadStamps == nil ? (current, stamps) : nil
    // The outbox, when new, is the latest version this device wrote: the one a hand edit
    // changed, if any.
    let (adopted, isCovered, stampedEdits) = adopt(
      read, readStamps, knowing: outbox ?? own)
    stored.stamps = adopted
    // Edits stamped now are written now, this device noted as their writer: so a version
    // from before them (the same writers) is never taken for another hand edit.
    (stored.stampedEdits, stored.mustWrite) = (stampedEdits, stampedEdits)
    if !isCovered, Self.isStamped(readStamps) {
      // A version the file's writers include is one the file was made from, or from a later
      // one: what it lacks of it was removed since — by hand, with no tombstone — not lost.
      for known in [outbox, own].compactMap({ $0 })
      where lacks(known, read: (stored.state, stored.stamps), writers: readStamps.writers) {
        stored.forgottenRemovals += Sync.forgottenRemovals((read, stored.stamps), known)
        (stored.state, stored.stamps) = Sync.merge((stored.state, stored.stamps), known)
        // Written even when the state is the file's: the merge brought a stamp the file lacks
        // — a removal's tombstone, which a version still holding the item must meet.
        stored.mustWrite = true
      }
    }
    // Seen once the transaction ends on a file that holds it: not before, as the file may yet
    // be replaced before it is written, and the outbox must then be weighed again.
    stored.weighedOutbox = weighed
    return stored
  }

  /// Whether `read`, a stamped version of the file with its stamps adopted (see
  /// ``adopt(_:_:knowing:)``), lacks something of `known`, a stamped version this device
  /// knew, that was lost rather than removed: the `writers` the file names (before this
  /// device noted its own edits there) do not include `known`'s — a version made from
  /// `known` or from a later one lacks only what was removed since — and `read` does not
  /// descend from it. O(*n*) in the size of the states.
  func lacks(
    _ known: (state: State, stamps: Sync), read: (state: State, stamps: Sync),
    writers: WriterClocks
  ) -> Bool {
    Self.isStamped(known.stamps) && !writers.includes(known.stamps.writers)
      && !Sync.descends(read, from: known)
  }

  /// The device's outbox, new to this store (see ``isOutboxNew``), weighed against the file,
  /// read as `file`: its state to merge — `nil` when it holds the same bytes (the device's
  /// latest write is the file, as when another process of the device wrote last: nothing is
  /// decoded) or is not a valid file of this state, or fails its checksum (a crash cut it
  /// short: passed over, seen now, and replaced by the next write) — and what to note of it
  /// once the transaction ends (see ``Stored/weighedOutbox``). O(size of the file) to
  /// compare, in parts; to read and decode when they differ.
  private func weighOutbox(against file: Data) -> (
    known: (state: State, stamps: Sync)?, weighed: (identity: FileIdentity, file: Data?)?
  ) {
    guard let outbox else { return (nil, nil) }
    if let identity = outbox.identity(holding: file) { return (nil, (identity, nil)) }
    let data: Data
    let identity: FileIdentity
    switch outbox.contents() {
    case .whole(let whole, let wholeIdentity): (data, identity) = (whole, wholeIdentity)
    case .torn(let tornIdentity):
      // Cut short by a crash: passed over, and seen now — no later read makes it whole.
      outboxSeen = tornIdentity
      return (nil, nil)
    case nil: return (nil, nil)  // none, or not readable now: new still, weighed again later
    }
    guard let (state, stamps) = try? decode(data, outbox.name) else {
      outboxSeen = identity
      return (nil, nil)
    }
    if let latest = stamps.latest { observe(latest) }
    return ((state, stamps), (identity, file))
  }

  /// Moves the clock past `stamp`, the latest of stamps read (the file's, the outbox's, a
  /// copy's), and notes in ``largestClockSkew`` how far ahead of the wall clock it is.
  func observe(_ stamp: Stamp) {
    clock.observe(stamp)
    largestClockSkew = max(largestClockSkew, stamp.milliseconds - clock.now)
  }

  /// The stamps of `state`, just read with `stamps` from the file, ready to use: the clock
  /// moves past them; when `known`, a stamped version of the file this device knew (the state
  /// in memory with its stamps, or the outbox), covers the file (see
  /// ``StateSync/isCovered(_:by:)``), the file was changed by a program that does not stamp,
  /// and its differences from `known` are stamped as this device's newest change
  /// (`isCovered`); otherwise its parts without a stamp are, and, when `known` is given, those
  /// holding another value than `known` under the very stamp it holds them with — edited by
  /// hand though their digests match (see ``StateSync/noteEdits(of:underStampsOf:)``) —
  /// (`stampedEdits` says whether anything was stamped).
  /// So a hand edit or a script's is never undone by what this device remembered, nor by an
  /// older value elsewhere.
  func adopt(
    _ state: State, _ stamps: Sync, knowing known: (state: State, stamps: Sync)?
  ) -> (stamps: Sync, isCovered: Bool, stampedEdits: Bool) {
    if let latest = stamps.latest { observe(latest) }
    let known = known.flatMap { Self.isStamped($0.stamps) ? $0 : nil }
    if let known, Sync.isCovered((state, stamps), by: known) {
      guard state != known.state else { return (known.stamps, true, false) }
      return (
        known.stamps.stampedEdit(before: known.state, after: state, stamp: clock.stamp()), true,
        true
      )
    }
    var stamps = stamps
    if let known { stamps.noteEdits(of: state, underStampsOf: known) }
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
    state: State, stamps: StampsText<State, Sync>?, version: FileVersion?, data: Data?
  ) {
    guard let (data, identity) = try FileSystem.read(target, path: path) else {
      return (State(), nil, nil, nil)
    }
    let (state, stamps) = try decodeState(data, path)
    let exact = folder?.changeTimesAreExact ?? false
    return (
      state, stamps, FileVersion(identity: identity, content: data, changeTimesAreExact: exact),
      data
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
}
