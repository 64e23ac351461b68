import Foundation

/// A type a setting can have: converts to and from JSON, parses what a person types and
/// shows itself to people.
///
/// `Bool`, `Int`, `Double`, `String` and enumerations with `String` raw values that are
/// `CaseIterable` conform out of the box.
public protocol SettingValue: Codable, Sendable, Equatable {
  /// The value `json` holds, or `nil` when it holds something else.
  init?(json: JSONValue)
  /// The value as JSON.
  var json: JSONValue { get }
  /// Parses what a person typed, strictly: `nil` for anything that is not exactly a value.
  init?(parsing text: String)
  /// The value as people read it, and as ``init(parsing:)`` accepts it back.
  var formatted: String { get }
  /// The type in words: "number", "true or false", "text", "choice".
  static var typeDescription: String { get }
  /// All the values, when there are few (enumerations), else `nil`.
  static var allowedValues: [String]? { get }
}

extension SettingValue {
  public static var allowedValues: [String]? { nil }
}

extension Bool: SettingValue {
  public init?(json: JSONValue) {
    guard case .bool(let value) = json else { return nil }
    self = value
  }

  public var json: JSONValue { .bool(self) }

  /// Accepts true/false, yes/no, on/off and 1/0, in any case.
  public init?(parsing text: String) {
    switch text.lowercased() {
    case "true", "yes", "on", "1": self = true
    case "false", "no", "off", "0": self = false
    default: return nil
    }
  }

  public var formatted: String { self ? "true" : "false" }
  public static var typeDescription: String { "true or false" }
  public static var allowedValues: [String]? { ["true", "false"] }
}

extension Double: SettingValue {
  /// Accepts any JSON number.
  public init?(json: JSONValue) {
    guard case .number(let value) = json else { return nil }
    self = value.double
  }

  /// The number as JSON; `-0` is written as `0`.
  public var json: JSONValue { .number(JSONNumber(self + 0)) }

  /// Accepts decimal numbers such as `7`, `-0.5`, `7.25` and `1e3` (`-0` is read as `0`);
  /// refuses `nan`, `inf`, hexadecimal, surrounding spaces, trailing characters and numbers
  /// too large for a `Double`.
  public init?(parsing text: String) {
    guard Self.isDecimal(text), let value = Double(text), value.isFinite else { return nil }
    self = value + 0
  }

  public var formatted: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }

  public static var typeDescription: String { "number" }

  /// Whether `text` is `-?digits(.digits)?([eE][+-]?digits)?`.
  private static func isDecimal(_ text: String) -> Bool {
    var bytes = text.utf8[...]
    func digits() -> Bool {
      let count = bytes.prefix { (0x30...0x39).contains($0) }.count
      bytes = bytes.dropFirst(count)
      return count > 0
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    guard digits() else { return false }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
        bytes = bytes.dropFirst()
      }
      guard digits() else { return false }
    }
    return bytes.isEmpty
  }
}

extension Int: SettingValue {
  /// Accepts a JSON number that is a whole number in range (`8` or `8.0`, not `8.5`).
  public init?(json: JSONValue) {
    guard case .number(let value) = json, let exact = value.integer else { return nil }
    self = exact
  }

  public var json: JSONValue { .number(JSONNumber(self)) }

  /// Accepts an optional `-` and decimal digits, in range; nothing else.
  public init?(parsing text: String) {
    guard let value = Int(text, radix: 10), !text.hasPrefix("+") else { return nil }
    self = value
  }

  public var formatted: String { String(self) }
  public static var typeDescription: String { "whole number" }
}

extension String: SettingValue {
  public init?(json: JSONValue) {
    guard case .string(let value) = json else { return nil }
    self = value
  }

  public var json: JSONValue { .string(self) }
  public init?(parsing text: String) { self = text }
  public var formatted: String { self }
  public static var typeDescription: String { "text" }
}

extension SettingValue where Self: RawRepresentable & CaseIterable, RawValue == String {
  public init?(json: JSONValue) {
    guard case .string(let value) = json, let match = Self(rawValue: value) else { return nil }
    self = match
  }

  public var json: JSONValue { .string(rawValue) }

  /// Accepts a raw value, in any case.
  public init?(parsing text: String) {
    guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() })
    else { return nil }
    self = match
  }

  public var formatted: String { rawValue }

  public static var typeDescription: String { "choice" }

  public static var allowedValues: [String]? { allCases.map(\.rawValue) }
}
