import Foundation
import Stores

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The exit codes of `diary`, from sysexits(3).
enum ExitCode: Int32 {
  case success = 0
  /// The command line is wrong: unknown command or option, missing argument.
  case usage = 64
  /// A value is invalid, or a data file is corrupt.
  case dataError = 65
  /// A data file or folder cannot be read.
  case noInput = 66
  /// A data file or folder cannot be created or written.
  case cannotCreate = 73
  /// Reading or writing failed on the way (disk full, I/O error).
  case ioError = 74
  /// Try again later: another process holds a data file's lock too long.
  case temporaryFailure = 75
  /// The configuration is unusable: no home folder to keep the data in.
  case configuration = 78
}

/// A failure to report as `diary: error: …`, with its exit code.
struct DiaryError: Error, Equatable {
  var message: String
  var exitCode: ExitCode
  /// The usage line to show after the message, for command-line mistakes.
  var usage: String?

  init(_ message: String, exitCode: ExitCode = .dataError, usage: String? = nil) {
    self.message = message
    self.exitCode = exitCode
    self.usage = usage
  }

  init(_ error: UsageError) {
    self.init(error.message, exitCode: .usage, usage: error.usage)
  }

  /// The message and exit code of any error a command can meet.
  init(_ error: any Error) {
    switch error {
    case let error as DiaryError: self = error
    case let error as UsageError: self.init(error)
    case let error as StoreFileError:
      self.init(Terminal.escaped(error.description), exitCode: Self.exitCode(for: error))
    case let error as SettingsError: self.init(Terminal.escaped(error.description))
    case let error as WorkoutError: self.init(error.description)
    case let error as DiaryFiles.NoHomeFolder:
      self.init(
        Terminal.escaped(error.description) + ", or pass --data-dir DIR",
        exitCode: .configuration)
    default: self.init(Terminal.escaped("\(error)"), exitCode: .ioError)
    }
  }

  private static func exitCode(for error: StoreFileError) -> ExitCode {
    switch error.problem {
    case .malformedJSON, .invalidContent, .cannotEncode, .newerVersion: .dataError
    case .notARegularFile, .cannotRead, .tooManyLinks: .noInput
    case .cannotCreateFolder, .unsafeLockFile, .folderReplaced: .cannotCreate
    case .lockTimedOut: .temporaryFailure
    case .cannotWrite(let code):
      [EACCES, EPERM, EROFS, ENOTDIR, EISDIR, ENOENT, EEXIST].contains(code)
        ? .cannotCreate : .ioError
    }
  }
}
