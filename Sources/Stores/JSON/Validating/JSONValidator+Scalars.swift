/// Flags set by `scanString` about the string it read.
enum StringFlags {
  /// The string contains at least one escape.
  static let escape: UInt8 = 1
  /// The string contains at least one non-ASCII character.
  static let nonASCII: UInt8 = 2
}

extension JSONValidator {
  /// Reads the string whose opening quote is at `start`.
  ///
  /// Returns the offset just after the closing quote, and `StringFlags` telling whether the
  /// string has escapes or non-ASCII characters. Plain runs are skipped eight bytes at a time.
  @inline(__always)
  func scanString(from start: Int) throws(JSONSyntaxError) -> (end: Int, flags: UInt8) {
    var i = start + 1
    var flags: UInt8 = 0
    while true {
      // Skip eight bytes at a time while none is a quote, backslash, control or non-ASCII byte.
      // The lowest flagged byte of the mask is always a real hit (borrows only move upwards).
      while i &+ 8 <= count {
        let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(Byte.quote))
        let backslashes = word ^ (ones &* UInt64(Byte.backslash))
        let mask =
          ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes
            | (word &- ones &* 0x20) & ~word | word) & 0x8080_8080_8080_8080
        if mask != 0 {
          i &+= mask.trailingZeroBitCount >> 3
          break
        }
        i &+= 8
      }
      guard i < count else { throw unterminatedString(start) }
      let byte = bytes[i]
      if byte == Byte.quote {
        return (i + 1, flags)
      } else if byte == Byte.backslash {
        flags |= StringFlags.escape
        i = try scanEscape(at: i, stringStart: start)
      } else if byte < 0x20 {
        throw controlCharacter(at: i)
      } else if byte >= 0x80 {
        flags |= StringFlags.nonASCII
        i = try scanUTF8(at: i)
      } else {
        i += 1
      }
    }
  }

  /// Reads the escape whose backslash is at `start`, returning the offset after it.
  func scanEscape(at start: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
    guard start + 1 < count else { throw unterminatedString(stringStart) }
    switch bytes[start + 1] {
    case Byte.quote, Byte.backslash, Byte.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return start + 2
    case UInt8(ascii: "u"):
      let value = try hexEscape(at: start, stringStart: stringStart)
      if value & 0xFC00 == 0xDC00 {
        throw loneSurrogate(at: start, value: value, isHigh: false)
      }
      guard value & 0xFC00 == 0xD800 else { return start + 6 }
      // A high surrogate must be followed at once by a `\u` escape of a low surrogate.
      let next = start + 6
      guard next < count else { throw unterminatedString(stringStart) }
      guard bytes[next] == Byte.backslash else {
        throw loneSurrogate(at: start, value: value, isHigh: true)
      }
      guard next + 1 < count else { throw unterminatedString(stringStart) }
      guard bytes[next + 1] == UInt8(ascii: "u") else {
        throw loneSurrogate(at: start, value: value, isHigh: true)
      }
      let low = try hexEscape(at: next, stringStart: stringStart)
      guard low & 0xFC00 == 0xDC00 else {
        throw loneSurrogate(at: start, value: value, isHigh: true)
      }
      return next + 6
    default:
      throw invalidEscape(at: start)
    }
  }

  /// Reads the four hex digits of the `\u` escape whose backslash is at `start`.
  func hexEscape(at start: Int, stringStart: Int) throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for k in 2..<6 {
      guard start + k < count else { throw unterminatedString(stringStart) }
      let byte = bytes[start + k]
      let digit: UInt8
      switch byte {
      case Byte.zero...Byte.nine: digit = byte - Byte.zero
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw invalidHexEscape(at: start, badDigit: start + k)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Checks the UTF-8 sequence whose lead byte (0x80 or above) is at `start`, returning the
  /// offset after it.
  @inline(__always)
  func scanUTF8(at start: Int) throws(JSONSyntaxError) -> Int {
    let length = utf8SequenceLength(at: start)
    guard length > 0 else { throw invalidUTF8(at: start) }
    return start + length
  }

  /// The length of the valid UTF-8 sequence at `start` (1 to 4), or 0 when it is not valid.
  @inline(__always)
  func utf8SequenceLength(at start: Int) -> Int {
    let lead = bytes[start]
    if lead < 0x80 {
      return 1
    }
    func isContinuation(_ offset: Int) -> Bool {
      offset < count && bytes[offset] & 0xC0 == 0x80
    }
    if lead < 0xC2 {
      return 0
    }
    if lead < 0xE0 {
      return isContinuation(start + 1) ? 2 : 0
    }
    if lead < 0xF0 {
      guard start + 1 < count else { return 0 }
      let second = bytes[start + 1]
      let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
      let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
      return second >= low && second <= high && isContinuation(start + 2) ? 3 : 0
    }
    if lead < 0xF5 {
      guard start + 1 < count else { return 0 }
      let second = bytes[start + 1]
      let low: UInt8 = lead == 0xF0 ? 0x90 : 0x80
      let high: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
      return second >= low && second <= high && isContinuation(start + 2)
        && isContinuation(start + 3) ? 4 : 0
    }
    return 0
  }

  /// Reads the number starting at `start` (a `-` or a digit), returning the offset after it.
  @inline(__always)
  func scanNumber(from start: Int) throws(JSONSyntaxError) -> Int {
    var i = start
    if bytes[i] == Byte.minus {
      i += 1
      guard i < count, isDigit(bytes[i]) else {
        throw unexpected(at: i) { "expected a digit after '-', found \($0)" }
      }
    }
    let integerStart = i
    if bytes[i] == Byte.zero {
      i += 1
      if i < count && isDigit(bytes[i]) {
        throw error(
          at: start,
          "leading zeros are not allowed in numbers, found \(quotedToken(at: start))")
      }
    } else {
      i += 1
      while i < count && isDigit(bytes[i]) {
        i += 1
      }
    }
    var isLong = i - integerStart > 300
    if i < count && bytes[i] == Byte.dot {
      i += 1
      guard i < count, isDigit(bytes[i]) else {
        throw unexpected(at: i) { "expected a digit after the decimal point, found \($0)" }
      }
      let fractionStart = i
      while i < count && isDigit(bytes[i]) {
        i += 1
      }
      isLong = isLong || i - fractionStart > 300
    }
    if i < count && bytes[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      if i < count && (bytes[i] == Byte.plus || bytes[i] == Byte.minus) {
        i += 1
      }
      guard i < count, isDigit(bytes[i]) else {
        throw unexpected(at: i) { "expected a digit in the exponent, found \($0)" }
      }
      while i < count && isDigit(bytes[i]) {
        i += 1
      }
      try checkRange(start: start, end: i)
    } else if isLong {
      try checkRange(start: start, end: i)
    }
    return i
  }

  @inline(__always)
  func isDigit(_ byte: UInt8) -> Bool {
    byte &- Byte.zero < 10
  }

  /// Throws when the grammatically valid number in `start..<end` is too large for a `Double`,
  /// or is not zero but rounds to zero.
  ///
  /// With the number written as 0.d₁d₂… × 10^e (d₁ ≠ 0) it lies in [10^(e-1), 10^e): e ≤ 308
  /// always fits and e ≥ 310 never does; e ≤ -324 always rounds to zero and e ≥ -322 never does.
  /// Only e = 309 and e = -323 are settled by converting the number. O(length of the number).
  func checkRange(start: Int, end: Int) throws(JSONSyntaxError) {
    var i = start
    if bytes[i] == Byte.minus {
      i += 1
    }
    // Decimal exponent of the first significant digit, before the written exponent.
    var exponent = 0
    var sawSignificant = false
    var afterPoint = false
    while i < end {
      let byte = bytes[i]
      if byte == Byte.dot {
        afterPoint = true
      } else if byte | 0x20 == UInt8(ascii: "e") {
        break
      } else if !sawSignificant {
        if byte != Byte.zero {
          sawSignificant = true
          if !afterPoint {
            exponent += 1
          }
        } else if afterPoint {
          exponent -= 1
        }
      } else if !afterPoint {
        exponent += 1
      }
      i += 1
    }
    guard sawSignificant else { return }  // Zero, whatever its exponent.
    if i < end {
      i += 1
      var negative = false
      if bytes[i] == Byte.minus || bytes[i] == Byte.plus {
        negative = bytes[i] == Byte.minus
        i += 1
      }
      var written = 0
      while i < end {
        // Clamped before it can overflow, whatever `Int`'s width.
        if written < 100_000_000 { written = written * 10 + Int(bytes[i] - Byte.zero) }
        i += 1
      }
      exponent += negative ? -written : written
    }
    var tooLarge = exponent >= 310
    var tooSmall = exponent <= -324
    if exponent == 309 || exponent == -323 {
      let text = String(
        decoding: UnsafeBufferPointer(start: bytes + start, count: end - start),
        as: UTF8.self)
      let value = Double(text) ?? .nan
      tooLarge = value.isInfinite
      tooSmall = value == 0
    }
    if tooLarge {
      throw error(at: start, "number \(numberText(start: start, end: end)) is out of range")
    }
    if tooSmall {
      throw error(
        at: start,
        "number \(numberText(start: start, end: end)) is out of range (it would round to zero)")
    }
  }
}
