import Foundation

extension SettingShape {
  /// The shape of `value` as a settings file stores it, found by encoding it through an
  /// `Encoder` that records what it is given rather than writing it: the fields of each
  /// object (those encoded with `encodeIfPresent` are optional), the kind of each value, as
  /// `CodableSetting`'s `JSONEncoder` writes it (a `Date` as a timestamp's text, `Data` as
  /// base64), the cases of a `CaseIterable` enumeration, the element type of a list, set or
  /// dictionary. A `JSONValue` or a dictionary whose keys are not text is ``any``.
  ///
  /// - Returns: `nil` when encoding `value` throws. O(size of `value`), plus the cases of
  ///   each enumeration met.
  static func recording(_ value: some Encodable) -> SettingShape? {
    let node = ShapeNode()
    do {
      try node.record(value)
    } catch {
      return nil
    }
    return node.shape
  }

  /// The shape of a value of `type` when the type alone tells it: a number, text, a date…
  fileprivate static func known(_ type: Any.Type) -> SettingShape? {
    switch type {
    case is Bool.Type: .value(.bool)
    case is String.Type: .value(.string)
    case is Double.Type, is Float.Type, is Decimal.Type: .value(.number)
    case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type, is UInt.Type,
      is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
      .value(.integer)
    case is Date.Type: .value(.date)
    case is Data.Type: .value(.data)
    case is URL.Type: .value(.url)
    case is UUID.Type: .value(.uuid)
    case is JSONValue.Type: .any
    case let cases as any (CaseIterable & Encodable).Type: caseValues(cases).map(oneOf)
    default: nil
    }
  }
}

/// A list or set: the type of its elements.
private protocol ElementTyped {
  static var elementType: Any.Type { get }
}

extension Array: ElementTyped {
  fileprivate static var elementType: Any.Type { Element.self }
}

extension Set: ElementTyped {
  fileprivate static var elementType: Any.Type { Element.self }
}

/// A dictionary: the type of its values, and whether its keys are text.
private protocol DictionaryTyped {
  static var valueType: Any.Type { get }
  static var hasTextKeys: Bool { get }
}

extension Dictionary: DictionaryTyped {
  fileprivate static var valueType: Any.Type { Value.self }
  fileprivate static var hasTextKeys: Bool { Key.self == String.self }
}

/// The JSON values of the cases of `type`, as `CodableSetting` encodes them, or `nil` when
/// one cannot be encoded or there are more than 1,000.
private func caseValues<Cases: CaseIterable & Encodable>(_ type: Cases.Type) -> [JSONValue]? {
  guard type.allCases.count <= 1_000 else { return nil }
  let encoder = CodableSetting.encoder()
  var values: [JSONValue] = []
  for value in type.allCases {
    guard let data = try? encoder.encode(value), let json = JSONValue(parsing: data) else {
      return nil
    }
    values.append(json)
  }
  return values
}

/// One place of the value being recorded.
private final class ShapeNode {
  enum Content {
    case unset
    case shape(SettingShape)
    case object([String: ShapeNode], optional: Set<String>)
    case list([ShapeNode])
  }

  var content = Content.unset
  /// For a list, set or dictionary: the shape of its elements, when their type tells it.
  var elementShape: SettingShape?
  /// Whether the object recorded is a dictionary, whose keys are its values'.
  var isDictionary = false

  var shape: SettingShape {
    switch content {
    case .unset: return .any
    case .shape(let shape): return shape
    case .object(let fields, let optional):
      guard isDictionary else { return .object(fields.mapValues(\.shape), optional: optional) }
      return .dictionary(elementShape ?? Self.common(fields.values.map(\.shape)))
    case .list(let items):
      return .list(elementShape ?? Self.common(items.map(\.shape)))
    }
  }

  /// The shape every one of `shapes` has, else ``SettingShape/any``.
  private static func common(_ shapes: [SettingShape]) -> SettingShape {
    guard let first = shapes.first, shapes.allSatisfy({ $0 == first }) else { return .any }
    return first
  }

  /// Records `value` here.
  func record<T: Encodable>(_ value: T) throws {
    if let known = SettingShape.known(T.self) {
      content = .shape(known)
      return
    }
    if let dictionary = T.self as? any DictionaryTyped.Type {
      guard dictionary.hasTextKeys else {
        content = .shape(.any)
        return
      }
      isDictionary = true
      elementShape = SettingShape.known(dictionary.valueType)
    }
    if let list = T.self as? any ElementTyped.Type {
      elementShape = SettingShape.known(list.elementType)
    }
    try value.encode(to: ShapeRecorder(node: self))
    // An enumeration written as an object or a list — Swift's `Codable` of one with
    // associated values writes `{"case": {…}}` — is written so for the case of the default
    // only: its other cases have other keys, so nothing is recorded of it.
    switch content {
    case .object, .list:
      if Mirror(reflecting: value).displayStyle == .enum { content = .shape(.any) }
    case .unset, .shape: break
    }
  }

  func set(_ shape: SettingShape) {
    content = .shape(shape)
  }

  /// This place as an object: its fields so far.
  func becomeObject() {
    if case .object = content { return }
    content = .object([:], optional: [])
  }

  func becomeList() {
    if case .list = content { return }
    content = .list([])
  }

  /// The node of the field `key`, optional when `isOptional`.
  func field(_ key: any CodingKey, isOptional: Bool = false) -> ShapeNode {
    becomeObject()
    guard case .object(var fields, var optional) = content else { return ShapeNode() }
    let node = ShapeNode()
    fields[key.stringValue] = node
    if isOptional { optional.insert(key.stringValue) } else { optional.remove(key.stringValue) }
    content = .object(fields, optional: optional)
    return node
  }

  /// A new element's node, at the end of the list.
  func element() -> ShapeNode {
    becomeList()
    guard case .list(var items) = content else { return ShapeNode() }
    let node = ShapeNode()
    items.append(node)
    content = .list(items)
    return node
  }
}

/// The `Encoder` that records a value's shape (see ``SettingShape/recording(_:)``).
private struct ShapeRecorder: Encoder {
  let node: ShapeNode
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    node.becomeObject()
    return KeyedEncodingContainer(KeyedRecorder<Key>(node: node))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.becomeList()
    return UnkeyedRecorder(node: node)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleRecorder(node: node)
  }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: ShapeNode
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws { node.field(key).set(.any) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try node.field(key).record(value)
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    let field = node.field(key, isOptional: true)
    if let value { try field.record(value) } else { field.set(SettingShape.known(T.self) ?? .any) }
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try record(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try record(value, key) }

  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try record(value, key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try record(value, key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try record(value, key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try record(value, key) }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    try record(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    try record(value, key)
  }

  private func record<T: Encodable>(_ value: T, _ key: Key) throws {
    try node.field(key).record(value)
  }

  /// An optional field: its shape is the type's, whether or not the value is there.
  private func record<T: Encodable>(_ value: T?, _ key: Key) throws {
    node.field(key, isOptional: true).set(SettingShape.known(T.self) ?? .any)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy _: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let field = node.field(key)
    field.becomeObject()
    return KeyedEncodingContainer(KeyedRecorder<NestedKey>(node: field))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let field = node.field(key)
    field.becomeList()
    return UnkeyedRecorder(node: field)
  }

  mutating func superEncoder() -> any Encoder {
    ShapeRecorder(node: node.field(SuperKey.super))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    ShapeRecorder(node: node.field(key))
  }
}

/// The key `Codable` gives a superclass's encoding.
private enum SuperKey: String, CodingKey {
  case `super`
}

private struct UnkeyedRecorder: UnkeyedEncodingContainer {
  let node: ShapeNode
  var codingPath: [any CodingKey] { [] }
  var count: Int {
    if case .list(let items) = node.content { items.count } else { 0 }
  }

  mutating func encodeNil() throws { node.element().set(.any) }
  mutating func encode<T: Encodable>(_ value: T) throws { try node.element().record(value) }
  mutating func encode(_ value: Bool) throws { try node.element().record(value) }
  mutating func encode(_ value: String) throws { try node.element().record(value) }
  mutating func encode(_ value: Double) throws { try node.element().record(value) }
  mutating func encode(_ value: Float) throws { try node.element().record(value) }
  mutating func encode(_ value: Int) throws { try node.element().record(value) }
  mutating func encode(_ value: Int8) throws { try node.element().record(value) }
  mutating func encode(_ value: Int16) throws { try node.element().record(value) }
  mutating func encode(_ value: Int32) throws { try node.element().record(value) }
  mutating func encode(_ value: Int64) throws { try node.element().record(value) }
  mutating func encode(_ value: UInt) throws { try node.element().record(value) }
  mutating func encode(_ value: UInt8) throws { try node.element().record(value) }
  mutating func encode(_ value: UInt16) throws { try node.element().record(value) }
  mutating func encode(_ value: UInt32) throws { try node.element().record(value) }
  mutating func encode(_ value: UInt64) throws { try node.element().record(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let element = node.element()
    element.becomeObject()
    return KeyedEncodingContainer(KeyedRecorder<NestedKey>(node: element))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let element = node.element()
    element.becomeList()
    return UnkeyedRecorder(node: element)
  }

  mutating func superEncoder() -> any Encoder {
    ShapeRecorder(node: node.element())
  }
}

private struct SingleRecorder: SingleValueEncodingContainer {
  let node: ShapeNode
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { node.set(.any) }
  mutating func encode<T: Encodable>(_ value: T) throws { try node.record(value) }
  mutating func encode(_ value: Bool) throws { try node.record(value) }
  mutating func encode(_ value: String) throws { try node.record(value) }
  mutating func encode(_ value: Double) throws { try node.record(value) }
  mutating func encode(_ value: Float) throws { try node.record(value) }
  mutating func encode(_ value: Int) throws { try node.record(value) }
  mutating func encode(_ value: Int8) throws { try node.record(value) }
  mutating func encode(_ value: Int16) throws { try node.record(value) }
  mutating func encode(_ value: Int32) throws { try node.record(value) }
  mutating func encode(_ value: Int64) throws { try node.record(value) }
  mutating func encode(_ value: UInt) throws { try node.record(value) }
  mutating func encode(_ value: UInt8) throws { try node.record(value) }
  mutating func encode(_ value: UInt16) throws { try node.record(value) }
  mutating func encode(_ value: UInt32) throws { try node.record(value) }
  mutating func encode(_ value: UInt64) throws { try node.record(value) }
}
