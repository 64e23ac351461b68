/// Proleptic Gregorian calendar arithmetic in integers (Howard Hinnant's `days_from_civil` and
/// `civil_from_days`), counting days from 1970-01-01.
enum CivilDate {
  /// Days from 1970-01-01 to 2001-01-01, the reference date of `Date`.
  static let referenceDay = 11_323

  /// The number of days from 1970-01-01 to `year`-`month`-`day` (negative before it).
  /// `month` is 1...12 and `day` 1...31. O(1).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` days after 1970-01-01, which is in the years 1...9999. O(1), in 32-bit
  /// arithmetic: counted from 0000-03-01, the days are never negative.
  @inline(__always)
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    precondition(days >= -719_162 && days <= 2_932_896, "\(days) days is outside 1...9999")
    let z = UInt32(truncatingIfNeeded: days &+ 719_468)
    let era = z / 146_097
    let dayOfEra = z &- era &* 146_097
    let yearOfEra =
      (dayOfEra &- dayOfEra / 1460 &+ dayOfEra / 36_524 &- dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra &- (365 &* yearOfEra &+ yearOfEra / 4 &- yearOfEra / 100)
    let shiftedMonth = (5 &* dayOfYear &+ 2) / 153
    let day = dayOfYear &- (153 &* shiftedMonth &+ 2) / 5 &+ 1
    let month = shiftedMonth < 10 ? shiftedMonth &+ 3 : shiftedMonth &- 9
    return (Int(yearOfEra &+ era &* 400) + (month <= 2 ? 1 : 0), Int(month), Int(day))
  }

  /// The number of days in `month` (1...12) of `year`. O(1).
  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2:
      return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11:
      return 30
    default:
      return 31
    }
  }
}
