import Foundation

/// A type a setting can have: it converts to and from JSON, the form the settings file holds.
///
/// Out of the box: `Bool`, `Int`, `Double`, `String`, `Date` (an ISO 8601 timestamp, exact
/// as the store files write dates), `Data` (base64 text), `URL`, `UUID`, `Optional` of any
/// setting value (`nil` removes the key), `Array`, `Set` and `String`-keyed `Dictionary` of
/// setting values, `Range` and `ClosedRange` of comparable ones (`[lower, upper]`).
///
/// An app's own types need no conformance: a ``SettingsKey`` takes, as they are,
///
/// - an enumeration with raw values of a setting type (`Int`, `String`…), `CaseIterable` or
///   not — stored as its raw value; a `CaseIterable` one allows only its cases;
/// - any `Codable` type, and lists, sets, dictionaries and optionals of them — stored as the
///   JSON `JSONEncoder` makes of it, keys sorted, dates as ISO 8601 timestamps, data as
///   base64, so people can read it; compared with `==` when `Equatable`, else by that JSON.
///
/// (An enumeration with raw values inside a list, a dictionary or an optional needs
/// `Codable`, which it gets by naming it, and is then stored by its raw values too.) A type
/// conforms to `SettingValue` itself only to choose another JSON form; with
/// `extension T: SettingValue {}`, a type of either kind above keeps the same form — but for
/// a set: `Set<T>` of a setting type is written sorted, while `JSONEncoder` writes a set of a
/// type that is only `Codable` (or one inside a `Codable` value) in the order it iterates,
/// which changes with the set's history and from one process to the next. Equal sets read as
/// the same value either way; conform `T` for a file whose bytes do not move.
///
/// A stored value that is not one of the type — the wrong JSON type, truncated base64, a URL
/// that is not one, a range whose bounds are the wrong way round, a list of more than
/// ``maxElements`` — reads as the key's default, and the key's entry reports it. A value that
/// a file cannot hold so that it reads back the same — a date outside the years 1...9999 or
/// not a number, a number that is not finite, a list of more than ``maxElements``, a
/// `Codable` value that cannot be encoded — is refused when set, and nothing is stored.
public protocol SettingValue: Sendable, Equatable {
  /// The value `json` holds, or `nil` when it holds something else.
  init?(json: JSONValue)
  /// The value as JSON. `null` only for a value that is absent (`Optional.none`): storing it
  /// removes the key.
  var json: JSONValue { get }
  /// Every value, when there are few (enumerations, `Bool`), else `nil`: what a key of this
  /// type allows unless it says otherwise (see ``SettingsKey/allowedValues``).
  static var allowedValues: [Self]? { get }
  /// What a stored value of this type looks like, for the message about one that is not:
  /// "a date such as "2026-11-29T07:30:00Z"". `nil` lets the key say it from its default.
  static var expectedJSON: String? { get }
}

extension SettingValue {
  public static var allowedValues: [Self]? { nil }
  public static var expectedJSON: String? { nil }

  /// The most elements a stored list, set or dictionary may have: one with more reads as the
  /// default (settings are small; reading one costs O(*n*) in its size).
  public static var maxElements: Int { 100_000 }
}

extension Bool: SettingValue {
  public init?(json: JSONValue) {
    guard case .bool(let value) = json else { return nil }
    self = value
  }

  public var json: JSONValue { .bool(self) }
  public static var allowedValues: [Bool]? { [true, false] }
}

extension Double: SettingValue {
  /// Accepts any JSON number.
  public init?(json: JSONValue) {
    guard case .number(let value) = json else { return nil }
    self = value.double
  }

  /// The number as JSON; `-0` is written as `0`.
  public var json: JSONValue { .number(JSONNumber(self + 0)) }
}

extension Int: SettingValue {
  /// Accepts a JSON number that is a whole number in range (`8` or `8.0`, not `8.5`).
  public init?(json: JSONValue) {
    guard case .number(let value) = json, let exact = value.integer else { return nil }
    self = exact
  }

  public var json: JSONValue { .number(JSONNumber(self)) }
}

extension String: SettingValue {
  public init?(json: JSONValue) {
    guard case .string(let value) = json else { return nil }
    self = value
  }

  public var json: JSONValue { .string(self) }
}

extension SettingValue where Self: CaseIterable {
  /// Its cases.
  public static var allowedValues: [Self]? { Array(allCases) }
}

extension SettingValue where Self: RawRepresentable, RawValue: SettingValue {
  /// The case whose raw value `json` holds.
  public init?(json: JSONValue) {
    guard let raw = RawValue(json: json), let value = Self(rawValue: raw) else { return nil }
    self = value
  }

  /// The raw value as JSON.
  public var json: JSONValue { rawValue.json }
}

extension SettingValue where Self: Codable {
  /// The value `JSONDecoder` reads from `json`, dates as ISO 8601 timestamps, data as base64.
  ///
  /// - Complexity: O(*n*) in the size of `json`, through JSON text.
  public init?(json: JSONValue) {
    guard let data = json.data,
      let value = try? CodableSetting.decoder().decode(Self.self, from: data)
    else { return nil }
    self = value
  }

  /// The JSON `JSONEncoder` makes of the value, keys sorted, dates as ISO 8601 timestamps;
  /// `null` when it cannot encode it.
  public var json: JSONValue {
    guard let data = try? CodableSetting.encoder().encode(self) else { return .null }
    return JSONValue(parsing: data) ?? .null
  }
}

extension SettingValue where Self: Codable & RawRepresentable, RawValue: SettingValue {
  /// The case whose raw value `json` holds (an enumeration with raw values is stored so,
  /// `Codable` or not).
  public init?(json: JSONValue) {
    guard let raw = RawValue(json: json), let value = Self(rawValue: raw) else { return nil }
    self = value
  }

  /// The raw value as JSON.
  public var json: JSONValue { rawValue.json }
}

/// The coders of `Codable` setting values: readable JSON, dates exact as the files write them.
enum CodableSetting {
  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      guard let text = ISO8601Timestamp.string(from: date) else {
        throw EncodingError.invalidValue(
          date, .init(codingPath: encoder.codingPath, debugDescription: "outside 1...9999"))
      }
      var container = encoder.singleValueContainer()
      try container.encode(text)
    }
    return encoder
  }

  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601Timestamp.date(from: text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "not an ISO 8601 timestamp")
      }
      return date
    }
    return decoder
  }
}
