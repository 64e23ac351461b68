import Stores

/// The types a setting can be given on the command line, as `defaults write` names them:
/// those of `diary settings set KEY VALUE --type TYPE` for a key the tool does not know.
enum SettingType: Choice, Encodable {
  case string, number, integer, bool

  var names: [String] {
    switch self {
    case .string: ["string"]
    case .number: ["number"]
    case .integer: ["integer"]
    case .bool: ["bool", "boolean"]
    }
  }

  /// The type of `value` as stored, or `nil` for `null`, an array or an object.
  init?(of value: JSONValue) {
    switch value {
    case .string: self = .string
    case .number: self = .number
    case .bool: self = .bool
    case .null, .array, .object: return nil
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}

/// What values a setting takes, as `settings list --json` prints them: a list, a range
/// `{"min": …, "max": …}`, or the rule in words.
extension AllowedValues: Encodable {
  private enum CodingKeys: String, CodingKey {
    case min, max
  }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .any:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .oneOf(let values):
      try values.encode(to: encoder)
    case .range(let min, let max):
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(min, forKey: .min)
      try container.encode(max, forKey: .max)
    case .described(let words):
      var container = encoder.singleValueContainer()
      try container.encode(words)
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
  /// The type of its values; `nil` for a key whose value is `null`, an array or an object,
  /// which the tool shows but cannot set.
  let type: SettingType?
  /// The value when none is set; `nil` for a key the tool does not know.
  let defaultValue: JSONValue?
  /// The values it takes, when not every value of its type; `nil` for any.
  let allowedValues: AllowedValues?
  /// The allowed values in words, for `settings list`: "0...24", "kilometers, miles".
  let allowedDescription: String
  /// Whether `diary` knows the key, with its type and validation.
  let isBuiltIn: Bool
  /// The JSON to store for what was typed; `nil` for a setting without a ``type``.
  ///
  /// It throws ``SettingsError/invalidValue(key:value:problem:)`` (exit 65) when the text is
  /// not a value of the setting's type, with a did-you-mean, or not valid for the key.
  let read: (@Sendable (String, LocalTime) throws -> JSONValue)?
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
    let key = SettingsStore.definitions[keyPath: keyPath]
    name = key.name
    summary = key.summary
    self.type = type
    defaultValue = key.defaultValue.json
    isBuiltIn = true
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

  /// A key the tool does not know, holding values of `type`: any value of the type; or, for
  /// no type, the JSON it holds, shown as it is.
  init(name: String, type: SettingType?) {
    self.name = name
    summary = nil
    self.type = type
    defaultValue = nil
    allowedValues = nil
    allowedDescription = type?.description ?? "JSON"
    isBuiltIn = false
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
    case nil: read = nil
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

  /// The error of a value that is not of the setting's type, as the library words one that
  /// is not valid.
  private static func invalid<Value: Sendable>(
    _ text: String, for name: String, _ type: ValueType<Value>
  )
    -> SettingsError
  {
    .invalidValue(
      key: name, value: text, problem: "is not \(type.expected)" + type.suggestion(for: text))
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
    }
  }
}
