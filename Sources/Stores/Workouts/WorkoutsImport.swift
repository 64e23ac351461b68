import Foundation

/// The workouts read from a CSV file, ready to be added in one action
/// (``WorkoutsStore/Action/finishImport(_:)``), and the rows left out.
public struct WorkoutsImport: Equatable, Sendable {
  /// One workout and the line of the file it was read from.
  public struct Row: Equatable, Sendable {
    public var line: Int
    public var workout: Workout

    public init(line: Int, workout: Workout) {
      self.line = line
      self.workout = workout
    }
  }

  /// The path of the file read.
  public var file: String
  /// The workouts, in the order of the file.
  public var rows: [Row]
  /// The rows left out while reading (the same id twice in the file).
  public var skipped: [SkippedRow]

  public init(file: String, rows: [Row], skipped: [SkippedRow] = []) {
    self.file = file
    self.rows = rows
    self.skipped = skipped
  }
}

/// A row of a CSV file that was not imported, and why.
public struct SkippedRow: Equatable, Sendable {
  public var line: Int
  public var reason: String

  public init(line: Int, reason: String) {
    self.line = line
    self.reason = reason
  }
}

/// How far an import has read its file.
public struct ImportProgress: Equatable, Sendable {
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
public struct ImportSummary: Equatable, Sendable {
  public var file: String
  /// How many workouts were added.
  public var added: Int
  /// The rows left out: the same id twice in the file, or an id already in the diary.
  public var skipped: [SkippedRow]

  public init(file: String, added: Int, skipped: [SkippedRow]) {
    self.file = file
    self.added = added
    self.skipped = skipped
  }
}

/// Why an import added nothing: the file could not be read, or a row is not valid.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Problem: Equatable, Sendable {
    /// The file cannot be read (missing, not a regular file, no permission).
    case unreadable(StoreFileError)
    /// The text is not valid: what is wrong at a line and column (1-based).
    case invalid(line: Int, column: Int, message: String)
    /// The workouts were read, but the diary's file could not be saved.
    case notSaved(StoreFileError)
  }

  /// The path of the file.
  public var file: String
  public var problem: Problem

  public init(file: String, problem: Problem) {
    self.file = file
    self.problem = problem
  }

  public var description: String {
    switch problem {
    case .unreadable(let error):
      error.description
    case .notSaved(let error):
      "\(file) was read, but \(error); nothing was imported"
    case .invalid(let line, let column, let message):
      "\(file): line \(line), column \(column): \(message); nothing was imported"
    }
  }
}

/// Where an import started by ``WorkoutsStore/Action/importWorkouts(from:timeZone:)`` is: a
/// part of the state kept in memory only, never in the file.
///
/// Indirect, so that copying the state — once per action, for its callbacks — costs one
/// reference at most, not a copy of the progress or the summary.
public indirect enum ImportStatus: Equatable, Sendable {
  /// No import has run.
  case none
  /// Reading the file.
  case importing(ImportProgress)
  /// Done: what was added and left out.
  case finished(ImportSummary)
  /// Nothing was added.
  case failed(ImportError)
  /// Cancelled before anything was added.
  case cancelled
}
