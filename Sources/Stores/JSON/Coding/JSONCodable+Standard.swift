import Foundation

// The store files' scalars and collections, written as `JSONEncoder` writes them with the
// stores' options, read as `JSONDecoder` reads them, with a message for each wrong value.

extension Bool: JSONCodable {
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try reader.readBool()
  }

  public func write(to writer: inout JSONWriter) {
    writer.writeBool(self)
  }
}

extension Int: JSONCodable {
  /// Reads a whole number: `2`, but also `2.0` or `2e0`, as `JSONDecoder` does.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try reader.readInt()
  }

  public func write(to writer: inout JSONWriter) {
    writer.writeInt(self)
  }
}

extension Double: JSONCodable {
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try reader.readDouble()
  }

  /// - Throws: When the number is not finite: JSON has no NaN or infinity.
  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    guard isFinite else { throw JSONCodingError("\(self) is not a number JSON can hold") }
    writer.writeNumber(self)
  }
}

extension String: JSONCodable {
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try reader.readString()
  }

  public func write(to writer: inout JSONWriter) {
    writer.writeString(self)
  }
}

extension UUID: JSONCodable {
  /// An example in messages.
  private static let example = "\"6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01\""

  /// Reads `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in hex digits of either case, as
  /// `UUID(uuidString:)` does.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try reader.withString(expected: "a UUID such as \(Self.example)") {
      text throws(JSONCodingError) in
      guard let uuid = Self.parse(text) else {
        throw JSONCodingError(
          "expected a UUID such as \(Self.example), found \(quoted(String(decoding: text, as: UTF8.self)))"
        )
      }
      return uuid
    }
  }

  private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard text.count == 36, text[8] == Byte.minus, text[13] == Byte.minus,
      text[18] == Byte.minus, text[23] == Byte.minus
    else { return nil }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let valid = hexValues.withUnsafeBufferPointer { hex in
      withUnsafeMutableBytes(of: &bytes) { output in
        var invalid: UInt8 = 0
        var i = 0
        for k in 0..<16 {
          if k == 4 || k == 6 || k == 8 || k == 10 {
            i += 1  // The hyphen.
          }
          let high = hex[Int(text[i])]
          let low = hex[Int(text[i + 1])]
          invalid |= high | low
          output[k] = high << 4 | low & 0xF
          i += 2
        }
        return invalid & 0x10 == 0
      }
    }
    return valid ? UUID(uuid: bytes) : nil
  }

  /// The value of each byte as a hex digit (either case), or 0x10 when it is not one.
  private static let hexValues: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
    switch UInt8(byte) {
    case Byte.zero...Byte.nine: UInt8(byte) - Byte.zero
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
    default: 0x10
    }
  }

  /// Writes the UUID as `uuidString` does: upper-case hex digits, hyphenated.
  public func write(to writer: inout JSONWriter) {
    withUnsafeBytes(of: uuid) { bytes in
      writer.writeQuoted(length: 36) { output in
        func put(_ k: Int, at offset: Int) {
          copyPair(of: hexPairs, at: Int(bytes[k]), to: output + offset)
        }
        // 8-4-4-4-12 digits.
        for k in 0..<4 { put(k, at: 2 * k) }
        output[8] = Byte.minus
        for k in 4..<6 { put(k, at: 2 * k + 1) }
        output[13] = Byte.minus
        for k in 6..<8 { put(k, at: 2 * k + 2) }
        output[18] = Byte.minus
        for k in 8..<10 { put(k, at: 2 * k + 3) }
        output[23] = Byte.minus
        for k in 10..<16 { put(k, at: 2 * k + 4) }
      }
    }
  }
}

extension Date: JSONCodable {
  /// An example in messages.
  private static let example = "\"2026-11-29T07:30:00Z\""

  /// Reads an ISO 8601 timestamp (see `ISO8601Timestamp.date(from:)`).
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try reader.withString(expected: "a date such as \(Self.example)") {
      text throws(JSONCodingError) in
      switch ISO8601Timestamp.parse(text) {
      case .date(let date):
        return date
      case .outOfRange:
        throw JSONCodingError(
          "expected a date in the years 1…9999 (UTC), found "
            + quoted(String(decoding: text, as: UTF8.self)))
      case .invalid:
        throw JSONCodingError(
          "expected a date such as \(Self.example), found "
            + quoted(String(decoding: text, as: UTF8.self)))
      }
    }
  }

  /// Writes the exact UTC timestamp (see `ISO8601Timestamp.string(from:)`).
  ///
  /// - Throws: When the date falls outside the years 1…9999.
  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    guard let (whole, fraction) = ISO8601Timestamp.parts(of: self) else {
      throw JSONCodingError("its year is outside 1…9999")
    }
    writer.writeQuoted(length: ISO8601Timestamp.length(of: fraction)) { output in
      ISO8601Timestamp.write(whole: whole, fraction: fraction, to: output)
    }
  }
}

extension Optional: JSONCodable where Wrapped: JSONCodable {
  /// Reads `null` as `nil`, anything else as a `Wrapped`.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = reader.readNull() ? nil : try Wrapped(from: &reader)
  }

  /// Writes `null` for `nil` (in an object, a `nil` member is left out instead).
  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    guard let self else { return writer.writeNull() }
    try self.write(to: &writer)
  }

  public static var valueOfMissingMember: Self? { .some(nil) }
  public var isLeftOut: Bool { self == nil }
}

extension Array: JSONCodable where Element: JSONCodable {
  /// Reads a JSON array. An error in an element names its index.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    var elements: [Element] = []
    try reader.readArray { reader throws(JSONCodingError) in
      elements.append(try Element(from: &reader))
    }
    self = elements
  }

  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    writer.beginArray()
    var failure: JSONCodingError?
    // Through the buffer, so that each element is written in place rather than copied out.
    withUnsafeBufferPointer { elements in
      for index in elements.indices {
        writer.element()
        do throws(JSONCodingError) {
          try Element.write(elements.baseAddress! + index, to: &writer)
        } catch {
          failure = error.at(.index(index))
          return
        }
      }
    }
    if let failure { throw failure }
    writer.endArray()
  }
}

extension Set: JSONCodable where Element: JSONCodable {
  /// Reads a JSON array; an element written twice is held once. An error in an element
  /// names its index.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = Set(try [Element](from: &reader))
  }

  /// Writes a JSON array of the elements ordered by the bytes of their JSON text, so that a
  /// set is the same text on every device. O(*n* log *n*).
  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    var texts: [(text: [UInt8], element: Element)] = []
    texts.reserveCapacity(count)
    var single = JSONWriter(capacity: 64)
    for (index, element) in enumerated() {
      single.removeAll()
      do throws(JSONCodingError) {
        try element.write(to: &single)
      } catch {
        throw error.at(.index(index))
      }
      texts.append((single.withWrittenBytes { Array($0) }, element))
    }
    texts.sort { $0.text.lexicographicallyPrecedes($1.text) }
    writer.beginArray()
    for entry in texts {
      writer.element()
      try entry.element.write(to: &writer)
    }
    writer.endArray()
  }
}

extension Dictionary: JSONCodable where Key == String, Value: JSONCodable {
  /// Reads a JSON object. Its keys are unique (validation refused duplicates), but in a file
  /// whose keys are exact (``PersistentState/hasExactKeys``) two may differ only in Unicode
  /// normalization — one `String` key: that is refused rather than one of them dropped.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    var members: [String: Value] = [:]
    try reader.readMembers { key, reader throws(JSONCodingError) in
      guard members.updateValue(try Value(from: &reader), forKey: key) == nil else {
        throw JSONCodingError(
          "two keys \(quoted(key)) differ only in Unicode normalization, which this object "
            + "cannot keep apart")
      }
    }
    self = members
  }

  /// Writes a JSON object, its keys sorted by their UTF-8 bytes as `JSONEncoder` sorts them.
  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    writer.beginObject()
    for (key, value) in sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
      writer.member(key)
      do throws(JSONCodingError) {
        try value.write(to: &writer)
      } catch {
        throw error.at(.key(key))
      }
    }
    writer.endObject()
  }
}

/// An enumeration stored in files by a name per case.
public protocol JSONNamedCases: JSONCodable, CaseIterable {
  /// The case's name in files.
  var jsonName: String { get }
}

extension JSONNamedCases where Self: RawRepresentable, RawValue == String {
  public var jsonName: String { rawValue }
}

extension JSONNamedCases {
  /// Reads a case's name; anything else is refused with the list of names:
  /// `expected "low", "medium" or "high", found "extreme"`.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try reader.withString(expected: Self.names) { text throws(JSONCodingError) in
      guard let match = Self.allCases.first(where: { $0.jsonName.utf8.elementsEqual(text) }) else {
        throw JSONCodingError(
          "expected \(Self.names), found \(quoted(String(decoding: text, as: UTF8.self)))")
      }
      return match
    }
  }

  public func write(to writer: inout JSONWriter) {
    writer.writeString(jsonName)
  }

  /// `"low", "medium" or "high"`.
  static var names: String {
    let names = allCases.map { "\"\($0.jsonName)\"" }
    guard names.count > 1 else { return names.first ?? "nothing" }
    return names.dropLast().joined(separator: ", ") + " or " + names.last!
  }
}
