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
