import Foundation

/// How an import reads its files: which CSV column holds which field, what a bare distance
/// means, how dates are written and in which time zone. The defaults read the files
/// ``WorkoutsCSV/export(_:)`` writes, and any CSV whose header names the fields.
public struct WorkoutsImportOptions: Equatable, Hashable, Sendable {
  /// A field of a workout that a CSV column can hold: `time` is the elapsed time,
  /// `movingTime` the moving time (see ``WorkoutDuration``).
  public enum Field: String, CaseIterable, Hashable, Sendable {
    case id, name, distance, date, complexity, sport, time, movingTime
  }

  /// The header of the column that holds each field, when it is not the field's own name
  /// (`[.name: "Activity Name"]`); headers are matched in any case, spaces around ignored.
  public var columns: [Field: String]
  /// What a distance without a unit is in; `nil`: kilometres.
  public var unit: DistanceUnit?
  /// The header of the column read for a field when the file has no column of its header in
  /// ``columns`` (Garmin Connect's older files have `Time` but no `Elapsed Time`).
  public var fallbackColumns: [Field: String] = [:]
  /// The form of dates that are not in one of the forms import reads by itself (ISO 8601,
  /// `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`); `nil`: none.
  public var dateFormat: DatePattern?
  /// The time zone of days and wall-clock times in the file.
  public var timeZone: TimeZone

  public init(
    columns: [Field: String] = [:], unit: DistanceUnit? = nil, dateFormat: DatePattern? = nil,
    timeZone: TimeZone = .current
  ) {
    self.columns = columns
    self.unit = unit
    self.dateFormat = dateFormat
    self.timeZone = timeZone
  }

  /// The header of the column for `field`.
  public func header(for field: Field) -> String { columns[field] ?? field.rawValue }

  /// Strava's `activities.csv` (from "Download your data"): `Activity Name`, `Distance` (the
  /// first column of that name, in kilometres or miles as the account shows them),
  /// `Activity Date` as `Nov 29, 2026, 7:30:00 AM` in UTC, `Activity Type` (the sport),
  /// `Elapsed Time` (the first column of that name) and `Moving Time` in seconds; the other
  /// columns are ignored. Bare distances are in `unit` (`nil`: kilometres).
  public static func strava(unit: DistanceUnit? = nil) -> WorkoutsImportOptions {
    WorkoutsImportOptions(
      columns: [
        .name: "Activity Name", .distance: "Distance", .date: "Activity Date",
        .sport: "Activity Type", .time: "Elapsed Time", .movingTime: "Moving Time",
      ],
      unit: unit,
      // The pattern is valid: it has a year, a month and a day.
      dateFormat: try? DatePattern("%b %d, %Y, %I:%M:%S %p"),
      timeZone: TimeZone(identifier: "UTC") ?? .current)
  }

  /// Garmin Connect's activities CSV (Activities, "Export CSV"): `Title`, `Distance` (in
  /// kilometres or miles as the account shows them), `Date` as `2026-11-29 07:30:00` in
  /// `timeZone` (Garmin writes the local time of the activity), `Activity Type` (the sport),
  /// `Elapsed Time` — or, in older files without it, `Time` — and `Moving Time` as
  /// `hh:mm:ss`; `--` is an empty value; the other columns are ignored. Bare distances are in
  /// `unit` (`nil`: kilometres).
  public static func garmin(unit: DistanceUnit? = nil, timeZone: TimeZone = .current)
    -> WorkoutsImportOptions
  {
    var options = WorkoutsImportOptions(
      columns: [
        .name: "Title", .distance: "Distance", .date: "Date", .sport: "Activity Type",
        .time: "Elapsed Time", .movingTime: "Moving Time",
      ],
      unit: unit, timeZone: timeZone)
    options.fallbackColumns = [.time: "Time"]
    return options
  }
}
