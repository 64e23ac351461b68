import Foundation

/// A folder of files that a program of this package keeps for itself on this machine, such as
/// `diary`'s undo history, written with the data files' own machinery:
///
/// - the folder and its missing parents are created `0700`;
/// - a file is written as a data file is (``FileSystem/replace(_:in:creating:replacing:path:flushes:committed:writing:)``):
///   a temporary file in the same folder, created `0600`, flushed, renamed, the folder
///   flushed — readers see the old content or the new, never a mix;
/// - a lock (``FileLock``) is waited for at most a given time, then fails with
///   ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)`` naming the lock and its
///   holder: a stopped holder never blocks anyone forever;
/// - the temporary files of writers killed mid-write are found and removed
///   (``removeStaleTemporaries()``).
///
/// Every step happens relative to the folder's descriptor, so a path swapped for a link
/// meanwhile is never followed. Errors are ``StoreFileError``s naming the file.
package final class PrivateFolder {
  /// The folder's path.
  package let path: String
  private let folder: DataFolder

  /// Opens the folder at `path`, creating it and its missing parents (`0700`) first.
  ///
  /// - Throws: `cannotCreateFolder` or `cannotWrite` when it cannot be created or opened.
  package init(creating path: String) throws(StoreFileError) {
    try FileSystem.createFolder(path, for: path)
    folder = try DataFolder(opening: path, for: path)
    self.path = path
  }

  /// The path of the file `name` in the folder.
  package func path(of name: String) -> String {
    (path as NSString).appendingPathComponent(name)
  }

  /// Runs `body` holding the exclusive lock of the file `name` (`flock` on `NAME.lock`, made
  /// `0600`), waiting at most `timeout` for another process that holds it.
  ///
  /// - Throws: ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)`` past `timeout`
  ///   (nothing was run), the other errors of ``FileLock``, and whatever `body` throws.
  package func withLock<Result>(
    of name: String, timeout: Duration, _ body: () throws -> Result
  ) throws -> Result {
    try FileLock.withLock(of: name, in: folder, timeout: timeout, path: path(of: name)) { _ in
      try body()
    }
  }

  /// The bytes of the regular file `name`, or `nil` when there is none. O(size of the file).
  ///
  /// - Throws: `notARegularFile` for anything else (a link, a folder, a FIFO), `cannotRead`.
  package func read(_ name: String) throws(StoreFileError) -> Data? {
    try FileSystem.read(name, in: folder.descriptor, path: path(of: name))?.0
  }

  /// Replaces the file `name` (or creates it, `0600`) with `data`, atomically and durably.
  /// O(size of `data`). On failure nothing is replaced and the temporary file is removed.
  package func write(_ data: Data, to name: String) throws {
    _ = try write(to: name, flushed: true) { output throws(StoreFileError) in
      data.withUnsafeBytes { output.append($0) }
    }
  }

  /// Replaces the file `name` (or creates it, `0600`) with what `body` writes, atomically —
  /// and durably when `flushed` (without, a crash soon after may leave the old content, or an
  /// empty file) — and returns its version. On failure nothing is replaced and the temporary
  /// file is removed.
  func write(
    to name: String, flushed: Bool, writing body: (FileOutput) throws(StoreFileError) -> Void
  ) throws -> FileVersion {
    try FileSystem.replace(
      name, in: folder, creating: false, path: path(of: name),
      flushes: flushed ? nil : .unflushed, writing: body)
  }

  /// Writes what `body` writes over the file `name` in place (or creates it, `0600`), cut to
  /// that length, holding the file's own `flock` meanwhile, and returns its identity —
  /// another than the file had before, even where the clock's tick is coarser than two writes
  /// (its modification time is moved past the old one). Unflushed and not atomic: a reader
  /// that does not take the file's lock, or a crash, may see old and new bytes mixed — for a
  /// file whose content proves itself whole (a checksum), in exchange for no new file per
  /// write (a file renamed over another has its new blocks flushed with the next flush of
  /// anything on the drive, on ext4). A write that fails removes the file. O(size written).
  ///
  /// - Throws: `notARegularFile` when `name` is not a regular file (a link is not followed);
  ///   `cannotWrite` when it cannot be opened or written.
  func overwrite(
    _ name: String, writing body: (FileOutput) throws(StoreFileError) -> Void
  ) throws(StoreFileError) -> FileIdentity {
    let path = path(of: name)
    let descriptor = openat(
      folder.descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == ELOOP { throw StoreFileError(path: path, problem: .notARegularFile) }
      throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw StoreFileError(path: path, problem: .notARegularFile)
    }
    let before = FileIdentity(info).modified
    let output = FileOutput(descriptor)
    do throws(StoreFileError) {
      try body(output)
      guard output.failure == 0, ftruncate(descriptor, off_t(output.count)) == 0,
        fstat(descriptor, &info) == 0
      else {
        throw StoreFileError(
          path: path, problem: .cannotWrite(errno: output.failure == 0 ? errno : output.failure))
      }
      let after = FileIdentity(info).modified
      if (after.tv_sec, after.tv_nsec) <= (before.tv_sec, before.tv_nsec) {
        let moved = Self.nanosecond(after: before)
        let times = [moved, moved]
        guard futimens(descriptor, times) == 0, fstat(descriptor, &info) == 0 else {
          throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
        }
      }
      return FileIdentity(info)
    } catch {
      unlinkat(folder.descriptor, name, 0)
      throw error
    }
  }

  /// The time one nanosecond after `time`.
  private static func nanosecond(after time: timespec) -> timespec {
    time.tv_nsec < 999_999_999
      ? timespec(tv_sec: time.tv_sec, tv_nsec: time.tv_nsec + 1)
      : timespec(tv_sec: time.tv_sec + 1, tv_nsec: 0)
  }

  /// Removes the file `name`, if it is there. Not made durable: a removal lost in a crash
  /// leaves the file, which its owner must then be able to recognise as left over.
  package func remove(_ name: String) {
    unlinkat(folder.descriptor, name, 0)
  }

  /// The names of the entries of the folder, in no particular order. One read of the folder.
  package func names() -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
  }

  /// Removes the temporary files (`.syncthing.NAME.RANDOM.tmp`, see
  /// ``FileSystem/temporaryName(of:_:)``) that writers killed mid-write left in the folder,
  /// whatever file they were writing — only those that no writer holds locked (a writer locks
  /// its temporary file while it writes it). One read of the folder.
  package func removeStaleTemporaries() {
    let prefix = ".syncthing."
    for entry in names() where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
      // `.syncthing.NAME.RANDOM.tmp`: NAME is what lies between the prefix and the last dot
      // before `.tmp`.
      let middle = entry.dropFirst(prefix.count).dropLast(4)
      guard let dot = middle.lastIndex(of: "."),
        FileSystem.isTemporary(entry, of: String(middle[..<dot]))
      else { continue }
      let descriptor = openat(folder.descriptor, entry, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlinkat(folder.descriptor, entry, 0) }
      close(descriptor)
    }
  }
}
