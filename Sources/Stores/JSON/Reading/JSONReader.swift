import Foundation

/// Reads values out of JSON text that `JSONSyntax` has validated, without building a tree
/// of it: each value is read straight into the model that holds it, so reading a file needs
/// little memory beyond the file and the state it holds.
///
/// A reader is handed to ``JSONCodable/init(from:)`` positioned at the value to read; it is
/// valid only during that call (it points into the bytes of the file). Reading a value moves
/// it past the value. Every problem is a ``JSONCodingError`` that names what was expected and
/// what was found, and gets its key path on the way out.
///
/// Outside the package a reader is opaque: a type of your own reads itself with the
/// ``JSONCodable/init(from:)`` of the values it is made of (see ``JSONCodable``).
public struct JSONReader: ~Copyable {
  let bytes: UnsafePointer<UInt8>
  let count: Int
  /// The offset of the value to read next (whitespace before it skipped).
  var position: Int
  /// The keys of the top-level object, from validation: the index of the document's object.
  let topLevelKeys: [KeyRecord]

  /// A reader of the validated text `bytes` (a leading byte-order mark is skipped), whose
  /// top-level object has the keys `topLevelKeys`.
  init(bytes: UnsafeBufferPointer<UInt8>, topLevelKeys: [KeyRecord]) {
    // Validated text is never empty.
    self.bytes = bytes.baseAddress!
    count = bytes.count
    let start =
      count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    self.topLevelKeys = topLevelKeys
    position = JSONScanning.skipWhitespace(self.bytes, count: count, from: start)
  }

  /// The JSON type of a value.
  package enum Kind: Sendable {
    case string, number, bool, null, array, object

    /// The type in words, for messages: "a string", "a number", "true or false", "null",
    /// "a list", "an object".
    package var description: String {
      switch self {
      case .string: "a string"
      case .number: "a number"
      case .bool: "true or false"
      case .null: "null"
      case .array: "a list"
      case .object: "an object"
      }
    }
  }

  /// The type of the value to read next.
  package var kind: Kind {
    switch bytes[position] {
    case Byte.quote: .string
    case Byte.openBrace: .object
    case Byte.openBracket: .array
    case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
    case UInt8(ascii: "n"): .null
    default: .number
    }
  }

  /// The error for a value of another type than `expected` (in words, such as "a whole
  /// number"): `expected a whole number, found a string`.
  package func typeMismatch(expected: String) -> JSONCodingError {
    JSONCodingError("expected \(expected), found \(kind.description)", kind: .typeMismatch)
  }

  // MARK: Scalars

  /// Reads `true` or `false`.
  package mutating func readBool() throws(JSONCodingError) -> Bool {
    switch bytes[position] {
    case UInt8(ascii: "t"):
      advance(to: position + 4)
      return true
    case UInt8(ascii: "f"):
      advance(to: position + 5)
      return false
    default:
      throw typeMismatch(expected: "true or false")
    }
  }

  /// Reads `null` if that is the next value, and says whether it was.
  package mutating func readNull() -> Bool {
    guard bytes[position] == UInt8(ascii: "n") else { return false }
    advance(to: position + 4)
    return true
  }

  /// Reads a string. O(length).
  package mutating func readString() throws(JSONCodingError) -> String {
    try withString(expected: "a string") { String(decoding: $0, as: UTF8.self) }
  }

  /// Calls `body` with the UTF-8 of the string to read next (its escapes resolved), then
  /// moves past it; a value that is not a string is a type mismatch with `expected`. A string
  /// without escapes is passed in place, without a copy.
  package mutating func withString<Result>(
    expected: @autoclosure () -> String,
    _ body: (UnsafeBufferPointer<UInt8>) throws(JSONCodingError) -> Result
  ) throws(JSONCodingError) -> Result {
    guard bytes[position] == Byte.quote else { throw typeMismatch(expected: expected()) }
    let start = position
    let (end, hasEscapes) = JSONScanning.endOfString(bytes, count: count, from: start)
    advance(to: end + 1)
    if !hasEscapes {
      return try body(UnsafeBufferPointer(start: bytes + start + 1, count: end - start - 1))
    }
    let unescaped = JSONScanning.unescapedString(bytes, start: start, end: end)
    return try unescaped.withUnsafeBufferPointer { buffer throws(JSONCodingError) in
      try body(buffer)
    }
  }

  /// Reads a whole number that an `Int` holds: written as an integer, or with a fraction or
  /// an exponent that leave a whole number (`2.0`, `1e2`).
  ///
  /// - Throws: "expected a whole number, found 1.5", or "… that fits in 64 bits" (`Int`'s
  ///   width: 32 on watchOS) when it is too large.
  package mutating func readInt() throws(JSONCodingError) -> Int {
    guard kind == .number else { throw typeMismatch(expected: "a whole number") }
    let text = numberBytes()
    switch JSONNumber.integer(text) {
    case .some(let value?):
      return value
    case .some(nil):
      throw JSONCodingError(
        "expected a whole number that fits in \(Int.bitWidth) bits, found \(Self.shown(text))")
    case nil:
      throw JSONCodingError("expected a whole number, found \(Self.shown(text))")
    }
  }

  /// Reads a number as the nearest `Double` (validation refused those a `Double` cannot
  /// hold).
  package mutating func readDouble() throws(JSONCodingError) -> Double {
    guard kind == .number else { throw typeMismatch(expected: "a number") }
    return JSONNumber.double(numberBytes())
  }

  /// Reads a number's literal text (validated JSON number grammar) and moves past it.
  mutating func numberBytes() -> UnsafeBufferPointer<UInt8> {
    let start = position
    var end = start
    while end < count {
      let byte = bytes[end]
      guard
        byte &- Byte.zero < 10 || byte == Byte.minus || byte == Byte.plus || byte == Byte.dot
          || byte | 0x20 == UInt8(ascii: "e")
      else { break }
      end += 1
    }
    advance(to: end)
    return UnsafeBufferPointer(start: bytes + start, count: end - start)
  }

  /// A number's text for a message, cut to 20 characters.
  static func shown(_ text: UnsafeBufferPointer<UInt8>) -> String {
    let shown = String(decoding: text.prefix(20), as: UTF8.self)
    return text.count > 20 ? shown + "…" : shown
  }

  // MARK: Containers

  /// Reads an array, calling `element` for each element with the reader positioned at it;
  /// `element` must read the element (or skip it). An error in an element gets its index.
  package mutating func readArray(
    _ element: (inout JSONReader) throws(JSONCodingError) -> Void
  ) throws(JSONCodingError) {
    guard bytes[position] == Byte.openBracket else { throw typeMismatch(expected: "a list") }
    advance(to: position + 1)
    if bytes[position] == Byte.closeBracket {
      advance(to: position + 1)
      return
    }
    var index = 0
    while true {
      do throws(JSONCodingError) {
        try element(&self)
      } catch {
        throw error.at(.index(index))
      }
      index += 1
      let separator = bytes[position]
      advance(to: position + 1)
      if separator == Byte.closeBracket { return }
    }
  }

  /// Reads an object, calling `member` with each key, in the order of the text, and the
  /// reader positioned at its value; `member` must read the value (or skip it). An error in
  /// a value gets its key.
  package mutating func readMembers(
    _ member: (String, inout JSONReader) throws(JSONCodingError) -> Void
  ) throws(JSONCodingError) {
    guard bytes[position] == Byte.openBrace else { throw typeMismatch(expected: "an object") }
    advance(to: position + 1)
    if bytes[position] == Byte.closeBrace {
      advance(to: position + 1)
      return
    }
    while true {
      let key = try readString()
      advance(to: position + 1)  // The colon.
      do throws(JSONCodingError) {
        try member(key, &self)
      } catch {
        throw error.at(.key(key))
      }
      let separator = bytes[position]
      advance(to: position + 1)
      if separator == Byte.closeBrace { return }
    }
  }

  /// Moves past the value to read next, whatever it is. O(its length).
  package mutating func skipValue() {
    position = Self.endOfValue(bytes, count: count, at: position)
    advance(to: position)
  }

  /// The offset just after the valid value at `start`.
  static func endOfValue(_ bytes: UnsafePointer<UInt8>, count: Int, at start: Int) -> Int {
    var i = start
    var depth = 0
    repeat {
      switch bytes[i] {
      case Byte.quote:
        i = JSONScanning.endOfString(bytes, count: count, from: i).end + 1
      case Byte.openBrace, Byte.openBracket:
        depth += 1
        i += 1
      case Byte.closeBrace, Byte.closeBracket:
        depth -= 1
        i += 1
      case Byte.comma, Byte.colon, Byte.space, Byte.lineFeed, Byte.carriageReturn, Byte.tab:
        i += 1
      default:
        // A number or a literal: up to the next delimiter.
        i += 1
        while i < count {
          let byte = bytes[i]
          if byte == Byte.comma || byte == Byte.closeBrace || byte == Byte.closeBracket
            || byte == Byte.space || byte == Byte.lineFeed || byte == Byte.carriageReturn
            || byte == Byte.tab
          {
            break
          }
          i += 1
        }
      }
    } while depth > 0
    return i
  }

  /// Moves to `offset` and past the whitespace after it.
  @inline(__always)
  mutating func advance(to offset: Int) {
    position = JSONScanning.skipWhitespace(bytes, count: count, from: offset)
  }

  // MARK: Objects by key

  /// One member of an object: where its key and its value are.
  struct Member {
    var key: KeyRecord
    var value: Int
  }

  /// The members of the object whose `{` is at `start`, and the offset just after its `}`.
  func members(ofObjectAt start: Int) -> (members: [Member], end: Int) {
    var members: [Member] = []
    var i = JSONScanning.skipWhitespace(bytes, count: count, from: start + 1)
    if bytes[i] == Byte.closeBrace { return ([], i + 1) }
    while true {
      let (keyEnd, hasEscapes) = JSONScanning.endOfString(bytes, count: count, from: i)
      var isPlain = !hasEscapes
      if isPlain {
        for k in i + 1..<keyEnd where bytes[k] >= 0x80 {
          isPlain = false
          break
        }
      }
      let colon = JSONScanning.skipWhitespace(bytes, count: count, from: keyEnd + 1)
      let value = JSONScanning.skipWhitespace(bytes, count: count, from: colon + 1)
      members.append(
        Member(key: KeyRecord(hash: 0, start: i, end: keyEnd, isPlain: isPlain), value: value))
      let valueEnd = Self.endOfValue(bytes, count: count, at: value)
      let separator = JSONScanning.skipWhitespace(bytes, count: count, from: valueEnd)
      if bytes[separator] == Byte.closeBrace { return (members, separator + 1) }
      i = JSONScanning.skipWhitespace(bytes, count: count, from: separator + 1)
    }
  }

  /// The top-level members, from validation.
  func topLevelMembers() -> [Member] {
    topLevelKeys.map { key in
      let colon = JSONScanning.skipWhitespace(bytes, count: count, from: key.end + 1)
      return Member(
        key: key, value: JSONScanning.skipWhitespace(bytes, count: count, from: colon + 1))
    }
  }

  /// Whether the key whose opening quote is at `quote` is exactly `name`, byte for byte.
  @inline(__always)
  func keyIs(_ name: StaticString, at quote: Int) -> Bool {
    let length = name.utf8CodeUnitCount
    guard quote + length + 1 < count, bytes[quote + length + 1] == Byte.quote else {
      return false
    }
    for k in 0..<length where bytes[quote + 1 + k] != name.utf8Start[k] {
      return false
    }
    return true
  }

  /// Whether `member`'s key equals `name` as Swift compares strings (escapes resolved, up
  /// to canonical equivalence).
  func key(of member: Member, equals name: StaticString) -> Bool {
    let key = member.key
    if key.isPlain {
      return key.end - key.start - 1 == name.utf8CodeUnitCount
        && memcmp(bytes + key.start + 1, name.utf8Start, name.utf8CodeUnitCount) == 0
    }
    let canonical = JSONScanning.canonicalKey(
      bytes, start: key.start, end: key.end, isPlain: false)
    return canonical.elementsEqual(
      UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
  }
}
