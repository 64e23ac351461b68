import Foundation

/// Workouts as CSV (RFC 4180), the way people move a diary between apps.
///
/// Export writes a header, `id,name,distance,date,complexity,sport,time,movingTime`, then a
/// line per workout: distances in kilometres (the metres with the point moved: exact), dates
/// in UTC ISO 8601 to the nearest millisecond (``exportedDate(_:)``: no fraction for a whole
/// second, at most three digits, which spreadsheets read), times in seconds (empty when not
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
/// is seconds (`4742`, `4742.0`; a number read as distances are, with the same decimal mark),
/// `H:MM:SS`, `M:SS` or `1h2m` (see `DurationText`), and a time of 0 is not known (sources
/// write it for "not measured"); a
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
        ISO8601Timestamp.string(from: exportedDate(workout.date))
          ?? ISO8601Timestamp.string(from: workout.date) ?? "", workout.complexity.name,
        workout.sport.map { guardedFromFormulas($0.name) } ?? "",
        workout.duration.map { JSONNumber($0.elapsed).text } ?? "",
        workout.duration?.moving.map { JSONNumber($0).text } ?? "",
      ])
    }
    return text
  }

  /// `date` to the nearest millisecond, as ``export(_:)`` writes it: spreadsheets refuse the
  /// seven fractional digits of a `Date()`, and read three. Importing an export gives each
  /// workout back with this date.
  public static func exportedDate(_ date: Date) -> Date {
    let milliseconds = (date.timeIntervalSinceReferenceDate * 1_000).rounded()
    return Date(timeIntervalSinceReferenceDate: milliseconds / 1_000)
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
    /// The export the header told, when the options named none.
    private let recognized: WorkoutsImportOptions.Source?
    /// The unit the distance column's header names (`Distance (km)`), if any.
    private let headerUnit: DistanceUnit?
    /// The forms of dates read after the options' own: the source's in its other languages
    /// (see ``WorkoutsImportOptions/Source/localizedDateFormats``), made once.
    private let localizedDateFormats: [DatePattern]
    /// What a comma followed by three digits (`1,500`) is when nothing else tells: grouping
    /// thousands in Garmin Connect's files, the decimal mark in files separated by `;` or
    /// tabs; `nil`: nothing tells (a file separated by commas).
    private let commaWhenUntold: WorkoutsImportOptions.DecimalMark?
    /// What a point followed by three digits (`1.500`) is when nothing else tells: grouping
    /// thousands in Garmin Connect's files (which write decimals with two digits; an account
    /// in German groups a pool swim's metres with a point), else the decimal mark.
    private let pointWhenUntold: WorkoutsImportOptions.DecimalMark
    private var rows: [WorkoutsImport.Row] = []
    private var skipped: [WorkoutsImport.SkippedRow] = []
    private var distancesWithoutUnit = 0
    /// The first line whose distance shows a decimal comma, and a decimal point.
    private var firstDecimalComma: Int?
    private var firstDecimalPoint: Int?
    /// The rows whose distance could be read two ways (`1,500`), read at the end of the file,
    /// when the file has told which.
    private var ambiguous: [Ambiguous] = []
    /// The rows whose elapsed or moving time could be read two ways (`4,742`), their
    /// durations made at the end of the file, when the file has told which.
    private var ambiguousTimes: [AmbiguousTimes] = []
    /// The problems of the row being read, when rows that are not valid are skipped.
    private var isReadingRow = false
    private var rowProblems = 0
    private var rowFirstProblem: WorkoutsImportError.RowProblem?
    /// The sport of each text of the sport column read so far: a file names a few sports,
    /// many times.
    private var sports: [String: Sport?] = [:]
    /// The line where each id was first seen.
    private var seen: [UUID: Int] = [:]
    /// The first problems found, and how many in all.
    private var problems: [WorkoutsImportError.RowProblem] = []
    private var problemCount = 0

    /// A row whose distance could be read two ways: where it is, and its metres each way.
    private struct Ambiguous {
      var row: Int
      var line: Int
      var column: Int
      var text: String
      var separator: UInt8
      var asDecimal: Double
      var asGrouping: Double
      /// The two numbers, as a message shows them: `1.5`, `1500`.
      var numbers: (asDecimal: String, asGrouping: String)
    }

    /// A time field: where it is, and its seconds — or the two numbers its text could be
    /// (`4,742`: 4.742 or 4742 seconds), read at the end of the file.
    private struct TimeField {
      var line: Int
      var column: Int
      var text: String
      var seconds: Seconds

      enum Seconds {
        case read(Double)
        case twoWays(separator: UInt8, asDecimal: ScaledDecimal, asGrouping: ScaledDecimal)
      }

      var isTwoWays: Bool {
        if case .twoWays = seconds { true } else { false }
      }
    }

    /// A row whose times could be read two ways, its duration made at the end of the file.
    private struct AmbiguousTimes {
      var row: Int
      var elapsed: TimeField?
      var moving: TimeField?
    }

    /// Starts reading `data`, the content of the file at `path`, with its header — as the
    /// export it is when the options name none and the header tells it (see
    /// ``WorkoutsImportOptions/Source/init(recognizing:)``).
    ///
    /// - Throws: ``WorkoutsImportError`` when the header is missing or lacks the name or distance
    ///   column.
    package init(_ data: Data, path: String, options given: WorkoutsImportOptions)
      throws(WorkoutsImportError)
    {
      var options = given
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
      var ignored: [String] = []
      let headers = header.map { $0.text.trimmedOfSpaces.lowercased() }
      var (positions, headerUnit) = Self.positions(of: headers, options)
      var recognized: WorkoutsImportOptions.Source?
      if options.source == nil, positions[.name] == nil || positions[.distance] == nil,
        let source = WorkoutsImportOptions.Source(recognizing: headers)
      {
        options = options.reading(source)
        recognized = source
        (positions, headerUnit) = Self.positions(of: headers, options)
      }
      let used = Set(positions.values)
      for (index, field) in header.enumerated() where !used.contains(index) {
        if !ignored.contains(field.text) { ignored.append(field.text) }
      }
      for required in [WorkoutsImportOptions.Field.name, .distance] where positions[required] == nil
      {
        let wanted = options.header(for: required)
        let near = Self.hint(for: required, wanted, among: header.map(\.text))
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
      self.recognized = recognized
      self.headerUnit = headerUnit
      localizedDateFormats = options.source?.localizedDateFormats ?? []
      commaWhenUntold =
        options.source == .garmin
        ? .point : csv.delimiter == UInt8(ascii: ",") ? nil : .comma
      pointWhenUntold = options.source == .garmin ? .comma : .point
    }

    /// The position of each field's column in `headers` (lowercased, trimmed) — the first
    /// column of its header (Strava's file has two called Distance), else of its fallback
    /// header, else of its header in another language of the options' source (Garmin's
    /// `Titel`) — and, for a distance whose column's header is the field's with a unit after
    /// it (`Distance (km)`, `distance [mi]`), that unit.
    private static func positions(of headers: [String], _ options: WorkoutsImportOptions)
      -> ([WorkoutsImportOptions.Field: Int], DistanceUnit?)
    {
      var positions: [WorkoutsImportOptions.Field: Int] = [:]
      func position(of header: String) -> Int? {
        headers.firstIndex(of: header.trimmedOfSpaces.lowercased())
      }
      let localized = options.source?.localizedColumns ?? []
      for field in WorkoutsImportOptions.Field.allCases {
        positions[field] =
          position(of: options.header(for: field))
          ?? options.fallbackColumns[field].flatMap(position(of:))
          ?? localized.lazy.compactMap { $0[field]?.lazy.compactMap(position(of:)).first }.first
      }
      var unit: DistanceUnit?
      if let position = positions[.distance] {
        unit = withUnit(headers[position])?.unit
      } else {
        let wanted = options.header(for: .distance).trimmedOfSpaces.lowercased()
        if let position = headers.firstIndex(where: { withUnit($0)?.base == wanted }) {
          positions[.distance] = position
          unit = withUnit(headers[position])?.unit
        }
      }
      return (positions, unit)
    }

    /// `header` (lowercased) as a name and the unit in brackets after it: `distance (km)`.
    private static func withUnit(_ header: String) -> (base: String, unit: DistanceUnit)? {
      guard let last = header.last, last == ")" || last == "]",
        let open = header.lastIndex(where: { $0 == "(" || $0 == "[" })
      else { return nil }
      let inside = header[header.index(after: open)..<header.index(before: header.endIndex)]
      guard let unit = DistanceUnit(spelling: String(inside).trimmedOfSpaces) else { return nil }
      return (String(header[..<open]).trimmedOfSpaces, unit)
    }

    /// What the headers of other apps and languages call the name and the distance.
    private static let synonyms: [WorkoutsImportOptions.Field: Set<String>] = [
      .name: ["title", "activity name", "activity", "workout", "titel", "nom", "nombre", "titolo"],
      .distance: ["distance", "distanz", "distancia", "distanza", "afstand", "dist"],
    ]

    /// The header of `headers` that most likely holds `field`, whose column was looked for as
    /// `wanted`: one another app or language names it by (`Title`, `Distanz (km)`), else the
    /// closest to `wanted` (at most two edits away), if any.
    private static func hint(
      for field: WorkoutsImportOptions.Field, _ wanted: String, among headers: [String]
    ) -> String? {
      let synonyms = synonyms[field, default: []]
      if let named = headers.first(where: {
        let lowered = $0.trimmedOfSpaces.lowercased()
        return synonyms.contains(withUnit(lowered)?.base ?? lowered)
      }) {
        return named
      }
      let lowered = wanted.lowercased()
      return headers.map { ($0, editDistance(Array($0.lowercased()), Array(lowered))) }
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
        distancesWithoutUnit: distancesWithoutUnit, recognized: recognized)
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
          var failure = self.error ?? Self.error(error, path)
          failure.isInRows = false
          throw failure
        }
        guard let record = next else {
          readAmbiguous()
          if let error { throw error }
          return false
        }
        add(record, now: now, makeID: makeID)
      }
      return true
    }

    /// The error of the problems found in rows, or `nil`.
    private var error: WorkoutsImportError? {
      guard problemCount > 0 else { return nil }
      if problemCount == 1, let only = problems.first {
        return WorkoutsImportError(
          file: path,
          problem: .invalid(line: only.line, column: only.column, message: only.message),
          isInRows: true)
      }
      return WorkoutsImportError(
        file: path, problem: .invalidRows(problems, count: problemCount), isInRows: true)
    }

    private mutating func report(_ line: Int, _ column: Int, _ message: String) {
      if isReadingRow, options.skipsInvalidRows {
        rowProblems += 1
        if rowFirstProblem == nil {
          rowFirstProblem = WorkoutsImportError.RowProblem(
            line: line, column: column, message: message)
        }
        return
      }
      problemCount += 1
      if problems.count < WorkoutsImporter.problemsListed {
        problems.append(
          WorkoutsImportError.RowProblem(line: line, column: column, message: message))
      }
    }

    /// Reads `record` as a workout, or reports its problems — or, when rows that are not
    /// valid are skipped, records it as skipped with its first problem.
    private mutating func add(_ record: [CSV.Field], now: Date, makeID: () -> UUID) {
      isReadingRow = true
      rowProblems = 0
      rowFirstProblem = nil
      readRow(record, now: now, makeID: makeID)
      isReadingRow = false
      if let first = rowFirstProblem {
        skip(first, more: rowProblems - 1)
      }
    }

    /// Records the row of `problem` as skipped, with it and how many `more` it has.
    private mutating func skip(_ problem: WorkoutsImportError.RowProblem, more: Int) {
      skipped.append(
        WorkoutsImport.SkippedRow(
          line: problem.line,
          reason: problem.message
            + (more > 0 ? " (and \(more) more problem\(more == 1 ? "" : "s") in this row)" : ""),
          column: problem.column))
    }

    private mutating func readRow(_ record: [CSV.Field], now: Date, makeID: () -> UUID) {
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
      var sport: Sport?
      if let sportField = field(.sport), let text = Self.value(of: sportField) {
        if let known = sports[text] {
          sport = known
        } else {
          sport = Sport(text)
          sports[text] = sport
        }
      }
      let distanceField = field(.distance)!
      var meters = 0.0
      var twoWays: Ambiguous?
      if let typed = DistanceText.parse(
        distanceField.text.trimmedOfSpaces, mark: options.decimalMark)
      {
        // Garmin Connect writes a swim's distance in metres, or yards where the account
        // shows miles, whatever the unit of the other rows.
        let isGarminSwim = options.source == .garmin && sport == .swim
        if typed.unit == nil, headerUnit == nil, !isGarminSwim { distancesWithoutUnit += 1 }
        let unit =
          typed.unit
          ?? (isGarminSwim
            ? (options.unit == .miles || options.unit == .yards ? .yards : .meters)
            : options.unit ?? headerUnit ?? .kilometers)
        switch typed.reading {
        case .number(let value, let shows):
          meters = unit.meters(of: value)
          if shows == .comma, firstDecimalComma == nil { firstDecimalComma = line }
          if shows == .point, firstDecimalPoint == nil { firstDecimalPoint = line }
        case .ambiguous(let separator, let asDecimal, let asGrouping):
          let ways = Ambiguous(
            row: rows.count, line: line, column: csv.column(of: distanceField),
            text: distanceField.text.trimmedOfSpaces, separator: separator,
            asDecimal: unit.meters(of: asDecimal), asGrouping: unit.meters(of: asGrouping),
            numbers: (asDecimal.text, asGrouping.text))
          // Read for now as a point and a comma are most often meant: 1.500 is 1.5, 1,500
          // is 1500; the end of the file may tell otherwise.
          meters = separator == UInt8(ascii: ".") ? ways.asDecimal : ways.asGrouping
          twoWays = ways
        }
      } else {
        let number = distanceField.text.trimmedOfSpaces.utf8.prefix(while: DecimalText.isNumberByte)
        invalid(
          distanceField,
          options.decimalMark.flatMap {
            DecimalText.contradiction(of: String(decoding: number, as: UTF8.self), mark: $0)
          }
            ?? "expected a distance from 0 to 100,000 such as 5.2, 5km, 1500 m, 1650 yd or 3.1 mi, "
            + "found " + quoted(distanceField.text))
      }
      var date = now
      let dateField = field(.date)
      let hasDate = dateField.map { !$0.text.trimmedOfSpaces.isEmpty } ?? false
      if let dateField, hasDate {
        if let parsed = readDate(dateField.text.trimmedOfSpaces, now: now) {
          date = parsed
        } else {
          // Several patterns are quoted: Strava's have commas of their own.
          let forms = [options.dateFormat].compactMap { $0 } + localizedDateFormats
          let patterns = forms.map { forms.count == 1 ? $0.pattern : quoted($0.pattern) }
          invalid(
            dateField,
            "expected a date such as 2026-11-29, 2026-11-29 07:30 or 2026-11-29T07:30:00Z"
              + (patterns.isEmpty
                ? ", or give its form as a date format such as %d/%m/%Y"
                : ", or as " + patterns.joined(separator: " or "))
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
      var times: (elapsed: TimeField?, moving: TimeField?)
      for (kind, fieldKind) in [(0, WorkoutsImportOptions.Field.time), (1, .movingTime)] {
        guard let timeField = field(fieldKind), let text = Self.value(of: timeField) else {
          continue
        }
        let seconds: TimeField.Seconds
        do {
          seconds = try self.seconds(text)
        } catch {
          invalid(timeField, error.message ?? Self.expectedTime + quoted(timeField.text))
          continue
        }
        let read = TimeField(
          line: timeField.line, column: csv.column(of: timeField), text: text, seconds: seconds)
        if kind == 0 { times.elapsed = read } else { times.moving = read }
      }
      var duration: WorkoutDuration?
      var timesTwoWays: AmbiguousTimes?
      if [times.elapsed, times.moving].contains(where: { $0?.isTwoWays ?? false }) {
        timesTwoWays = AmbiguousTimes(row: rows.count, elapsed: times.elapsed, moving: times.moving)
      } else if let problem = Self.duration(
        of: times, &duration, timeHeader: options.header(for: .time))
      {
        report(problem.field.line, problem.field.column, problem.message)
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
      guard problemCount == problemsBefore, rowProblems == 0 else { return }
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
        if let twoWays { ambiguous.append(twoWays) }
        if let timesTwoWays { ambiguousTimes.append(timesTwoWays) }
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

    /// A time that is not valid: the message that says why, or `nil` for the usual one
    /// (``expectedTime``).
    private struct TimeRefusal: Error {
      var message: String?
    }

    /// The seconds a time column's `text` holds, when within a workout's
    /// ``WorkoutDuration/limit``: a clock or units (see `DurationText`: `1:02:03`, `00:31:24.5`
    /// — or `00:31:24,5` — `1h2m`), or a number of seconds, read as distances are (see
    /// `DecimalText`): `4742`, `4742.0`, `4742,0`. A number that could be read two ways —
    /// `4,742` or `4.742`: 4.742 or 4742 seconds — follows the options' decimal mark (with
    /// `--decimal comma`, `4.742` is 4742 seconds, as a distance `1.500` is 1500), else is
    /// read at the end of the file, as the whole file tells (see ``readAmbiguous()``); a
    /// number the options' mark contradicts (`4742.0` with `--decimal comma`) is refused,
    /// as a distance is, with the fix.
    private func seconds(_ text: String) throws(TimeRefusal) -> TimeField.Seconds {
      let bytes = text.utf8
      guard bytes.allSatisfy(DecimalText.isNumberByte) else {
        guard let seconds = DurationText.seconds(text), seconds <= WorkoutDuration.limit else {
          throw TimeRefusal()
        }
        return .read(seconds)
      }
      switch DecimalText.read(bytes, mark: options.decimalMark) {
      case .number(let number, _)?:
        guard number.double <= WorkoutDuration.limit else { throw TimeRefusal() }
        return .read(number.double)
      case .ambiguous(let separator, let asDecimal, let asGrouping)?:
        return .twoWays(separator: separator, asDecimal: asDecimal, asGrouping: asGrouping)
      case nil:
        throw TimeRefusal(
          message: options.decimalMark.flatMap {
            DecimalText.contradiction(of: text, mark: $0)
          })
      }
    }

    /// Makes `duration` of the seconds read of `times` (none of them read two ways); returns
    /// the problem — a moving time without the elapsed time, or longer — with its column.
    private static func duration(
      of times: (elapsed: TimeField?, moving: TimeField?), _ duration: inout WorkoutDuration?,
      timeHeader: String
    ) -> (field: TimeField, message: String)? {
      func seconds(_ field: TimeField?) -> Double? {
        if case .read(let value)? = field?.seconds { value } else { nil }
      }
      let (elapsed, moving) = (seconds(times.elapsed), seconds(times.moving))
      if let movingField = times.moving, let moving, (elapsed ?? 0) == 0, moving != 0 {
        return (
          movingField,
          "a moving time needs the elapsed time beside it, in the " + quoted(timeHeader)
            + " column"
        )
      }
      guard let elapsed, elapsed > 0, let elapsedField = times.elapsed else { return nil }
      do throws(WorkoutError) {
        duration = try WorkoutDuration(elapsed: elapsed, moving: moving == 0 ? nil : moving)
        return nil
      } catch {
        let field = moving ?? 0 > elapsed ? times.moving : elapsedField
        return (field ?? elapsedField, error.description)
      }
    }

    /// The decimal mark of the file: the options', else the one its distances show when they
    /// show one only, else `untold`; `nil` when they show both.
    private func decimalMark(untold: WorkoutsImportOptions.DecimalMark?)
      -> WorkoutsImportOptions.DecimalMark?
    {
      if let given = options.decimalMark { return given }
      switch (firstDecimalComma, firstDecimalPoint) {
      case (_?, nil): return .comma
      case (nil, _?): return .point
      case (_?, _?): return nil
      case (nil, nil): return untold
      }
    }

    /// Reads the distances that could be read two ways (`1,500`) as the file told — as its
    /// other distances show, else as ``commaWhenUntold`` says for commas and
    /// ``pointWhenUntold`` for points — or reports them: a file that shows both marks, or a comma in a file
    /// separated by commas that shows none. O(*k*) for *k* such rows, plus O(*n*) once when
    /// a row is left out.
    private mutating func readAmbiguous() {
      guard !ambiguous.isEmpty || !ambiguousTimes.isEmpty else { return }
      var leftOut: Set<Int> = []
      readAmbiguousTimes(leavingOut: &leftOut)
      for ways in ambiguous where !leftOut.contains(ways.row) {
        let untold: WorkoutsImportOptions.DecimalMark? =
          ways.separator == UInt8(ascii: ".") ? pointWhenUntold : commaWhenUntold
        guard let mark = decimalMark(untold: untold) else {
          let (asDecimal, asGrouping) = ways.numbers
          let shown = [firstDecimalComma, firstDecimalPoint].compactMap { $0 }
          let problem = WorkoutsImportError.RowProblem(
            line: ways.line, column: ways.column,
            message:
              "\(quoted(ways.text)) could be \(asDecimal) or \(asGrouping)"
              + (shown.count == 2
                ? ", and the file writes decimals both ways (lines \(shown[0]) and \(shown[1]))"
                : "") + " — say which with --decimal comma (\(asDecimal)) or --decimal point "
              + "(\(asGrouping))")
          if options.skipsInvalidRows {
            skip(problem, more: 0)
            leftOut.insert(ways.row)
          } else {
            report(problem.line, problem.column, problem.message)
          }
          continue
        }
        let isDecimal = (mark == .comma) == (ways.separator == UInt8(ascii: ","))
        let meters = isDecimal ? ways.asDecimal : ways.asGrouping
        let workout = rows[ways.row].workout
        guard meters != workout.meters,
          let read = try? Workout(
            id: workout.id, name: workout.name, meters: meters, date: workout.date,
            complexity: workout.complexity, duration: workout.duration, sport: workout.sport)
        else { continue }
        rows[ways.row].workout = read
      }
      ambiguous = []
      // Listed in the order of the file, with the problems found before.
      problems.sort { ($0.line, $0.column) < ($1.line, $1.column) }
      if !leftOut.isEmpty {
        rows = rows.indices.filter { !leftOut.contains($0) }.map { rows[$0] }
        skipped.sort { $0.line < $1.line }
      }
    }

    /// Makes the durations of the rows whose times could be read two ways (`4,742`), now that
    /// the file has told its decimal mark (as for distances: its distances', else
    /// ``pointWhenUntold`` for points and ``commaWhenUntold`` for commas) — or reports them, or leaves them out
    /// (`leftOut`) when rows that are not valid are skipped. O(*k*) for *k* such rows.
    private mutating func readAmbiguousTimes(leavingOut leftOut: inout Set<Int>) {
      for var times in ambiguousTimes {
        var problem: (field: TimeField, message: String)?
        for isMoving in [false, true] {
          guard problem == nil, let field = isMoving ? times.moving : times.elapsed,
            case .twoWays(let separator, let asDecimal, let asGrouping) = field.seconds
          else { continue }
          let untold: WorkoutsImportOptions.DecimalMark? =
            separator == UInt8(ascii: ".") ? pointWhenUntold : commaWhenUntold
          guard let mark = decimalMark(untold: untold) else {
            problem = (
              field,
              "\(quoted(field.text)) could be \(asDecimal.text) or \(asGrouping.text) seconds — "
                + "say which with --decimal comma (\(asDecimal.text)) or --decimal point "
                + "(\(asGrouping.text))"
            )
            continue
          }
          let isDecimal = (mark == .comma) == (separator == UInt8(ascii: ","))
          let seconds = (isDecimal ? asDecimal : asGrouping).double
          guard seconds <= WorkoutDuration.limit else {
            problem = (field, Self.expectedTime + quoted(field.text))
            continue
          }
          if isMoving {
            times.moving?.seconds = .read(seconds)
          } else {
            times.elapsed?.seconds = .read(seconds)
          }
        }
        var duration: WorkoutDuration?
        if problem == nil {
          problem = Self.duration(
            of: (times.elapsed, times.moving), &duration, timeHeader: options.header(for: .time))
        }
        if let problem {
          let rowProblem = WorkoutsImportError.RowProblem(
            line: problem.field.line, column: problem.field.column, message: problem.message)
          if options.skipsInvalidRows {
            skip(rowProblem, more: 0)
            leftOut.insert(times.row)
          } else {
            report(rowProblem.line, rowProblem.column, rowProblem.message)
          }
          continue
        }
        let workout = rows[times.row].workout
        guard
          let read = try? Workout(
            id: workout.id, name: workout.name, meters: workout.meters, date: workout.date,
            complexity: workout.complexity, duration: duration, sport: workout.sport)
        else { continue }
        rows[times.row].workout = read
      }
      ambiguousTimes = []
    }

    /// The date `text` names: the options' date format, the source's in its other languages,
    /// a form `LocalDate` reads, `today`, `yesterday` or `tomorrow`.
    private func readDate(_ text: String, now: Date) -> Date? {
      if let date = options.dateFormat?.date(from: text, in: options.timeZone) { return date }
      for pattern in localizedDateFormats {
        if let date = pattern.date(from: text, in: options.timeZone) { return date }
      }
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
