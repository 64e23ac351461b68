/// A typed key of the settings file: its name, its default, which values it allows and what
/// it is for. The file stores a value for the key only once one is set explicitly.
///
/// ```swift
/// let volume = SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Speaker volume")
/// let theme = SettingsKey<String>("theme", default: "light", summary: "The colour scheme") {
///   ["light", "dark"].contains($0) ? nil : "must be light or dark"
/// }
/// ```
public struct SettingsKey<Value: Sendable>: Sendable {
  /// The key's name in the file.
  public let name: String
  /// The value when none is set (or the stored one is not allowed): a value, computed once
  /// where the key is made. A key declared as a property of ``SettingsKeys`` is made once per
  /// process, the first time its key path is used, so a default such as `UUID()` gives the
  /// same value on every read, in ``SettingsStore/entries`` and in the key catalog.
  public let defaultValue: Value
  /// One line that says what the setting is for.
  public let summary: String
  /// The values the key allows.
  public let allowedValues: AllowedValues
  /// Whether the key has a rule of code (a `problem` closure) beyond ``allowedValues``: a
  /// rule other programs cannot check, only the app (see the key catalog).
  let hasRule: Bool
  /// How the key's values are stored (see ``SettingForm``).
  let form: SettingForm<Value>
  private let problem: @Sendable (Value) -> String?

  private init(
    _ name: String, _ defaultValue: Value, _ summary: String, form: SettingForm<Value>,
    allowedValues: AllowedValues?, hasRule: Bool, problem: (@Sendable (Value) -> String?)?
  ) {
    self.name = name
    self.defaultValue = defaultValue
    self.summary = summary
    self.form = form
    self.allowedValues =
      allowedValues ?? form.allValues.map { .oneOf($0.map(form.encode)) } ?? .any
    self.hasRule = hasRule
    self.problem = problem ?? { _ in nil }
  }

  /// Why `value` is not allowed for this key, or `nil` when it is.
  public func problem(with value: Value) -> String? {
    problem(value)
  }

  /// Checks that `value` is allowed for this key.
  ///
  /// - Throws: ``SettingsError/invalidValue(key:value:problem:)``.
  public func validate(_ value: Value) throws(SettingsError) {
    if let problem = problem(value) {
      throw .invalidValue(key: name, value: form.encode(value).text, problem: problem)
    }
  }

  /// `value` as the file stores it.
  func json(_ value: Value) -> JSONValue { form.encode(value) }

  /// The default as the file would store it.
  var defaultJSON: JSONValue { form.encode(defaultValue) }
}

// One initialiser per way a type can be stored (see `SettingForm`): the type needs no
// conformance of its own. A type that is several of these is stored the first way it can be:
// as a `SettingValue`, else by its raw value, else as `Codable`.

extension SettingsKey where Value: SettingValue {
  /// A key whose values are allowed when `problem` returns `nil` for them (it returns what is
  /// wrong otherwise, such as "must be light or dark"); `allowedValues` says which they are,
  /// for people and tools (by default every value of the type, or its few values).
  public init(
    _ name: String, default defaultValue: Value, summary: String,
    allowedValues: AllowedValues? = nil,
    problem: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      name, defaultValue, summary, form: .setting, allowedValues: allowedValues,
      hasRule: problem != nil, problem: problem)
  }
}

extension SettingsKey where Value: Comparable & SettingValue {
  /// A key whose allowed values are those in `range`.
  public init(
    _ name: String, default defaultValue: Value, in range: ClosedRange<Value>, summary: String
  ) {
    let allowed = AllowedValues.range(min: range.lowerBound.json, max: range.upperBound.json)
    self.init(
      name, defaultValue, summary, form: .setting, allowedValues: allowed, hasRule: false
    ) { value in
      range.contains(value) ? nil : "is out of range \(allowed)"
    }
  }
}

extension SettingsKey where Value: RawRepresentable, Value.RawValue: SettingValue {
  /// A key of an enumeration with raw values (`enum Sort: String { … }`), stored as its raw
  /// value; a `CaseIterable` one allows only its cases. The enumeration needs no conformance
  /// of its own. `problem` and `allowedValues` as for any key.
  @_disfavoredOverload
  public init(
    _ name: String, default defaultValue: Value, summary: String,
    allowedValues: AllowedValues? = nil,
    problem: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      name, defaultValue, summary, form: .rawValue, allowedValues: allowedValues,
      hasRule: problem != nil, problem: problem)
  }
}

extension SettingsKey where Value: Codable {
  /// A key of a `Codable` type — a struct, an enumeration with associated values, or a list,
  /// set, dictionary or optional of them — stored as the JSON `JSONEncoder` makes of it, keys
  /// sorted, dates as ISO 8601 timestamps, so people can read it. The type needs no
  /// conformance of its own (`Equatable` is used to compare values when it is there; else
  /// values are compared by their JSON). `problem` and `allowedValues` as for any key.
  @_disfavoredOverload
  public init(
    _ name: String, default defaultValue: Value, summary: String,
    allowedValues: AllowedValues? = nil,
    problem: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      name, defaultValue, summary, form: .codable, allowedValues: allowedValues,
      hasRule: problem != nil, problem: problem)
  }
}

extension SettingsKey where Value: Codable & RawRepresentable, Value.RawValue: SettingValue {
  /// A key of a `Codable` enumeration with raw values: stored as its raw value, as one that
  /// is not `Codable` is.
  @_disfavoredOverload
  public init(
    _ name: String, default defaultValue: Value, summary: String,
    allowedValues: AllowedValues? = nil,
    problem: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      name, defaultValue, summary, form: .rawValue, allowedValues: allowedValues,
      hasRule: problem != nil, problem: problem)
  }
}

/// The values a setting allows, as people and tools list them.
public enum AllowedValues: Equatable, Sendable, CustomStringConvertible {
  /// Every value of its type.
  case any
  /// The values from `min` through `max`.
  case range(min: JSONValue, max: JSONValue)
  /// One of these.
  case oneOf([JSONValue])
  /// Those a rule of the key allows, in words.
  case described(String)

  /// "0...24", "kilometers, miles", the rule's words; "any" for ``any``.
  public var description: String {
    switch self {
    case .any: "any"
    case .range(let min, let max): "\(min.text)...\(max.text)"
    case .oneOf(let values): values.map(\.text).joined(separator: ", ")
    case .described(let words): words
    }
  }
}

/// A ``SettingsKey`` of any type, working on JSON values: what a ``SettingsStore`` registers,
/// and lists with what its file holds (see ``SettingsStore/entries``).
public struct AnySettingsKey: Sendable {
  /// The key's name in the file.
  public let name: String
  /// One line that says what the setting is for.
  public let summary: String
  /// The values the key allows.
  public let allowedValues: AllowedValues
  /// The default value.
  public let defaultValue: JSONValue
  /// The key as the key catalog describes it to other programs (see ``SettingsCatalog``).
  package let keyDescription: SettingsKeyDescription
  /// The type of its values, as Swift names it (`Int`, `Swift.Optional<Swift.String>`), or
  /// the kind the key catalog describes.
  package let typeName: String
  private let checkJSON: @Sendable (JSONValue) -> String?
  private let sameValue: @Sendable (JSONValue?, JSONValue?) -> Bool

  public init<Value>(_ key: SettingsKey<Value>) {
    name = key.name
    summary = key.summary
    allowedValues = key.allowedValues
    defaultValue = key.defaultJSON
    keyDescription = SettingsKeyDescription(key)
    typeName = String(reflecting: Value.self)
    let expected: String
    let form = key.form
    switch (key.allowedValues, key.defaultJSON) {
    case (.oneOf(let values), _):
      expected = "one of " + values.map(\.text).joined(separator: ", ")
    case _ where form.expectedJSON != nil: expected = form.expectedJSON ?? ""
    case (_, .number):
      // A type that refuses a fraction takes whole numbers only.
      expected = form.decode(.number(0.5)) == nil ? "a whole number" : "a number"
    case (_, .bool): expected = "true or false"
    case (_, .string): expected = "text"
    default: expected = "a value such as \(key.defaultJSON.shortDescription())"
    }
    checkJSON = { json in
      guard let value = form.decode(json) else {
        return "expected \(expected), found \(json.shortDescription())"
      }
      return key.problem(with: value).map { "\(json.shortDescription()) \($0)" }
    }
    sameValue = { a, b in
      a == b
        || form.same(KeyValues.value(for: key, stored: a), KeyValues.value(for: key, stored: b))
    }
  }

  /// The key `description` describes, as another program than the app that declared it sees
  /// it (see ``SettingsCatalog``): its stored values are checked against the description —
  /// their kind, the range or the cases it allows — not against a rule of the app's code.
  package init(described description: SettingsKeyDescription) {
    name = description.name
    summary = description.summary
    allowedValues = description.allowedValues
    defaultValue = description.defaultValue
    keyDescription = description
    typeName = description.kind.rawValue + (description.isOptional ? "?" : "")
    checkJSON = { description.problem(with: $0) }
    sameValue = { description.readsSame($0, $1) }
  }

  /// The setting at `keyPath` of ``SettingsKeys``, built in or an app's own:
  /// `.key(\.theme)`.
  public static func key<Value>(_ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>) -> Self {
    AnySettingsKey(SettingsKeys.declared(keyPath))
  }

  /// Whether `other` is this key declared again: the same name, type, default, allowed values
  /// and kind of rule (the summary may differ).
  package func isSame(as other: AnySettingsKey) -> Bool {
    var description = other.keyDescription
    description.summary = keyDescription.summary
    return typeName == other.typeName && description == keyDescription
  }

  /// The key as a message names it: `Int (default 5, 0...10)`.
  var declaration: String {
    var words = "\(typeName) (default \(defaultValue)"
    if allowedValues != .any { words += ", \(allowedValues)" }
    if keyDescription.hasRule { words += ", with a rule" }
    return words + ")"
  }

  /// Why `json` is not an allowed stored value for this key, or `nil` when it is.
  public func problem(with json: JSONValue) -> String? {
    checkJSON(json)
  }

  /// Whether the stored values `a` and `b` (`nil`: not set) read as the same value: a value
  /// that is not valid reads as the default.
  public func readsSame(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
    sameValue(a, b)
  }
}

/// Why a setting was refused.
public enum SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `value` is not an allowed value for the setting `key`: `problem` says why.
  case invalidValue(key: String, value: String, problem: String)

  public var description: String {
    switch self {
    case .invalidValue(let key, let value, let problem):
      "invalid value for \(key): \(quoted(value)) \(problem)"
    }
  }
}

extension JSONValue {
  /// The value as people read it: text without quotes, a number's digits, compact JSON for
  /// the rest.
  var text: String {
    if case .string(let text) = self { return text }
    return description
  }
}
