import Foundation

/// Why a store's file could not be read or written. Whatever the problem, the file is left
/// as it was: an invalid file is never overwritten, renamed or deleted.
public struct StoreFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Equatable, Sendable {
    /// The file is not valid JSON (nor empty): the place and what was expected there.
    case malformedJSON(line: Int, column: Int, detail: String)
    /// The file is valid JSON but does not hold what the store keeps. `keyPath` names the
    /// place, such as `todos[3].priority` (empty for the whole document).
    case invalidContent(keyPath: String, detail: String)
    /// The state holds a value the file format cannot hold (such as a date before the year
    /// 1), at `keyPath`. Nothing was written.
    case cannotEncode(keyPath: String, detail: String)
    /// The file was written by a newer version of this library, which this one cannot read.
    case newerVersion(found: Int, supported: Int)
    /// The path names a directory or another thing that is not a regular file.
    case notARegularFile
    /// The file exists but cannot be read (`errno`).
    case cannotRead(errno: Int32)
    /// The file, its temporary copy or its lock file cannot be written (`errno`).
    case cannotWrite(errno: Int32)
    /// The folder that holds the file does not exist and cannot be created (`errno`).
    case cannotCreateFolder(path: String, errno: Int32)
  }

  /// The path of the data file concerned.
  public var path: String
  /// What went wrong.
  public var problem: Problem

  public init(path: String, problem: Problem) {
    self.path = path
    self.problem = problem
  }

  /// One line that names the file, the place and the problem, and says how to fix it when
  /// there is a fix. It never quotes more than a few characters of the file.
  public var description: String {
    switch problem {
    case .malformedJSON(let line, let column, let detail):
      return "\(path): line \(line), column \(column): \(detail) — the file is not valid JSON; "
        + "fix it by hand or move it away to start afresh"
    case .invalidContent(let keyPath, let detail):
      let place = keyPath.isEmpty ? "" : " at \(keyPath)"
      return "\(path)\(place): \(detail) — fix the file by hand or move it away to start afresh"
    case .cannotEncode(let keyPath, let detail):
      return "cannot write \(path): \(keyPath.isEmpty ? "" : "\(keyPath): ")\(detail)"
    case .newerVersion(let found, let supported):
      return "\(path): written by a newer version (file version \(found); this version reads up "
        + "to \(supported)) — upgrade to open it"
    case .notARegularFile:
      return "\(path): is not a regular file (a folder?) — remove it or choose another path"
    case .cannotRead(let errno):
      return "cannot read \(path): \(Self.explain(errno))"
        + (errno == ENOTDIR ? " — a folder on its path is a file" : "")
    case .cannotWrite(let errno):
      return "cannot write \(path): \(Self.explain(errno))"
        + (errno == EACCES || errno == EPERM || errno == EROFS
          ? " — check the permissions of the file and its folder" : "")
    case .cannotCreateFolder(let folder, let errno):
      return "cannot create the folder \(folder) for \(path): \(Self.explain(errno))"
    }
  }

  private static func explain(_ errno: Int32) -> String {
    String(cString: strerror(errno))
  }
}
