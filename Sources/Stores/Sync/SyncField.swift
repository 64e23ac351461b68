import Foundation

/// One field of a merged value — a todo's title, a list's sort — that changes, is stamped
/// and merges on its own, by its ``MergeRule`` (the later stamp wins, by default).
///
/// A ``SyncedList`` names the fields of its state besides its items (a sort) with these, each
/// made from an ``ItemField`` of the state: `SyncField(ItemField("sort", \State.sort) { $1.sort
/// = $0 })`.
public struct SyncField<Root>: Sendable {
  /// The field's name in the file's stamps.
  package let name: String
  /// What a person calls the field, in messages (see ``ItemField/label``).
  package let label: String
  /// Whether the field's value in a value may be set by an edit (see ``ItemField/accepts``).
  package let accepts: @Sendable (Root) -> Bool
  /// Whether two values hold the same in this field.
  package let isEqual: @Sendable (Root, Root) -> Bool
  /// Whether two values hold the same in this field and write it the same: text equal but
  /// for its Unicode normalization, or `0.0` and `-0.0`, are equal, not identical.
  package let isIdentical: @Sendable (Root, Root) -> Bool
  /// Whether `first`'s value of this field sorts before `second`'s: a total order, which
  /// breaks the tie of two different values with one stamp (two version 1 files, both
  /// stamped ``Stamp/origin``) the same way on every device.
  package let precedes: @Sendable (Root, Root) -> Bool
  /// Sets the field of the second value to the first's.
  package let copy: @Sendable (Root, inout Root) -> Void
  /// The digest of the field's value, written beside its stamp (see ``ContentDigest``), made
  /// with the writer given.
  package let digest: @Sendable (Root, inout JSONWriter) -> ContentDigest
  /// Writes the field's value alone (a conflict's, see ``ListSync/Conflict``).
  package let writeValue: @Sendable (Root, inout JSONWriter) throws(JSONCodingError) -> Void
  /// Reads a value of the field, written by ``writeValue``, into the second value.
  package let readValue: @Sendable (inout JSONReader, inout Root) throws(JSONCodingError) -> Void
  /// How the merge combines two values of the field (see ``MergeRule``).
  package let merge: Merge

  /// A field's ``MergeRule``, on the values that hold it.
  package enum Merge: Sendable {
    /// The value of the later change; a value that lost to a concurrent change is kept as a
    /// conflict when `keepsConflicts`.
    case latest(keepsConflicts: Bool)
    /// The greatest value: `isBelow` tells whether the first value's is below the second's.
    case greatest(isBelow: @Sendable (Root, Root) -> Bool)
    /// The sum of every device's changes: the field's value as a number, and set to one.
    case counter(get: @Sendable (Root) -> Int, set: @Sendable (Int, inout Root) -> Void)
    /// The elements added and not removed having seen the addition: the field's value as its
    /// elements' JSON texts, and set to such texts; the canonical text of an element's text;
    /// whether a value's field holds the element a text holds (see ``MergeRule/addWins``).
    case elements(
      get: @Sendable (Root) -> [[UInt8]], set: @Sendable ([[UInt8]], inout Root) -> Void,
      canonical: @Sendable ([UInt8]) -> [UInt8]?, holds: @Sendable (Root, [UInt8]) -> Bool)

    /// Whether the merge counts the changes each device made, in an item's tallies (see
    /// ``ItemStamps/counts``): a counter or a set.
    package var isTallied: Bool {
      switch self {
      case .counter, .elements: true
      case .latest, .greatest: false
      }
    }
  }

  /// Whether a value of the field that lost to a concurrent change is kept as a conflict.
  package var keepsConflicts: Bool {
    if case .latest(true) = merge { true } else { false }
  }

  /// Whether a merge of `first`'s value of a field that keeps the greatest value with
  /// `second`'s takes `second`'s: it is greater, or, of values alike, its text is (a total
  /// order, so the merge is a join). `false` for the other rules.
  package func precedesInMerge(_ first: Root, _ second: Root) -> Bool {
    guard case .greatest(let isBelow) = merge else { return false }
    return isBelow(first, second) || (!isBelow(second, first) && precedes(first, second))
  }

  /// Whether the merge takes the value of the later change (a conflict kept or not).
  package var isLatestWins: Bool {
    if case .latest = merge { true } else { false }
  }

  /// The field `name`, read by `get` and set by `set`; values of equal stamps are ordered by
  /// their JSON text.
  package init<Value: Equatable & JSONCodable & Sendable>(
    _ name: String, _ get: @escaping @Sendable (Root) -> Value,
    label: String? = nil, merge rule: MergeRule<Value> = .lastWriterWins,
    accepts: @escaping @Sendable (Value) -> Bool = { _ in true },
    set: @escaping @Sendable (Value, inout Root) -> Void
  ) {
    self.name = name
    switch rule.kind {
    case .latest(let keepsConflicts): merge = .latest(keepsConflicts: keepsConflicts)
    case .greatest(let isBelow): merge = .greatest { isBelow(get($0), get($1)) }
    case .counter(let number, let make):
      merge = .counter(get: { number(get($0)) }, set: { set(make($0), &$1) })
    case .elements(let texts, let make, let canonical, let holds):
      merge = .elements(
        get: { texts(get($0)) }, set: { set(make($0), &$1) }, canonical: canonical,
        holds: { holds(get($0), $1) })
    }
    self.label = label ?? name
    self.accepts = { accepts(get($0)) }
    isEqual = { get($0) == get($1) }
    isIdentical = { first, second in
      let (a, b) = (get(first), get(second))
      guard a == b else { return false }
      if let a = a as? String, let b = b as? String { return a.utf8.elementsEqual(b.utf8) }
      if let a = a as? Double, let b = b as? Double { return a.bitPattern == b.bitPattern }
      return true
    }
    precedes = { first, second in
      let (a, b) = (Self.json(get(first)), Self.json(get(second)))
      return a.lexicographicallyPrecedes(b)
    }
    copy = { source, target in set(get(source), &target) }
    digest = { ContentDigest(of: get($0), writingWith: &$1) }
    writeValue = { root, writer throws(JSONCodingError) in try get(root).write(to: &writer) }
    readValue = { reader, root throws(JSONCodingError) in set(try Value(from: &reader), &root) }
  }

  /// The field `field` declares.
  ///
  /// - Precondition: The field's key path is a stored property of `Root`.
  public init<Value>(_ field: ItemField<Root, Value>) {
    // Read at the field's offset: a stored key path projected at run time costs twice as much,
    // and the merge and each read of a file read every field of every item.
    guard let offset = MemoryLayout<Root>.offset(of: field.keyPath) else {
      preconditionFailure("\(field.keyPath) is not a stored property of \(Root.self)")
    }
    self.init(
      field.key.description,
      { root in withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) } },
      label: field.label, merge: field.merge, accepts: field.accepts, set: field.set)
  }

  private static func json<Value: JSONCodable & Sendable>(_ value: Value) -> [UInt8] {
    var writer = JSONWriter()
    try? value.write(to: &writer)
    return Array(writer.finish())
  }
}

/// A state that is a list of items named by id, merged item by item and field by field
/// when several devices change its file: the todos, the workouts — or a list of your own.
///
/// A store whose state conforms gets what the package's own lists have, from
/// `fileCore(contentsOf:)`: every field of every item stamped
/// in its file (format 2), the conflict copies a sync engine leaves merged, a value that lost
/// to a concurrent change kept as a conflict (``Store/syncStatus``, ``Store/resolve(_:choosing:)``),
/// and the items' order merged. The state's own keys in its file are its
/// ``JSONObjectCodable/jsonFields(_:)``; the list's key among them is ``itemsName``.
public protocol SyncedList: PersistentState {
  associatedtype Item: ListItem
  /// The key of the list in the file (`"todos"`), also its name in messages.
  static var itemsName: StaticString { get }
  /// The items, in the order the file keeps them.
  var syncedItems: [Item] { get }
  /// The fields of the state besides its items (a sort), if any; none by default. Each is
  /// merged by its ``MergeRule``, but for ``MergeRule/counter``: a counter counts only in an
  /// item, and a state's field declared so is merged as the later change.
  static var stateFields: [SyncField<Self>] { get }
  /// This state with `items`, in this order, in place of its items.
  func replacingItems(_ items: [Item]) -> Self
  /// How many items `old` and `new` hold with the same ids in the same places from the
  /// start, and the offsets among those whose items differ. The default is right for every
  /// list; the package's own lists implement it only so that it runs specialised for their
  /// items. O(*n*), without copying an item.
  static func itemsInPlace(_ old: [Item], _ new: [Item]) -> (count: Int, changed: [Int])
}

/// See ``SyncedList/itemsInPlace(_:_:)``. O(*n*), without copying an item.
func sameIDsInPlace<Item: Identifiable & Equatable>(_ old: [Item], _ new: [Item])
  -> (count: Int, changed: [Int])
{
  old.withUnsafeBufferPointer { old in
    new.withUnsafeBufferPointer { new in
      var changed: [Int] = []
      var offset = 0
      while offset < min(old.count, new.count), old[offset].id == new[offset].id {
        if old[offset] != new[offset] { changed.append(offset) }
        offset += 1
      }
      return (offset, changed)
    }
  }
}

extension SyncedList {
  public static var stateFields: [SyncField<Self>] { [] }

  public static func itemsInPlace(_ old: [Item], _ new: [Item]) -> (count: Int, changed: [Int]) {
    sameIDsInPlace(old, new)
  }

  /// The fields of an item besides its id: its ``FieldTable``'s.
  static var itemFields: [SyncField<Item>] { Item.fieldTable.fields }

  /// Appends ` #`, the digest of `item`'s id and those of its fields (see
  /// ``ContentDigest``), in the order of ``itemFields``, to the text of its stamps; `writer`
  /// makes them.
  static func appendDigests(
    of item: Item, to text: inout [UInt8], writingWith writer: inout JSONWriter
  ) {
    text.append(contentsOf: " #".utf8)
    ContentDigest(of: item.id).append(to: &text)
    for field in itemFields { field.digest(item, &writer).append(to: &text) }
  }
}
