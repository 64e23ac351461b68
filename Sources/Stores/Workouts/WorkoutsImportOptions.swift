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
  /// The app whose export these options read (``strava(unit:)``, ``garmin(unit:timeZone:)``),
  /// or `nil`: a CSV file whose header has no column for the name or the distance is then read
  /// as the app's export whose header it has (see ``Source/init(recognizing:)``).
  public var source: Source?
  /// How numbers in the file write their decimals, or `nil`: told from the file (see
  /// ``DecimalMark``).
  public var decimalMark: DecimalMark?
  /// Whether rows that are not valid are left out, each reported with its line, column and
  /// problem in ``WorkoutsImport/skipped``, rather than failing the import; `false`: one such
  /// row and nothing is imported.
  public var skipsInvalidRows = false

  public init(
    columns: [Field: String] = [:], unit: DistanceUnit? = nil, dateFormat: DatePattern? = nil,
    timeZone: TimeZone = .current, source: Source? = nil, decimalMark: DecimalMark? = nil,
    skipsInvalidRows: Bool = false
  ) {
    self.columns = columns
    self.unit = unit
    self.dateFormat = dateFormat
    self.timeZone = timeZone
    self.source = source
    self.decimalMark = decimalMark
    self.skipsInvalidRows = skipsInvalidRows
  }

  /// The header of the column for `field`.
  public func header(for field: Field) -> String { columns[field] ?? field.rawValue }

  /// Strava's `activities.csv` (from "Download your data"): `Activity Name`, `Distance` (the
  /// first column of that name, in kilometres or miles as the account shows them),
  /// `Activity Date` as `Nov 29, 2026, 7:30:00 AM` in UTC, `Activity Type` (the sport),
  /// `Elapsed Time` (the first column of that name) and `Moving Time` in seconds; the other
  /// columns are ignored. Bare distances are in `unit` (`nil`: kilometres). From an account
  /// in German or French, the headers and dates are the account's language's (see
  /// ``Source/localizedColumns`` and ``Source/localizedDateFormats``).
  public static func strava(unit: DistanceUnit? = nil) -> WorkoutsImportOptions {
    WorkoutsImportOptions(
      columns: [
        .name: "Activity Name", .distance: "Distance", .date: "Activity Date",
        .sport: "Activity Type", .time: "Elapsed Time", .movingTime: "Moving Time",
      ],
      unit: unit,
      // The pattern is valid: it has a year, a month and a day.
      dateFormat: try? DatePattern("%b %d, %Y, %I:%M:%S %p"),
      timeZone: TimeZone(identifier: "UTC") ?? .current, source: .strava)
  }

  /// Garmin Connect's activities CSV (Activities, "Export CSV"), its header in English —
  /// or in German or French (see ``Source/localizedColumns``): `Title`, `Distance` (in
  /// kilometres or miles as the account shows them), `Date` as `2026-11-29 07:30:00` in
  /// `timeZone` (Garmin writes the local time of the activity), `Activity Type` (the sport),
  /// `Elapsed Time` — or, in older files without it, `Time` — and `Moving Time` as
  /// `hh:mm:ss`; `--` is an empty value; the other columns are ignored. Bare distances are in
  /// `unit` (`nil`: kilometres) — but a swim's, which Garmin writes in metres (`"1,500"`, the
  /// comma grouping thousands), or in yards where `unit` is miles or yards.
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
    options.source = .garmin
    return options
  }

  /// These options for `source`'s export: its columns, date form and time zone, with the
  /// columns, date format, unit, decimal mark and skipping of these options kept.
  public func reading(_ source: Source) -> WorkoutsImportOptions {
    var options =
      switch source {
      case .strava: Self.strava(unit: unit)
      case .garmin: Self.garmin(unit: unit, timeZone: timeZone)
      }
    options.columns.merge(columns) { $1 }
    options.fallbackColumns.merge(fallbackColumns) { $1 }
    if let dateFormat { options.dateFormat = dateFormat }
    options.decimalMark = decimalMark
    options.skipsInvalidRows = skipsInvalidRows
    return options
  }
}

extension WorkoutsImportOptions {
  /// An app whose export an import knows.
  public enum Source: String, CaseIterable, Hashable, Sendable {
    /// Strava's bulk export, `activities.csv`.
    case strava
    /// Garmin Connect's activities CSV.
    case garmin

    /// The headers that tell the export, lowercased, one list for each language it writes
    /// its header in: all the headers of one list are in its header. Strava and Garmin
    /// Connect write their header in the account's language — English, German (Strava's
    /// `Aktivitäts-ID`, `Aktivitätsdatum`, …; Garmin's `Aktivitätstyp`, `Datum`, `Titel`,
    /// `Distanz`) or French (Strava's `ID de l'activité`, `Date de l'activité`, …; Garmin's
    /// `Type d'activité`, `Date`, `Titre`, `Distance`).
    public var signatures: [[String]] {
      switch self {
      case .strava:
        [
          [
            "activity id", "activity date", "activity name", "activity type", "elapsed time",
            "distance",
          ],
          [
            "aktivitäts-id", "aktivitätsdatum", "name der aktivität", "aktivitätsart",
            "verstrichene zeit", "distanz",
          ],
          [
            "id de l'activité", "date de l'activité", "nom de l'activité", "type d'activité",
            "temps écoulé", "distance",
          ],
        ]
      case .garmin:
        [
          ["activity type", "date", "title", "distance"],
          ["aktivitätstyp", "datum", "titel", "distanz"],
          ["type d'activité", "date", "titre", "distance"],
        ]
      }
    }

    /// The headers of the export's columns in the languages other than English it writes
    /// them in, each field's in the order they are looked for, after the options' own
    /// (``WorkoutsImportOptions/columns`` and ``WorkoutsImportOptions/fallbackColumns``):
    /// Strava's and Garmin Connect's German and French files. Strava's, as its English
    /// header, has two columns each of `Verstrichene Zeit` / `Temps écoulé` and `Distanz` /
    /// `Distance`: the first is read (the distance in the account's unit, with its decimal
    /// mark: `"10,02"`); its French moving time has been `Durée de déplacement` and `Temps en
    /// mouvement`.
    public var localizedColumns: [[Field: [String]]] {
      switch self {
      case .strava:
        [
          [
            .name: ["Name der Aktivität"], .distance: ["Distanz"], .date: ["Aktivitätsdatum"],
            .sport: ["Aktivitätsart"], .time: ["Verstrichene Zeit"],
            .movingTime: ["Bewegungszeit"],
          ],
          [
            .name: ["Nom de l'activité"], .distance: ["Distance"],
            .date: ["Date de l'activité"], .sport: ["Type d'activité"],
            .time: ["Temps écoulé"],
            .movingTime: ["Durée de déplacement", "Temps en mouvement"],
          ],
        ]
      case .garmin:
        [
          [
            .name: ["Titel"], .distance: ["Distanz"], .date: ["Datum"], .sport: ["Aktivitätstyp"],
            .time: ["Verstrichene Zeit", "Zeit"], .movingTime: ["Zeit in Bewegung"],
          ],
          [
            .name: ["Titre"], .distance: ["Distance"], .date: ["Date"],
            .sport: ["Type d'activité"], .time: ["Temps écoulé", "Durée"],
            .movingTime: ["Temps de déplacement"],
          ],
        ]
      }
    }

    /// The forms of the export's dates in the languages other than English it writes them
    /// in, read after the options' ``WorkoutsImportOptions/dateFormat``, in UTC as the
    /// English ones: Strava's German `07.01.2024, 00:05:00` and French `7 janv. 2024 à
    /// 00:05:00` (also written `7 janv. 2024, 00:05:00`). Garmin Connect writes
    /// `2026-11-29 07:30:00` in every language: none.
    public var localizedDateFormats: [DatePattern] {
      switch self {
      // The patterns are valid: each has a year, a month and a day.
      case .strava:
        ["%d.%m.%Y, %H:%M:%S", "%d %b %Y à %H:%M:%S", "%d %b %Y, %H:%M:%S"].compactMap {
          try? DatePattern($0)
        }
      case .garmin: []
      }
    }

    /// What the export is called in messages: "Strava's activities.csv", "Garmin Connect's
    /// activities CSV".
    public var exportName: String {
      switch self {
      case .strava: "Strava's activities.csv"
      case .garmin: "Garmin Connect's activities CSV"
      }
    }

    /// The export whose header `headers` is — every header of one of its ``signatures`` is
    /// among them (in any case, spaces around ignored) and none of another export's are — or
    /// `nil`.
    public init?(recognizing headers: [String]) {
      let names = Set(headers.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
      let matching = Self.allCases.filter {
        $0.signatures.contains { $0.allSatisfy(names.contains) }
      }
      guard matching.count == 1 else { return nil }
      self = matching[0]
    }
  }

  /// How a file writes the decimals of its numbers: `10.02` (``point``) or `10,02`
  /// (``comma``).
  ///
  /// Most numbers tell by themselves (see `DecimalText`): `10,02` has a decimal comma,
  /// `1,500,000` and `1,500.5` group thousands with commas. Only a mark followed by exactly
  /// three digits (`1,500`, `1.500`) could be either; without ``WorkoutsImportOptions/decimalMark``
  /// it is read as the other numbers of the file show — else a point as the decimal mark, and
  /// a comma as Garmin Connect writes it (grouping thousands: `"1,500"` metres), or as the
  /// decimal mark in a file separated by semicolons or tabs; in a file separated by commas,
  /// nothing tells, and the row's problem asks for the option.
  public enum DecimalMark: String, CaseIterable, Hashable, Sendable {
    case point, comma
  }
}
