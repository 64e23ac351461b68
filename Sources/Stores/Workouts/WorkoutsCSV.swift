import Foundation

/// Workouts as CSV (RFC 4180), the way people move a diary between apps.
///
/// Export writes a header, `id,name,distance,date,complexity`, then a line per workout:
/// distances in kilometres, dates in UTC ISO 8601 with the digits an exact round trip needs.
/// Import reads a header that names the columns in any order, any case: `name` and `distance`
/// (kilometres) are required; `date` (`YYYY-MM-DD`, a local time `YYYY-MM-DDTHH:MM`, or ISO
/// 8601), `complexity` (`low`, `medium`, `high`) and `id` are optional, and so is each of
/// their fields (now, medium, a new id). A row with an id seen before in the file is left out.
public enum WorkoutsCSV {
  /// The columns, in the order export writes them.
  public static let columns = ["id", "name", "distance", "date", "complexity"]

  /// `workouts` as CSV text, header first. O(*n*).
  public static func export(_ workouts: some Sequence<Workout>) -> String {
    var text = CSV.line(columns)
    for workout in workouts {
      text += CSV.line([
        workout.id.uuidString, workout.name, JSONNumber(workout.distance).text,
        ISO8601Timestamp.string(from: workout.date) ?? "", workout.complexity.name,
      ])
    }
    return text
  }

  /// The bytes of the CSV file at `url`, a regular file (never a FIFO or a device).
  ///
  /// - Throws: ``ImportError`` with ``ImportError/Problem/unreadable(_:)``.
  public static func contents(of url: URL) throws(ImportError) -> Data {
    do throws(StoreFileError) {
      guard let (data, _) = try FileSystem.read(url.path, path: url.path) else {
        throw StoreFileError(path: url.path, problem: .cannotRead(errno: ENOENT))
      }
      return data
    } catch {
      throw ImportError(file: url.path, problem: .unreadable(error))
    }
  }

  /// Reads all the workouts of `data`, the content of the file at `path`.
  ///
  /// - Throws: ``ImportError`` for the first problem, with its line and column.
  public static func read(
    _ data: Data, path: String, timeZone: TimeZone, now: Date, makeID: () -> UUID
  ) throws(ImportError) -> WorkoutsImport {
    var reader = try Reader(data, path: path, timeZone: timeZone)
    while try reader.read(rows: .max, now: now, makeID: makeID) {}
    return reader.result
  }

  /// A reader of a CSV file's workouts, a part at a time, so that progress can be shown and
  /// the work cancelled between parts.
  public struct Reader {
    private var csv: CSV.Reader
    private let path: String
    private let timeZone: TimeZone
    /// The position of each column in a row.
    private let positions: [String: Int]
    private let width: Int
    private var rows: [WorkoutsImport.Row] = []
    private var skipped: [SkippedRow] = []
    /// The line where each id was first seen.
    private var seen: [UUID: Int] = [:]

    /// Starts reading `data`, the content of the file at `path`, with its header.
    ///
    /// - Throws: ``ImportError`` when the header is missing, names a column twice or one
    ///   that is not known, or lacks `name` or `distance`.
    public init(_ data: Data, path: String, timeZone: TimeZone) throws(ImportError) {
      var csv = CSV.Reader(data)
      func invalid(_ message: String, _ field: CSV.Field? = nil) -> ImportError {
        ImportError(
          file: path,
          problem: .invalid(
            line: field?.line ?? 1, column: field.map { csv.column(of: $0) } ?? 1,
            message: message))
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
      var positions: [String: Int] = [:]
      for (index, field) in header.enumerated() {
        let name = field.text.trimmedOfSpaces.lowercased()
        guard WorkoutsCSV.columns.contains(name) else {
          throw invalid(
            "unknown column \(quoted(field.text)) — the columns are "
              + WorkoutsCSV.columns.joined(separator: ", "), field)
        }
        guard positions[name] == nil else {
          throw invalid("the column \(name) is named twice", field)
        }
        positions[name] = index
      }
      for required in ["name", "distance"] where positions[required] == nil {
        throw invalid("the header has no \(required) column; it needs name and distance")
      }
      self.csv = csv
      self.path = path
      self.timeZone = timeZone
      self.positions = positions
      width = header.count
    }

    /// How far the reading is.
    public var progress: ImportProgress {
      let (read, total) = csv.progress
      return ImportProgress(file: path, bytesRead: read, totalBytes: total, rows: rows.count)
    }

    /// What was read so far.
    public var result: WorkoutsImport {
      WorkoutsImport(file: path, rows: rows, skipped: skipped)
    }

    /// Reads up to `count` more rows, with `now` for rows without a date and `makeID` for
    /// rows without an id; returns whether the file has more.
    ///
    /// - Throws: ``ImportError`` for the first row that is not valid, with its line and
    ///   column and what was expected.
    /// - Complexity: O(*n*) in the bytes read.
    public mutating func read(rows count: Int, now: Date, makeID: () -> UUID)
      throws(ImportError) -> Bool
    {
      for _ in 0..<count {
        let record: [CSV.Field]
        do {
          guard let next = try csv.nextRecord() else { return false }
          record = next
        } catch {
          throw Self.error(error, path)
        }
        try add(record, now: now, makeID: makeID)
      }
      return true
    }

    private mutating func add(_ record: [CSV.Field], now: Date, makeID: () -> UUID)
      throws(ImportError)
    {
      let line = csv.recordLine
      guard record.count == width else {
        throw ImportError(
          file: path,
          problem: .invalid(
            line: line, column: 1,
            message: "this row has \(record.count) fields, the header \(width)"))
      }
      func field(_ column: String) -> CSV.Field? {
        positions[column].map { record[$0] }
      }
      func invalid(_ field: CSV.Field, _ message: String) -> ImportError {
        ImportError(
          file: path,
          problem: .invalid(line: field.line, column: csv.column(of: field), message: message))
      }
      let name = field("name")!
      let distanceField = field("distance")!
      let distanceText = distanceField.text.trimmedOfSpaces
      guard let distance = Double(decimal: distanceText), distance >= 0 else {
        throw invalid(
          distanceField,
          "expected a distance in kilometres, such as 5.2, found \(quoted(distanceField.text))")
      }
      var date = now
      if let dateField = field("date"), !dateField.text.isEmpty {
        guard let parsed = LocalDate.date(from: dateField.text, in: timeZone) else {
          throw invalid(
            dateField,
            "expected a date such as 2026-11-29 or 2026-11-29T07:30:00Z, found "
              + quoted(dateField.text))
        }
        date = parsed
      }
      var complexity = Workout.Complexity.medium
      if let complexityField = field("complexity"), !complexityField.text.isEmpty {
        guard
          let parsed = Workout.Complexity(
            name: complexityField.text.trimmedOfSpaces.lowercased())
        else {
          throw invalid(
            complexityField, "expected low, medium or high, found \(quoted(complexityField.text))")
        }
        complexity = parsed
      }
      var id: UUID
      if let idField = field("id"), !idField.text.isEmpty {
        guard let parsed = UUID(uuidString: idField.text.trimmedOfSpaces)
        else {
          throw invalid(
            idField,
            "expected an id such as 6F9619FF-8B86-D011-B42D-00C04FC964FF, found "
              + quoted(idField.text))
        }
        id = parsed
        if let first = seen[id] {
          skipped.append(SkippedRow(line: line, reason: "the same id as line \(first)"))
          return
        }
      } else {
        id = makeID()
      }
      seen[id] = line
      do {
        let workout = try Workout(
          id: id, name: name.text, distance: distance, date: date, complexity: complexity)
        rows.append(WorkoutsImport.Row(line: line, workout: workout))
      } catch {
        throw invalid(error == .emptyName ? name : distanceField, error.description)
      }
    }

    private static func error(_ problem: CSVProblem, _ path: String) -> ImportError {
      ImportError(
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
