import Foundation
import Synchronization

/// The folders whose files are written without flushes: tests' folders (`StoreTesting`'s
/// `TemporaryFolder` registers its own), where a power loss cannot matter and a flush costs
/// the most of a write.
///
/// A write into such a folder, or a folder below it, keeps every promise but one: it still
/// writes a temporary file and renames it over the data file under the lock, catches up with
/// other writers, merges conflict copies — readers never see a torn file — but neither the
/// new file nor the folder is flushed to the drive (no `fsync`, `F_BARRIERFSYNC` or
/// `F_FULLFSYNC`), so a crash of the machine, not of the process, may lose it. Every other
/// folder is written durably: nothing registered, nothing changes.
///
/// Decided when a store opens the folder of its file (see ``DataFolder``), by the folder's
/// real path (links resolved).
package enum UnflushedFolders {
  /// The real paths of the registered folders, each with the number of registrations.
  private static let folders = Mutex<[String: Int]>([:])

  /// Registers the existing folder at `url`: files opened in it or below it from now on are
  /// written without flushes, until ``unregister(_:)``. Registrations of one folder count: it
  /// is flushed again once each is undone.
  package static func register(_ url: URL) {
    let path = realPath(url.path)
    folders.withLock { $0[path, default: 0] += 1 }
  }

  /// Undoes one ``register(_:)`` of the folder at `url`.
  package static func unregister(_ url: URL) {
    let path = realPath(url.path)
    folders.withLock { folders in
      guard let count = folders[path] else { return }
      folders[path] = count > 1 ? count - 1 : nil
    }
  }

  /// Whether files in the folder at `path` are written with flushes: `true` unless it is a
  /// registered folder or below one. O(1) when nothing is registered (the case outside
  /// tests); else one `realpath` and O(registered folders).
  static func flushes(_ path: String) -> Bool {
    guard !folders.withLock({ $0.isEmpty }) else { return true }
    let real = realPath(path)
    return folders.withLock { folders in
      !folders.keys.contains { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }
  }

  /// `path` with every link resolved (`/var` is `/private/var` on Apple platforms), or as it
  /// is when it cannot be resolved.
  private static func realPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
