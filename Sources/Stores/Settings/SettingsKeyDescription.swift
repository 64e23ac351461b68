import Foundation

/// What a setting's values are in the file, as tools type them (`diary settings set --type`).
package enum SettingKind: String, CaseIterable, Sendable {
  /// Text.
  case string
  /// Any number.
  case number
  /// A whole number.
  case integer
  /// `true` or `false`.
  case bool
  /// An ISO 8601 timestamp, as the files write dates.
  case date
  /// An absolute URL's text.
  case url
  /// A UUID's text.
  case uuid
  /// Base64 text.
  case data
  /// Any other JSON: a list, a set, a dictionary, a range, a `Codable` value.
  case json
}

/// A setting as the key catalog describes it to other programs (see ``SettingsCatalog``):
/// everything about a registered key but its code — its name, the kind of its values, its
/// default as the file stores it, its summary, and the values it allows when they can be
/// written down (a range, the cases of an enumeration). A rule of code (a `problem` closure)
/// cannot be: ``hasRule`` says there is one, which only the app checks.
package struct SettingsKeyDescription: Equatable, Sendable {
  /// The key's name in the file.
  package var name: String
  /// The kind of its stored values.
  package var kind: SettingKind
  /// Whether it is an `Optional`: `null` (not set) is one of its values.
  package var isOptional: Bool
  /// Whether its values are the raw values of an enumeration (`kind` is the raw values'
  /// kind): only the enumeration's cases are values — listed in ``allowedValues`` when the
  /// enumeration is `CaseIterable`, else known to the app alone.
  package var isEnumeration: Bool
  /// The default value, as the file would store it.
  package var defaultValue: JSONValue
  /// One line that says what the setting is for.
  package var summary: String
  /// The values it allows, as the key says.
  package var allowedValues: AllowedValues
  /// Whether it has a rule of code beyond ``allowedValues``, which only the app checks.
  package var hasRule: Bool
  /// The JSON shape of its values, for a value of kind `json` whose shape its type tells
  /// (see ``SettingShape``); `nil`: not checked beyond the kind.
  package var shape: SettingShape?

  package init(
    name: String, kind: SettingKind, isOptional: Bool = false, isEnumeration: Bool = false,
    defaultValue: JSONValue, summary: String, allowedValues: AllowedValues = .any,
    hasRule: Bool = false, shape: SettingShape? = nil
  ) {
    self.name = name
    self.kind = kind
    self.isOptional = isOptional
    self.isEnumeration = isEnumeration
    self.defaultValue = defaultValue
    self.summary = summary
    self.allowedValues = allowedValues
    self.hasRule = hasRule
    self.shape = shape == .any ? nil : shape
  }

  /// The description of `key`.
  init<Value>(_ key: SettingsKey<Value>) {
    let defaultJSON = key.defaultJSON
    let form = key.form
    let (kind, isEnumeration) =
      form.storedType.flatMap(Self.kind(of:)).map { ($0.0, $0.1 || form.isEnumeration) }
      ?? Self.kind(ofStored: defaultJSON) {
        form.decode(.number(0.5)) != nil
      }
    self.init(
      name: key.name, kind: kind, isOptional: form.decode(.null) != nil,
      isEnumeration: isEnumeration, defaultValue: defaultJSON, summary: key.summary,
      allowedValues: key.allowedValues, hasRule: key.hasRule,
      shape: kind == .json ? Self.shape(of: key.defaultValue, stored: defaultJSON) : nil)
  }

  /// The shape of `value`'s type, recorded by encoding it (see
  /// ``SettingShape/recording(_:)``), when it is `Encodable` and its stored JSON, `stored`,
  /// fits that shape (a type whose ``SettingValue/json`` is not its `Codable` form is not
  /// checked); else `nil`.
  private static func shape(of value: Any, stored: JSONValue) -> SettingShape? {
    guard stored != .null, let encodable = value as? any Encodable,
      let shape = SettingShape.recording(encodable), shape != .any,
      shape.problem(with: stored) == nil
    else { return nil }
    return shape
  }

  /// The kinds of the types the package makes setting values.
  private static let kinds: [ObjectIdentifier: SettingKind] = [
    ObjectIdentifier(String.self): .string, ObjectIdentifier(Double.self): .number,
    ObjectIdentifier(Int.self): .integer, ObjectIdentifier(Bool.self): .bool,
    ObjectIdentifier(Date.self): .date, ObjectIdentifier(URL.self): .url,
    ObjectIdentifier(UUID.self): .uuid, ObjectIdentifier(Data.self): .data,
  ]

  /// The kind of `type`'s values, and whether they are an enumeration's raw values: that of
  /// a package type, of an optional's wrapped type, of an enumeration's raw values — or `nil`
  /// for another type.
  private static func kind(of type: any SettingValue.Type) -> (SettingKind, Bool)? {
    if let kind = kinds[ObjectIdentifier(type)] { return (kind, false) }
    if let optional = type as? any OptionalSetting.Type {
      return kind(of: optional.wrappedSettingType)
    }
    if let enumeration = type as? any RawRepresentable.Type {
      func rawType<Raw: RawRepresentable>(_: Raw.Type) -> Any.Type { Raw.RawValue.self }
      guard let raw = rawType(enumeration) as? any SettingValue.Type,
        let (kind, _) = self.kind(of: raw)
      else { return nil }
      return (kind, true)
    }
    return nil
  }

  /// The kind of a value stored as `json`, for a type of the app's own: text, a number (whole
  /// unless `acceptsFraction`), true or false, else JSON.
  private static func kind(ofStored json: JSONValue, acceptsFraction: () -> Bool) -> (
    SettingKind, Bool
  ) {
    switch json {
    case .string: (.string, false)
    case .number: (acceptsFraction() ? .number : .integer, false)
    case .bool: (.bool, false)
    case .null, .array, .object: (.json, false)
    }
  }
}

/// An `Optional` setting value, whose wrapped type is found at run time.
private protocol OptionalSetting {
  static var wrappedSettingType: any SettingValue.Type { get }
}

extension Optional: OptionalSetting where Wrapped: SettingValue {
  fileprivate static var wrappedSettingType: any SettingValue.Type { Wrapped.self }
}

// MARK: - Checking stored values without the key's code

extension SettingsKeyDescription {
  /// What a stored value of this key looks like, for the message about one that is not.
  package var expected: String {
    if case .oneOf(let values) = allowedValues {
      return "one of " + values.map(\.text).joined(separator: ", ")
    }
    let phrase =
      switch kind {
      case .string: "text"
      case .number: "a number"
      case .integer: "a whole number"
      case .bool: "true or false"
      case .date: Date.expectedJSON ?? ""
      case .url: URL.expectedJSON ?? ""
      case .uuid: UUID.expectedJSON ?? ""
      case .data: Data.expectedJSON ?? ""
      case .json: "JSON"
      }
    return isOptional ? "null or \(phrase)" : phrase
  }

  /// Whether `json` is a value of ``kind`` (or `null` for an optional).
  package func isOfKind(_ json: JSONValue) -> Bool {
    json == .null ? isOptional : kind.holds(json)
  }

  /// Why `json`, a value of ``kind``, is not one of ``allowedValues`` — "is out of range
  /// 0...10", "is not one of light, dark" — or `nil` when it is, or when only the app can
  /// tell (a rule in words, a range of a kind without an order).
  package func allowedProblem(with json: JSONValue) -> String? {
    if json != .null, let shape, let problem = shape.problem(with: json) {
      let expected = shape.description
      if problem.hasPrefix("is not ") { return problem }
      return problem + "; expected "
        + (expected.count <= 200 ? expected : expected.prefix(199) + "…")
    }
    switch allowedValues {
    case .any, .described: return nil
    case .oneOf(let values):
      return values.contains { same(json, $0) } ? nil : "is not one of \(allowedValues)"
    case .range(let min, let max):
      guard let below = order(json, min), let above = order(max, json) else { return nil }
      return below || above ? "is out of range \(allowedValues)" : nil
    }
  }

  /// Why the stored `json` is not a valid value of the key, as the key's own check words it
  /// ("expected a whole number, found "x"", "25 is out of range 0...10"), or `nil` when it
  /// is valid as far as the description tells (the app may refuse more: see ``hasRule``).
  package func problem(with json: JSONValue) -> String? {
    let found = json.shortDescription()
    guard isOfKind(json) else { return "expected \(expected), found \(found)" }
    guard let problem = allowedProblem(with: json) else { return nil }
    if case .oneOf = allowedValues { return "expected \(expected), found \(found)" }
    return "\(found) \(problem)"
  }

  /// Whether the stored values `a` and `b` (`nil`: not set) read as the same value: a value
  /// that is not valid reads as the default.
  package func readsSame(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
    func read(_ json: JSONValue?) -> JSONValue {
      guard let json, problem(with: json) == nil else { return defaultValue }
      return json
    }
    return a == b || same(read(a), read(b))
  }

  /// Whether `a` and `b` are the same value of ``kind``: numbers by their value.
  private func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    if case .number(let x) = a, case .number(let y) = b { return x.double == y.double }
    return a == b
  }

  /// Whether `a` comes before `b` in the order of ``kind``, or `nil` when the kind has none
  /// the description can apply (or either is not of the kind).
  private func order(_ a: JSONValue, _ b: JSONValue) -> Bool? {
    switch (kind, a, b) {
    case (.number, .number(let x), .number(let y)), (.integer, .number(let x), .number(let y)):
      x.double < y.double
    case (.string, .string(let x), .string(let y)): x < y
    case (.date, _, _):
      Date(json: a).flatMap { x in Date(json: b).map { x < $0 } }
    default: nil
    }
  }
}
