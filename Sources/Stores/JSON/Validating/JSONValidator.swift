/// Byte values used by the validator.
enum Byte {
  static let tab: UInt8 = 0x09
  static let lineFeed: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let plus: UInt8 = 0x2B
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let slash: UInt8 = 0x2F
  static let zero: UInt8 = 0x30
  static let nine: UInt8 = 0x39
  static let colon: UInt8 = 0x3A
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
}

/// Where a value is expected, to word the error when none is found.
enum ValueContext {
  /// The single value of the whole text.
  case topLevel
  /// The first element, right after `[`.
  case firstElement
  /// An element after `,` in an array.
  case nextElement
  /// The value of an object member, after `:`.
  case memberValue
}

/// One key of an object that is still open, kept to find duplicates.
struct KeyRecord {
  /// A fingerprint of the key's canonical bytes while its object has few keys, their full
  /// hash once the object has a table (see ``JSONValidator/recordKey(start:end:isPlain:)``).
  var hash: UInt64
  /// Offset of the opening quote.
  var start: Int
  /// Offset of the closing quote.
  var end: Int
  /// Whether the key is ASCII without escapes, so that its raw bytes are its canonical bytes.
  var isPlain: Bool
}

/// An object that is still open.
struct ObjectFrame {
  /// Index in `keys` of the object's first key.
  var firstKey: Int
  /// Open-addressing hash table of the object's keys, built once the object has more than
  /// `JSONValidator.linearKeyLimit` keys (empty before): a power of two long, linear probing.
  /// A slot holds the upper 32 bits of the key's hash, to skip most other keys without reading
  /// them, above the key's index in `keys` plus one in the lower 32 bits; 0 is an empty slot.
  var table: [UInt64] = []
}

/// The single-pass, non-recursive JSON validator behind ``JSONSyntax/validate(_:maxDepth:)``.
///
/// It reads the bytes once, left to right, keeping an explicit stack of open containers. The
/// position (line and column) of a problem is only computed when a problem is found.
struct JSONValidator {
  /// Objects with up to this many keys are searched linearly (by hash) for duplicates.
  static let linearKeyLimit = 16

  let bytes: UnsafePointer<UInt8>
  let count: Int
  let maxDepth: Int
  /// Whether keys are the same only when their unescaped texts are the same Unicode scalars
  /// (as JSON compares names), rather than up to canonical equivalence.
  var exactKeys = false
  /// Offset of the first byte after a leading byte-order mark (0 or 3).
  let bodyStart: Int
  /// Open containers, innermost last: `offset << 1 | 1` for an object, `offset << 1` for an
  /// array, where `offset` is the position of the opening bracket.
  var containers: [Int] = []
  /// Open objects, innermost last.
  var objects: [ObjectFrame] = []
  /// Keys of all open objects; each object's keys are contiguous, from its `firstKey` on.
  var keys: [KeyRecord] = []
  /// The keys of the top-level object, once it is closed (empty when the text is not an
  /// object).
  var topLevelKeys: [KeyRecord] = []

  init(bytes: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
    self.bytes = bytes
    self.count = count
    self.maxDepth = maxDepth
    if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      bodyStart = 3
    } else {
      bodyStart = 0
    }
    containers.reserveCapacity(min(max(maxDepth, 0), 64))
  }

  /// Validates the whole input. O(n).
  mutating func run() throws(JSONSyntaxError) {
    // A UTF-16 or UTF-32 byte-order mark, or a zero byte among the first two (never valid in
    // UTF-8 JSON, typical of UTF-16 and UTF-32 text).
    if count >= 2
      && (bytes[0] == 0 || bytes[1] == 0 || (bytes[0] == 0xFE && bytes[1] == 0xFF)
        || (bytes[0] == 0xFF && bytes[1] == 0xFE))
    {
      throw JSONSyntaxError(
        line: 1, column: 1,
        message: "the file looks like UTF-16 or UTF-32 text; only UTF-8 is accepted")
    }
    var i = skipWhitespace(bodyStart)
    var context = ValueContext.topLevel
    parsing: while true {
      guard i < count else { throw expectedValue(context, at: i) }
      switch bytes[i] {
      case Byte.quote:
        i = try scanString(from: i).end
      case Byte.minus, Byte.zero...Byte.nine:
        i = try scanNumber(from: i)
      case Byte.openBrace:
        try open(at: i, isObject: true)
        i = skipWhitespace(i + 1)
        if i < count && bytes[i] == Byte.closeBrace {
          closeObject()
          i += 1
        } else {
          i = try scanMember(at: i, afterComma: false)
          context = .memberValue
          continue parsing
        }
      case Byte.openBracket:
        try open(at: i, isObject: false)
        i = skipWhitespace(i + 1)
        if i < count && bytes[i] == Byte.closeBracket {
          containers.removeLast()
          i += 1
        } else {
          context = .firstElement
          continue parsing
        }
      case UInt8(ascii: "t"):
        i = try scanLiteral(at: i, word: 0x6575_7274, length: 4, context: context)
      case UInt8(ascii: "n"):
        i = try scanLiteral(at: i, word: 0x6C6C_756E, length: 4, context: context)
      case UInt8(ascii: "f"):
        // "fals", then "e".
        if i + 5 <= count && bytes[i + 4] == UInt8(ascii: "e") {
          i = try scanLiteral(at: i, word: 0x736C_6166, length: 5, context: context)
        } else {
          throw expectedValue(context, at: i)
        }
      default:
        throw expectedValue(context, at: i)
      }

      // After a complete value: close containers, or go on to the next value.
      while true {
        i = skipWhitespace(i)
        guard let top = containers.last else {
          if i < count {
            throw unexpected(at: i) { "unexpected \($0) after the JSON value" }
          }
          return
        }
        guard i < count else {
          throw unexpected(at: i) {
            top & 1 == 1
              ? "expected ',' or '}' after an object member, found \($0)"
              : "expected ',' or ']' after an array element, found \($0)"
          }
        }
        let byte = bytes[i]
        if top & 1 == 1 {
          if byte == Byte.comma {
            i = try scanMember(at: skipWhitespace(i + 1), afterComma: true)
            context = .memberValue
            continue parsing
          }
          if byte == Byte.closeBrace {
            closeObject()
            i += 1
            continue
          }
          throw unexpected(at: i) { "expected ',' or '}' after an object member, found \($0)" }
        } else {
          if byte == Byte.comma {
            i = skipWhitespace(i + 1)
            context = .nextElement
            continue parsing
          }
          if byte == Byte.closeBracket {
            containers.removeLast()
            i += 1
            continue
          }
          throw unexpected(at: i) { "expected ',' or ']' after an array element, found \($0)" }
        }
      }
    }
  }

  /// Returns the offset of the first byte at or after `start` that is not JSON whitespace.
  @inline(__always)
  func skipWhitespace(_ start: Int) -> Int {
    JSONScanning.skipWhitespace(bytes, count: count, from: start)
  }

  /// Opens an array or object at `offset`, checking the depth.
  @inline(__always)
  mutating func open(at offset: Int, isObject: Bool) throws(JSONSyntaxError) {
    guard containers.count < maxDepth else {
      throw error(at: offset, "nested deeper than \(max(maxDepth, 0)) levels")
    }
    if isObject {
      containers.append(offset << 1 | 1)
      objects.append(ObjectFrame(firstKey: keys.count))
    } else {
      containers.append(offset << 1)
    }
  }

  /// Closes the innermost container, an object, forgetting its keys (keeping them in
  /// `topLevelKeys` for the top-level object).
  @inline(__always)
  mutating func closeObject() {
    containers.removeLast()
    let frame = objects.removeLast()
    if containers.isEmpty {
      topLevelKeys = Array(keys[frame.firstKey...])
    }
    keys.removeLast(keys.count - frame.firstKey)
  }

  /// Reads a literal (`true`, `false`, `null`) whose first four bytes, little-endian, are `word`.
  @inline(__always)
  func scanLiteral(
    at start: Int, word: UInt32, length: Int, context: ValueContext
  ) throws(JSONSyntaxError) -> Int {
    guard start + length <= count,
      UnsafeRawPointer(bytes + start).loadUnaligned(as: UInt32.self) == word
    else {
      throw expectedValue(context, at: start)
    }
    let end = start + length
    if end < count && isWordByte(bytes[end]) {
      // `trueish`, `nullable`: one unknown word, not a literal followed by junk.
      throw expectedValue(context, at: start)
    }
    return end
  }

  /// Reads the key of an object member at `start` (after `{` or `,` and whitespace), checks it
  /// is not a duplicate, and reads the `:` after it. Returns the offset of the member's value.
  mutating func scanMember(at start: Int, afterComma: Bool) throws(JSONSyntaxError) -> Int {
    guard start < count, bytes[start] == Byte.quote else {
      throw unexpected(at: start) { found in
        if !afterComma {
          return "expected a string key or '}', found \(found)"
        }
        if start < count && bytes[start] == Byte.closeBrace {
          return "expected a string key after ',', found '}' (trailing commas are not allowed)"
        }
        return "expected a string key after ',', found \(found)"
      }
    }
    let (end, flags) = try scanString(from: start)
    try recordKey(start: start, end: end - 1, isPlain: flags == 0)
    let colon = skipWhitespace(end)
    guard colon < count, bytes[colon] == Byte.colon else {
      throw unexpected(at: colon) { "expected ':' after the object key, found \($0)" }
    }
    return skipWhitespace(colon + 1)
  }

  /// Whether `byte` continues a bare word such as `true` or `NaN`.
  @inline(__always)
  func isWordByte(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
      || (byte >= Byte.zero && byte <= Byte.nine) || byte == UInt8(ascii: "_")
  }
}
