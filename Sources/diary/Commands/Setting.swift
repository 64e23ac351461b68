import Foundation
import Stores

/// The types a setting can be given on the command line, as `defaults write` names them:
/// those of `diary settings set KEY VALUE --type TYPE` for a key the tool does not know —
/// every type an app's setting can have (see `SettingValue`): a date is stored as the
/// library stores a `Date` (ISO 8601), data as base64, a list, a set, a dictionary, a range
/// or a `Codable` value as the JSON typed (`--type json`).
enum SettingType: Choice {
  case string, number, integer, bool, date, url, uuid, data, json

  var names: [String] {
    switch self {
    case .string: ["string"]
    case .number: ["number"]
    case .integer: ["integer"]
    case .bool: ["bool", "boolean"]
    case .date: ["date"]
    case .url: ["url"]
    case .uuid: ["uuid"]
    case .data: ["data"]
    case .json: ["json"]
    }
  }

  static var placeholder: String { "TYPE" }

  /// The type of `value` as stored: text, a number, true or false, or JSON for the rest.
  init(of value: JSONValue) {
    switch value {
    case .string: self = .string
    case .number: self = .number
    case .bool: self = .bool
    case .null, .array, .object: self = .json
    }
  }
}

extension AllowedValues {
  /// What values a setting takes, as `settings list --json` prints them: `null` for any, a
  /// list, a range `{"min": …, "max": …}`, or the rule in words.
  var json: JSONValue {
    switch self {
    case .any: .null
    case .oneOf(let values): .array(values)
    case .range(let min, let max): .object(["min": min, "max": max])
    case .described(let words): .string(words)
    }
  }
}

/// A setting as `diary` reads, validates and shows it: a key the tool knows (its own type
/// and validation), or one only the file has, such as an app's (typed by `--type`, or by the
/// value it holds).
struct Setting: Sendable {
  let name: String
  /// What the setting is for; `nil` for a key the tool does not know.
  let summary: String?
  /// The type of its values.
  let type: SettingType
  /// The value when none is set; `nil` for a key the tool does not know.
  let defaultValue: JSONValue?
  /// The values it takes, when not every value of its type; `nil` for any.
  let allowedValues: AllowedValues?
  /// The allowed values in words, for `settings list`: "0...24", "kilometers, miles".
  let allowedDescription: String
  /// Whether `diary` knows the key, with its type and validation.
  let isBuiltIn: Bool
  /// Whether an app declares the key, as its key catalog describes it (see
  /// ``init(app:)``).
  let isAppKey: Bool
  /// Whether the key is declared, by `diary` or an app: it has a default and a summary, and
  /// reads as its default when it is not set.
  var isDeclared: Bool { isBuiltIn || isAppKey }
  /// Whether an app declares the key as an `Optional`, which `set KEY --unset` clears.
  var isOptional = false
  /// The JSON to store for what was typed.
  ///
  /// It throws ``SettingsError/invalidValue(key:value:problem:)`` (exit 65) when the text is
  /// not a value of the setting's type, with a did-you-mean, or not valid for the key.
  let read: @Sendable (String, LocalTime) throws -> JSONValue
  private let formatValue: @Sendable (JSONValue) -> String?

  /// `value` as it is typed; compact JSON for a value of another type (an array, say).
  func format(_ value: JSONValue) -> String { formatValue(value) ?? value.description }

  /// The settings `diary` knows: each key of ``SettingsKeys`` with the type it is typed as,
  /// in the order declared.
  @MainActor static let builtIn = [
    Setting(\.sleepGoal, .number, type: .number),
    Setting(\.isNotificationsEnabled, .boolean, type: .bool),
    Setting(\.distanceUnit, .choice(), type: .string),
  ]

  /// The key at `keyPath`, its values read as `valueType`.
  @MainActor
  private init<Value: SettingValue>(
    _ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>, _ valueType: ValueType<Value>,
    type: SettingType
  ) {
    let key = SettingsKeys.declared(keyPath)
    name = key.name
    summary = key.summary
    self.type = type
    defaultValue = key.defaultValue.json
    isBuiltIn = true
    isAppKey = false
    allowedValues = key.allowedValues == .any ? nil : key.allowedValues
    if valueType.cases.isEmpty {
      allowedDescription = key.allowedValues == .any ? type.description : "\(key.allowedValues)"
    } else {
      allowedDescription = valueType.cases.map(valueType.format).joined(separator: ", ")
    }
    read = { text, time in
      guard let value = valueType.read(text, time) else {
        throw Self.invalid(text, for: key.name, valueType)
      }
      try key.validate(value)
      return value.json
    }
    formatValue = { json in Value(json: json).map(valueType.format) }
  }

  /// A key the tool does not know, holding values of `type`: any value of the type.
  init(name: String, type: SettingType) {
    self.name = name
    summary = nil
    self.type = type
    defaultValue = nil
    allowedValues = nil
    allowedDescription = type.description
    isBuiltIn = false
    isAppKey = false
    func reading<Value: Sendable>(
      _ valueType: ValueType<Value>, _ json: @escaping @Sendable (Value) -> JSONValue
    ) -> @Sendable (String, LocalTime) throws -> JSONValue {
      { text, time in
        guard let value = valueType.read(text, time) else {
          throw Self.invalid(text, for: name, valueType)
        }
        return json(value)
      }
    }
    switch type {
    case .string: read = reading(.text("VALUE"), \.json)
    case .number: read = reading(.number, \.json)
    case .integer: read = reading(.integer(), \.json)
    case .bool: read = reading(.boolean, \.json)
    case .date: read = reading(.storableDate, \.json)
    case .url: read = reading(.url, \.json)
    case .uuid: read = reading(.uuid, \.json)
    case .data: read = reading(.base64, \.json)
    case .json: read = reading(.json, { $0 })
    }
    formatValue = { json in
      switch json {
      case .string(let text): text
      case .number(let number): number.text
      case .bool(let bool): String(bool)
      case .null, .array, .object: nil
      }
    }
  }

  /// An app's key, as its key catalog describes it: a value is read by the key's kind and
  /// checked against the range or the cases it allows, as diary's own keys are; a rule of the
  /// app's code (`description.hasRule`) is the app's to check when it reads.
  init(app description: SettingsKeyDescription) {
    let type = SettingType.allCases.first { $0.name == description.kind.rawValue } ?? .json
    let base = Setting(name: description.name, type: type)
    let name = description.name
    self.name = name
    summary = description.summary
    self.type = type
    defaultValue = description.defaultValue
    allowedValues = description.allowedValues == .any ? nil : description.allowedValues
    isBuiltIn = false
    isAppKey = true
    isOptional = description.isOptional
    // `null` is not typed: it is the key not set, which `reset` gives.
    let cases: [JSONValue]
    if case .oneOf(let values) = description.allowedValues {
      cases = values.filter { $0 != .null }
    } else {
      cases = []
    }
    let names = cases.map(base.format)
    var allowed: String
    switch description.allowedValues {
    case .any:
      allowed =
        description.isEnumeration
        ? "the app's cases (\(type.name))" : description.shape?.description ?? type.description
    case .oneOf: allowed = names.joined(separator: ", ")
    case .range, .described: allowed = "\(description.allowedValues)"
    }
    if description.hasRule { allowed += ", checked by the app" }
    allowedDescription = allowed
    let read: @Sendable (String, LocalTime) throws -> JSONValue = { text, time in
      var json = try base.read(text, time)
      guard description.isOfKind(json) else {
        throw SettingsError.invalidValue(
          key: name, value: text, problem: "is not \(description.expected)")
      }
      guard !cases.isEmpty else {
        if let problem = description.allowedProblem(with: json) {
          throw SettingsError.invalidValue(key: name, value: text, problem: problem)
        }
        return json
      }
      // A case in any letter case, as diary's own choices are typed.
      if case .string(let typed) = json, !cases.contains(json) {
        let matches = cases.filter {
          if case .string(let value) = $0 {
            value.lowercased() == typed.lowercased()
          } else {
            false
          }
        }
        if matches.count == 1 { json = matches[0] }
      }
      guard description.allowedProblem(with: json) == nil else {
        throw SettingsError.invalidValue(
          key: name, value: text,
          problem: "is not " + names.joined(separator: ", ", lastSeparator: " or ")
            + (type == .string ? Suggestion.phrase(for: text, among: names) : ""))
      }
      return json
    }
    // A word for nothing, refused for an optional: how to clear it.
    self.read = { text, time in
      do {
        return try read(text, time)
      } catch SettingsError.invalidValue(let key, let value, let problem)
        where description.isOptional
        && ["", "none", "null", "nil", "-"].contains(text.lowercased())
      {
        let name = Terminal.escapedKey(key)
        throw SettingsError.invalidValue(
          key: key, value: value,
          problem: problem + " — to clear the setting, run 'diary settings set \(name) --unset'"
            + " (or 'diary settings reset \(name)')")
      }
    }
    formatValue = { json in json == .null ? "" : base.format(json) }
  }

  /// The error of a value that is not of the setting's type, as the library words one that
  /// is not valid.
  private static func invalid<Value: Sendable>(
    _ text: String, for name: String, _ type: ValueType<Value>
  )
    -> SettingsError
  {
    .invalidValue(
      key: name, value: text,
      problem: numberRange(text, whole: type.expected == "a whole number")
        ?? "is not \(type.expected)" + type.suggestion(for: text))
  }
}

extension SettingType: CustomStringConvertible {
  /// The values of the type in words, for `settings list`.
  var description: String {
    switch self {
    case .string: "any text"
    case .number: "any number"
    case .integer: "any whole number"
    case .bool: "true or false"
    case .date: "an ISO 8601 date"
    case .url: "a URL"
    case .uuid: "a UUID"
    case .data: "base64 data"
    case .json: "JSON"
    }
  }
}

extension ValueType where Value == Date {
  /// A date as ``date`` reads it, in the years 1...9999 that a file can hold.
  static var storableDate: Self {
    var type = Self.date
    let read = type.read
    type.read = { text, time in read(text, time).flatMap { $0.json == .null ? nil : $0 } }
    return type
  }
}

extension ValueType where Value == URL {
  /// An absolute URL, such as `https://example.com`.
  static var url: Self {
    ValueType(
      placeholder: "URL", expected: "a URL such as https://example.com",
      read: { text, _ in URL(json: .string(text)) }, format: \.absoluteString)
  }
}

extension ValueType where Value == UUID {
  /// A UUID in hex digits of either case.
  static var uuid: Self {
    ValueType(
      placeholder: "UUID", expected: "a UUID such as 6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01",
      read: { text, _ in UUID(uuidString: text) }, format: \.uuidString)
  }
}

extension ValueType where Value == Data {
  /// Bytes as base64 text.
  static var base64: Self {
    ValueType(
      placeholder: "BASE64", expected: "base64 text such as AQID",
      read: { text, _ in Data(base64Encoded: text) }, format: { $0.base64EncodedString() })
  }
}

extension ValueType where Value == JSONValue {
  /// Any JSON value: `["a","b"]`, `{"x":1}`, `"text"`, `5`, `null`.
  static var json: Self {
    ValueType(
      placeholder: "JSON", expected: #"JSON, such as ["a","b"] or {"width":3}"#,
      read: { text, _ in JSONValue(parsing: text) }, format: \.description)
  }
}

/// "is out of range (…)" for `text` that is written as a number but that no `Double` (or, for
/// `whole`, no `Int`) holds — as a file holding it is refused — else `nil`.
func numberRange(_ text: String, whole: Bool) -> String? {
  let digits = text.utf8.drop { $0 == UInt8(ascii: "-") }
  guard !digits.isEmpty,
    digits.allSatisfy({ (0x30...0x39).contains($0) || Array("+-.eE".utf8).contains($0) }),
    let value = Double(text)
  else { return nil }
  if whole {
    guard digits.allSatisfy({ (0x30...0x39).contains($0) }), Int(text) == nil else { return nil }
    return "is out of range \(Int.min)...\(Int.max)"
  }
  if value.isInfinite { return "is out of range (too large for a number)" }
  let mantissa = text.utf8.prefix { $0 | 0x20 != UInt8(ascii: "e") }
  if value == 0 && mantissa.contains(where: { (0x31...0x39).contains($0) }) {
    return "is out of range (it would round to zero)"
  }
  return nil
}
