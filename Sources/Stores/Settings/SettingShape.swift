import Foundation

/// The JSON shape of a setting's values, as the key catalog records it for a value of kind
/// `json` (a `Codable` value, a list, a dictionary): the kind of each field, the cases of an
/// enumeration, a number's range — what another program, such as `diary`, can check without
/// the app's code. A value the shape allows may still be refused by the app (its decoding, a
/// rule of its code): the shape is what can be told, never more than the app refuses.
///
/// In the catalog (`"shape"` of an entry): a kind's name (`"integer"`, `"string"`, `"date"`…,
/// or `"any"`), `{"type": "integer", "min": 0, "max": 23}`, `{"oneOf": ["easy", "fast"]}`,
/// `{"list": SHAPE}`, `{"dictionary": SHAPE}`, or `{"fields": {"hour": SHAPE, …},
/// "optional": ["note"]}`. A form this version does not know reads as `"any"`: not checked.
package indirect enum SettingShape: Equatable, Sendable {
  /// Any JSON: not checked.
  case any
  /// A value of a kind other than `json`: text, a number, a date's text…
  case value(SettingKind)
  /// A number of the kind (`number` or `integer`) in `min...max`.
  case range(SettingKind, min: Double, max: Double)
  /// One of these values (an enumeration's cases).
  case oneOf([JSONValue])
  /// A list of values of the shape.
  case list(SettingShape)
  /// An object with any keys, each holding a value of the shape.
  case dictionary(SettingShape)
  /// An object with these fields (others are allowed, and not checked); those in `optional`
  /// may be missing or `null`.
  case object([String: SettingShape], optional: Set<String>)

  // MARK: - The catalog's form

  /// The shape as the catalog writes it.
  package var json: JSONValue {
    switch self {
    case .any: .string("any")
    case .value(let kind): .string(kind.rawValue)
    case .range(let kind, let min, let max):
      .object([
        "type": .string(kind.rawValue), "min": .number(JSONNumber(min)),
        "max": .number(JSONNumber(max)),
      ])
    case .oneOf(let values): .object(["oneOf": .array(values)])
    case .list(let element): .object(["list": element.json])
    case .dictionary(let value): .object(["dictionary": value.json])
    case .object(let fields, let optional):
      .object(
        ["fields": .object(fields.mapValues(\.json))].merging(
          optional.isEmpty ? [:] : ["optional": .array(optional.sorted().map(JSONValue.string))]
        ) { a, _ in a })
    }
  }

  /// The shape the catalog's `json` describes; a form this version does not know — or not
  /// valid — is ``any``, so that a newer app's catalog is never refused, only checked less.
  /// O(size of `json`).
  package init(json: JSONValue) {
    switch json {
    case .string(let name):
      self = SettingKind(rawValue: name).map { $0 == .json ? .any : .value($0) } ?? .any
    case .object(let members) where members.count == 1:
      switch members.first {
      case ("oneOf", .array(let values))?: self = .oneOf(values)
      case ("list", let element)?: self = .list(SettingShape(json: element))
      case ("dictionary", let value)?: self = .dictionary(SettingShape(json: value))
      case ("fields", .object(let fields))?:
        self = .object(fields.mapValues(Self.init), optional: [])
      default: self = .any
      }
    case .object(let members):
      if case .string(let type)? = members["type"], let kind = SettingKind(rawValue: type),
        kind == .number || kind == .integer, case .number(let min)? = members["min"],
        case .number(let max)? = members["max"], members.count == 3
      {
        self = .range(kind, min: min.double, max: max.double)
      } else if case .object(let fields)? = members["fields"],
        case .array(let names)? = members["optional"], members.count == 2
      {
        let optional = names.compactMap { name -> String? in
          if case .string(let text) = name { text } else { nil }
        }
        self = .object(fields.mapValues(Self.init), optional: Set(optional))
      } else {
        self = .any
      }
    default: self = .any
    }
  }

  // MARK: - Checking

  /// Why `json` does not fit the shape — "has hour 25, out of range 0...23", "lacks
  /// minute" — or `nil` when it does. O(size of `json`).
  package func problem(with json: JSONValue) -> String? {
    problem(with: json, at: "")
  }

  private func problem(with json: JSONValue, at path: String) -> String? {
    func not(_ expected: String) -> String {
      (path.isEmpty ? "is not " : "has \(path) \(json.shortDescription(30)), not ") + expected
    }
    switch self {
    case .any: return nil
    case .value(let kind):
      return kind.holds(json) ? nil : not(kind.phrase)
    case .range(let kind, let min, let max):
      guard kind.holds(json), case .number(let number) = json else { return not(description) }
      guard number.double >= min, number.double <= max else {
        let range = "\(JSONNumber(min).text)...\(JSONNumber(max).text)"
        return path.isEmpty
          ? "is out of range \(range)"
          : "has \(path) \(number.text), out of range \(range)"
      }
      return nil
    case .oneOf(let values):
      let same = values.contains { value in
        if case .number(let x) = value, case .number(let y) = json { return x.double == y.double }
        return value == json
      }
      return same ? nil : not(description)
    case .list(let element):
      guard case .array(let items) = json else { return not(description) }
      for (index, item) in items.enumerated() {
        if let problem = element.problem(with: item, at: path + "[\(index)]") { return problem }
      }
      return nil
    case .dictionary(let value):
      guard case .object(let members) = json else { return not(description) }
      for name in members.keys.sorted() {
        if let member = members[name],
          let problem = value.problem(with: member, at: Self.path(path, name))
        {
          return problem
        }
      }
      return nil
    case .object(let fields, let optional):
      guard case .object(let members) = json else { return not(description) }
      for name in fields.keys.sorted() {
        guard let field = fields[name] else { continue }
        let fieldPath = Self.path(path, name)
        guard let member = members[name] else {
          if optional.contains(name) { continue }
          return "lacks \(fieldPath)"
        }
        if member == .null, optional.contains(name) { continue }
        if let problem = field.problem(with: member, at: fieldPath) { return problem }
      }
      return nil
    }
  }

  /// `path.name`, or `name` at the top.
  private static func path(_ path: String, _ name: String) -> String {
    let name =
      name.isEmpty || name.contains(where: { $0 == " " || $0 == "." }) ? quoted(name) : name
    return path.isEmpty ? name : path + "." + name
  }
}

extension SettingShape: CustomStringConvertible {
  /// The values of the shape in words: `{hour: a whole number in 0...23, note (optional):
  /// text}`, `a list of text` — cut with "…" after ``describedLength`` characters, so that a
  /// catalog's shape, edited by hand or hostile (500 lists deep), makes no message of pages.
  package var description: String {
    let whole = words
    guard whole.count > Self.describedLength else { return whole }
    return String(whole.prefix(Self.describedLength - 1)) + "…"
  }

  /// How many characters ``description`` has at most.
  package static let describedLength = 240

  /// The values of the shape in words, however long.
  private var words: String {
    switch self {
    case .any: "any JSON"
    case .value(let kind): kind.phrase
    case .range(let kind, let min, let max):
      "\(kind.phrase) in \(JSONNumber(min).text)...\(JSONNumber(max).text)"
    case .oneOf(let values):
      "one of " + values.map(\.description).joined(separator: ", ")
    case .list(let element): "a list of \(element.words)"
    case .dictionary(let value): "an object of \(value.words)"
    case .object(let fields, let optional):
      "{"
        + fields.keys.sorted().map { name in
          "\(name)\(optional.contains(name) ? " (optional)" : ""): \((fields[name] ?? .any).words)"
        }.joined(separator: ", ") + "}"
    }
  }
}

extension SettingKind {
  /// The kind's values in words: "a whole number", "text", "a date".
  var phrase: String {
    switch self {
    case .string: "text"
    case .number: "a number"
    case .integer: "a whole number"
    case .bool: "true or false"
    case .date: "a date such as \"2026-11-29T07:30:00Z\""
    case .url: "a URL"
    case .uuid: "a UUID"
    case .data: "base64 text"
    case .json: "JSON"
    }
  }

  /// Whether `json` is a value of the kind (`null` is not).
  func holds(_ json: JSONValue) -> Bool {
    switch self {
    case .string: String(json: json) != nil
    case .number: Double(json: json) != nil
    case .integer: Int(json: json) != nil
    case .bool: Bool(json: json) != nil
    case .date: Date(json: json) != nil
    case .url: URL(json: json) != nil
    case .uuid: UUID(json: json) != nil
    case .data: Data(json: json) != nil
    case .json: true
    }
  }
}
