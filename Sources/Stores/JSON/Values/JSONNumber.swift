/// A JSON number with its literal text, so that a number read from a file is written back
/// with the same digits: `9007199254740993` stays that, where a `Double` would round it to
/// `9007199254740992`, and `7.50` stays `7.50`.
///
/// Two numbers are equal when their texts are. A number made from a `Double` has
/// `JSONEncoder`'s spelling of it (`8`, `7.5`, `1e+308`).
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible, ExpressibleByFloatLiteral,
  ExpressibleByIntegerLiteral
{
  /// The number as written in JSON, such as `7.5`, `-0`, `1e+308` or `9007199254740993`.
  public let text: String
  /// The `Double` nearest to the number.
  public let double: Double

  /// The number `value`, spelled as `JSONEncoder` spells it. A NaN or an infinity, which
  /// JSON cannot hold, is kept as such and refused when written.
  public init(_ value: Double) {
    double = value
    guard value.isFinite else {
      text = "\(value)"
      return
    }
    var digits = ASCIISink()
    value.write(to: &digits)
    text = digits.withBytes { bytes in
      let length =
        bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: ".")
          && bytes[bytes.count - 1] == UInt8(ascii: "0") ? bytes.count - 2 : bytes.count
      return String(decoding: bytes[..<length], as: UTF8.self)
    }
  }

  /// The whole number `value`, exactly: `9007199254740993`.
  public init(_ value: Int) {
    text = String(value)
    double = Double(value)
  }

  /// The number `text` written in JSON, or `nil` when `text` is not a JSON number a
  /// `Double` can hold (too large, or not zero but rounding to zero).
  public init?(_ text: String) {
    var text = text
    let valid = text.withUTF8 { bytes in
      (try? JSONSyntax.validate(bytes, maxDepth: 0)) != nil
        && bytes.first.map { $0 == Byte.minus || $0 &- Byte.zero < 10 } == true
        && bytes.last.map { $0 &- Byte.zero < 10 } == true
    }
    guard valid else { return nil }
    self.text = text
    double = text.withUTF8 { Self.double($0) }
  }

  /// A number read from a file: validated `text`.
  init(validated text: UnsafeBufferPointer<UInt8>) {
    self.text = String(decoding: text, as: UTF8.self)
    double = Self.double(text)
  }

  public init(floatLiteral value: Double) {
    self.init(value)
  }

  public init(integerLiteral value: Int) {
    self.init(value)
  }

  /// The number as an `Int` when it is a whole number an `Int` holds (`8`, `8.0`, `1e2`),
  /// exactly, however many digits it has; else `nil`.
  public var integer: Int? {
    var text = text
    return text.withUTF8 { Self.integer($0) ?? nil }
  }

  public var description: String { text }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.text == rhs.text
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(text)
  }

  /// The exact value of the valid JSON number `text` when it is a whole number: `nil` when
  /// it is not one, `.some(nil)` when it is one that an `Int` does not hold. O(length).
  static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int?? {
    var i = 0
    let isNegative = text[0] == Byte.minus
    if isNegative {
      i += 1
    }
    // The significant digits, as a decimal string without leading zeros, and the power of
    // ten they are scaled by.
    var digits: UInt64 = 0
    var digitCount = 0
    var trailingZeros = 0
    var scale = 0
    var overflowed = false
    var afterPoint = false
    while i < text.count {
      let byte = text[i]
      if byte == Byte.dot {
        afterPoint = true
      } else if byte | 0x20 == UInt8(ascii: "e") {
        break
      } else {
        let digit = UInt64(byte &- Byte.zero)
        if afterPoint {
          scale -= 1
        }
        if digit == 0 && digitCount > 0 {
          trailingZeros += 1
        } else if digit != 0 {
          // Put back the zeros skipped before this digit.
          for _ in 0..<trailingZeros + 1 {
            let (times, overflow) = digits.multipliedReportingOverflow(by: 10)
            overflowed = overflowed || overflow
            digits = times
          }
          let (sum, overflow) = digits.addingReportingOverflow(digit)
          overflowed = overflowed || overflow
          digits = sum
          digitCount += trailingZeros + 1
          trailingZeros = 0
        }
      }
      i += 1
    }
    if digitCount == 0 {
      return .some(0)  // Zero, whatever its sign and exponent.
    }
    var exponent = 0
    if i < text.count {
      i += 1
      var negativeExponent = false
      if text[i] == Byte.minus || text[i] == Byte.plus {
        negativeExponent = text[i] == Byte.minus
        i += 1
      }
      while i < text.count {
        exponent = min(exponent * 10 + Int(text[i] &- Byte.zero), 1_000_000)
        i += 1
      }
      if negativeExponent {
        exponent = -exponent
      }
    }
    let power = exponent + scale + trailingZeros
    guard power >= 0 else { return nil }  // The last digit is not zero: a fraction is left.
    guard !overflowed else { return .some(nil) }
    var magnitude = digits
    for _ in 0..<power {
      let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      guard !overflow else { return .some(nil) }
      magnitude = times
    }
    if isNegative {
      guard magnitude <= UInt64(Int.max) + 1 else { return .some(nil) }
      return .some(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude))
    }
    guard magnitude <= UInt64(Int.max) else { return .some(nil) }
    return .some(Int(magnitude))
  }

  /// The `Double` nearest to the valid JSON number `text`, correctly rounded.
  static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double {
    // Fast path: at most 15 significant digits and a power of ten up to 22, where one IEEE
    // multiplication or division of exact operands is correctly rounded.
    var i = 0
    let isNegative = text[0] == Byte.minus
    if isNegative {
      i += 1
    }
    var digits: UInt64 = 0
    var digitCount = 0
    var scale = 0
    var afterPoint = false
    while i < text.count {
      let byte = text[i]
      if byte == Byte.dot {
        afterPoint = true
      } else if byte | 0x20 == UInt8(ascii: "e") {
        break
      } else {
        if digits > 0 || byte != Byte.zero {
          digitCount += 1
        }
        digits = digits &* 10 &+ UInt64(byte &- Byte.zero)
        if afterPoint {
          scale -= 1
        }
      }
      i += 1
    }
    if i == text.count && digitCount <= 15 && scale >= -22 {
      let magnitude =
        scale == 0 ? Double(digits) : Double(digits) / powersOfTen[-scale]
      return isNegative ? -magnitude : magnitude
    }
    return Double(String(decoding: text, as: UTF8.self)) ?? .nan
  }

  /// 10^k for k in 0...22, all exact `Double`s.
  private static let powersOfTen: [Double] = (0...22).map { k in
    (0..<k).reduce(1.0) { product, _ in product * 10 }
  }
}
