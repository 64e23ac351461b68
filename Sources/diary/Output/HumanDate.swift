import Foundation
import Stores

/// Dates as people write and read them, in the proleptic Gregorian calendar (the one ISO 8601
/// and the data files use, also before 1582, where Foundation's `.gregorian` calendar is
/// Julian) and in a time zone.
enum HumanDate {
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// "29 Nov 2026", in `timeZone`.
  static func format(_ date: Date, timeZone: TimeZone) -> String {
    let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
    // Dates beyond what a day count holds cannot be in a file (its timestamps are years
    // 1...9999), but a `Date` can be anything.
    guard local.isFinite, abs(local) < 1e15 else { return "\(date)" }
    let day = CivilDay(daysSince1970: Int((local / 86_400).rounded(.down)))
    return "\(day.day) \(months[day.month - 1]) \(day.year)"
  }

  /// The `Date` of `text`: `today`, `yesterday` or `tomorrow` (the start of that day), a day
  /// such as `2026-11-29` (its start), a local time such as `2026-11-29T07:30` or
  /// `2026-11-29T07:30:15` — all in `time`'s time zone — or ISO 8601 with a zone such as
  /// `2026-11-29T07:30:00Z` or `2026-11-29T08:30:00+01:00`. Years are 0001...9999.
  static func parse(_ text: String, _ time: LocalTime) -> Date? {
    let relative = ["yesterday": -1, "today": 0, "tomorrow": 1]
    if let offset = relative[text.lowercased()] {
      let now = time.now.timeIntervalSince1970 + Double(time.timeZone.secondsFromGMT(for: time.now))
      let today = Int((now / 86_400).rounded(.down))
      return instant(ofLocalSecond: (today + offset) * 86_400, in: time.timeZone)
    }
    if let date = ISO8601Timestamp.date(from: text) { return date }
    let bytes = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[start..<start + count] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    func byte(_ index: Int, is character: Character) -> Bool {
      index < bytes.count && bytes[index] == character.asciiValue
    }
    // YYYY-MM-DD, then THH:MM or THH:MM:SS.
    guard [10, 16, 19].contains(bytes.count), let year = number(0, 4), year >= 1,
      byte(4, is: "-"), let month = number(5, 2), (1...12).contains(month), byte(7, is: "-"),
      let day = number(8, 2), (1...CivilDay.days(inMonth: month, of: year)).contains(day)
    else { return nil }
    var second = CivilDay(year: year, month: month, day: day).daysSince1970 * 86_400
    if bytes.count > 10 {
      guard byte(10, is: "T") || byte(10, is: "t"), let hour = number(11, 2), hour < 24,
        byte(13, is: ":"), let minute = number(14, 2), minute < 60
      else { return nil }
      second += hour * 3_600 + minute * 60
      if bytes.count == 19 {
        guard byte(16, is: ":"), let seconds = number(17, 2), seconds < 60 else { return nil }
        second += seconds
      }
    }
    return instant(ofLocalSecond: second, in: time.timeZone)
  }

  /// The instant whose wall-clock time in `timeZone` is `second` seconds after 1970-01-01
  /// 00:00; in a gap of a change to summer time, the instant as many seconds after the gap's
  /// start.
  private static func instant(ofLocalSecond second: Int, in timeZone: TimeZone) -> Date {
    let local = Date(timeIntervalSince1970: Double(second))
    let guess = local.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: local)))
    return local.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
  }
}

/// A day of the proleptic Gregorian calendar, converted to and from a count of days in
/// integer arithmetic (Howard Hinnant's `days_from_civil` and `civil_from_days`).
struct CivilDay: Equatable {
  var year: Int
  var month: Int
  var day: Int

  init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The day `days` days after 1970-01-01 (before it when negative).
  init(daysSince1970 days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// The number of days from 1970-01-01 to this day (negative before it).
  var daysSince1970: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The number of days in `month` (1...12) of `year`.
  static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

extension ValueType where Value == Date {
  /// A date: see ``HumanDate/parse(_:_:)``.
  static var date: Self {
    ValueType(
      placeholder: "DATE",
      expected:
        "a date such as 2026-11-29, today, tomorrow, yesterday, 2026-11-29T07:30 (local time) "
        + "or 2026-11-29T07:30:00Z",
      valuesHelp:
        "YYYY-MM-DD, today, tomorrow, yesterday, a local time such as 2026-11-29T07:30, or "
        + "ISO 8601 with a zone such as 2026-11-29T07:30:00Z",
      read: HumanDate.parse,
      format: { ISO8601Timestamp.string(from: $0) ?? "\($0)" })
  }
}
