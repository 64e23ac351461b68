import Foundation
import Stores

/// The exit codes of `diary`, from sysexits(3).
enum ExitCode: Int32, CaseIterable {
  case success = 0
  case usage = 64
  case dataError = 65
  case noInput = 66
  case cannotCreate = 73
  case ioError = 74
  case temporaryFailure = 75
  case configuration = 78

  /// What the code means, for the help and the README's table.
  var meaning: String {
    switch self {
    case .success: "done"
    case .usage: "a command, option or setting is unknown, or an argument is missing"
    case .dataError: "a value is invalid, or a data file is corrupt or from a newer version"
    case .noInput: "a file or folder cannot be read, or the data folder is a file"
    case .cannotCreate: "a data file or folder cannot be created or written"
    case .ioError: "reading or writing failed on the way (disk full, output closed)"
    case .temporaryFailure:
      "a data file is locked too long, or not downloaded from iCloud — try again"
    case .configuration: "no usable home folder: set HOME or DIARY_HOME, or pass --data-dir"
    }
  }
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

  /// A mistake in the command line (exit 64), shown with the usage line that fits.
  static func usage(_ message: String, _ usage: String) -> DiaryError {
    DiaryError(message, exitCode: .usage, usage: usage)
  }

  /// The message and exit code of any error a command can meet.
  init(_ error: any Error) {
    switch error {
    case let error as DiaryError: self = error
    case let error as OutputError:
      self.init("cannot print the output: \(error.reason)", exitCode: .ioError)
    case let error as StoreFileError:
      self.init(Terminal.escaped(Self.message(for: error)), exitCode: Self.exitCode(for: error))
    case let error as SettingsError: self.init(Terminal.escaped(error.description))
    case let error as WorkoutError: self.init(error.description)
    case let error as WorkoutsImportError:
      switch error.problem {
      case .unreadable(let cause), .notSaved(let cause): self.init(cause)
      case .invalid, .tooLarge: self.init(Terminal.escaped(error.description))
      case .invalidRows:
        // One problem a line.
        self.init(
          error.description.split(separator: "\n").map { Terminal.escaped(String($0)) }
            .joined(separator: "\n"))
      }
    case let error as DiaryFiles.NoHomeFolder:
      self.init(
        Terminal.escaped(error.description) + ", or pass --data-dir DIR",
        exitCode: .configuration)
    default: self.init(Terminal.escaped("\(error)"), exitCode: .ioError)
    }
  }

  /// What `diary` says of `error`: the library's description, but for iCloud Drive's
  /// problems, which `diary` words for a person at a Mac's command line, with the fix.
  private static func message(for error: StoreFileError) -> String {
    let path = error.path
    switch error.problem {
    case .notDownloaded:
      return "\(path): the file is in iCloud Drive and not downloaded to this Mac yet — nothing "
        + "was read or written; \(DownloadWait.fix(path))"
    case .versionNotDownloaded(let version):
      return "\(path): the \(version), a version of the file iCloud Drive keeps from another "
        + "device, is not downloaded to this Mac yet — it is merged by the first command run "
        + "once it is (iCloud Drive downloads it while this Mac is online)"
    case .notCoordinated(let detail):
      return "\(path): iCloud Drive did not give diary the file: \(detail) — nothing was "
        + "changed; another app may be using it or iCloud Drive may be busy: try again"
    default:
      return error.description
    }
  }

  private static func exitCode(for error: StoreFileError) -> ExitCode {
    switch error.problem {
    case .malformedJSON, .invalidContent, .cannotEncode, .newerVersion, .tooLarge: .dataError
    case .notARegularFile, .cannotRead, .tooManyLinks: .noInput
    case .cannotCreateFolder, .unsafeLockFile, .unsafeDataFile, .folderReplaced: .cannotCreate
    case .lockTimedOut, .cannotWaitForLock, .notDownloaded, .versionNotDownloaded, .notCoordinated:
      .temporaryFailure
    case .cannotWrite(let code):
      [EACCES, EPERM, EROFS, ENOTDIR, EISDIR, ENOENT, EEXIST].contains(code)
        ? .cannotCreate : .ioError
    }
  }
}
