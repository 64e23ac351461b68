import Foundation

extension SettingForm {
  /// Why the value cannot be stored as its `json`, so that a settings file holding it reads
  /// back the same value, or `nil` when it can: what ``SettingsStore/set(_:for:)`` checks
  /// before anything is stored.
  ///
  /// Refused: a value whose JSON reads back as another value, or as none — a part with no
  /// JSON form (a `Date` outside the years 1...9999 or not a number, a `Codable` value
  /// `JSONEncoder` cannot encode or that nests too deep), which `json` writes as `null`; a
  /// number that is not finite; a list, set or dictionary of more than
  /// ``SettingValue/maxElements``; nesting deeper than a settings file holds. `nil` itself
  /// (`Optional.none`, whose JSON is `null`) is stored: it removes the key.
  ///
  /// - Complexity: O(*n*) in the size of the value: its JSON is read back and compared.
  func storageProblem(_ value: Value, json: JSONValue) -> String? {
    if let problem = json.storageProblem(depth: 0) { return problem }
    guard let read = decode(json), same(read, value) else {
      if json.containsNull {
        return value is Date
          ? "cannot be written to a settings file: a date must be in the years 1 to 9999"
          : "cannot be written to a settings file: a part of it has no JSON form (a date "
            + "outside the years 1 to 9999 or not a number, or a value JSONEncoder cannot "
            + "encode or that nests too deep)"
      }
      return "cannot be written to a settings file as it is: the file would hold "
        + "\(json.shortDescription()), which reads back as another value"
    }
    return nil
  }

  /// The value for an error message, without asking the value to describe itself (a `Date`
  /// that is not finite or far outside the calendar traps when it does): the JSON it is
  /// written as, or for a value that has none, the seconds of a date or the type's name.
  func storageText(_ value: Value, json: JSONValue) -> String {
    if json.storageProblem(depth: 0) == nil, !json.containsNull { return json.text }
    if let date = value as? Date {
      return "\(JSONNumber(date.timeIntervalSinceReferenceDate).text) seconds after 2001"
    }
    return "a value of type \(Value.self)"
  }
}

extension JSONValue {
  /// How deep a setting's value may nest: a settings file holds its values two levels down
  /// (`{"values": {"key": …}}`) and is read to 512 levels.
  static let maximumSettingDepth = 500

  /// Whether the value is `null` or holds one.
  var containsNull: Bool {
    switch self {
    case .null: true
    case .bool, .number, .string: false
    case .array(let items): items.contains { $0.containsNull }
    case .object(let members): members.values.contains { $0.containsNull }
    }
  }

  /// What a settings file cannot hold in the value, at `depth` levels down, or `nil`: a number
  /// that is not finite, more than ``SettingValue/maxElements`` elements, nesting deeper than
  /// ``maximumSettingDepth``.
  fileprivate func storageProblem(depth: Int) -> String? {
    let limit = Int.maxElements
    switch self {
    case .null, .bool, .string: return nil
    case .number(let number):
      return number.double.isFinite ? nil : "is not a number a settings file can hold"
    case .array, .object:
      guard depth < Self.maximumSettingDepth else {
        return "nests deeper than \(Self.maximumSettingDepth) levels, more than a settings "
          + "file holds"
      }
      let elements: [JSONValue]
      switch self {
      case .array(let items): elements = items
      case .object(let members): elements = Array(members.values)
      default: return nil
      }
      guard elements.count <= limit else {
        return "has \(elements.count) elements, more than the \(limit) a setting can hold (a "
          + "longer list reads as the default)"
      }
      for element in elements {
        if let problem = element.storageProblem(depth: depth + 1) { return problem }
      }
      return nil
    }
  }
}
