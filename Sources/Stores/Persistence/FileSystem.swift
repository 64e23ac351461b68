import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What identifies one version of a file's content, cheaply, without reading it: a write by
/// anyone replaces the file with a new inode (an atomic rename) and so changes this.
struct FileIdentity: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: timespec
  var changed: timespec

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modified = info.st_mtimespec
      changed = info.st_ctimespec
    #else
      modified = info.st_mtim
      changed = info.st_ctim
    #endif
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
      && lhs.modified.tv_sec == rhs.modified.tv_sec
      && lhs.modified.tv_nsec == rhs.modified.tv_nsec
      && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
  }
}

/// The few file-system operations the persistence needs, on POSIX calls, so that each one
/// does exactly what it says (Foundation's atomic write neither fsyncs the folder nor keeps
/// permissions). Every failure is a ``StoreFileError`` naming `path`, the data file.
enum FileSystem {
  /// The identity of the file at `path`, or `nil` when there is no file there.
  static func identity(of path: String) throws(StoreFileError) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
    }
    return FileIdentity(info)
  }

  /// The bytes of the file at `path` and their identity, or `nil` when there is no file.
  static func read(_ path: String) throws(StoreFileError) -> (Data, FileIdentity)? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw StoreFileError(path: path, problem: .notARegularFile)
    }
    var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
    var count = 0
    while true {
      if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
      let read = bytes.withUnsafeMutableBytes {
        systemRead(descriptor, $0.baseAddress! + count, $0.count - count)
      }
      if read == 0 { break }
      if read < 0 {
        if errno == EINTR { continue }
        throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
      }
      count += read
    }
    return (Data(bytes[..<count]), FileIdentity(info))
  }

  /// Replaces the file at `path` with `data` atomically and durably: writes a new file with
  /// an unpredictable name in the same folder (created `0600`, then given the old file's
  /// permissions), `fsync`s it, renames it over `path` and `fsync`s the folder. Readers
  /// see the old content or the new, never a mix; after a crash, one of the two is there.
  /// A file that may not be written (no write permission) is refused, not replaced.
  ///
  /// - Returns: The identity of the new file.
  static func replace(_ path: String, with data: Data) throws(StoreFileError) -> FileIdentity {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    var permissions: mode_t = 0o600
    var existing = stat()
    if stat(path, &existing) == 0 {
      guard existing.st_mode & S_IFMT == S_IFREG else {
        throw StoreFileError(path: path, problem: .notARegularFile)
      }
      // A rename would replace a file its owner made read-only: respect the permission,
      // also for root, who may write anything (so look at the write bits too).
      guard access(path, W_OK) == 0 else {
        throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
      }
      guard existing.st_mode & 0o222 != 0 else {
        throw StoreFileError(path: path, problem: .cannotWrite(errno: EACCES))
      }
      permissions = existing.st_mode & 0o7777
    }

    let (temporary, descriptor) = try createTemporaryFile(in: folder, for: name, path: path)
    func fail(_ code: Int32) -> StoreFileError {
      unlink(temporary)
      return StoreFileError(path: path, problem: .cannotWrite(errno: code))
    }
    var failure: Int32 = 0
    if permissions != 0o600, fchmod(descriptor, permissions) != 0 { failure = errno }
    if failure == 0 { failure = writeAll(data, to: descriptor) }
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure != 0 { throw fail(failure) }
    guard rename(temporary, path) == 0 else { throw fail(errno) }
    syncFolder(folder)
    guard let identity = try identity(of: path) else {
      throw StoreFileError(path: path, problem: .cannotWrite(errno: ENOENT))
    }
    return identity
  }

  /// Runs `body` holding an exclusive lock on `path + ".lock"`, a lock file beside the
  /// data file, created `0600` when missing and left in place (it holds nothing). Waits for
  /// the lock as long as another process holds it; the lock is released even if the process
  /// is killed.
  static func withExclusiveLock<Result>(
    on path: String, _ body: () throws -> Result
  ) throws -> Result {
    let lockPath = path + ".lock"
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
      }
    }
    return try body()
  }

  /// Removes the temporary files that writers of `path` killed mid-write left behind
  /// (`.NAME.RANDOM.tmp` beside it). Call it holding the lock, when no write is under way;
  /// a failure to remove one is harmless (the next writer picks another name).
  static func removeStaleTemporaries(of path: String) {
    let folder = (path as NSString).deletingLastPathComponent
    let prefix = "." + (path as NSString).lastPathComponent + "."
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      unlink((folder as NSString).appendingPathComponent(name))
    }
  }

  /// Creates the folder `folder` and its missing parents with permissions `0700`.
  static func createFolder(_ folder: String, for path: String) throws(StoreFileError) {
    var info = stat()
    if stat(folder, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw StoreFileError(path: path, problem: .cannotCreateFolder(path: folder, errno: ENOTDIR))
      }
      return
    }
    let parent = (folder as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != folder { try createFolder(parent, for: path) }
    guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
      throw StoreFileError(path: path, problem: .cannotCreateFolder(path: folder, errno: errno))
    }
  }

  /// `path` with every symbolic link on the way to it followed, so that a link to a data
  /// file is read and written through: the target is replaced, the link stays.
  static func resolvingSymbolicLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<32 {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length > 0 else { return current }
      let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        target.hasPrefix("/")
        ? target
        : ((current as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(target)
    }
    return current
  }

  private static func createTemporaryFile(
    in folder: String, for name: String, path: String
  ) throws(StoreFileError) -> (String, Int32) {
    while true {
      let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      let temporary = (folder as NSString).appendingPathComponent(".\(name).\(suffix).tmp")
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if descriptor >= 0 { return (temporary, descriptor) }
      if errno != EEXIST { throw StoreFileError(path: path, problem: .cannotWrite(errno: errno)) }
    }
  }

  /// Writes every byte of `data`, returning 0 or the `errno` of the failure.
  private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return 0
    }
  }

  /// Makes a rename in `folder` durable. Failing to is not an error: the data file itself
  /// is already durable, and some file systems refuse to sync a folder.
  private static func syncFolder(_ folder: String) {
    let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}

/// `read(2)`, named apart from `FileSystem.read(_:)`.
private func systemRead(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int
) -> Int {
  read(descriptor, buffer, count)
}
