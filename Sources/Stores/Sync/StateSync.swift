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

  /// Throws when the section does not describe `state` (a stamp for each item, say).
  func check(against state: State) throws(JSONCodingError)

  /// The stamps after this device changed `before` into `after`, each change stamped
  /// `stamp`: O(*n*) in the size of the state, plus O(*n* log *n*) for a list's order.
  func stamped(before: State, after: State, stamp: Stamp) -> Self

  /// Drops the tombstones of removals stamped before `milliseconds` (see
  /// ``Stamp/tombstoneLifetime``).
  mutating func prune(before milliseconds: Int64)

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

extension StateSync where WriteCache == NoWriteCache {
  package static func makeWriteCache() -> NoWriteCache { NoWriteCache() }
}

/// The cache of a section whose writes keep nothing (see ``StateSync/WriteCache``).
package final class NoWriteCache {}

extension Stamp {
  /// How long a tombstone is kept: 90 days. A copy older than that can bring back what was
  /// removed since it was made.
  package static let tombstoneLifetime: Int64 = 90 * 24 * 3_600_000
}

/// The sync section of a state that is not merged: nothing, never written.
package struct NoSync<State: PersistentState>: StateSync {
  package init(unstamped state: State) {}
  package init(from reader: inout JSONReader) throws(JSONCodingError) { reader.skipValue() }
  package func write(to writer: inout JSONWriter) throws(JSONCodingError) {}
  package var isLeftOut: Bool { true }
  package func check(against state: State) throws(JSONCodingError) {}
  package func stamped(before: State, after: State, stamp: Stamp) -> Self { self }
  package mutating func prune(before milliseconds: Int64) {}
  package var latest: Stamp? { nil }
  package static func merge(_ a: (State, Self), _ b: (State, Self)) -> (State, Self) { a }
}
