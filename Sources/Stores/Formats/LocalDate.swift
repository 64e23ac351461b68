import Foundation

/// Dates as people write and read them — a day, or a wall-clock time in a time zone — in the
/// proleptic Gregorian calendar that ISO 8601 and the data files use, also before 1582, where
/// Foundation's `.gregorian` calendar is Julian. Used by `diary` and by the CSV import.
package enum LocalDate {
  /// The instant `text` names: ISO 8601 with a zone (`2026-11-29T07:30:00Z`,
  /// `2026-11-29T08:30:00+01:00`), or in `timeZone` a day (`2026-11-29`, its start) or a
  /// wall-clock time (`2026-11-29T07:30`, `2026-11-29T07:30:15`, also with a space for the
  /// `T`: `2026-11-29 07:30:15`). Years are 0001...9999; `nil`
  /// for anything else.
  ///
  /// In a gap of a change to summer time, a wall-clock time is the instant as many seconds
  /// after the gap's start.
  package static func date(from text: String, in timeZone: TimeZone) -> Date? {
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
    // YYYY-MM-DD, then THH:MM or THH:MM:SS (or a space for the T).
    guard [10, 16, 19].contains(bytes.count), let year = number(0, 4), year >= 1,
      byte(4, is: "-"), let month = number(5, 2), (1...12).contains(month), byte(7, is: "-"),
      let day = number(8, 2), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
    else { return nil }
    var second = Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400
    if bytes.count > 10 {
      guard byte(10, is: "T") || byte(10, is: "t") || byte(10, is: " "), let hour = number(11, 2),
        hour < 24,
        byte(13, is: ":"), let minute = number(14, 2), minute < 60
      else { return nil }
      second += Int64(hour * 3_600 + minute * 60)
      if bytes.count == 19 {
        guard byte(16, is: ":"), let seconds = number(17, 2), seconds < 60 else { return nil }
        second += Int64(seconds)
      }
    }
    return instant(ofLocalSecond: second, in: timeZone)
  }

  /// The day `date` falls on in `timeZone`, or `nil` for a date outside the years 1...9999
  /// there (or not a date: NaN).
  package static func day(of date: Date, in timeZone: TimeZone) -> (
    year: Int, month: Int, day: Int
  )? {
    let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
    // The days of the years 1...9999, the calendar's (and in a 32-bit `Int`, watchOS's).
    let days = (local / 86_400).rounded(.down)
    guard days >= -719_162 && days <= 2_932_896 else { return nil }
    return CivilDate.civil(fromDays: Int(days))
  }

  /// The start of the day `days` days after the one `now` falls on in `timeZone` (`-1`:
  /// yesterday, `0`: today, `1`: tomorrow).
  package static func startOfDay(_ days: Int, from now: Date, in timeZone: TimeZone) -> Date {
    let local = now.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: now))
    let today = Int64((local / 86_400).rounded(.down))
    return instant(ofLocalSecond: (today + Int64(days)) * 86_400, in: timeZone)
  }

  /// The instant whose wall-clock time in `timeZone` is `second` seconds after 1970-01-01
  /// 00:00 — in 64 bits: seconds from 2038 on do not fit in a 32-bit `Int` (watchOS).
  static func instant(ofLocalSecond second: Int64, in timeZone: TimeZone) -> Date {
    let local = Date(timeIntervalSince1970: Double(second))
    let guess = local.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: local)))
    return local.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
  }
}
