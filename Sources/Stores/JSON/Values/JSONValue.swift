/// Any JSON value: what a key-value file holds for each key, whatever the key's type.
///
/// A number keeps its literal text (see ``JSONNumber``), so a value read from a file is
/// written back exactly as it was: `9007199254740993` is not rounded to a `Double`.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])
}

extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(JSONNumber(value))
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes a number as its `Double` (`Encoder` has no literal numbers).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value.double)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension JSONValue: JSONCodable {
  /// The deepest nesting written, as deep as a file may be read.
  private static let maxDepth = 512

  /// Reads any value; a number keeps its text. O(size of the value).
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    switch reader.kind {
    case .null:
      _ = reader.readNull()
      self = .null
    case .bool: self = .bool(try reader.readBool())
    case .number: self = .number(JSONNumber(validated: reader.numberBytes()))
    case .string: self = .string(try reader.readString())
    case .array: self = .array(try [JSONValue](from: &reader))
    case .object: self = .object(try [String: JSONValue](from: &reader))
    }
  }

  /// Writes the value; a number as its text.
  ///
  /// - Throws: For a number that is not finite, or nesting deeper than 512 levels.
  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    switch self {
    case .null: writer.writeNull()
    case .bool(let value): writer.writeBool(value)
    case .number(let value):
      guard value.double.isFinite else {
        throw JSONCodingError("\(value.double) is not a number JSON can hold")
      }
      writer.writeRaw(value.text)
    case .string(let value): writer.writeString(value)
    case .array(let values):
      guard writer.depth < Self.maxDepth else { throw Self.tooDeep }
      try values.write(to: &writer)
    case .object(let members):
      guard writer.depth < Self.maxDepth else { throw Self.tooDeep }
      try members.write(to: &writer)
    }
  }

  private static let tooDeep = JSONCodingError("nested deeper than \(maxDepth) levels")
}

extension JSONValue: CustomStringConvertible {
  /// The value as compact JSON, for messages: `8.5`, `true`, `"miles"`, `[1,2]`.
  public var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .number(let value): value.text
    case .string(let value): quoted(value)
    case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      "{"
        + members.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\($0.value)" }
        .joined(separator: ",") + "}"
    }
  }
}
