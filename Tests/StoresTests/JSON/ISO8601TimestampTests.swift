import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("ISO8601Timestamp")
struct ISO8601TimestampTests {
  static let knownValueCases: [(String, Double)] = [
    ("2001-01-01T00:00:00Z", 0),
    ("1970-01-01T00:00:00Z", -978_307_200),
    ("2024-02-29T00:00:00Z", 730_857_600),
    ("2000-02-29T23:59:59Z", -26_438_401),
    ("2026-11-29T07:30:00Z", 817_630_200),
    ("9999-12-31T23:59:59Z", 252_423_993_599),
    ("0001-01-01T00:00:00Z", -63_113_904_000),
    ("2000-12-31T23:57:56.5Z", -123.5),
    ("2001-01-01T00:00:00.5Z", 0.5),
    ("2000-12-31T23:59:59.9999999Z", -1e-7),
    ("2001-01-01T00:00:00.00001Z", 1e-5),
    ("2000-12-31T23:59:59.9999965Z", -3.5e-6),
    ("2001-01-01T00:00:00.\(String(repeating: "0", count: 323))5Z", .leastNonzeroMagnitude),
  ]

  @Test("known instants, both ways", arguments: knownValueCases)
  func knownValues(_ text: String, _ seconds: Double) {
    let date = Date(timeIntervalSinceReferenceDate: seconds)
    #expect(ISO8601Timestamp.string(from: date) == text)
    #expect(ISO8601Timestamp.date(from: text) == date)
  }

  @Test("time-zone offsets and lower case give the right instant")
  func offsets() {
    let utc = ISO8601Timestamp.date(from: "2026-11-29T07:30:00Z")
    #expect(utc != nil)
    for text in [
      "2026-11-29T13:00:00+05:30", "2026-11-28T23:30:00-08:00", "2026-11-29T07:30:00+00:00",
      "2026-11-29T07:30:00-00:00", "2026-11-29t07:30:00z", "2026-11-29T07:30:00.000Z",
      "2026-11-30T07:29:00+23:59", "2026-11-28T07:31:00-23:59",
    ] {
      #expect(ISO8601Timestamp.date(from: text) == utc, "\(text)")
    }
    #expect(
      ISO8601Timestamp.date(from: "2001-01-01T05:30:00.25+05:30")
        == Date(timeIntervalSinceReferenceDate: 0.25))
    #expect(
      ISO8601Timestamp.date(from: "2000-12-31T16:00:00.75-08:00")
        == Date(timeIntervalSinceReferenceDate: 0.75))
    #expect(
      ISO8601Timestamp.date(from: "2001-01-01T05:29:59.5+05:30")
        == Date(timeIntervalSinceReferenceDate: -0.5))
  }

  static let invalidTimestamps: [String] = [
    "", "2026-11-29", "2026-11-29T07:30Z", "2026-11-29T07:30:00", "2026-11-29T07:30:00Zx",
    "2026-11-29T07:30:00Z ", " 2026-11-29T07:30:00Z", "2026-11-29 07:30:00Z",
    "2026-11-29_07:30:00Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
    "2026-04-31T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-00T00:00:00Z",
    "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-11-29T24:00:00Z",
    "2026-11-29T23:60:00Z", "2026-11-29T23:59:60Z", "2016-12-31T23:59:60Z",
    "0000-01-01T00:00:00Z", "10000-01-01T00:00:00Z", "-2026-11-29T07:30:00Z",
    "+2026-11-29T07:30:00Z", "2026-1-29T07:30:00Z", "26-11-29T07:30:00Z",
    "2026-11-29T7:30:00Z", "2026-11-29T07:30:00.Z", "2026-11-29T07:30:00,5Z",
    "2026-11-29T07:30:00.5", "2026-11-29T07:30:00+0530", "2026-11-29T07:30:00+05",
    "2026-11-29T07:30:00+05:3", "2026-11-29T07:30:00+24:00", "2026-11-29T07:30:00+05:60",
    "2026-11-29T07:30:00UTC", "2026-11-29T07:30:00+05:30Z", "2026/11/29T07:30:00Z",
    "２０２６-11-29T07:30:00Z", "2026-11-29T07:30:00.1e5Z", "2026-11-29T07:30:00.-5Z",
    "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01",
  ]

  @Test("invalid timestamps are refused", arguments: invalidTimestamps)
  func invalid(_ text: String) {
    #expect(ISO8601Timestamp.date(from: text) == nil)
  }

  @Test("dates that cannot be written give nil")
  func unwritable() {
    for seconds in [
      Double.nan, .infinity, -.infinity, -63_113_904_000.000_01, 252_423_993_600, 1e300,
    ] {
      #expect(ISO8601Timestamp.string(from: Date(timeIntervalSinceReferenceDate: seconds)) == nil)
    }
    #expect(
      ISO8601Timestamp.string(from: Date(timeIntervalSinceReferenceDate: -63_113_904_000))
        == "0001-01-01T00:00:00Z")
    #expect(
      ISO8601Timestamp.string(
        from: Date(timeIntervalSinceReferenceDate: Double(252_423_993_600).nextDown))
        == "9999-12-31T23:59:59.99997Z")
  }

  @Test("-0.0 is written as the reference date and reads back as +0.0")
  func negativeZero() {
    let text = ISO8601Timestamp.string(from: Date(timeIntervalSinceReferenceDate: -0.0))
    #expect(text == "2001-01-01T00:00:00Z")
    let seconds = ISO8601Timestamp.date(from: text ?? "")?.timeIntervalSinceReferenceDate
    #expect(seconds?.bitPattern == (0.0 as Double).bitPattern)
  }

  /// Seconds since 2001 to test the round trip with, from many kinds of values.
  static func sampleSeconds(count: Int) -> [Double] {
    var generator = SeededGenerator(seed: 2026)
    let first = -63_113_904_000.0
    let end = 252_423_993_600.0
    var values: [Double] = [
      0, 1e-6, -1e-6, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e-300, Double.ulpOfOne, 0.1,
      -0.1, first, end.nextDown,
      first.nextUp, Date().timeIntervalSinceReferenceDate, 817_630_200.123_456_789,
    ]
    while values.count < count {
      let value: Double
      switch values.count % 8 {
      case 0:
        // Anywhere in the years 1...9999.
        value = Double.random(in: first..<end, using: &generator)
      case 1:
        // Within a microsecond of the reference date, at every scale.
        let magnitude = Double(
          sign: .plus, exponent: Int.random(in: -1074 ... -20, using: &generator),
          significand: Double.random(in: 1..<2, using: &generator))
        value = Bool.random(using: &generator) ? magnitude : -magnitude
      case 2:
        value = Double.random(in: -1e-6...1e-6, using: &generator)
      case 3:
        // Before 2001, with many fractional bits.
        value = Double.random(in: -2e9..<0, using: &generator)
      case 4:
        // Around now, as Date() makes them.
        value = Double.random(in: 7e8..<9e8, using: &generator)
      case 5:
        // Next to whole seconds.
        let whole = Double(Int.random(in: -63_113_904_000..<252_423_993_599, using: &generator))
        value = Bool.random(using: &generator) ? whole.nextUp : whole.nextDown
      case 6:
        // Random bit patterns in range.
        let bits = UInt64.random(in: 0...0x4270_0000_0000_0000, using: &generator)
        let candidate = Double(bitPattern: bits)
        value = Bool.random(using: &generator) ? candidate : -min(candidate, -first)
      default:
        // Whole and simple fractions.
        value = Double(Int.random(in: -100_000...100_000, using: &generator)) / 8
      }
      if value >= first && value < end {
        values.append(value)
      }
    }
    return values
  }

  @Test("exact round trip, bit for bit, with the shortest fraction")
  func roundTrip() throws {
    for seconds in Self.sampleSeconds(count: 100_000) {
      let date = Date(timeIntervalSinceReferenceDate: seconds)
      let text = try #require(ISO8601Timestamp.string(from: date), "\(seconds)")
      let back = try #require(ISO8601Timestamp.date(from: text), "\(text)")
      let expected = seconds == 0 ? 0 : seconds  // -0.0 reads back as +0.0.
      #expect(
        back.timeIntervalSinceReferenceDate.bitPattern == expected.bitPattern,
        "\(seconds) → \(text) → \(back.timeIntervalSinceReferenceDate)")
      // Shortest: no trailing zero, and one digit fewer (either rounding) reads back otherwise.
      guard let dot = text.firstIndex(of: ".") else {
        #expect(seconds.rounded(.down) == seconds)
        continue
      }
      let fraction = text[text.index(after: dot)..<text.index(before: text.endIndex)]
      #expect(fraction.last != "0", "\(text)")
      let shorter = String(text[..<text.index(before: text.endIndex)].dropLast())
      let truncated = shorter.last == "." ? String(shorter.dropLast()) : shorter
      #expect(
        ISO8601Timestamp.date(from: truncated + "Z")?.timeIntervalSinceReferenceDate != seconds)
      if let last = shorter.last, last.isNumber, last != "9" {
        let roundedUp = String(shorter.dropLast()) + String(last.wholeNumberValue! + 1)
        #expect(
          ISO8601Timestamp.date(from: roundedUp + "Z")?.timeIntervalSinceReferenceDate != seconds)
      }
    }
  }

  /// `1 - 0.digits` as decimal digits after the point, by long subtraction.
  private static func complement(of digits: [Int]) -> [Int] {
    var result = [Int](repeating: 0, count: digits.count)
    var borrow = 0
    for k in stride(from: digits.count - 1, through: 0, by: -1) {
      var difference = (k == digits.count - 1 ? 10 : 9) - digits[k] - borrow
      borrow = 0
      if difference < 0 {
        difference += 10
        borrow = 1
      }
      result[k] = difference
    }
    return result
  }

  @Test("any fraction, of any length, is rounded correctly, before and after 2001")
  func correctRounding() throws {
    var generator = SeededGenerator(seed: 31)
    for _ in 0..<20_000 {
      let count = Int.random(in: 1...30, using: &generator)
      var digits = (0..<count).map { _ in Int.random(in: 0...9, using: &generator) }
      digits[count - 1] = Int.random(in: 1...9, using: &generator)
      let fraction = digits.map(String.init).joined()
      let whole = Int.random(in: -3_000_000_000...3_000_000_000, using: &generator)
      let days = (whole >= 0 ? whole : whole - 86_399) / 86_400
      let time = whole - days * 86_400
      let civil = CivilDate.civil(fromDays: days + CivilDate.referenceDay)
      let text =
        String(
          format: "%04d-%02d-%02dT%02d:%02d:%02d.", civil.year, civil.month, civil.day,
          time / 3600, time / 60 % 60, time % 60) + fraction + "Z"
      let expected: Double
      if whole >= 0 {
        expected = try #require(Double("\(whole).\(fraction)"))
      } else {
        let complement = Self.complement(of: digits).map(String.init).joined()
        expected = try #require(Double("-\(-whole - 1).\(complement)"))
      }
      #expect(
        ISO8601Timestamp.date(from: text)?.timeIntervalSinceReferenceDate == expected, "\(text)")
    }
  }

  @Test("round trip through JSONEncoder and JSONDecoder with custom date strategies")
  func codableRoundTrip() throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      guard let text = ISO8601Timestamp.string(from: date) else {
        throw EncodingError.invalidValue(
          date, .init(codingPath: encoder.codingPath, debugDescription: "date out of range"))
      }
      try container.encode(text)
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601Timestamp.date(from: text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "not a timestamp: \(text)")
      }
      return date
    }
    let dates = Self.sampleSeconds(count: 5000).filter { $0 != 0 }.map {
      Date(timeIntervalSinceReferenceDate: $0)
    }
    let data = try encoder.encode(dates)
    try JSONSyntax.validate(data)
    let back = try decoder.decode([Date].self, from: data)
    #expect(back.count == dates.count)
    for (a, b) in zip(dates, back) {
      #expect(
        a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern)
    }
  }

  @Test("civil-date arithmetic agrees with a day-by-day walk")
  func civilDates() {
    var days = CivilDate.days(year: 1, month: 1, day: 1)
    for year in [1, 2, 99, 100, 400, 1582, 1899, 1900, 1969, 1970, 2000, 2024, 2100, 9999] {
      days = CivilDate.days(year: year, month: 1, day: 1)
      for month in 1...12 {
        for day in 1...CivilDate.daysInMonth(year: year, month: month) {
          #expect(CivilDate.days(year: year, month: month, day: day) == days)
          let civil = CivilDate.civil(fromDays: days)
          #expect(civil.year == year && civil.month == month && civil.day == day)
          days += 1
        }
      }
      #expect(CivilDate.days(year: year + 1, month: 1, day: 1) == days)
    }
    #expect(CivilDate.days(year: 1970, month: 1, day: 1) == 0)
    #expect(CivilDate.days(year: 2001, month: 1, day: 1) == CivilDate.referenceDay)
  }
}
