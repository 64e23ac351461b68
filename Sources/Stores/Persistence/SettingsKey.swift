/// A typed key of a key-value file: its name, its default, what values are valid and what
/// it is for. The file stores a value for the key only once one is set explicitly.
///
/// ```swift
/// let volume = SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Speaker volume")
/// ```
public struct SettingsKey<Value: SettingValue>: Sendable {
  /// The key's name in the file.
  public let name: String
  /// The value when none is set (or the stored one is invalid).
  public let defaultValue: Value
  /// One line that says what the setting is for.
  public let summary: String
  /// The valid values in words, such as "0...24"; `nil` when every value of the type is.
  public let validValues: String?
  private let problem: @Sendable (Value) -> String?

  /// A key whose values are valid when `problem` returns `nil` for them (it returns what is
  /// wrong otherwise, such as "must not be empty").
  public init(
    _ name: String, default defaultValue: Value, summary: String, validValues: String? = nil,
    problem: @escaping @Sendable (Value) -> String? = { _ in nil }
  ) {
    self.name = name
    self.defaultValue = defaultValue
    self.summary = summary
    self.validValues = validValues
    self.problem = problem
  }

  /// Why `value` is not valid for this key, or `nil` when it is.
  public func problem(with value: Value) -> String? {
    problem(value)
  }

  /// Checks that `value` is valid for this key.
  ///
  /// - Throws: ``SettingsError/invalidValue(key:value:problem:)``.
  public func validate(_ value: Value) throws(SettingsError) {
    if let problem = problem(value) {
      throw .invalidValue(key: name, value: value.formatted, problem: problem)
    }
  }
}

extension SettingsKey where Value: Comparable {
  /// A key whose valid values are those in `range`.
  public init(
    _ name: String, default defaultValue: Value, in range: ClosedRange<Value>, summary: String
  ) {
    let valid = "\(range.lowerBound.formatted)...\(range.upperBound.formatted)"
    self.init(name, default: defaultValue, summary: summary, validValues: valid) { value in
      range.contains(value) ? nil : "is out of range \(valid)"
    }
  }
}

/// A ``SettingsKey`` of any type, working on JSON values: what a key-value file registers
/// and what a command-line tool lists, parses and validates.
public struct AnySettingsKey: Sendable {
  /// The key's name in the file.
  public let name: String
  /// One line that says what the setting is for.
  public let summary: String
  /// The value type in words, such as "number".
  public let typeDescription: String
  /// The valid values in words, such as "0...24" or "kilometers, miles"; `nil` when any
  /// value of the type is.
  public let validValues: String?
  /// The default value.
  public let defaultValue: JSONValue
  private let checkJSON: @Sendable (JSONValue) -> String?
  private let parseText: @Sendable (String) throws(SettingsError) -> JSONValue
  private let formatJSON: @Sendable (JSONValue) -> String

  public init<Value>(_ key: SettingsKey<Value>) {
    name = key.name
    summary = key.summary
    typeDescription = Value.typeDescription
    validValues = key.validValues ?? Value.allowedValues?.joined(separator: ", ")
    defaultValue = key.defaultValue.json
    let expected =
      Value.allowedValues.map { "one of " + $0.joined(separator: ", ") }
      ?? "a \(Value.typeDescription)"
    checkJSON = { json in
      guard let value = Value(json: json) else { return "expected \(expected), found \(json)" }
      return key.problem(with: value).map { "\(json) \($0)" }
    }
    parseText = { text throws(SettingsError) in
      guard let value = Value(parsing: text) else {
        throw .invalidValue(key: key.name, value: text, problem: "is not \(expected)")
      }
      try key.validate(value)
      return value.json
    }
    formatJSON = { json in Value(json: json)?.formatted ?? json.description }
  }

  /// Why `json` is not a valid stored value for this key, or `nil` when it is.
  public func problem(with json: JSONValue) -> String? {
    checkJSON(json)
  }

  /// The JSON for what a person typed, such as `"7.5"` or `"yes"`.
  ///
  /// - Throws: ``SettingsError/invalidValue(key:value:problem:)`` when `text` is not a
  ///   value of the key's type or is not valid for the key.
  public func parse(_ text: String) throws(SettingsError) -> JSONValue {
    try parseText(text)
  }

  /// `json` as people read it (and as ``parse(_:)`` accepts it back).
  public func format(_ json: JSONValue) -> String {
    formatJSON(json)
  }
}

/// Why a setting was refused.
public enum SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `value` is not a valid value for the setting `key`: `problem` says why.
  case invalidValue(key: String, value: String, problem: String)

  public var description: String {
    switch self {
    case .invalidValue(let key, let value, let problem):
      "invalid value for \(key): \(quoted(value)) \(problem)"
    }
  }
}
