import Foundation

/// One field of a list item, declared once, with its type: its key in the file, where it is
/// in the item, how a person calls it and how it is set. Its item's ``FieldTable`` lists it;
/// the item's file coding reads and writes it by this declaration (see
/// ``JSONFieldCoder/field(_:)``), and the merge of two devices' versions merges it on its
/// own, by its ``MergeRule``.
public struct ItemField<Item, Value: Equatable & JSONCodable & Sendable>: Sendable {
  /// The field's key in the file and its name in the file's stamps.
  package let key: StaticString
  /// Where the field is in the item: a stored property.
  package let keyPath: KeyPath<Item, Value> & Sendable
  /// What a person calls the field ("done" for `isDone`), in messages.
  package let label: String
  /// Sets the field of an item.
  package let set: @Sendable (Value, inout Item) -> Void
  /// Whether a value may be set by an edit that others may have overtaken (undo's): `false`
  /// for a value the item would refuse (an empty title). Every value by default.
  package let accepts: @Sendable (Value) -> Bool
  /// How the merge combines two devices' values of the field.
  package let merge: MergeRule<Value>

  /// The field `key`, at `keyPath`, called `label` (`key` by default) and set by `set`.
  ///
  /// - Parameters:
  ///   - key: The field's key in the file.
  ///   - keyPath: The stored property that holds the field.
  ///   - label: What a person calls the field, in messages; `key` by default.
  ///   - merge: How the merge combines two devices' values of the field: the later change
  ///     wins by default (see ``MergeRule``).
  ///   - accepts: Whether the item takes a value that an undo or a conflict's resolution
  ///     would set: `false` for one the item refuses (an empty title). Every value by default.
  ///   - set: Sets the field of an item.
  public init(
    _ key: StaticString, _ keyPath: KeyPath<Item, Value> & Sendable, label: String? = nil,
    merge: MergeRule<Value> = .lastWriterWins,
    accepts: @escaping @Sendable (Value) -> Bool = { _ in true },
    set: @escaping @Sendable (Value, inout Item) -> Void
  ) {
    self.key = key
    self.keyPath = keyPath
    self.label = label ?? key.description
    self.merge = merge
    self.set = set
    self.accepts = accepts
  }
}

/// The fields of a list item besides its id, in the order of their keys: the one list that
/// the file coding, the stamps and the merge (``SyncField``), undo's edits (``ItemEdit``),
/// their conflict names and the write cache's comparison (`hasSameBits`) all go by.
/// A test checks that it names every stored property of its item.
///
/// A table must list every stored property of its item but the id, each once, in the order
/// of their keys' UTF-8 bytes: a property left out would not be merged, and would not count
/// when a write looks for the items that changed. Keys are ASCII letters, digits and `_`,
/// neither `id` nor `position`; the item is a struct (a field is read where it is stored).
public struct FieldTable<Item: Identifiable>: Sendable where Item.ID == UUID {
  /// The fields, each merged, stamped and compared on its own.
  package let fields: [SyncField<Item>]
  /// The byte ranges of the item that hold its id and fields, adjacent ones joined: the item
  /// without the padding between its fields.
  private let storedBytes: [Range<Int>]

  /// The table of `fields`, listed in the order of their keys, of items whose id is the
  /// stored property at `id`.
  ///
  /// - Precondition: `id` and every field's key path are stored properties of a struct, and
  ///   the fields are in the order of their keys, each once, each key ASCII letters, digits
  ///   and `_`, neither `id` nor `position`.
  public init<each Value>(
    id: KeyPath<Item, UUID>, _ fields: repeat ItemField<Item, each Value>
  ) {
    var list: [SyncField<Item>] = []
    var ranges = [Self.bytes(of: id)]
    for field in repeat each fields {
      list.append(SyncField(field))
      ranges.append(Self.bytes(of: field.keyPath))
    }
    // No key path literal here: in a function generic over a pack, the runtime cannot make one.
    let names = list.map { $0.name }
    precondition(
      zip(names, names.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) },
      "the fields of \(Item.self) are listed once each, in the order of their keys")
    // The stamps' text names fields by their keys, between spaces, `=` and `@`, beside the
    // item's `position`.
    for name in names {
      precondition(
        Self.isKey(name),
        "the key \(name) of a field of \(Item.self) is letters, digits and _, not id or position")
    }
    self.fields = list
    storedBytes = ranges.sorted { $0.lowerBound < $1.lowerBound }.reduce(into: []) {
      joined, range in
      if let last = joined.last, last.upperBound == range.lowerBound {
        joined[joined.count - 1] = last.lowerBound..<range.upperBound
      } else {
        joined.append(range)
      }
    }
  }

  /// Whether `name` may be a field's key: ASCII letters, digits and `_`, neither `id` nor
  /// `position`.
  static func isKey(_ name: String) -> Bool {
    !name.isEmpty && name != "id" && name != "position"
      && name.utf8.allSatisfy { byte in
        byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
      }
  }

  /// Where the stored property at `keyPath` is in an item.
  private static func bytes<Value>(of keyPath: KeyPath<Item, Value>) -> Range<Int> {
    guard let offset = MemoryLayout<Item>.offset(of: keyPath) else {
      preconditionFailure("\(keyPath) is not a stored property of \(Item.self)")
    }
    return offset..<offset + MemoryLayout<Value>.size
  }

  /// Whether the items at `a` and `b` are the same bits in their id and every field — the
  /// padding between fields is not compared: then, while one of them is held, the same item,
  /// written the same (see ``EncodedList``). O(number of fields): the characters of a string
  /// are not compared.
  @inline(__always)
  package func hasSameBits(_ a: UnsafePointer<Item>, _ b: UnsafePointer<Item>) -> Bool {
    let (a, b) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
    for range in storedBytes
    where memcmp(a + range.lowerBound, b + range.lowerBound, range.count) != 0 {
      return false
    }
    return true
  }

  /// `item` with each field that still holds `from`'s value set to `to`'s, where the field
  /// accepts it: an edit applied to an item others may have changed since (undo's edits).
  /// O(number of fields).
  package func applying(_ from: Item, _ to: Item, to item: Item) -> Item {
    var result = item
    for field in fields where field.isEqual(item, from) && field.accepts(to) {
      field.copy(to, &result)
    }
    return result
  }

  /// The labels of the fields that `from` and `to` hold differently and `item` no longer holds
  /// as `from` did: what an edit from `from` to `to` would overwrite of another change.
  package func conflicts(from: Item, to: Item, with item: Item) -> [String] {
    fields.filter { !$0.isEqual(from, to) && !$0.isEqual(item, from) }.map(\.label)
  }
}

/// A list item described by one ``FieldTable``: a todo, a workout — or an item of a list of
/// your own that devices merge (see ``SyncedList``).
public protocol ListItem: Identifiable, Equatable, Sendable, JSONObjectCodable
where ID == UUID {
  /// The item's fields besides its id.
  static var fieldTable: FieldTable<Self> { get }
}

extension JSONFieldCoder where Self: ~Copyable {
  /// The field declared by `field`: a writer writes it and returns it, a reader reads it and
  /// returns it (see ``field(_:_:)``).
  public mutating func field<Value>(
    _ field: ItemField<Object, Value>
  ) throws(JSONCodingError) -> Value {
    try self.field(field.key, field.keyPath)
  }
}
