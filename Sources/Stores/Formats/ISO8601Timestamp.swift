import Foundation

/// Exact, round-tripping conversion between `Date` and UTC ISO 8601 / RFC 3339 timestamps such
/// as `2026-11-29T07:30:00Z` or `2026-11-29T07:30:00.123456789Z`.
///
/// `date(from: string(from: d)!)` gives back `d` exactly: the same `timeIntervalSinceReferenceDate`
/// bit for bit, except that `-0.0` comes back as `+0.0`. The calendar is the proleptic Gregorian
/// one, in integer arithmetic; `DateFormatter`, `Calendar` and friends are not used.
package enum ISO8601Timestamp {
  /// Seconds from 2001-01-01T00:00:00Z to 0001-01-01T00:00:00Z, the first instant formatted:
  /// 730,485 days before (`CivilDate.days(year: 1, month: 1, day: 1) - referenceDay`).
  static let firstSecond: Int64 = -63_113_904_000
  /// Seconds from 2001-01-01T00:00:00Z to 10000-01-01T00:00:00Z, the first instant not
  /// formatted: 2,921,574 days after.
  static let endSecond: Int64 = 252_423_993_600

  /// The UTC timestamp of `date`, with the shortest fraction of a second that reads back as
  /// exactly the same `Date`.
  ///
  /// A whole second has no fraction (`2026-11-29T07:30:00Z`); otherwise the fraction has no
  /// trailing zeros and as many digits as needed (`2026-11-29T07:30:00.123456789Z`): its digits
  /// come from the shortest decimal that round-trips the `Double`
  /// `timeIntervalSinceReferenceDate` (at most 17 significant digits), so parsing them back is
  /// exact. Before 2001 the fraction is the decimal complement (-123.5 seconds is
  /// `2000-12-31T23:57:56.5Z`). `-0.0` is written as `2001-01-01T00:00:00Z`.
  ///
  /// - Returns: The timestamp, or nil when the date is not finite or falls outside the years
  ///   0001...9999 in UTC.
  /// - Complexity: O(1), apart from the length of the output: one shortest-digits conversion of
  ///   the `Double` when it has a fraction, then integer arithmetic.
  package static func string(from date: Date) -> String? {
    guard let (whole, fraction) = parts(of: date) else { return nil }
    let length = length(of: fraction)
    return String(unsafeUninitializedCapacity: length) { buffer in
      write(whole: whole, fraction: fraction, to: buffer.baseAddress!)
      return length
    }
  }

  /// The whole seconds since 2001-01-01T00:00:00Z and the fraction digits of `date`'s
  /// timestamp (see ``string(from:)``), or `nil` when it has none.
  @inline(__always)
  static func parts(of date: Date) -> (whole: Int64, fraction: Fraction)? {
    let seconds = date.timeIntervalSinceReferenceDate
    // Also false for NaN.
    guard seconds >= Double(firstSecond) && seconds < Double(endSecond) else { return nil }
    let truncated = Int64(seconds)
    if Double(truncated) == seconds {
      return (truncated, .none)
    }
    return fractionParts(of: seconds)
  }

  /// ``parts(of:)`` for a number of seconds in range that is not whole.
  static func fractionParts(of seconds: Double) -> (whole: Int64, fraction: Fraction) {
    let decimal = ShortestDecimal(seconds)
    // The fraction has n digits; the mantissa's last m = min(n, digitCount) digits are its
    // last digits, the rest are zeros.
    let n = decimal.fractionDigitCount
    let m = min(n, decimal.digitCount)
    let scale = powersOfTen[m]
    let whole = Int64(decimal.mantissa / scale)
    let low = decimal.mantissa % scale
    guard decimal.isNegative else {
      return (whole, Fraction(fill: 0, fillCount: n - m, low: low, lowDigits: m))
    }
    // -(w + 0.f) = -(w + 1) + (1 - 0.f), and 1 - 0.f = 0.99…9 (n - m nines) + (10^m - low).
    return (-whole - 1, Fraction(fill: 9, fillCount: n - m, low: scale - low, lowDigits: m))
  }

  /// The instant of an RFC 3339 timestamp `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
  ///
  /// The fraction may have any number of digits; it is converted with correct rounding, so the
  /// output of ``string(from:)`` reads back exactly. As RFC 3339 allows, `t` and `z` may be lower
  /// case. Refused (nil): a space or anything else instead of `T`; a missing or malformed zone
  /// (`+0530`, `+05`); year 0000; month 00 or 13; a day the month does not have (April 31,
  /// February 29 of a year that is not a leap year); hour 24; minute 60; second 60 (leap seconds
  /// are not supported); offsets beyond ±23:59; an empty fraction (`07:30:00.Z`) or a comma as
  /// decimal sign; signs, spaces or any character before or after the timestamp; and instants
  /// that fall outside the years 0001...9999 in UTC once the offset is applied — including a
  /// fraction of the last second of 9999 so close to its end that it rounds to
  /// 10000-01-01T00:00:00Z (`9999-12-31T23:59:59.9999999Z`) — so that every date returned can
  /// be written back by ``string(from:)``.
  ///
  /// - Complexity: O(n) in the length of `string`.
  package static func date(from string: String) -> Date? {
    var text = string
    guard case .date(let date) = text.withUTF8({ parse($0) }) else { return nil }
    return date
  }

  /// What ``parse(_:)`` makes of a text.
  enum Parsed {
    /// A timestamp of this instant.
    case date(Date)
    /// A timestamp of an instant outside the years 0001...9999 in UTC.
    case outOfRange
    /// Not a timestamp.
    case invalid
  }

  /// Parses the UTF-8 bytes of a timestamp. See ``date(from:)``.
  static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Parsed {
    // "YYYY-MM-DDTHH:MM:SSZ" is the shortest form.
    guard text.count >= 20 else { return .invalid }
    func number(_ start: Int, _ length: Int) -> Int? {
      var value = 0
      for i in start..<start + length {
        let digit = text[i] &- 0x30
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      return value
    }
    guard let year = number(0, 4), text[4] == UInt8(ascii: "-"),
      let month = number(5, 2), text[7] == UInt8(ascii: "-"),
      let day = number(8, 2), text[10] | 0x20 == UInt8(ascii: "t"),
      let hour = number(11, 2), text[13] == UInt8(ascii: ":"),
      let minute = number(14, 2), text[16] == UInt8(ascii: ":"),
      let second = number(17, 2)
    else { return .invalid }
    guard year >= 1, month >= 1, month <= 12, day >= 1,
      day <= CivilDate.daysInMonth(year: year, month: month),
      hour <= 23, minute <= 59, second <= 59
    else { return .invalid }

    var i = 19
    var fraction = i..<i
    if text[i] == UInt8(ascii: ".") {
      i += 1
      let start = i
      while i < text.count && text[i] &- 0x30 < 10 {
        i += 1
      }
      guard i > start else { return .invalid }
      fraction = start..<i
    }
    guard i < text.count else { return .invalid }
    var offset = 0
    if text[i] | 0x20 == UInt8(ascii: "z") {
      i += 1
    } else if text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") {
      guard i + 6 <= text.count, let offsetHours = number(i + 1, 2),
        text[i + 3] == UInt8(ascii: ":"), let offsetMinutes = number(i + 4, 2),
        offsetHours <= 23, offsetMinutes <= 59
      else { return .invalid }
      offset = (offsetHours * 3600 + offsetMinutes * 60) * (text[i] == UInt8(ascii: "-") ? -1 : 1)
      i += 6
    } else {
      return .invalid
    }
    guard i == text.count else { return .invalid }

    // Seconds in 64 bits: those of the year 9999 do not fit in a 32-bit `Int` (watchOS).
    let days = Int64(CivilDate.days(year: year, month: month, day: day) - CivilDate.referenceDay)
    let whole = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
    guard whole >= firstSecond && whole < endSecond else { return .outOfRange }

    var end = fraction.upperBound
    while end > fraction.lowerBound && text[end - 1] == UInt8(ascii: "0") {
      end -= 1
    }
    let digits = UnsafeBufferPointer(rebasing: text[fraction.lowerBound..<end])
    if digits.isEmpty {
      return .date(Date(timeIntervalSinceReferenceDate: Double(whole)))
    }
    // A fraction of the last second of 9999 can round up to 10000-01-01T00:00:00Z, which
    // cannot be written back: refuse it rather than read what cannot be saved.
    let value = seconds(whole: whole, fraction: digits)
    guard value < Double(endSecond) else { return .outOfRange }
    return .date(Date(timeIntervalSinceReferenceDate: value))
  }

  /// The `Double` nearest to `whole` + 0.`fraction` (ASCII digits, the last one not zero).
  static func seconds(whole: Int64, fraction: UnsafeBufferPointer<UInt8>) -> Double {
    // Exact fast path: when N = whole × 10^n + f and 10^n are both exact doubles, one IEEE
    // division N / 10^n is correctly rounded.
    if fraction.count <= 15 {
      var f: Int64 = 0
      for digit in fraction {
        f = f * 10 + Int64(digit - UInt8(ascii: "0"))
      }
      let (scaled, overflow) = whole.multipliedReportingOverflow(
        by: Int64(powersOfTen[fraction.count]))
      let (n, carry) = scaled.addingReportingOverflow(f)
      if !overflow && !carry && n.magnitude <= 1 << 53 {
        return Double(n) / Double(powersOfTen[fraction.count])
      }
    }
    // Otherwise, the plain decimal for one correctly rounded conversion.
    // Below zero: w + 0.f = -((-w - 1) + (1 - 0.f)).
    let integer = whole >= 0 ? String(whole) : "-" + String(-whole - 1)
    let decimal = String(unsafeUninitializedCapacity: integer.utf8.count + 1 + fraction.count) {
      buffer in
      var i = 0
      for byte in integer.utf8 {
        buffer[i] = byte
        i += 1
      }
      buffer[i] = UInt8(ascii: ".")
      i += 1
      for (k, digit) in fraction.enumerated() {
        if whole >= 0 {
          buffer[i] = digit
        } else {
          let complement = (k == fraction.count - 1 ? 10 : 9) - (digit - UInt8(ascii: "0"))
          buffer[i] = UInt8(ascii: "0") + complement
        }
        i += 1
      }
      return i
    }
    return Double(decimal) ?? .nan
  }

  /// 10^k for k in 0...19.
  static let powersOfTen: [UInt64] = (0...19).map { k in
    (0..<k).reduce(1 as UInt64) { product, _ in product * 10 }
  }

  /// The digits after the decimal point: `fillCount` times the digit `fill`, then `low` written
  /// with `lowDigits` digits (zero-padded).
  struct Fraction {
    var fill: UInt8
    var fillCount: Int
    var low: UInt64
    var lowDigits: Int

    /// No fraction at all.
    static let none = Fraction(fill: 0, fillCount: 0, low: 0, lowDigits: 0)

    var count: Int { fillCount + lowDigits }
  }

  /// The length of a timestamp with `fraction`.
  static func length(of fraction: Fraction) -> Int {
    20 + (fraction.count > 0 ? 1 + fraction.count : 0)
  }

  /// Writes the timestamp of `whole` seconds since 2001-01-01T00:00:00Z (in the years
  /// 0001...9999) and the `fraction` digits at `output`: ``length(of:)`` bytes.
  /// O(1 + fraction length).
  @inline(__always)
  static func write(whole: Int64, fraction: Fraction, to output: UnsafeMutablePointer<UInt8>) {
    var days = whole / 86_400
    var secondOfDay = whole - days * 86_400
    if secondOfDay < 0 {
      days -= 1
      secondOfDay += 86_400
    }
    let (year, month, day) = CivilDate.civil(fromDays: Int(days) + CivilDate.referenceDay)
    let second = UInt32(truncatingIfNeeded: secondOfDay)
    func putPair(_ value: Int, at offset: Int) {
      copyPair(of: digitPairs, at: value, to: output + offset)
    }
    putPair(year / 100, at: 0)
    putPair(year % 100, at: 2)
    output[4] = UInt8(ascii: "-")
    putPair(month, at: 5)
    output[7] = UInt8(ascii: "-")
    putPair(day, at: 8)
    output[10] = UInt8(ascii: "T")
    putPair(Int(second / 3600), at: 11)
    output[13] = UInt8(ascii: ":")
    putPair(Int(second / 60 % 60), at: 14)
    output[16] = UInt8(ascii: ":")
    putPair(Int(second % 60), at: 17)
    var i = 19
    if fraction.count > 0 {
      output[i] = UInt8(ascii: ".")
      i += 1
      for _ in 0..<fraction.fillCount {
        output[i] = UInt8(ascii: "0") + fraction.fill
        i += 1
      }
      var rest = fraction.low
      for k in stride(from: i + fraction.lowDigits - 1, through: i, by: -1) {
        output[k] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      }
      i += fraction.lowDigits
    }
    output[i] = UInt8(ascii: "Z")
  }
}

/// Copies the two bytes at `2 * index` in `pairs` to `output`, in one load and one store.
@inline(__always)
func copyPair(of pairs: StaticString, at index: Int, to output: UnsafeMutablePointer<UInt8>) {
  let pair = UnsafeRawPointer(pairs.utf8Start).loadUnaligned(
    fromByteOffset: 2 &* index, as: UInt16.self)
  UnsafeMutableRawPointer(output).storeBytes(of: pair, as: UInt16.self)
}

/// `00` to `FF`: the two upper-case hex digits of each byte.
let hexPairs: StaticString = """
  000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B\
  2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F5051525354555657\
  58595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F80818283\
  8485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAF\
  B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADB\
  DCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF
  """

/// `00` to `99`: the two digits of each number below 100, for writing digits in pairs.
let digitPairs: StaticString = """
  0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243\
  4445464748495051525354555657585960616263646566676869707172737475767778798081828384858687\
  888990919293949596979899
  """

/// The shortest decimal that reads back as a given finite, non-zero `Double`: the value is
/// ±`mantissa` × 10^-`fractionDigitCount`, where `mantissa` has `digitCount` digits (at most 17)
/// and does not end in zero.
struct ShortestDecimal {
  /// Whether the value is below zero.
  var isNegative = false
  /// The significant digits as an integer, without leading or trailing zeros.
  var mantissa: UInt64 = 0
  /// The number of digits of `mantissa`.
  var digitCount = 0
  /// The number of digits after the decimal point in plain notation (negative for integers
  /// with trailing zeros).
  var fractionDigitCount = 0

  /// Reads the shortest round-trip representation of `value` (its `description`: `123.25`,
  /// `1e-05`, `-3.5e-06`, `1e+16` and the like, written to the stack). O(1).
  init(_ value: Double) {
    var text = ASCIISink()
    value.write(to: &text)
    text.withBytes { bytes in
      var digitsAfterPoint = 0
      var sawPoint = false
      var exponent = 0
      var i = 0
      if bytes[i] == UInt8(ascii: "-") {
        isNegative = true
        i += 1
      }
      while i < bytes.count {
        let byte = bytes[i]
        i += 1
        if byte == UInt8(ascii: ".") {
          sawPoint = true
        } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
          var negativeExponent = false
          if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negativeExponent = bytes[i] == UInt8(ascii: "-")
            i += 1
          }
          while i < bytes.count {
            exponent = exponent * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            i += 1
          }
          if negativeExponent {
            exponent = -exponent
          }
        } else {
          if mantissa > 0 || byte != UInt8(ascii: "0") {
            mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
            digitCount += 1
          }
          if sawPoint {
            digitsAfterPoint += 1
          }
        }
      }
      fractionDigitCount = digitsAfterPoint - exponent
    }
    while mantissa > 0 && mantissa % 10 == 0 {
      mantissa /= 10
      digitCount -= 1
      fractionDigitCount -= 1
    }
  }
}
