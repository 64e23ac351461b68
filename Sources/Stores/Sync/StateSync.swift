import Foundation

/// What a store file holds besides its state so that versions of it made on several devices
/// merge: a stamp for every field and key, and a tombstone for every removal (the file's
/// `"sync"` member, from format version 2).
///
/// Implementations: ``ListSync`` for a list of items (todos, workouts), ``KeyValuesSync``
/// for settings, and ``NoSync`` for a state that is not merged.
package protocol StateSync<State>: JSONCodable, Equatable, Sendable {
  associatedtype State: PersistentState

  /// The stamps of a file that has none (version 1, or written without them): everything in
  /// it stamped ``Stamp/origin``, older than any change made since.
  init(unstamped state: State)

  /// Makes the section describe `state`, read beside it, where a program that does not stamp
  /// left them apart: the parts of `state` without a stamp (an item or key added by hand, an
  /// item put back by hand while its removal is recorded, a list whose stamps no longer
  /// match its items) are recorded as unstamped — and stamped by ``stampUnstamped(_:)``
  /// before the section is used, as the newest change. Never refuses: a hand edit is a value.
  mutating func reconcile(with state: State)

  /// Records as unstamped (see ``reconcile(with:)``) the parts of `state`, read beside this
  /// section, that hold another value than in `known` under the very stamp `known` holds for
  /// them (after ``Stamp/origin``): a stamp names one change, so a value that differs under it
  /// was edited by a program that does not stamp — even when the edit kept the value's
  /// digest, as one in 1,296 does (see ``ContentDigest``). Only what a store knew as the file's
  /// previous version can tell it. O(*n*) in the sizes of both.
  mutating func noteEdits(of state: State, underStampsOf known: (State, Self))

  /// Whether some part of the state has no stamp (see ``reconcile(with:)``).
  var hasUnstamped: Bool { get }

  /// Stamps the parts of the state without a stamp `stamp`.
  mutating func stampUnstamped(_ stamp: Stamp)

  /// Whether `version` holds no change that `known` does not: each of its stamps is at most
  /// the stamp `known` holds for the same part (stamps ``Stamp/origin`` and unstamped parts
  /// count as none), and its writers are `known`'s (see
  /// ``WriterClocks/isUnchanged(since:)``). A version that is covered so but differs from
  /// `known` was made from it by a program that does not stamp (an editor, `jq`, a script):
  /// its differences are the newest changes. Any other version — another device's, one that
  /// only merged, a backup put back — is merged with `known`, so that nothing a store
  /// wrote is lost to it.
  static func isCovered(_ version: (State, Self), by known: (State, Self)) -> Bool

  /// Whether `version` holds every change `known` does: each stamp of `known` is at most
  /// `version`'s for the same part (a removal's, or a later edit's). Merging `known` into it
  /// then changes nothing but ties, so a store need not merge back the version it knew into
  /// a file another writer made from it.
  static func descends(_ version: (State, Self), from known: (State, Self)) -> Bool

  /// Whether `version` holds every change of `known`, or a later change of the same part that
  /// overrode it: each stamp of `known` is at most `version`'s for the same part
  /// (``descends(_:from:)`` without what the changes saw and without the conflicts, which a
  /// resolution drops) — what StoreTesting's convergence checker requires of a merge.
  static func holdsChanges(of known: (State, Self), in version: (State, Self)) -> Bool

  /// How many parts of `a` a merge with `b` brings back that `b` removed and forgot, plus
  /// the same of `b` in `a`: parts live in one, neither there nor removed in the other, which
  /// the other must have held — the device of their latest change wrote the other after that
  /// change (its clock in the other's ``WriterClocks``) — and last changed more than
  /// ``Stamp/tombstoneLifetime`` before the other's ``WriterClocks/horizon``, as its dropped
  /// tombstones were; or, of a version without stamps (version 1), every part the other, which
  /// may have dropped tombstones, does not know. A version that old (a device offline for
  /// months) undoes removals nobody remembers: the store says so (see
  /// ``MergeReport/forgottenRemovals``); a part the other never saw (a new device's) is not
  /// counted. O(*n*) in their sizes.
  static func forgottenRemovals(_ a: (State, Self), _ b: (State, Self)) -> Int

  /// The stamps after this device changed `before` into `after`, each change stamped
  /// `stamp`: O(*n*) in the size of the state, plus O(*n* log *n*) for a list's order.
  func stamped(before: State, after: State, stamp: Stamp) -> Self

  /// What ``stamp(before:after:stamp:cache:)`` replaced, for ``restore(_:cache:)``: by default
  /// the stamps as they were.
  associatedtype Prior = Self

  /// Stamps, in place, what this device changed from `before` into `after` — as
  /// ``stamped(before:after:stamp:)`` returns it — and returns what ``restore(_:cache:)``
  /// needs to put these stamps back: a transaction's write that fails or races must leave
  /// the stamps its store knew as they were. A list changes its items' stamps where they
  /// are when the lists hold the same ids in the same places (a toggle, an edit), with no
  /// copy while nothing else holds them — `cache`, the write cache that last wrote them,
  /// lets go of them and is told what changed. O(*n*) as ``stamped(before:after:stamp:)``.
  mutating func stamp(before: State, after: State, stamp: Stamp, cache: WriteCache?) -> Prior

  /// Puts back the stamps as they were before the ``stamp(before:after:stamp:cache:)`` that
  /// returned `prior` (and the changes made since, such as ``noteWrite(by:at:)``'s), and
  /// has `cache` forget what that stamping told it, if nothing wrote it since.
  mutating func restore(_ prior: Prior, cache: WriteCache?)

  /// The stamps after a program that does not stamp (an editor, a script) changed `before`,
  /// this device's known version, into `after`, each change stamped `stamp`: as
  /// ``stamped(before:after:stamp:)``, but a counter's change is counted as the edit's, the
  /// same on every device that reads it, not as this device's. By default,
  /// ``stamped(before:after:stamp:)``.
  func stampedEdit(before: State, after: State, stamp: Stamp) -> Self

  /// Drops the tombstones of removals stamped before `milliseconds` (see
  /// ``Stamp/tombstoneLifetime``).
  mutating func prune(before milliseconds: Int64)

  /// The wall clock of each device at its latest write (see ``WriterClocks``).
  var writers: WriterClocks { get set }

  /// The latest stamp in the section, if any: the clock of a device that reads it moves past
  /// it.
  var latest: Stamp? { get }

  /// The merge of two stored versions: commutative, associative and idempotent, and the
  /// same bytes on every device. The later stamp wins field by field; a removal wins over
  /// the changes stamped before it. O(*n*) in their sizes, plus O(*n* log *n*) to order.
  static func merge(_ a: (State, Self), _ b: (State, Self)) -> (State, Self)

  /// What a backing keeps from one write of its file to the next, to write the next one
  /// faster: ``EncodedList`` for a list; nothing by default.
  associatedtype WriteCache: AnyObject = NoWriteCache

  /// An empty cache, for a backing's first write.
  static func makeWriteCache() -> WriteCache

  /// The conflicts open in `state`, which these stamps describe (see ``SyncConflict``): in
  /// the order of the state's items. None by default.
  func openConflicts(in state: State) -> [SyncConflict]

  /// The stamps after this device resolved `conflict` in `state` by `choice`, stamped
  /// `stamp`; `state` takes the conflict's value when it is chosen. `nil`, with `state`
  /// unchanged, when the conflict is not open in them. None is, by default.
  func resolving(
    _ conflict: SyncConflict, choosing choice: SyncConflict.Choice, in state: inout State,
    stamp: Stamp
  ) -> Self?

  /// The members this section adds to the file's object of `state`, in order by key: the
  /// `"sync"` section unless it is left out — and, for a list written with a `cache`, the
  /// list itself, written from the cache (see ``EnvelopeMember``).
  func envelope(writing state: State, cache: WriteCache?) -> [EnvelopeMember]
}

extension StateSync {
  package func envelope(writing state: State, cache: WriteCache?) -> [EnvelopeMember] {
    isLeftOut
      ? []
      : [EnvelopeMember(key: "sync") { writer throws(JSONCodingError) in try write(to: &writer) }]
  }
}

extension StateSync {
  package func stampedEdit(before: State, after: State, stamp: Stamp) -> Self {
    stamped(before: before, after: after, stamp: stamp)
  }

  package func openConflicts(in state: State) -> [SyncConflict] { [] }

  package func resolving(
    _ conflict: SyncConflict, choosing choice: SyncConflict.Choice, in state: inout State,
    stamp: Stamp
  ) -> Self? { nil }
}

extension StateSync where Prior == Self {
  package mutating func stamp(
    before: State, after: State, stamp: Stamp, cache: WriteCache?
  ) -> Self {
    let prior = self
    self = stamped(before: before, after: after, stamp: stamp)
    return prior
  }

  package mutating func restore(_ prior: Self, cache: WriteCache?) { self = prior }
}

extension StateSync where WriteCache == NoWriteCache {
  package static func makeWriteCache() -> NoWriteCache { NoWriteCache() }
}

/// The cache of a section whose writes keep nothing (see ``StateSync/WriteCache``).
package final class NoWriteCache {}

extension Stamp {
  /// How long a tombstone is kept: 90 days after every device that wrote the file has
  /// written it again (see ``WriterClocks``). A copy older than that can bring back what was
  /// removed since it was made.
  package static let tombstoneLifetime: Int64 = 90 * 24 * 3_600_000
}

extension WriterClocks {
  /// The wall clock before which a removal may have been forgotten: tombstones stamped
  /// before it may have been dropped (see ``StateSync/noteWrite(by:at:)``); `nil` when none
  /// can have been.
  var forgettingBefore: Int64? { horizon.map { $0 - Stamp.tombstoneLifetime } }

  /// Whether a part of a version last changed at `stamp` is one whose removal the file these
  /// are the writers of may have forgotten (see ``StateSync/forgottenRemovals(_:_:)``): a
  /// file without stamps is any of them; else, changed before the file may have dropped
  /// tombstones by a device that wrote the file after the change.
  func mayHaveForgotten(_ stamp: Stamp, before horizon: Int64) -> Bool {
    guard stamp > .origin else { return true }
    return stamp.milliseconds < horizon
      && (clocks[stamp.device].map { $0 >= stamp.milliseconds } ?? false)
  }
}

extension StateSync {
  /// Notes a write of a change stamped by `device`, whose wall clock reads `milliseconds`,
  /// then drops the tombstones stamped more than ``Stamp/tombstoneLifetime`` before the
  /// earliest writer's clock (see ``WriterClocks/horizon``). Only writes of changes: a write
  /// that only merges must be the same bytes on every device, or the devices would never
  /// settle.
  package mutating func noteWrite(by device: DeviceID, at milliseconds: Int64) {
    writers.noteWrite(by: device, at: milliseconds)
    if let horizon = writers.forgettingBefore { prune(before: horizon) }
  }
}

/// The sync section of a state that is not merged: nothing, never written.
package struct NoSync<State: PersistentState>: StateSync {
  package init(unstamped state: State) {}
  package init(from reader: inout JSONReader) throws(JSONCodingError) { reader.skipValue() }
  package func write(to writer: inout JSONWriter) throws(JSONCodingError) {}
  package var isLeftOut: Bool { true }
  package mutating func reconcile(with state: State) {}
  package mutating func noteEdits(of state: State, underStampsOf known: (State, Self)) {}
  package var hasUnstamped: Bool { false }
  package mutating func stampUnstamped(_ stamp: Stamp) {}
  package static func isCovered(_ version: (State, Self), by known: (State, Self)) -> Bool {
    true
  }
  package static func descends(_ version: (State, Self), from known: (State, Self)) -> Bool {
    true
  }
  package static func forgottenRemovals(_ a: (State, Self), _ b: (State, Self)) -> Int { 0 }
  package static func holdsChanges(of known: (State, Self), in version: (State, Self)) -> Bool {
    true
  }
  package func stamped(before: State, after: State, stamp: Stamp) -> Self { self }
  package mutating func prune(before milliseconds: Int64) {}
  package var writers: WriterClocks {
    get { WriterClocks() }
    set {}
  }
  package var latest: Stamp? { nil }
  package static func merge(_ a: (State, Self), _ b: (State, Self)) -> (State, Self) { a }
}
