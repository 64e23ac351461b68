import Foundation

/// The workouts read from CSV or GPX files, ready to be added in one action
/// (``WorkoutsStore/Action/finishImport(_:)``), and the rows left out.
public struct WorkoutsImport: Equatable, Sendable {
  /// One workout, the line of the file it was read from, and what tells it from the
  /// workouts in the diary.
  public struct Row: Equatable, Sendable {
    public var line: Int
    public var workout: Workout
    /// Whether the file gave the workout's id. A row without one is the same as a workout in
    /// the diary with the same date, name and distance — or, when ``hasDate`` is false, the
    /// same name and distance — and is then left out, so that importing a file twice adds
    /// nothing the second time.
    public var hasID: Bool
    /// Whether the file gave the workout's date (else it is the time of the import).
    public var hasDate: Bool
    /// The file the row is from, when the import read several; `nil` for the import's file.
    public var file: String?

    public init(
      line: Int, workout: Workout, hasID: Bool = true, hasDate: Bool = true, file: String? = nil
    ) {
      self.line = line
      self.workout = workout
      self.hasID = hasID
      self.hasDate = hasDate
      self.file = file
    }
  }

  /// The path of the file read (or of the folder, or "N files").
  public var file: String
  /// The workouts, in the order of the file.
  public var rows: [Row]
  /// The rows left out while reading (the same id twice in the file).
  public var skipped: [SkippedRow]
  /// The CSV columns that were not read, each named once, in the order of the header.
  public var ignoredColumns: [String]
  /// How many distances had no unit (and were read in ``WorkoutsImportOptions/unit``, else km).
  public var distancesWithoutUnit: Int
  /// The app's export a CSV file was read as because its header told it, when the options
  /// named none (``WorkoutsImportOptions/source``); `nil` when no file was recognised.
  public var recognized: WorkoutsImportOptions.Source?

  public init(
    file: String, rows: [Row], skipped: [SkippedRow] = [], ignoredColumns: [String] = [],
    distancesWithoutUnit: Int = 0, recognized: WorkoutsImportOptions.Source? = nil
  ) {
    self.file = file
    self.rows = rows
    self.skipped = skipped
    self.ignoredColumns = ignoredColumns
    self.distancesWithoutUnit = distancesWithoutUnit
    self.recognized = recognized
  }
}

extension WorkoutsImport {
  /// A row of a file that was not imported, and why.
  public struct SkippedRow: Equatable, Sendable {
    public var line: Int
    public var reason: String
    /// The file the row is from, when the import read several; `nil` for the import's file.
    public var file: String?
    /// For a row that is not valid, left out because ``WorkoutsImportOptions/skipsInvalidRows``
    /// says so: the column (1-based, in characters) of its first problem; `nil` for a row left
    /// out because it repeats an id or is in the diary.
    public var column: Int?

    public init(line: Int, reason: String, file: String? = nil, column: Int? = nil) {
      self.line = line
      self.reason = reason
      self.file = file
      self.column = column
    }

    /// Whether the row was left out because it is not valid (see ``column``).
    public var isInvalid: Bool { column != nil }

    /// Why a row equal to a workout in the diary is left out.
    public static let inDiary = "the same date, name and distance as a workout in the diary"
    /// Why a row whose id is in the diary is left out.
    public static let idInDiary = "its id is in the diary already"

    /// Whether the row was left out because the diary has it already (rather than because it
    /// repeats an earlier row of the file).
    public var isInDiary: Bool { reason == Self.inDiary || reason == Self.idInDiary }
  }
}

/// How far an import has read its file.
public struct WorkoutsImportProgress: Equatable, Sendable {
  public var file: String
  public var bytesRead: Int
  public var totalBytes: Int
  /// The workouts read so far.
  public var rows: Int

  public init(file: String, bytesRead: Int, totalBytes: Int, rows: Int) {
    self.file = file
    self.bytesRead = bytesRead
    self.totalBytes = totalBytes
    self.rows = rows
  }

  /// The part read, 0...1.
  public var fraction: Double {
    totalBytes == 0 ? 1 : Double(bytesRead) / Double(totalBytes)
  }
}

/// What an import added and left out.
public struct WorkoutsImportSummary: Equatable, Sendable {
  public var file: String
  /// How many workouts were added.
  public var added: Int
  /// The rows left out: the same id twice in the file, or already in the diary.
  public var skipped: [WorkoutsImport.SkippedRow]
  /// The CSV columns that were not read.
  public var ignoredColumns: [String]
  /// How many distances had no unit.
  public var distancesWithoutUnit: Int
  /// The workouts added whose values are outside what people do (see
  /// ``Workout/implausibility``): imported, but worth a look.
  public var flagged: [WorkoutsImport.FlaggedRow]
  /// The app's export a CSV file was read as because its header told it (see
  /// ``WorkoutsImport/recognized``).
  public var recognized: WorkoutsImportOptions.Source?

  public init(
    file: String, added: Int, skipped: [WorkoutsImport.SkippedRow], ignoredColumns: [String] = [],
    distancesWithoutUnit: Int = 0, flagged: [WorkoutsImport.FlaggedRow] = [],
    recognized: WorkoutsImportOptions.Source? = nil
  ) {
    self.file = file
    self.added = added
    self.skipped = skipped
    self.ignoredColumns = ignoredColumns
    self.distancesWithoutUnit = distancesWithoutUnit
    self.flagged = flagged
    self.recognized = recognized
  }
}

extension WorkoutsImport {
  /// A workout imported whose values are outside what people do, and why (see
  /// ``Workout/implausibility``).
  public struct FlaggedRow: Equatable, Sendable {
    public var line: Int
    public var reason: String
    /// The file the row is from, when the import read several; `nil` for the import's file.
    public var file: String?
    /// The workout's id.
    public var id: UUID

    public init(line: Int, reason: String, file: String? = nil, id: UUID) {
      self.line = line
      self.reason = reason
      self.file = file
      self.id = id
    }
  }
}

/// Why an import added nothing: the file could not be read, is too large, or rows are not
/// valid.
public struct WorkoutsImportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong at a line and column (1-based).
  public struct RowProblem: Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
      self.line = line
      self.column = column
      self.message = message
    }
  }

  public enum Problem: Equatable, Sendable {
    /// The file cannot be read (missing, not a regular file or pipe, no permission).
    case unreadable(StoreFileError)
    /// The file is larger than ``WorkoutsImporter/maximumFileSize``.
    case tooLarge(limit: Int)
    /// The text is not valid: what is wrong at a line and column (1-based).
    case invalid(line: Int, column: Int, message: String)
    /// The workouts were read, but the diary's file could not be saved.
    case notSaved(StoreFileError)
    /// Several problems in the rows: the first ones (at most
    /// ``WorkoutsImporter/problemsListed``), and how many there are in all.
    case invalidRows([RowProblem], count: Int)
  }

  /// The path of the file.
  public var file: String
  public var problem: Problem
  /// Whether every problem is in a row that ``WorkoutsImportOptions/skipsInvalidRows`` would
  /// leave out — not in the header, nor text that is not CSV.
  public var isInRows: Bool

  public init(file: String, problem: Problem, isInRows: Bool = false) {
    self.file = file
    self.problem = problem
    self.isInRows = isInRows
  }

  public var description: String {
    switch problem {
    case .unreadable(let error):
      error.description
    case .notSaved(let error):
      "\(file) was read, but \(error); nothing was imported"
    case .tooLarge(let limit):
      "\(file) is larger than \(limit / 1_000_000) MB, the most an import reads — split it; "
        + "nothing was imported"
    case .invalid(let line, let column, let message):
      "\(file): line \(line), column \(column): \(message); nothing was imported"
    case .invalidRows(let problems, let count):
      "\(file): \(count) problems in its rows; nothing was imported"
        + problems.map { "\n  line \($0.line), column \($0.column): \($0.message)" }.joined()
        + (count > problems.count ? "\n  … and \(count - problems.count) more" : "")
    }
  }
}

/// Where an import started by ``WorkoutsStore/Action/importWorkouts(from:options:)`` is: a
/// part of the state kept in memory only, never in the file.
///
/// Indirect, so that copying the state — once per action, for its callbacks — costs one
/// reference at most, not a copy of the progress or the summary.
public indirect enum WorkoutsImportStatus: Equatable, Sendable {
  /// No import has run.
  case none
  /// Reading the file.
  case importing(WorkoutsImportProgress)
  /// Done: what was added and left out.
  case finished(WorkoutsImportSummary)
  /// Nothing was added.
  case failed(WorkoutsImportError)
  /// Cancelled before anything was added.
  case cancelled
}
