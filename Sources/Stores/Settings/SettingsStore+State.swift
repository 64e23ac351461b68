import Foundation

extension SettingsStore {
  /// The settings file's content: a JSON value for each key set explicitly. Keys that are not
  /// set read as their default, which is never written.
  ///
  /// In the file, the values sit in the versioned envelope under `"values"`:
  /// `{ "values" : { "sleepGoal" : 7.5 }, "version" : 1 }`. A file that is a bare object of
  /// keys and values (version 0, as a person might write it) is read too.
  ///
  /// Keys are told apart by their Unicode scalars, as JSON tells names apart: `"é"` (one
  /// scalar) and `"e\u{301}"` (two), which Swift `String`s hold equal, are two keys, each kept
  /// and written back, and a change to one never touches the other.
  public struct State: PersistentState {
    /// The values set explicitly, by key name, including keys no registered key knows.
    public var values: Values

    public static var hasExactKeys: Bool { true }

    public init() {
      values = Values()
    }

    public init(_ values: [String: JSONValue]) {
      self.values = Values(values)
    }

    public init(_ values: Values) {
      self.values = values
    }

    /// The value of `key`: the stored one when it is set and valid, else the default.
    ///
    /// - Complexity: O(1) for the lookup, plus converting the value from JSON.
    public func value<Value>(for key: SettingsKey<Value>) -> Value {
      Self.value(for: key, stored: values[key.name])
    }

    /// The value of `key` when the file holds `stored` for it (`nil`: not set).
    static func value<Value>(for key: SettingsKey<Value>, stored: JSONValue?) -> Value {
      guard let json = stored, let value = key.form.decode(json), key.problem(with: value) == nil
      else { return key.defaultValue }
      return value
    }
  }

  /// A change to the settings: what ``SettingsStore/set(_:for:)``, ``SettingsStore/remove(_:)``,
  /// ``SettingsStore/reset()`` and undo send.
  public enum Action: Equatable, Sendable, Codable {
    /// Stores `value` for `key`. This action stores whatever it is given: validate first, as
    /// ``SettingsStore/set(_:for:)`` does.
    case set(key: String, value: JSONValue)
    /// Removes the values of `keys`, so that they read as their defaults again.
    case remove(keys: [String])
    /// Puts values back, in order: each change's key gets ``ValueChange/to`` (`nil` removes
    /// it) when it still holds ``ValueChange/from`` (`nil`: not set); a key changed since is
    /// skipped. What undo sends.
    case restore(ValueChanges)
  }

  /// A change of one key's value, undone or done again by ``Action/restore(_:)``.
  public struct ValueChange: Equatable, Sendable, Codable {
    /// The key.
    public var key: String
    /// The value the key holds before the change, or `nil` when it is not set.
    public var from: JSONValue?
    /// The value the key holds after the change, or `nil` when the change removes it.
    public var to: JSONValue?

    public init(key: String, from: JSONValue?, to: JSONValue?) {
      self.key = key
      self.from = from
      self.to = to
    }
  }
}

extension SettingsStore {
  /// The changes a ``Action/restore(_:)`` puts back, in order: an array of ``ValueChange``s
  /// (written as one, `[ValueChange(…), …]`, and encoded as one) that holds a single change
  /// without allocating — the undo step of every ``Action/set(key:value:)``.
  public struct ValueChanges: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable,
    Sendable, Codable
  {
    @usableFromInline enum Storage: Sendable {
      case one(ValueChange)
      case many([ValueChange])
    }
    @usableFromInline let storage: Storage

    /// One change.
    @inlinable
    public init(_ change: ValueChange) {
      storage = .one(change)
    }

    /// The changes of `changes`, in order.
    ///
    /// - Complexity: O(*n*).
    public init(_ changes: some Sequence<ValueChange>) {
      let changes = Array(changes)
      storage = changes.count == 1 ? .one(changes[0]) : .many(changes)
    }

    public init(arrayLiteral changes: ValueChange...) {
      self.init(changes)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
      switch storage {
      case .one: 1
      case .many(let changes): changes.count
      }
    }
    public subscript(position: Int) -> ValueChange {
      switch storage {
      case .one(let change):
        precondition(position == 0, "Index out of range")
        return change
      case .many(let changes): return changes[position]
      }
    }

    public static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }

    /// Decodes an array of changes.
    public init(from decoder: any Decoder) throws {
      self.init(try [ValueChange](from: decoder))
    }

    /// Encodes the changes as an array.
    public func encode(to encoder: any Encoder) throws {
      try Array(self).encode(to: encoder)
    }
  }
}

/// The package's own short names for the settings store's state and actions, which the file
/// layer, the merge (`KeyValuesSync`), `diary` and the tests use.
package typealias KeyValues = SettingsStore.State
package typealias KeyValueAction = SettingsStore.Action
package typealias KeyValueChange = SettingsStore.ValueChange

/// One registered key of the settings and what the file holds for it: an element of
/// ``SettingsStore/entries``.
public struct SettingsEntry: Sendable {
  /// The key.
  public let key: AnySettingsKey
  /// The value stored for the key, or `nil` when it is not set.
  public let storedValue: JSONValue?

  /// Why the stored value is not valid for the key (so the default is in effect), or `nil`.
  public var problem: String? { storedValue.flatMap(key.problem(with:)) }
  /// The value in effect: the stored one when it is set and valid, else the default.
  public var value: JSONValue {
    problem == nil ? storedValue ?? key.defaultValue : key.defaultValue
  }
  /// Whether the value in effect is the default value.
  public var isDefault: Bool { value == key.defaultValue }
}

extension SettingsStore.State {
  /// The values of the settings by key, the keys compared by their Unicode scalars (see
  /// ``SettingsStore/State``): a dictionary whose keys are `String`s that are equal only when they are
  /// the same scalars.
  public struct Values: Equatable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    private var storage: [Name: JSONValue]

    public init() {
      storage = [:]
    }

    /// The values of `dictionary`.
    public init(_ dictionary: [String: JSONValue]) {
      storage = Dictionary(uniqueKeysWithValues: dictionary.map { (Name($0.key), $0.value) })
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
      storage = Dictionary(elements.map { (Name($0.0), $0.1) }, uniquingKeysWith: { $1 })
    }

    /// The value of the key that is exactly `name`, or `nil`. O(length of `name`).
    public subscript(name: String) -> JSONValue? {
      get { storage[Name(name)] }
      set { storage[Name(name)] = newValue }
    }

    /// Stores `value` for the key `name`; returns the value it replaced.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey name: String) -> JSONValue? {
      storage.updateValue(value, forKey: Name(name))
    }

    /// Removes the key `name`; returns its value.
    @discardableResult
    public mutating func removeValue(forKey name: String) -> JSONValue? {
      storage.removeValue(forKey: Name(name))
    }

    /// The keys, in no particular order.
    public var keys: [String] { storage.keys.map(\.string) }
    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
      storage.lazy.map { (key: $0.key.string, value: $0.value) }.makeIterator()
    }
  }

  /// A key compared and hashed by its UTF-8 bytes — its Unicode scalars.
  struct Name: Hashable, Sendable {
    let string: String

    init(_ string: String) {
      self.string = string
    }

    static func == (a: Self, b: Self) -> Bool {
      var (a, b) = (a.string, b.string)
      return a.withUTF8 { a in
        b.withUTF8 { b in
          a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
        }
      }
    }

    func hash(into hasher: inout Hasher) {
      var string = string
      string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
      hasher.combine(0xFF as UInt8)  // Never in UTF-8: ends the key.
    }
  }
}

extension SettingsStore.State.Values: Codable {
  /// Decodes an object of keys and values (with `Decoder`, keys are `String`s: two that
  /// differ only in Unicode normalization are one).
  public init(from decoder: any Decoder) throws {
    self.init(try [String: JSONValue](from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    for (key, value) in self { try container.encode(value, forKey: AnyKey(stringValue: key)) }
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

extension SettingsStore.State.Values: JSONCodable {
  /// Reads a JSON object; every key is kept, even those that differ only in Unicode
  /// normalization. O(size of the object).
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    var storage: [SettingsStore.State.Name: JSONValue] = [:]
    try reader.readMembers { key, reader throws(JSONCodingError) in
      storage[SettingsStore.State.Name(key)] = try JSONValue(from: &reader)
    }
    self.storage = storage
  }

  /// Writes a JSON object, its keys sorted by their UTF-8 bytes. O(*n* log *n*).
  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    writer.beginObject()
    for (name, value) in storage.sorted(by: {
      $0.key.string.utf8.lexicographicallyPrecedes($1.key.string.utf8)
    }) {
      writer.member(name.string)
      do throws(JSONCodingError) {
        try value.write(to: &writer)
      } catch {
        throw error.at(.key(name.string))
      }
    }
    writer.endObject()
  }
}
