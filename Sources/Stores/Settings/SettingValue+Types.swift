import Foundation

extension Date: SettingValue {
  /// Reads an ISO 8601 timestamp (see `ISO8601Timestamp.date(from:)`).
  public init?(json: JSONValue) {
    guard case .string(let text) = json, let date = ISO8601Timestamp.date(from: text) else {
      return nil
    }
    self = date
  }

  /// The UTC timestamp that reads back as exactly this date, as the store files write dates;
  /// `null` for a date outside the years 1...9999, which cannot be stored.
  public var json: JSONValue { ISO8601Timestamp.string(from: self).map(JSONValue.string) ?? .null }
  public static var expectedJSON: String? { "a date such as \"2026-11-29T07:30:00Z\"" }
}

extension Data: SettingValue {
  /// Reads base64 text; truncated or other text is not data.
  public init?(json: JSONValue) {
    guard case .string(let text) = json, let data = Data(base64Encoded: text) else { return nil }
    self = data
  }

  /// The bytes as base64 text.
  public var json: JSONValue { .string(base64EncodedString()) }
  public static var expectedJSON: String? { "base64 text" }
}

extension URL: SettingValue {
  /// Reads an absolute URL (one with a scheme, such as `https:` or `file:`).
  public init?(json: JSONValue) {
    guard case .string(let text) = json, let url = URL(string: text), url.scheme != nil else {
      return nil
    }
    self = url
  }

  /// The URL's absolute string.
  public var json: JSONValue { .string(absoluteString) }
  public static var expectedJSON: String? { "a URL such as \"https://example.com\"" }
}

extension UUID: SettingValue {
  /// Reads `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in hex digits of either case.
  public init?(json: JSONValue) {
    guard case .string(let text) = json, let uuid = UUID(uuidString: text) else { return nil }
    self = uuid
  }

  /// The UUID as `uuidString` writes it, as the store files write ids.
  public var json: JSONValue { .string(uuidString) }
  public static var expectedJSON: String? { "a UUID" }
}

extension Optional: SettingValue where Wrapped: SettingValue {
  /// `nil` for `null`, else the wrapped value `json` holds.
  public init?(json: JSONValue) {
    if json == .null {
      self = .none
      return
    }
    guard let value = Wrapped(json: json) else { return nil }
    self = .some(value)
  }

  /// The wrapped value's JSON, `null` for `nil`: setting `nil` removes the key.
  public var json: JSONValue { map(\.json) ?? .null }
  public static var allowedValues: [Self]? {
    Wrapped.allowedValues.map { [nil] + $0.map(Optional.some) }
  }
  public static var expectedJSON: String? { Wrapped.expectedJSON.map { "null or \($0)" } }
}

extension Array: SettingValue where Element: SettingValue {
  /// Reads a JSON list whose every element is one of `Element`, of at most
  /// ``SettingValue/maxElements``. O(*n*).
  public init?(json: JSONValue) {
    guard case .array(let items) = json, items.count <= Self.maxElements else { return nil }
    var elements: [Element] = []
    elements.reserveCapacity(items.count)
    for item in items {
      guard let element = Element(json: item) else { return nil }
      elements.append(element)
    }
    self = elements
  }

  public var json: JSONValue { .array(map(\.json)) }
  public static var expectedJSON: String? { "a list" }
}

extension Set: SettingValue where Element: SettingValue {
  /// Reads a JSON list whose every element is one of `Element` (a repeated one counts once),
  /// of at most ``SettingValue/maxElements``. O(*n*).
  public init?(json: JSONValue) {
    guard let elements = [Element](json: json) else { return nil }
    self = Set(elements)
  }

  /// A JSON list of the elements, in the order of their JSON text, so that equal sets are
  /// written alike. O(*n* log *n*).
  public var json: JSONValue {
    .array(
      map { ($0.json.description, $0.json) }
        .sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map(\.1))
  }

  public static var expectedJSON: String? { "a list" }
}

extension Dictionary: SettingValue where Key == String, Value: SettingValue {
  /// Reads a JSON object whose every value is one of `Value`, of at most
  /// ``SettingValue/maxElements`` keys. O(*n*).
  public init?(json: JSONValue) {
    guard case .object(let members) = json, members.count <= Self.maxElements else {
      return nil
    }
    var values: [String: Value] = [:]
    values.reserveCapacity(members.count)
    for (key, member) in members {
      guard let value = Value(json: member) else { return nil }
      values[key] = value
    }
    self = values
  }

  public var json: JSONValue { .object(mapValues(\.json)) }
  public static var expectedJSON: String? { "an object" }
}

extension Range: SettingValue where Bound: SettingValue {
  /// Reads `[lower, upper]` with `lower <= upper`, as `Codable` writes a range.
  public init?(json: JSONValue) {
    guard let (lower, upper) = bounds(Bound.self, json), lower <= upper else { return nil }
    self = lower..<upper
  }

  public var json: JSONValue { .array([lowerBound.json, upperBound.json]) }
  public static var expectedJSON: String? { "[lower, upper] with lower <= upper" }
}

extension ClosedRange: SettingValue where Bound: SettingValue {
  /// Reads `[lower, upper]` with `lower <= upper`, as `Codable` writes a range.
  public init?(json: JSONValue) {
    guard let (lower, upper) = bounds(Bound.self, json), lower <= upper else { return nil }
    self = lower...upper
  }

  public var json: JSONValue { .array([lowerBound.json, upperBound.json]) }
  public static var expectedJSON: String? { "[lower, upper] with lower <= upper" }
}

/// The two bounds `json` holds, as `[lower, upper]`, or `nil`.
private func bounds<Bound: SettingValue>(_: Bound.Type, _ json: JSONValue) -> (Bound, Bound)? {
  guard case .array(let items) = json, items.count == 2, let lower = Bound(json: items[0]),
    let upper = Bound(json: items[1])
  else { return nil }
  return (lower, upper)
}
