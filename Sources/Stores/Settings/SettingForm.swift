import Foundation

/// How a key's values are written to the settings file and read back, chosen where the key is
/// made from what its type already is — so an app's type needs no conformance of its own:
///
/// - a ``SettingValue`` (the package's types, or a type that chose its own JSON form) is
///   stored as its ``SettingValue/json``;
/// - an enumeration (or any `RawRepresentable`) whose raw values are a setting type is stored
///   as its raw value, `Codable` or not;
/// - any other `Codable` type — a struct, an enumeration with associated values, a list, set,
///   dictionary or optional of such — is stored as the JSON `JSONEncoder` makes of it, keys
///   sorted, dates as ISO 8601 timestamps, data as base64.
///
/// Values are compared with `==` when the type is `Equatable`, else by their JSON: two values
/// that would be written alike are the same value (a value that cannot be written is the same
/// as none, not even `nil`, whose JSON is `null` too).
struct SettingForm<Value: Sendable>: Sendable {
  /// The value `json` holds, or `nil` when it holds something else.
  let decode: @Sendable (JSONValue) -> Value?
  /// The value as JSON; `null` for an absent value (`Optional.none`) or one with no JSON form.
  let encode: @Sendable (Value) -> JSONValue
  /// Whether two values are the same value.
  let same: @Sendable (Value, Value) -> Bool
  /// Every value, when there are few (an enumeration's cases, `Bool`), else `nil`.
  let allValues: [Value]?
  /// What a stored value looks like, for the message about one that is not, or `nil`.
  let expectedJSON: String?
  /// The setting type its values are stored as, when the key catalog can name its kind: the
  /// type itself for a ``SettingValue``, the raw values' type for an enumeration.
  let storedType: (any SettingValue.Type)?
  /// Whether the values are an enumeration's raw values.
  let isEnumeration: Bool
}

extension SettingForm where Value: SettingValue {
  /// The form of a ``SettingValue``: its own ``SettingValue/json``.
  static var setting: Self {
    Self(
      decode: { Value(json: $0) }, encode: { $0.json }, same: { $0 == $1 },
      allValues: Value.allowedValues, expectedJSON: Value.expectedJSON, storedType: Value.self,
      isEnumeration: false)
  }
}

extension SettingForm where Value: RawRepresentable, Value.RawValue: SettingValue {
  /// The form of an enumeration with raw values: its raw value; a `CaseIterable` one allows
  /// only its cases.
  static var rawValue: Self {
    Self(
      decode: { json in Value.RawValue(json: json).flatMap(Value.init(rawValue:)) },
      encode: { $0.rawValue.json }, same: { $0.rawValue == $1.rawValue },
      allValues: caseList(of: Value.self), expectedJSON: Value.RawValue.expectedJSON,
      storedType: Value.RawValue.self, isEnumeration: true)
  }
}

extension SettingForm where Value: Codable {
  /// The form of a `Codable` value: the JSON `JSONEncoder` makes of it (see ``SettingForm``).
  ///
  /// - Complexity: O(*n*) in the size of the value each way, through JSON text.
  static var codable: Self {
    // The JSON of a value, or `nil` when it has none: a value that cannot be encoded is not
    // the same as `nil`, whose JSON is `null` too.
    let written: @Sendable (Value) -> JSONValue? = { value in
      (try? CodableSetting.encoder().encode(value)).flatMap(JSONValue.init(parsing:))
    }
    return Self(
      decode: { json in
        json.data.flatMap { try? CodableSetting.decoder().decode(Value.self, from: $0) }
      },
      encode: { written($0) ?? .null },
      same: { a, b in
        if let equal = equalIfEquatable(a, b) { return equal }
        guard let json = written(a) else { return false }
        return json == written(b)
      },
      allValues: caseList(of: Value.self), expectedJSON: nil, storedType: nil,
      isEnumeration: false)
  }
}

/// `a == b` when their type is `Equatable`, else `nil`.
private func equalIfEquatable<T>(_ a: T, _ b: T) -> Bool? {
  guard let equatable = a as? any Equatable else { return nil }
  func compare<E: Equatable>(_ a: E) -> Bool? { (b as? E).map { $0 == a } }
  return compare(equatable)
}

/// The cases of `type` when it is `CaseIterable`, else `nil`.
private func caseList<T>(of type: T.Type) -> [T]? {
  guard let cases = type as? any CaseIterable.Type else { return nil }
  func list<C: CaseIterable>(_: C.Type) -> [T] { C.allCases.compactMap { $0 as? T } }
  return list(cases)
}
