/// How the merge of two devices' versions of a list combines their values of one field: the
/// rule an ``ItemField`` declares.
///
/// ```swift
/// static let title = ItemField("title", \Card.title) { $1.title = $0 }  // last writer wins
/// static let best = ItemField("best", \Card.best, merge: .max) { $1.best = $0 }
/// static let views = ItemField("views", \Card.views, merge: .counter) { $1.views = $0 }
/// ```
///
/// Every rule is a join: the merge stays commutative, associative, idempotent and the same
/// bytes on every device, whatever the order versions meet in.
public struct MergeRule<Value: Equatable & JSONCodable & Sendable>: Sendable {
  package enum Kind: Sendable {
    /// The value of the later change; a value that lost to a concurrent change is kept as a
    /// conflict when `keepsConflicts`.
    case latest(keepsConflicts: Bool)
    /// The greatest value any device set, by `isBelow` (a strict order).
    case greatest(isBelow: @Sendable (Value, Value) -> Bool)
    /// The sum of the changes every device made (see ``MergeRule/counter``).
    case counter(get: @Sendable (Value) -> Int, make: @Sendable (Int) -> Value)
  }

  package let kind: Kind

  /// The value of the later change wins; a value that lost to a concurrent change — one made
  /// without seeing it — is kept beside it as a conflict, until someone resolves it (see
  /// ``SyncStatus/conflicts``). The default.
  public static var lastWriterWins: Self { Self(kind: .latest(keepsConflicts: true)) }

  /// The value of the later change wins; with `keepingConflicts` false, a value that lost to
  /// a concurrent change is dropped, not kept as a conflict: for a field whose concurrent
  /// values nobody needs to choose between (when a list was last opened).
  public static func lastWriterWins(keepingConflicts: Bool) -> Self {
    Self(kind: .latest(keepsConflicts: keepingConflicts))
  }
}

extension MergeRule where Value: Comparable {
  /// The greatest value any device set: a best time, a high score, the latest date something
  /// happened. A change that lowers the value holds until a merge meets a greater one.
  /// Values equal by `<` but written otherwise are ordered by their JSON text.
  public static var max: Self { Self(kind: .greatest(isBelow: { $0 < $1 })) }

  /// The least value any device set: a lowest price, the first date something happened. A
  /// change that raises the value holds until a merge meets a lesser one.
  public static var min: Self { Self(kind: .greatest(isBelow: { $1 < $0 })) }
}

extension MergeRule where Value == Int {
  /// A counter: each device's changes are added up, so that 100 increments on each of three
  /// devices read 300 after the merge, and a decrement on one device and an increment on
  /// another cancel out. A value set outright (from 3 to 10) counts as the difference (7),
  /// made by the device that set it; a value an editor set in the file counts as one change,
  /// whichever devices read it.
  ///
  /// The file keeps, beside the field's stamp, what each device added and subtracted in all
  /// (`views@k3j5q8x1z0=12-2`). Keep a field a counter once it is one: a build that merges it
  /// otherwise drops those sums, and the counter counts its value again. An item put back
  /// (an undo of its removal) counts the value it had when this device removed it: changes
  /// merged in since are undone. A device's sums past 2⁶⁴ wrap around, and then lose to the
  /// sums other devices hold.
  public static var counter: Self { Self(kind: .counter(get: { $0 }, make: { $0 })) }
}
