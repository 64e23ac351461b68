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
    /// More than `FileSystem.maxLinks` symbolic links (or a loop) lead to the file.
    case tooManyLinks
    /// Another process held the file's lock, `lock`, for longer than `waited`; `holder` is its
    /// process id when known. Nothing was changed: try again.
    case lockTimedOut(lock: String, holder: Int32?, waited: Duration)
    /// The lock file `lock` is a symbolic link, has other names (hard links), is not a
    /// regular file, or belongs to neither this user nor the folder's owner, so it is not used:
    /// nothing is written to it.
    case unsafeLockFile(lock: String)
    /// The data file has `links` names (hard links), or belongs to `owner`, who is neither
    /// this user nor the owner of its folder: replacing it would leave its other names
    /// holding the old content, or hand someone else's file to another owner. Nothing was
    /// written.
    case unsafeDataFile(links: Int, owner: UInt32)
    /// Waiting for the lock `lock` could not start: no thread could be made to wait on
    /// (`errno`, such as `EAGAIN` under a process limit). Nothing was changed.
    case cannotWaitForLock(lock: String, errno: Int32)
    /// The folder `folder` that held the file while the store was open was replaced by a
    /// symbolic link or by something of another owner; writing there would follow it.
    case folderReplaced(folder: String)
    /// The file is `size` bytes (at least), more than the `limit` read from such a file: a
    /// sync engine's conflict copy far larger than its data file can be. It was not read
    /// (beyond the limit), and is left as it is.
    case tooLarge(size: Int64, limit: Int64)
    /// The file is in iCloud Drive and not downloaded to this device yet (a placeholder): it
    /// was neither read as a missing file nor written. Its download was started; open it (or
    /// act) again once it is downloaded — `await` ``DiaryFiles/download(_:)`` waits for that.
    case notDownloaded
    /// A conflict version of the file kept by iCloud Drive, `version`, is not downloaded to
    /// this device yet: it was skipped, left unresolved, and is merged once it is.
    case versionNotDownloaded(version: String)
    /// The file is in iCloud Drive and its coordinated read or write failed, or was cancelled
    /// after waiting the lock timeout for other processes (`detail` says which). Nothing was
    /// changed: try again.
    case notCoordinated(detail: String)
  }

  /// The path of the data file concerned.
  public var path: String
  /// What went wrong.
  public var problem: Problem

  /// The error `problem` with the data file at `path`.
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
      return "\(path): is not a regular file (a folder or a device) — remove it or choose "
        + "another path"
    case .cannotRead(let errno):
      return "cannot read \(path): \(Self.explain(errno))"
        + (errno == ENOTDIR ? " — a folder on its path is a file" : "")
    case .cannotWrite(let errno):
      return "cannot write \(path): \(Self.explain(errno))"
        + (errno == EACCES || errno == EPERM || errno == EROFS
          ? " — check the permissions of the file and its folder" : "")
    case .cannotCreateFolder(let folder, let errno):
      return "cannot create the folder \(folder) for \(path): \(Self.explain(errno))"
    case .tooManyLinks:
      return "\(path): more than \(FileSystem.maxLinks) symbolic links lead to it (or they loop) "
        + "— point the link at the file itself"
    case .lockTimedOut(let lock, let holder, let waited):
      let seconds = Self.seconds(waited)
      let who = holder.map {
        "process \($0)\(Platform.processName($0).map { " (\(quoted($0)))" } ?? "")"
      }
      return "\(path): \(who ?? "another process") has held the lock \(lock) for more than "
        + "\(seconds) s; nothing was changed — try again, and if it stays locked, check "
        + "\(holder.map { "what process \($0) is doing (stopped?)" } ?? "which process holds it")"
    case .unsafeLockFile(let lock):
      return "\(path): the lock file \(lock) is a symbolic link, a hard link to another file, "
        + "another user's, or not a regular file — remove it (a new one is made)"
    case .unsafeDataFile(let links, let owner):
      if links > 1 {
        return "\(path): the file has \(links) names (hard links); writing it replaces it, which "
          + "would leave the other names behind — remove the other names, or copy the file "
          + "(cp) and use the copy"
      }
      return "\(path): the file belongs to user \(owner), neither you nor the owner of its folder "
        + "— give it to its folder's owner (chown) or move it away"
    case .cannotWaitForLock(let lock, let errno):
      return "\(path): cannot wait for the lock \(lock): \(Self.explain(errno))"
        + (errno == EAGAIN ? " — too many threads or processes (see ulimit -u)" : "")
        + "; nothing was changed — try again"
    case .folderReplaced(let folder):
      return "\(path): the folder \(folder) was replaced since the store opened it — "
        + "open the store again"
    case .tooLarge(let size, let limit):
      var (shown, most) = (Self.bytes(size), Self.bytes(limit))
      if shown == most { (shown, most) = ("\(size) bytes", "\(limit) bytes") }
      return "\(path): \(shown), more than the \(most) read from a conflict copy of this file "
        + "— it is not read; move it away or remove it"
    case .notDownloaded:
      return "\(path): the file is in iCloud Drive and still downloading to this device — "
        + "nothing was read or written; try again once it is downloaded"
    case .versionNotDownloaded(let version):
      return "\(path): the \(version) is not downloaded to this device yet — it is merged "
        + "once it is"
    case .notCoordinated(let detail):
      return "\(path): iCloud Drive's coordinated access to the file failed: \(detail) — "
        + "nothing was changed; try again"
    }
  }

  /// `duration` in seconds as people read it: `3`, `0.5`, `0.25`, `10000000000`.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = attoseconds / 1_000_000_000_000_000
    guard milliseconds > 0 else { return "\(seconds)" }
    var fraction = String(milliseconds)
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(seconds).\(fraction)"
  }

  /// `count` bytes as people read them: `512 bytes`, `64 MB`, `2.1 GB` (decimal units).
  static func bytes(_ count: Int64) -> String {
    let units: [(Double, String)] = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
    guard let (size, unit) = units.first(where: { Double(count) >= $0.0 }) else {
      return "\(count) bytes"
    }
    let value = Double(count) / size
    let rounded = (value * 10).rounded() / 10
    return "\(rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)) \(unit)"
  }

  private static func explain(_ errno: Int32) -> String {
    String(cString: strerror(errno))
  }

}
