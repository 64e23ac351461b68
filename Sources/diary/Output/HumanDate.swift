import Foundation
import Stores

/// Dates as people write and read them, on top of the library's ``LocalDate`` (the proleptic
/// Gregorian calendar, also before 1582) — plus the words for days near today.
enum HumanDate {
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// "29 Nov 2026", in `timeZone`.
  static func format(_ date: Date, timeZone: TimeZone) -> String {
    // Dates beyond what a day count holds cannot be in a file (its timestamps are years
    // 1...9999), but a `Date` can be anything.
    guard let day = LocalDate.day(of: date, in: timeZone) else { return "\(date)" }
    return "\(day.day) \(months[day.month - 1]) \(day.year)"
  }

  /// "29 Nov 2026 07:30", in `timeZone`.
  static func formatWithTime(_ date: Date, timeZone: TimeZone) -> String {
    let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
    guard local.isFinite, abs(local) < 1e15 else { return format(date, timeZone: timeZone) }
    let minutes = (Int((local / 60).rounded(.down)) % 1440 + 1440) % 1440
    let (hour, minute) = (minutes / 60, minutes % 60)
    return format(date, timeZone: timeZone) + " \(hour < 10 ? "0" : "")\(hour):"
      + "\(minute < 10 ? "0" : "")\(minute)"
  }

  /// The `Date` of `text`: `today`, `yesterday` or `tomorrow` (the start of that day) in
  /// `time`'s time zone, or what ``LocalDate/date(from:in:)`` reads: a day such as
  /// `2026-11-29` (its start), a local time such as `2026-11-29T07:30`, or ISO 8601 with a zone.
  static func parse(_ text: String, _ time: LocalTime) -> Date? {
    let relative = ["yesterday": -1, "today": 0, "tomorrow": 1]
    if let offset = relative[text.lowercased()] {
      return LocalDate.startOfDay(offset, from: time.now, in: time.timeZone)
    }
    return LocalDate.date(from: text, in: time.timeZone)
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
