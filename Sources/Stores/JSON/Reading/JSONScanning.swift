import Foundation

/// The byte-level steps that ``JSONValidator`` and ``JSONReader`` share.
enum JSONScanning {
  /// The offset of the first byte at or after `start` that is not JSON whitespace.
  ///
  /// After each whitespace byte, the spaces that follow (indentation) are skipped up to eight
  /// at a time.
  @inline(__always)
  static func skipWhitespace(_ bytes: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int {
    var i = start
    while i < count {
      let byte = bytes[i]
      guard
        byte == Byte.space || byte == Byte.lineFeed || byte == Byte.carriageReturn
          || byte == Byte.tab
      else { return i }
      i &+= 1
      if i &+ 8 <= count {
        let spaces: UInt64 = 0x2020_2020_2020_2020
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self) ^ spaces
        // The high bit of each byte that is not a space (no carries between bytes).
        let notSpace = ((word & low) &+ low | word) & ~low
        i &+= notSpace == 0 ? 8 : notSpace.trailingZeroBitCount >> 3
      }
    }
    return i
  }

  /// The offset of the closing quote of the valid string whose opening quote is at `start`,
  /// and whether the string has escapes. Plain runs are skipped eight bytes at a time.
  @inline(__always)
  static func endOfString(
    _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int
  ) -> (end: Int, hasEscapes: Bool) {
    var i = start &+ 1
    var hasEscapes = false
    let ones: UInt64 = 0x0101_0101_0101_0101
    while true {
      while i &+ 8 <= count {
        let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)
        let quotes = word ^ (ones &* UInt64(Byte.quote))
        let backslashes = word ^ (ones &* UInt64(Byte.backslash))
        let mask =
          ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes)
          & 0x8080_8080_8080_8080
        if mask != 0 {
          i &+= mask.trailingZeroBitCount >> 3
          break
        }
        i &+= 8
      }
      let byte = bytes[i]
      if byte == Byte.quote {
        return (i, hasEscapes)
      }
      if byte == Byte.backslash {
        hasEscapes = true
        i &+= 2
      } else {
        i &+= 1
      }
    }
  }

  /// The UTF-8 of the valid string whose quotes are at `start` and `end`, with its escapes
  /// resolved. O(length).
  static func unescapedString(_ bytes: UnsafePointer<UInt8>, start: Int, end: Int) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(end - start)
    var i = start + 1
    while i < end {
      let byte = bytes[i]
      guard byte == Byte.backslash else {
        result.append(byte)
        i += 1
        continue
      }
      let escaped = bytes[i + 1]
      switch escaped {
      case UInt8(ascii: "b"): result.append(0x08)
      case UInt8(ascii: "f"): result.append(0x0C)
      case UInt8(ascii: "n"): result.append(Byte.lineFeed)
      case UInt8(ascii: "r"): result.append(Byte.carriageReturn)
      case UInt8(ascii: "t"): result.append(Byte.tab)
      case UInt8(ascii: "u"):
        var value = hexValue(bytes, at: i + 2)
        if value & 0xFC00 == 0xD800 {
          value = 0x10000 + ((value - 0xD800) << 10 | (hexValue(bytes, at: i + 8) - 0xDC00))
          i += 6
        }
        result.append(contentsOf: Unicode.Scalar(value).map { Array(String($0).utf8) } ?? [])
        i += 4
      default: result.append(escaped)
      }
      i += 2
    }
    return result
  }

  /// The bytes that identify a key: its unescaped UTF-8, in Unicode normalization form C when
  /// it is not ASCII (two strings are canonically equivalent — equal as Swift `String`s —
  /// exactly when their NFC forms are equal, and ASCII text is already in NFC).
  static func canonicalKey(
    _ bytes: UnsafePointer<UInt8>, start: Int, end: Int, isPlain: Bool
  ) -> [UInt8] {
    if isPlain {
      return Array(UnsafeBufferPointer(start: bytes + start + 1, count: end - start - 1))
    }
    let unescaped = unescapedString(bytes, start: start, end: end)
    if unescaped.allSatisfy({ $0 < 0x80 }) {
      return unescaped
    }
    return Array(
      String(decoding: unescaped, as: UTF8.self).precomposedStringWithCanonicalMapping.utf8)
  }

  /// The value of the four hex digits at `offset`, already validated.
  static func hexValue(_ bytes: UnsafePointer<UInt8>, at offset: Int) -> UInt32 {
    var value: UInt32 = 0
    for k in 0..<4 {
      let byte = bytes[offset + k]
      let digit = byte <= Byte.nine ? byte - Byte.zero : (byte | 0x20) - UInt8(ascii: "a") + 10
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
