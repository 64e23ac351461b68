import Foundation

/// The folder of a data file, held open: every step of a transaction — the lock, the
/// temporary file, the rename — happens relative to this descriptor (`openat`, `renameat`),
/// so that a path swapped for a link meanwhile is noticed, never followed into another folder.
final class DataFolder {
  /// The folder's path when it was opened.
  let path: String
  let descriptor: Int32
  /// Who owns the folder: new files in it get this owner when root writes them.
  let owner: (uid_t, gid_t)
  /// Whether every change to a file here shows in its change time, once a write found out
  /// (see ``FileSystem/changeTimesAreExact(_:)``); `nil` before.
  var changeTimesAreExact: Bool?
  /// Whether files written here are flushed to the drive: always, but in a tests' folder (see
  /// ``UnflushedFolders``). Decided when the folder is opened.
  let flushes: Bool
  private let key: FileKey

  /// Opens the existing folder at `path`, for the data file at `dataPath` (named in errors).
  init(opening path: String, for dataPath: String) throws(StoreFileError) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw StoreFileError(path: dataPath, problem: .cannotWrite(errno: errno))
    }
    var info = stat()
    fstat(descriptor, &info)
    self.path = path
    self.descriptor = descriptor
    owner = (info.st_uid, info.st_gid)
    key = FileKey(info)
    flushes = UnflushedFolders.flushes(path)
  }

  deinit {
    close(descriptor)
  }

  /// What is at the folder's path now.
  enum Status {
    /// This folder.
    case current
    /// Nothing: the folder was removed or moved away.
    case missing
    /// Another folder, of the same owner (the folder was made anew).
    case remade
    /// A symbolic link or something owned by someone else, put where the folder was.
    case replaced
  }

  /// Whether the folder at ``path`` is still this one.
  var status: Status {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    var own = stat()
    fstat(descriptor, &own)
    if FileKey(info) == key && own.st_nlink > 0 {
      return .current
    }
    var entry = stat()
    guard lstat(path, &entry) == 0, entry.st_mode & S_IFMT == S_IFDIR,
      entry.st_uid == owner.0
    else { return .replaced }
    return .remade
  }
}
