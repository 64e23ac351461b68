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
  /// (its modification time is moved past the old one, by as much as the file system keeps:
  /// a nanosecond, or up to two seconds where times have whole seconds). Unflushed and not
  /// atomic: a reader that does not take the file's lock, or a crash, may see old and new
  /// bytes mixed — for a file whose content proves itself whole (a checksum), in exchange for
  /// no new file per write (a file renamed over another has its new blocks flushed with the
  /// next flush of anything on the drive, on ext4). A write that fails removes the file.
  /// O(size written).
  ///
  /// Never waits: while a reader holds the file's lock (one that is stopped may hold it for
  /// ever), the file is removed and the write goes to a new one — the reader keeps the old.
  /// So is anything at `name` that is not a regular file (a link, a FIFO): replaced, as a
  /// rename would, never followed or opened.
  ///
  /// - Throws: `notARegularFile` when `name` is a folder; `cannotWrite` when it cannot be
  ///   opened, locked or written.
  func overwrite(
    _ name: String, writing body: (FileOutput) throws(StoreFileError) -> Void
  ) throws(StoreFileError) -> FileIdentity {
    let path = path(of: name)
    var info = stat()
    var descriptor = try openToOverwrite(name, info: &info)
    defer { close(descriptor) }
    let before = FileIdentity(info).modified
    if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      // A reader holds it (a store opening compares it with its file): a new file, unlocked.
      close(descriptor)
      descriptor = -1
      unlinkat(folder.descriptor, name, 0)
      descriptor = try openToOverwrite(name, info: &info)
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
      }
    }
    let output = FileOutput(descriptor)
    do throws(StoreFileError) {
      try body(output)
      guard output.failure == 0, ftruncate(descriptor, off_t(output.count)) == 0,
        fstat(descriptor, &info) == 0
      else {
        throw StoreFileError(
          path: path, problem: .cannotWrite(errno: output.failure == 0 ? errno : output.failure))
      }
      // The first step past the old time that the file system keeps (it truncates finer ones).
      for step in Self.timeSteps where !Self.isTime(FileIdentity(info).modified, after: before) {
        let moved = Self.time(before, plus: step)
        let times = [moved, moved]
        guard futimens(descriptor, times) == 0, fstat(descriptor, &info) == 0 else {
          throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
        }
      }
      guard Self.isTime(FileIdentity(info).modified, after: before) else {
        throw StoreFileError(path: path, problem: .cannotWrite(errno: EINVAL))
      }
      return FileIdentity(info)
    } catch {
      unlinkat(folder.descriptor, name, 0)
      throw error
    }
  }

  /// Opens the regular file `name` to write it over (creating it, `0600`), with its `stat` in
  /// `info`; whatever else is at `name` — a link, a FIFO, a device — is removed first, never
  /// followed or opened for writing (a FIFO is opened without blocking, and closed).
  ///
  /// - Throws: `notARegularFile` for a folder; `cannotWrite` when it cannot be opened.
  private func openToOverwrite(
    _ name: String, info: inout stat
  ) throws(StoreFileError) -> Int32 {
    let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
    for attempt in 0..<2 {
      let descriptor = openat(folder.descriptor, name, flags | (attempt == 0 ? 0 : O_EXCL), 0o600)
      if descriptor >= 0 {
        guard fstat(descriptor, &info) == 0 else {
          let code = errno
          close(descriptor)
          throw StoreFileError(path: path(of: name), problem: .cannotWrite(errno: code))
        }
        if info.st_mode & S_IFMT == S_IFREG { return descriptor }
        close(descriptor)
      } else if errno == EISDIR {
        throw StoreFileError(path: path(of: name), problem: .notARegularFile)
      } else if errno != ELOOP, errno != ENXIO {
        throw StoreFileError(path: path(of: name), problem: .cannotWrite(errno: errno))
      }
      // A link (ELOOP), a FIFO or socket that cannot be opened (ENXIO), or opened and not a
      // regular file: removed, as the rename that wrote it before replaced it.
      unlinkat(folder.descriptor, name, 0)
    }
    throw StoreFileError(path: path(of: name), problem: .notARegularFile)
  }

  /// The steps a modification time is moved past the last by (see ``overwrite(_:writing:)``):
  /// a nanosecond, then coarser, for file systems that keep whole microseconds, milliseconds,
  /// seconds (ext3, ext4 with small inodes, HFS+), or two seconds (FAT).
  private static let timeSteps = [1, 1_000, 1_000_000, 1_000_000_000, 2_000_000_000]

  /// Whether `time` is later than `other`.
  private static func isTime(_ time: timespec, after other: timespec) -> Bool {
    (time.tv_sec, time.tv_nsec) > (other.tv_sec, other.tv_nsec)
  }

  /// `time` plus `nanoseconds`.
  private static func time(_ time: timespec, plus nanoseconds: Int) -> timespec {
    // In 64 bits: 2 s in nanoseconds and more do not fit in a 32-bit `Int` (watchOS).
    let total = Int64(time.tv_nsec) + Int64(nanoseconds)
    return timespec(
      tv_sec: time.tv_sec + Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
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
