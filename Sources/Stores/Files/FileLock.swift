import Foundation

/// The exclusive lock of a data file: `flock` on a lock file beside it (`todos.json.lock`),
/// an empty file whose content never changes once it exists.
///
/// - The lock file is left as it is, so that a file-sync engine (Syncthing, Dropbox, iCloud
///   Drive) sees nothing to sync after it was made, and two devices that each made one hold
///   equal files, of which Syncthing makes no conflict copy (checked on two real nodes: it
///   only brings the modification times in line). (Earlier versions of the package
///   had each holder write its process id into it: a change on both devices, which Syncthing
///   turned into `todos.json.sync-conflict-….lock` copies. Such a process id is cleared
///   once; such copies are removed with the stale temporaries, see
///   ``FileSystem/removeStaleTemporaries(of:in:)``.) The holder a timed-out wait names comes
///   from the system's lock table instead (``Platform/lockHolder(of:)``).
///
/// - The lock file is opened relative to the data folder with `O_NOFOLLOW`: a link put in its
///   place is refused, never followed to create a file elsewhere; so is a hard link (a lock
///   file with other names), and one that is not this user's nor the folder owner's — before
///   anything is written to it.
/// - Waiting is bounded: past `timeout`, the wait fails with an error naming the lock file
///   and its holder, so a holder that is stopped (SIGSTOP, a debugger) never blocks anyone
///   forever.
/// - After locking, the locked file is checked to still be the one at its path: if someone
///   deleted or replaced the lock file meanwhile, the lock is taken again on the new one, so
///   two writers never both hold "the" lock.
/// - The lock is released when `body` returns or throws, and by the system if the process
///   dies.
enum FileLock {
  /// Runs `body` holding the lock of the data file `name` in `folder`; `body` is given the
  /// deadline of the wait, for any further lock it takes.
  ///
  /// - Throws: ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)`` when another
  ///   process holds the lock longer than `timeout`;
  ///   ``StoreFileError/Problem/unsafeLockFile(lock:)`` when the lock file is a link, has
  ///   other names, is another user's or is not a regular file;
  ///   ``StoreFileError/Problem/cannotWaitForLock(lock:errno:)`` when no thread can wait for
  ///   it; `cannotWrite` when it cannot be created; and whatever `body` throws. A lock file
  ///   that is never the one at its path after locking (a tool that fakes `stat`) is tried
  ///   again until the deadline only, then `lockTimedOut` too.
  /// - Parameter isAtItsPath: Whether the lock file locked at a descriptor is the one with
  ///   its name in the folder now (a seam for tests, which fake it).
  static func withLock<Result>(
    of name: String, in folder: DataFolder, timeout: Duration, path: String,
    isAtItsPath: (Int32, String, DataFolder) -> Bool = isStillAtItsPath,
    _ body: (ContinuousClock.Instant) throws -> Result
  ) throws -> Result {
    let lockName = name + ".lock"
    let lockPath = (folder.path as NSString).appendingPathComponent(lockName)
    let deadline = ContinuousClock.now + timeout
    while true {
      let descriptor = try openLockFile(lockName, in: folder, lockPath: lockPath, path: path)
      defer { close(descriptor) }
      let hold = try wait(
        for: descriptor, until: deadline, timeout: timeout, lockPath: lockPath, path: path)
      defer { hold?.release() }
      guard isAtItsPath(descriptor, lockName, folder) else {
        guard ContinuousClock.now < deadline else {
          throw StoreFileError(
            path: path, problem: .lockTimedOut(lock: lockPath, holder: nil, waited: timeout))
        }
        continue
      }
      return try body(deadline)
    }
  }

  /// Opens the lock file, creating it `0600` and owned like its folder when it is missing.
  ///
  /// Only a lock file made here is given a mode and an owner. An existing one is refused —
  /// before anything is written to it — when it is a link (symbolic, or hard: a file with
  /// other names, such as the data file or someone else's file planted here), not a regular
  /// file, or owned by neither this user nor the folder's owner; and ``clearHolder(_:)``
  /// clears nothing but a process id. So however a planted file is swapped in and out, no
  /// other file's content, mode or owner is ever changed.
  private static func openLockFile(
    _ name: String, in folder: DataFolder, lockPath: String, path: String
  ) throws(StoreFileError) -> Int32 {
    let flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
    var descriptor: Int32
    repeat {
      descriptor = openat(folder.descriptor, name, flags | O_CREAT | O_EXCL, 0o600)
      if descriptor >= 0 {
        // Whatever the umask, the next writer can open it.
        fchmod(descriptor, 0o600)
        FileSystem.keepOwner(descriptor, folder.owner)
        return descriptor
      }
      guard errno == EEXIST else { break }
      descriptor = openat(folder.descriptor, name, flags)
      if descriptor < 0 && errno == EACCES {
        // A lock file an older version made read-only: locking needs no write.
        descriptor = openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
      }
      // Removed between the two calls: make it anew.
    } while descriptor < 0 && errno == ENOENT
    guard descriptor >= 0 else {
      if errno == ELOOP || errno == ENXIO || errno == EISDIR {
        throw StoreFileError(path: path, problem: .unsafeLockFile(lock: lockPath))
      }
      throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
    }
    // No link count of 0 is refused: that is a lock file another writer just removed, which
    // the check that it is still at its path then replaces.
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink <= 1,
      info.st_uid == geteuid() || info.st_uid == folder.owner.0
    else {
      close(descriptor)
      throw StoreFileError(path: path, problem: .unsafeLockFile(lock: lockPath))
    }
    if info.st_size > 0 { clearHolder(descriptor) }
    return descriptor
  }

  /// Takes the `flock` on `descriptor` by `deadline`: at once when it is free; else through
  /// this process's one waiting thread for that file (see ``LockWaits``), which hands it over
  /// as a hold to release when done.
  ///
  /// - Returns: `nil` when the lock was taken on `descriptor` (released with it), else the
  ///   hold of the lock, to ``LockWaits/Hold/release()``.
  /// - Throws: `lockTimedOut` past the deadline, naming the holder; `cannotWaitForLock` when
  ///   no waiting thread could be started and the lock is still held.
  static func wait(
    for descriptor: Int32, until deadline: ContinuousClock.Instant, timeout: Duration,
    lockPath: String, path: String
  ) throws(StoreFileError) -> LockWaits.Hold? {
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return nil }
    guard errno == EWOULDBLOCK || errno == EINTR else {
      throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
    }
    do throws(LockWaits.Failure) {
      return try LockWaits.shared.wait(for: FileKey(info), descriptor: descriptor, until: deadline)
    } catch {
      switch error {
      case .cannotStart(let code):
        // Free again meanwhile, it is taken all the same.
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return nil }
        throw StoreFileError(path: path, problem: .cannotWaitForLock(lock: lockPath, errno: code))
      case .failed(let code):
        throw StoreFileError(path: path, problem: .cannotWrite(errno: code))
      case .timedOut:
        throw StoreFileError(
          path: path,
          problem: .lockTimedOut(lock: lockPath, holder: holder(descriptor), waited: timeout))
      }
    }
  }

  /// Empties a lock file that holds the process id an older version of the package wrote
  /// there — and only one that holds nothing else. Once: the content never changes again.
  private static func clearHolder(_ descriptor: Int32) {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0, count < buffer.count,
      buffer[..<count].allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x0A })
    else { return }
    ftruncate(descriptor, 0)
  }

  /// The process that holds the lock on the lock file at `descriptor`, if the system tells it.
  private static func holder(_ descriptor: Int32) -> Int32? {
    guard let pid = Platform.lockHolder(of: descriptor), kill(pid, 0) == 0 || errno == EPERM
    else { return nil }
    return pid
  }

  /// Whether the file locked at `descriptor` is the one named `name` in `folder` now.
  static func isStillAtItsPath(_ descriptor: Int32, _ name: String, _ folder: DataFolder)
    -> Bool
  {
    var locked = stat()
    var named = stat()
    return fstat(descriptor, &locked) == 0
      && fstatat(folder.descriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0
      && FileKey(locked) == FileKey(named)
  }
}

extension Duration {
  /// The duration in seconds, as `Date` and `DispatchTime` take them, saturated at 10^9 s
  /// (about 31 years) so that any duration makes a valid deadline.
  var inSeconds: Double {
    let (seconds, attoseconds) = components
    return min(Double(seconds) + Double(attoseconds) / 1e18, 1e9)
  }

  /// How long an action of a store on a file waits, by default, for another process that
  /// holds the file's lock: 3 seconds. Each store's `init(contentsOf:…, lockTimeout:)` takes
  /// another.
  public static let defaultLockTimeout = Duration.seconds(3)
}
