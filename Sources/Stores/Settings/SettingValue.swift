import Foundation

/// A type a setting can have: it converts to and from JSON, the form the settings file holds.
///
/// `Bool`, `Int`, `Double`, `String` and enumerations with `String` raw values that are
/// `CaseIterable` conform out of the box.
public protocol SettingValue: Sendable, Equatable {
  /// The value `json` holds, or `nil` when it holds something else.
  init?(json: JSONValue)
  /// The value as JSON.
  var json: JSONValue { get }
  /// Every value, when there are few (enumerations, `Bool`), else `nil`: what a key of this
  /// type allows unless it says otherwise (see ``SettingsKey/allowedValues``).
  static var allowedValues: [Self]? { get }
}

extension SettingValue {
  public static var allowedValues: [Self]? { nil }
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

extension SettingValue where Self: RawRepresentable & CaseIterable, RawValue == String {
  public init?(json: JSONValue) {
    guard case .string(let value) = json, let match = Self(rawValue: value) else { return nil }
    self = match
  }

  public var json: JSONValue { .string(rawValue) }

  public static var allowedValues: [Self]? { Array(allCases) }
}
