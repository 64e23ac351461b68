import Foundation

/// What identifies one version of a file's content, cheaply, without reading it: a write by
/// anyone replaces the file with a new inode (an atomic rename), or changes its size or its
/// modification time — unless it rewrites the file in place within one tick of the file
/// system's clock (see ``FileVersion``).
struct FileIdentity: Equatable, Sendable {
  var key: FileKey
  var size: Int64
  var modified: timespec
  var changed: timespec

  init(_ info: stat) {
    key = FileKey(info)
    size = Int64(info.st_size)
    (modified, changed) = Platform.times(info)
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.key == rhs.key && lhs.size == rhs.size
      && lhs.modified.tv_sec == rhs.modified.tv_sec
      && lhs.modified.tv_nsec == rhs.modified.tv_nsec
      && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
  }
}

/// A file or folder by what it is rather than by its name: its device and inode.
struct FileKey: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64

  init(_ info: stat) {
    (device, inode) = Platform.key(info)
  }

  /// What is at `path` now (links followed), or `nil` when nothing is.
  init?(at path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }
}
