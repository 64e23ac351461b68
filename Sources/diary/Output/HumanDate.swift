import Foundation
import Stores

/// Dates as people write and read them.
enum HumanDate {
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// "29 Nov 2026", in `timeZone`.
  static func format(_ date: Date, timeZone: TimeZone) -> String {
    let parts = calendar(timeZone).dateComponents([.year, .month, .day], from: date)
    return "\(parts.day ?? 0) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
  }

  /// Parses `today`, `yesterday`, a day such as `2026-11-29` (its midnight in `timeZone`)
  /// or a full ISO 8601 date and time such as `2026-11-29T07:30:00Z`.
  static func parse(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
    let calendar = calendar(timeZone)
    switch text.lowercased() {
    case "today": return calendar.startOfDay(for: now)
    case "yesterday":
      return calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: now))
    default: break
    }
    if let date = ISO8601Timestamp.date(from: text) { return date }
    let fields = text.split(separator: "-", omittingEmptySubsequences: false)
    guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
      fields.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]), year >= 1
    else { return nil }
    let components = DateComponents(year: year, month: month, day: day)
    guard components.isValidDate(in: calendar) else { return nil }
    return calendar.date(from: components)
  }

  private static func calendar(_ timeZone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar
  }
}
