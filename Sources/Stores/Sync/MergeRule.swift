/// How the merge of two devices' versions of a list combines their values of one field: the
/// rule an ``ItemField`` declares.
///
/// ```swift
/// static let title = ItemField("title", \Card.title) { $1.title = $0 }  // last writer wins
/// static let best = ItemField("best", \Card.best, merge: .max) { $1.best = $0 }
/// static let views = ItemField("views", \Card.views, merge: .counter) { $1.views = $0 }
/// static let tags = ItemField("tags", \Card.tags, merge: .addWins) { $1.tags = $0 }
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
    /// The elements some device added and no device removed having seen that addition (see
    /// ``MergeRule/addWins``): `get` gives a value's elements as their JSON texts, each once,
    /// ordered by their bytes; `make` the value of such texts; `canonical` the text of the
    /// element a text holds, as `get` writes it, or `nil` when it holds none; `holds`
    /// whether a value holds an element equal to the one a text holds (text in another
    /// Unicode normalization is the same `String`).
    case elements(
      get: @Sendable (Value) -> [[UInt8]], make: @Sendable ([[UInt8]]) -> Value,
      canonical: @Sendable ([UInt8]) -> [UInt8]?, holds: @Sendable (Value, [UInt8]) -> Bool)
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

extension MergeRule where Value: SetAlgebra & Sequence, Value.Element: JSONCodable {
  /// A set merged element by element: an element is in it when some device added it and no
  /// device removed it having seen that addition — so an element added on one device and
  /// removed concurrently on another stays (the addition wins), and one added on two devices
  /// and removed on a third that saw only one of the additions stays too. Tags, the people a
  /// card is shared with, the days a habit is done.
  ///
  /// The file keeps, beside the field's stamp, what each device added and removed of each
  /// element (`tags:%22work%22@k3j5q8x1z0=2-1`: `"work"` added twice, the first addition
  /// removed; `%` and two hex digits stand for a byte that would split the word), so an
  /// element removed for good still takes a word in its item's stamps. Elements are told
  /// apart by their JSON text, and a value's elements by `==` (two texts of elements equal
  /// but written otherwise — a `String` in two Unicode normalizations — are one element,
  /// removed together). A value an editor set in the file counts as one change, whichever
  /// devices read it — and so does the same edit made by hand in two devices' files holding
  /// the same tallies: a removal of the element on one removes it on both. A tally an editor
  /// broke (removing more than was added, an element no value holds) is dropped, and the
  /// value counted again. A set field of a ``SyncedList``'s state (not an item's) is merged
  /// as the later change.
  public static var addWins: Self {
    Self(
      kind: .elements(
        get: { elementTexts(of: $0) },
        make: { texts in
          Value(texts.lazy.compactMap { element(Value.Element.self, from: $0) })
        },
        canonical: { text in element(Value.Element.self, from: text).map { elementText(of: $0) } },
        holds: { value, text in
          element(Value.Element.self, from: text).map { value.contains($0) } ?? false
        }))
  }
}

/// The JSON text of `element`, as a file writes it; empty when it cannot be written (a number
/// that is not finite). O(its length).
func elementText<Element: JSONCodable>(of element: Element) -> [UInt8] {
  var writer = JSONWriter(capacity: 64)
  guard (try? element.write(to: &writer)) != nil else { return [] }
  return Array(writer.finish())
}

/// The JSON texts of `elements`, each once, ordered by their bytes: the order a merged set's
/// elements take. Elements that cannot be written are left out. O(*n* log *n*).
func elementTexts<Elements: Sequence>(of elements: Elements) -> [[UInt8]]
where Elements.Element: JSONCodable {
  let texts = elements.map { elementText(of: $0) }.filter { !$0.isEmpty }
  return Array(Set(texts)).sorted { $0.lexicographicallyPrecedes($1) }
}

/// The element the JSON text `text` holds, or `nil` when it is not valid JSON of one.
func element<Element: JSONCodable>(_ type: Element.Type, from text: [UInt8]) -> Element? {
  text.withUnsafeBufferPointer { bytes in
    guard let keys = try? JSONSyntax.validate(bytes) else { return nil }
    var reader = JSONReader(bytes: bytes, topLevelKeys: keys)
    return try? Element(from: &reader)
  }
}
