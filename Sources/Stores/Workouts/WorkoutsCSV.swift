import Foundation

/// Workouts as CSV (RFC 4180), the way people move a diary between apps.
///
/// Export writes a header, `id,name,distance,date,complexity,sport,time,movingTime`, then a
/// line per workout: distances in kilometres (the metres with the point moved: exact), dates
/// in UTC ISO 8601 with the digits an exact round trip needs, times in seconds (empty when not
/// known), and a name that a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first)
/// behind a `'`, which import takes off again.
///
/// Import reads any CSV whose header names the columns, in any order and case, with `,`, `;`
/// or a tab between fields (told from the header line); ``WorkoutsImportOptions`` maps other
/// headers (Strava's `Activity Name`), and columns it does not use are ignored and listed.
/// `name` and `distance` are required; `date`, `complexity`, `id`, `sport`, `time` and
/// `movingTime` are optional, and so is each of their fields (now, medium, a new id, no sport,
/// no time; `--` is empty too, as Garmin writes it). A distance is typed as `diary workouts
/// add` takes it (`5.2`, `5km`, `1500 m`, `1650 yd`, `3.1 mi`, 0 to 100,000; in a file
/// separated by `;` or tabs also `5,2`); a sport is any name (see ``Sport/init(_:)``); a time
/// is seconds (`4742`, `4742.0`), `H:MM:SS`, `M:SS` or `1h2m` (see `DurationText`), and a time
/// of 0 is not known (sources write it for "not measured"); a
/// date is `YYYY-MM-DD`, a local time `YYYY-MM-DDTHH:MM[:SS]` or `YYYY-MM-DD HH:MM[:SS]`, ISO
/// 8601 with a zone, `today`, `yesterday`, `tomorrow`, or what the options' date format
/// reads; a name is one line. Every row is checked: the import fails with all the problems
/// (the first ``WorkoutsImporter/problemsListed``, and the count). A row with an id seen
/// before in the file is left out.
public enum WorkoutsCSV {
  /// The columns, in the order export writes them.
  public static let columns = WorkoutsImportOptions.Field.allCases.map(\.rawValue)

  /// `workouts` as CSV text, header first. O(*n*).
  public static func export(_ workouts: some Sequence<Workout>) -> String {
    var text = CSV.line(columns)
    for workout in workouts {
      text += CSV.line([
        workout.id.uuidString, guardedFromFormulas(workout.name),
        workout.storedDistance.kilometersText,
        ISO8601Timestamp.string(from: workout.date) ?? "", workout.complexity.name,
        workout.sport.map { guardedFromFormulas($0.name) } ?? "",
        workout.duration.map { JSONNumber($0.elapsed).text } ?? "",
        workout.duration?.moving.map { JSONNumber($0).text } ?? "",
      ])
    }
    return text
  }

  /// The characters that make a spreadsheet run a cell as a formula when they start it, and
  /// the quote that guards them.
  private static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "'"]

  /// `name` with a `'` before it when it starts like a formula — or looks guarded already
  /// (`'=`, `''`), so that ``unguarded(_:)`` gives every name back exactly.
  static func guardedFromFormulas(_ name: String) -> String {
    guard let first = name.first,
      first != "'" && formulaStarts.contains(first) || unguarded(name) != name
    else { return name }
    return "'" + name
  }

  /// `name` without the guard ``guardedFromFormulas(_:)`` adds.
  static func unguarded(_ name: String) -> String {
    guard name.first == "'", let second = name.dropFirst().first, formulaStarts.contains(second)
    else { return name }
    return String(name.dropFirst())
  }

  /// Reads all the workouts of `data`, the content of the file at `path`.
  ///
  /// - Throws: ``WorkoutsImportError`` with every problem, with its line and column.
  package static func read(
    _ data: Data, path: String, options: WorkoutsImportOptions, now: Date, makeID: () -> UUID
  ) throws(WorkoutsImportError) -> WorkoutsImport {
    var reader = try Reader(data, path: path, options: options)
    while try reader.read(rows: .max, now: now, makeID: makeID) {}
    return reader.result
  }

  /// A reader of a CSV file's workouts, a part at a time, so that progress can be shown and
  /// the work cancelled between parts.
  package struct Reader {
    private var csv: CSV.Reader
    private let path: String
    private let options: WorkoutsImportOptions
    /// The position of the column of each field in a row.
    private let positions: [WorkoutsImportOptions.Field: Int]
    private let width: Int
    private let ignoredColumns: [String]
    private var rows: [WorkoutsImport.Row] = []
    private var skipped: [WorkoutsImport.SkippedRow] = []
    private var distancesWithoutUnit = 0
    /// The sport of each text of the sport column read so far: a file names a few sports,
    /// many times.
    private var sports: [String: Sport?] = [:]
    /// The line where each id was first seen.
    private var seen: [UUID: Int] = [:]
    /// The first problems found, and how many in all.
    private var problems: [WorkoutsImportError.RowProblem] = []
    private var problemCount = 0

    /// Starts reading `data`, the content of the file at `path`, with its header.
    ///
    /// - Throws: ``WorkoutsImportError`` when the header is missing or lacks the name or distance
    ///   column.
    package init(_ data: Data, path: String, options: WorkoutsImportOptions)
      throws(WorkoutsImportError)
    {
      var csv = CSV.Reader(data, delimiter: CSV.delimiter(ofHeaderIn: data))
      func invalid(_ message: String) -> WorkoutsImportError {
        WorkoutsImportError(file: path, problem: .invalid(line: 1, column: 1, message: message))
      }
      let first: [CSV.Field]?
      do {
        first = try csv.nextRecord()
      } catch {
        throw Self.error(error, path)
      }
      guard let header = first else {
        throw invalid("the file is empty — it needs a header such as name,distance")
      }
      var positions: [WorkoutsImportOptions.Field: Int] = [:]
      var ignored: [String] = []
      let headers = header.map { $0.text.trimmedOfSpaces.lowercased() }
      for field in WorkoutsImportOptions.Field.allCases {
        let wanted = options.header(for: field).trimmedOfSpaces.lowercased()
        // The first column of that name: Strava's file has two called Distance.
        positions[field] =
          headers.firstIndex(of: wanted)
          ?? options.fallbackColumns[field].flatMap {
            headers.firstIndex(of: $0.trimmedOfSpaces.lowercased())
          }
      }
      let used = Set(positions.values)
      for (index, field) in header.enumerated() where !used.contains(index) {
        if !ignored.contains(field.text) { ignored.append(field.text) }
      }
      for required in [WorkoutsImportOptions.Field.name, .distance] where positions[required] == nil
      {
        let wanted = options.header(for: required)
        let near = Self.closest(to: wanted.lowercased(), among: header.map(\.text))
        throw invalid(
          "the header has no \(required.rawValue) column (\(quoted(wanted)))"
            + (near.map { " — did you mean \(quoted($0))?" } ?? "")
            + " Name the column that holds it with --column \(required.rawValue)=HEADER")
      }
      self.csv = csv
      self.path = path
      self.options = options
      self.positions = positions
      width = header.count
      ignoredColumns = ignored
    }

    /// The header of `headers` closest to `wanted` (at most two edits away), if any.
    private static func closest(to wanted: String, among headers: [String]) -> String? {
      headers.map { ($0, editDistance(Array($0.lowercased()), Array(wanted))) }
        .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance of `a` and `b`. O(*mn*), for short headers.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
      guard a.count < 64, b.count < 64 else { return .max }
      var previous = Array(0...b.count)
      for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
          current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
      }
      return previous[b.count]
    }

    /// How far the reading is.
    package var progress: WorkoutsImportProgress {
      let (read, total) = csv.progress
      return WorkoutsImportProgress(
        file: path, bytesRead: read, totalBytes: total, rows: rows.count)
    }

    /// What was read so far.
    package var result: WorkoutsImport {
      WorkoutsImport(
        file: path, rows: rows, skipped: skipped, ignoredColumns: ignoredColumns,
        distancesWithoutUnit: distancesWithoutUnit)
    }

    /// Reads up to `count` more rows, with `now` for rows without a date and `makeID` for
    /// rows without an id; returns whether the file has more.
    ///
    /// - Throws: ``WorkoutsImportError`` at the end of the file when rows are not valid — every
    ///   problem found, with its line and column and what was expected — or at once for text
    ///   that is not CSV (a quote never closed).
    /// - Complexity: O(*n*) in the bytes read.
    package mutating func read(rows count: Int, now: Date, makeID: () -> UUID)
      throws(WorkoutsImportError) -> Bool
    {
      for _ in 0..<count {
        let next: [CSV.Field]?
        do {
          next = try csv.nextRecord()
        } catch {
          // Text that is not CSV ends the reading: what follows cannot be told apart.
          report(error.line, error.column, error.message)
          throw self.error ?? Self.error(error, path)
        }
        guard let record = next else {
          if let error { throw error }
          return false
        }
        add(record, now: now, makeID: makeID)
      }
      return true
    }

    /// The error of the problems found, or `nil`.
    private var error: WorkoutsImportError? {
      guard problemCount > 0 else { return nil }
      if problemCount == 1, let only = problems.first {
        return WorkoutsImportError(
          file: path, problem: .invalid(line: only.line, column: only.column, message: only.message)
        )
      }
      return WorkoutsImportError(file: path, problem: .invalidRows(problems, count: problemCount))
    }

    private mutating func report(_ line: Int, _ column: Int, _ message: String) {
      problemCount += 1
      if problems.count < WorkoutsImporter.problemsListed {
        problems.append(
          WorkoutsImportError.RowProblem(line: line, column: column, message: message))
      }
    }

    private mutating func add(_ record: [CSV.Field], now: Date, makeID: () -> UUID) {
      let line = csv.recordLine
      guard record.count == width else {
        return report(line, 1, "this row has \(record.count) fields, the header \(width)")
      }
      let problemsBefore = problemCount
      func field(_ field: WorkoutsImportOptions.Field) -> CSV.Field? {
        positions[field].map { record[$0] }
      }
      func invalid(_ field: CSV.Field, _ message: String) {
        report(field.line, csv.column(of: field), message)
      }
      let nameField = field(.name)!
      let name = WorkoutsCSV.unguarded(nameField.text.trimmedOfSpaces)
      if name.contains(where: \.isNewline) {
        invalid(nameField, "a name must be one line; this one has a line break — remove it")
      }
      let distanceField = field(.distance)!
      var meters = 0.0
      if let typed = DistanceText.parse(
        distanceField.text.trimmedOfSpaces, allowsDecimalComma: csv.delimiter != UInt8(ascii: ","))
      {
        if typed.unit == nil { distancesWithoutUnit += 1 }
        meters = (typed.unit ?? options.unit ?? .kilometers).meters(of: typed.value)
      } else {
        invalid(
          distanceField,
          "expected a distance from 0 to 100,000 such as 5.2, 5km, 1500 m, 1650 yd or 3.1 mi, "
            + "found " + quoted(distanceField.text))
      }
      var date = now
      let dateField = field(.date)
      let hasDate = dateField.map { !$0.text.trimmedOfSpaces.isEmpty } ?? false
      if let dateField, hasDate {
        if let parsed = Self.date(dateField.text.trimmedOfSpaces, options, now: now) {
          date = parsed
        } else {
          invalid(
            dateField,
            "expected a date such as 2026-11-29, 2026-11-29 07:30 or 2026-11-29T07:30:00Z"
              + (options.dateFormat.map { ", or as \($0.pattern)" }
                ?? ", or give its form as a date format such as %d/%m/%Y")
              + ", found " + quoted(dateField.text))
        }
      }
      var complexity = Workout.Complexity.medium
      if let complexityField = field(.complexity), !complexityField.text.isEmpty {
        if let parsed = Workout.Complexity(name: complexityField.text.trimmedOfSpaces.lowercased())
        {
          complexity = parsed
        } else {
          invalid(
            complexityField, "expected low, medium or high, found \(quoted(complexityField.text))")
        }
      }
      var sport: Sport?
      if let sportField = field(.sport), let text = Self.value(of: sportField) {
        if let known = sports[text] {
          sport = known
        } else {
          sport = Sport(text)
          sports[text] = sport
        }
      }
      var elapsed: Double?
      var moving: Double?
      if let timeField = field(.time), let text = Self.value(of: timeField) {
        elapsed = Self.seconds(text)
        if elapsed == nil { invalid(timeField, Self.expectedTime + quoted(timeField.text)) }
      }
      if let movingField = field(.movingTime), let text = Self.value(of: movingField) {
        moving = Self.seconds(text)
        if moving == nil {
          invalid(movingField, Self.expectedTime + quoted(movingField.text))
        } else if (elapsed ?? 0) == 0, moving != 0 {
          invalid(
            movingField,
            "a moving time needs the elapsed time beside it, in the "
              + quoted(options.header(for: .time)) + " column")
        }
      }
      var duration: WorkoutDuration?
      if let elapsed, elapsed > 0 {
        do throws(WorkoutError) {
          duration = try WorkoutDuration(elapsed: elapsed, moving: moving == 0 ? nil : moving)
        } catch {
          invalid(field(moving ?? 0 > elapsed ? .movingTime : .time)!, error.description)
        }
      }
      var id: UUID?
      if let idField = field(.id), !idField.text.isEmpty {
        if let parsed = UUID(uuidString: idField.text.trimmedOfSpaces) {
          id = parsed
        } else {
          invalid(
            idField,
            "expected an id such as 6F9619FF-8B86-D011-B42D-00C04FC964FF, found "
              + quoted(idField.text))
        }
      }
      guard problemCount == problemsBefore else { return }
      if let id, let first = seen[id] {
        skipped.append(
          WorkoutsImport.SkippedRow(line: line, reason: "the same id as line \(first)"))
        return
      }
      do {
        let workout = try Workout(
          id: id ?? makeID(), name: name, meters: meters, date: date, complexity: complexity,
          duration: duration, sport: sport)
        seen[workout.id] = line
        rows.append(
          WorkoutsImport.Row(line: line, workout: workout, hasID: id != nil, hasDate: hasDate))
      } catch {
        invalid(error == .emptyName ? nameField : distanceField, error.description)
      }
    }

    /// What a time column takes, in a message, followed by what was found.
    private static let expectedTime =
      "expected a time such as 4742 (seconds), 1:02:03, 45:00 or 1h2m, found "

    /// The text of an optional field, trimmed, or `nil` when it is empty or `--` (Garmin's
    /// empty value).
    private static func value(of field: CSV.Field) -> String? {
      let text = field.text.trimmedOfSpaces
      return text.isEmpty || text == "--" ? nil : text
    }

    /// The seconds a time column's `text` holds (see `DurationText`), when within a workout's
    /// ``WorkoutDuration/limit``; `nil` for anything else.
    private static func seconds(_ text: String) -> Double? {
      DurationText.seconds(text, allowsSeconds: true).flatMap {
        $0 <= WorkoutDuration.limit ? $0 : nil
      }
    }

    /// The date `text` names: a form `LocalDate` reads, `today`, `yesterday`, `tomorrow`,
    /// or the options' date format.
    private static func date(_ text: String, _ options: WorkoutsImportOptions, now: Date) -> Date? {
      if let date = options.dateFormat?.date(from: text, in: options.timeZone) { return date }
      if let date = LocalDate.date(from: text, in: options.timeZone) { return date }
      let days = ["yesterday": -1, "today": 0, "tomorrow": 1][text.lowercased()]
      return days.map { LocalDate.startOfDay($0, from: now, in: options.timeZone) }
    }

    private static func error(_ problem: CSVProblem, _ path: String) -> WorkoutsImportError {
      WorkoutsImportError(
        file: path,
        problem: .invalid(line: problem.line, column: problem.column, message: problem.message))
    }
  }
}

extension String {
  /// The text without the spaces and tabs around it.
  fileprivate var trimmedOfSpaces: String {
    guard first == " " || first == "\t" || last == " " || last == "\t" else { return self }
    return String(
      drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
