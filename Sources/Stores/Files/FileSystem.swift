import Foundation

/// The few file-system operations the persistence needs, on POSIX calls, so that each one
/// does exactly what it says (Foundation's atomic write neither fsyncs the folder nor keeps
/// permissions). Every failure is a ``StoreFileError`` naming `path`, the data file.
enum FileSystem {
  /// The longest chain of symbolic links followed to a data file.
  static let maxLinks = 32

  /// The identity of the file at `path`, or `nil` when there is no file there.
  static func identity(of path: String) throws(StoreFileError) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return nil }
      throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
    }
    return FileIdentity(info)
  }

  /// The identity of the entry `name` in `folder` (a link itself, not followed), or `nil`.
  static func identity(of name: String, in folder: DataFolder, path: String)
    throws(StoreFileError) -> FileIdentity?
  {
    var info = stat()
    guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
      if errno == ENOENT { return nil }
      throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
    }
    return FileIdentity(info)
  }

  /// Called with the name given as ``read(_:in:path:)`` starts, before it opens the file: a
  /// seam for tests, which replace the file there as a writer racing a read without the lock
  /// does (`FileSystem.$beforeRead.withValue(…)`); `nil` otherwise.
  @TaskLocal static var beforeRead: (@Sendable (String) -> Void)?

  /// The bytes of the regular file `name` (relative to `folder`, or a path with `AT_FDCWD`)
  /// and their identity, or `nil` when there is no file. Anything that is not a regular file —
  /// a folder, a FIFO, a device — is refused before reading, so reading never blocks.
  static func read(_ name: String, in folder: Int32 = AT_FDCWD, path: String)
    throws(StoreFileError) -> (Data, FileIdentity)?
  {
    beforeRead?(name)
    guard let file = try OpenFile(name, in: folder, path: path) else { return nil }
    return (try file.contents(path: path), file.identity)
  }

  /// Reads the file open at `descriptor` from its start — its first `size` bytes, or all of
  /// it when `size` is `nil` — in parts of ``FileOutput/partSize`` (one buffer: no copy of
  /// the file is held), giving each to `body` with its offset until `body` returns `false`.
  /// Returns whether every part was read and taken (a file shorter than `size` is not); after
  /// a failed read, `errno` says why. O(bytes read).
  static func readParts(
    of descriptor: Int32, size: Int? = nil, _ body: (UnsafeRawBufferPointer, Int) -> Bool
  ) -> Bool {
    let end = size ?? .max
    var buffer = [UInt8](repeating: 0, count: min(end, FileOutput.partSize))
    var offset = 0
    while offset < end {
      let read = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, min($0.count, end - offset), off_t(offset))
      }
      if read < 0, errno == EINTR || errno == EAGAIN { continue }
      if read == 0, size == nil { return true }
      guard read > 0,
        buffer.withUnsafeBytes({ body(UnsafeRawBufferPointer(rebasing: $0[..<read]), offset) })
      else { return false }
      offset += read
    }
    return true
  }

  /// The hash of the content of the regular file `name` (see ``OpenFile/contentHash(path:)``),
  /// or `nil` when there is none. O(size of the file), in one part's memory.
  ///
  /// - Throws: What opening or reading it throws (`notARegularFile`, `cannotRead`).
  static func contentHash(of name: String, in folder: Int32 = AT_FDCWD, path: String)
    throws(StoreFileError) -> Int?
  {
    try OpenFile(name, in: folder, path: path)?.contentHash(path: path)
  }

  /// The data file `name` in `folder`, opened and locked with `flock`, and checked to still
  /// be the file with that name — or `nil` when there is none.
  ///
  /// This guards against a writer whose lock file someone deleted while it held it: another
  /// writer then takes a new lock file, but not this lock, which the first holds on the file
  /// it is about to replace until it has replaced it. (Where the file system has no `flock`,
  /// the file is returned unlocked.) A file replaced meanwhile is opened again, until
  /// `deadline`: where the file and its path never agree (a tool that fakes `stat`), the wait
  /// ends there like any wait for the lock, rather than spinning.
  ///
  /// - Parameter identityAtPath: What names the file at the path now: the identity of `name`
  ///   in `folder` (a seam for tests, which fake it).
  /// - Throws: ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)`` past `deadline`,
  ///   naming the data file; what opening, locking or checking the file throws.
  static func openLocked(
    _ name: String, in folder: DataFolder, until deadline: ContinuousClock.Instant,
    timeout: Duration, path: String,
    identityAtPath: (String, DataFolder, String) throws(StoreFileError) -> FileIdentity? =
      identity(of:in:path:)
  ) throws(StoreFileError) -> OpenFile? {
    while true {
      guard let file = try OpenFile(name, in: folder.descriptor, path: path) else { return nil }
      let lockPath = (folder.path as NSString).appendingPathComponent(name)
      do {
        file.lockHold = try FileLock.wait(
          for: file.descriptor, until: deadline, timeout: timeout, lockPath: lockPath, path: path)
      } catch {
        // No flock here (say, NFS without write access): no guard.
        guard case .cannotWrite = error.problem else { throw error }
        return file
      }
      if try identityAtPath(name, folder, path) == file.identity { return file }
      guard ContinuousClock.now < deadline else {
        throw StoreFileError(
          path: path, problem: .lockTimedOut(lock: lockPath, holder: nil, waited: timeout))
      }
    }
  }

  /// Replaces the file `name` in `folder` with what `body` writes to its ``FileOutput``,
  /// atomically and durably (unless `folder` is a tests' folder written without flushes, see
  /// ``UnflushedFolders``): writes a new file with an unpredictable name in the same folder,
  /// gives it the old file's permissions and owner (a new file: `0600`, whatever the umask,
  /// and the folder's owner), flushes it, renames it over `name` and flushes the folder —
  /// `fsync` and `fsync` on Linux; on Apple platforms a barrier, then one flush of the
  /// drive's cache (see ``Platform/orderBeforeRename(_:)`` and
  /// ``Platform/makeRenameDurable(folder:file:)``).
  /// Readers see the old content or the new, never a mix; after a crash, one of the two is
  /// there. A file that may not be written (no write permission, even for root) is refused,
  /// not replaced, and so is a file with other names (hard links) or of another owner than
  /// this user or the folder's. When `body` throws or a write fails, nothing is replaced and
  /// the new file is removed.
  ///
  /// The new file's modification time is set a few seconds back (see ``FileVersion``), so
  /// that any later write changes it, however coarse the file system's clock.
  ///
  /// With `creating`, the file must not exist yet: when another writer made it meanwhile,
  /// nothing is written and ``Raced`` is thrown, so that the transaction starts again. So it
  /// is too when the file is no longer `replacing`, the one the transaction read: a sync
  /// engine, which knows nothing of the lock, put another version in its place meanwhile.
  ///
  /// Where the folder's change times are coarse (see ``changeTimesAreExact(_:)``, found out
  /// on the first write into a folder), the content is hashed as it is written, so that the
  /// version returned can be confirmed by content.
  ///
  /// - Parameters:
  ///   - flushes: The two flushes (a seam for tests, which record them); by default
  ///     ``Flushes/durable``, or none in a folder written without flushes.
  ///   - committed: Called once the new file is in place (renamed, flushed), with its open
  ///     descriptor (readable) and its size; not called when nothing was replaced.
  /// - Returns: The version of the new file.
  static func replace(
    _ name: String, in folder: DataFolder, creating: Bool, replacing read: FileIdentity? = nil,
    path: String, flushes: Flushes? = nil, committed: ((_ file: Int32, _ size: Int) -> Void)? = nil,
    writing body: (FileOutput) throws(StoreFileError) -> Void
  ) throws -> FileVersion {
    let flushes = flushes ?? (folder.flushes ? Flushes.durable : Flushes.unflushed)
    var permissions: mode_t = 0o600
    var owner = folder.owner
    var existing = stat()
    if fstatat(folder.descriptor, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
      guard existing.st_mode & S_IFMT == S_IFREG else {
        throw StoreFileError(path: path, problem: .notARegularFile)
      }
      // A rename would leave the file's other names with the old content, and root must not
      // take over (or hand on) a file planted in a user's folder.
      guard existing.st_nlink == 1,
        existing.st_uid == geteuid() || existing.st_uid == folder.owner.0
      else {
        throw StoreFileError(
          path: path,
          problem: .unsafeDataFile(links: Int(existing.st_nlink), owner: existing.st_uid))
      }
      // A rename would replace a file its owner made read-only: respect the permission,
      // also for root, who may write anything (so look at the write bits too).
      guard faccessat(folder.descriptor, name, W_OK, 0) == 0 else {
        throw StoreFileError(path: path, problem: .cannotWrite(errno: errno))
      }
      guard existing.st_mode & 0o222 != 0 else {
        throw StoreFileError(path: path, problem: .cannotWrite(errno: EACCES))
      }
      permissions = existing.st_mode & 0o7777
      owner = (existing.st_uid, existing.st_gid)
    }

    let (temporary, descriptor) = try createTemporaryFile(in: folder, for: name, path: path)
    var failure: Int32 = 0
    // The owner first: changing it clears set-user-ID bits that the mode then restores.
    keepOwner(descriptor, owner)
    if fchmod(descriptor, permissions) != 0 { failure = errno }
    let exact = folder.changeTimesAreExact ?? changeTimesAreExact(descriptor)
    folder.changeTimesAreExact = exact
    var contentHash: Int?
    if failure == 0 {
      let output = FileOutput(descriptor, hashing: !exact)
      do {
        try body(output)
      } catch {
        close(descriptor)
        unlinkat(folder.descriptor, temporary, 0)
        throw error
      }
      failure = output.failure
      contentHash = output.contentHash
    }
    if failure == 0 { failure = dateBack(descriptor) }
    if failure == 0 { failure = flushes.beforeRename(descriptor) }
    var raced = false
    if failure == 0 {
      if creating, linkat(folder.descriptor, temporary, folder.descriptor, name, 0) == 0 {
        unlinkat(folder.descriptor, temporary, 0)
      } else if creating && errno == EEXIST {
        raced = true
      } else if let read, (try? identity(of: name, in: folder, path: path)) != read {
        raced = true
      } else if renameat(folder.descriptor, temporary, folder.descriptor, name) != 0 {
        // Creating falls back to a rename where the file system has no hard links.
        failure = errno
      }
    }
    var written = stat()
    if failure == 0, fstat(descriptor, &written) != 0 { failure = errno }
    // Makes the rename durable (and, on Apple platforms, the file's data); done as far as the
    // file system allows, never an error: the new file is in place.
    if failure == 0, !raced {
      flushes.afterRename(folder.descriptor, descriptor)
      committed?(descriptor, Int(written.st_size))
    }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    guard failure == 0, !raced else {
      unlinkat(folder.descriptor, temporary, 0)
      if raced { throw Raced() }
      throw StoreFileError(path: path, problem: .cannotWrite(errno: failure))
    }
    return FileVersion(
      written: FileIdentity(written), contentHash: contentHash, changeTimesAreExact: exact)
  }

  /// Whether a change to a file in the folder of the file open at `descriptor` always shows
  /// in its change time, however soon it follows the last one: twice, the change time is
  /// read, the mode set again (a change), and the change time read anew — they must differ.
  /// They do on file systems with fine timestamps, and on Linux's multigrain ones (which give
  /// a fine time to a change after the time was read); they do not where timestamps move by
  /// the clock's tick (ramfs), or by seconds.
  static func changeTimesAreExact(_ descriptor: Int32) -> Bool {
    for _ in 0..<2 {
      var before = stat()
      var after = stat()
      guard fstat(descriptor, &before) == 0, fchmod(descriptor, before.st_mode & 0o7777) == 0,
        fstat(descriptor, &after) == 0
      else { return false }
      let (old, new) = (FileIdentity(before).changed, FileIdentity(after).changed)
      if old.tv_sec == new.tv_sec && old.tv_nsec == new.tv_nsec { return false }
    }
    return true
  }

  /// Another writer created the file between the check that it was missing and the write.
  struct Raced: Error {}

  /// The two flushes of ``replace(_:in:creating:replacing:path:flushes:committed:writing:)``, in
  /// their order: the platform's (see ``Platform``), none, or a test's that records them.
  struct Flushes: Sendable {
    /// Puts the new file's data, open at the descriptor given, on the drive before its rename;
    /// returns 0 or the `errno` of the failure, which fails the write.
    var beforeRename: @Sendable (_ file: Int32) -> Int32 = Platform.orderBeforeRename
    /// Makes the rename durable, given the folder's descriptor and the new file's.
    var afterRename: @Sendable (_ folder: Int32, _ file: Int32) -> Void =
      Platform.makeRenameDurable

    /// The flushes of a durable write: the platform's — or, in a task that sets its own with
    /// `Flushes.$durable.withValue(…)`, those (a seam for tests that watch a store's writes).
    @TaskLocal static var durable = Flushes()

    /// No flush: the writes of a folder written without flushes (see ``UnflushedFolders``).
    static let unflushed = Flushes(beforeRename: { _ in 0 }, afterRename: { _, _ in })
  }

  /// Removes the litter that writers of `name` left behind, so that no sync engine carries it
  /// to another device:
  ///
  /// - the temporary files of writers killed mid-write: exactly `.syncthing.NAME.RANDOM.tmp`
  ///   (see ``temporaryName(of:_:)``), or `.NAME.RANDOM.tmp` as earlier versions named them,
  ///   and only those no writer holds locked (a writer locks its temporary file while it
  ///   writes it);
  /// - the copies of its lock file that sync engines made while earlier versions wrote a
  ///   process id into it (see ``FileLock``): `NAME…conflict….lock` (Syncthing's
  ///   `todos.json.sync-conflict-20261201-135016-E7BDN4G.lock`, Dropbox's, Nextcloud's), and
  ///   only regular files of this user or the folder's owner, with one name, that hold
  ///   nothing or a process id — never anything else.
  ///
  /// One read of the folder. A failure to remove one is harmless (the next writer picks
  /// another name; a copy of a lock file is never locked).
  static func removeStaleTemporaries(of name: String, in folder: DataFolder) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for entry in names {
      if isTemporary(entry, of: name) {
        let descriptor = openat(folder.descriptor, entry, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { continue }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlinkat(folder.descriptor, entry, 0) }
        close(descriptor)
      } else if isLockFileCopy(entry, of: name), isProcessIDFile(entry, in: folder) {
        unlinkat(folder.descriptor, entry, 0)
      }
    }
  }

  /// The name of a temporary file for writing `name`, with `random` (13 base-36 digits):
  /// `.syncthing.NAME.RANDOM.tmp`, the form Syncthing takes for its own in-flight files and
  /// never scans, so that a scan during a write cannot pick it up and have another device
  /// pull a file that is gone a moment later (Syncthing then waits a minute before it
  /// retries). Hidden, like every name starting with a dot.
  static func temporaryName(of name: String, _ random: UInt64) -> String {
    let digits = String(random, radix: 36)
    return ".syncthing.\(name).\(String(repeating: "0", count: 13 - digits.count) + digits).tmp"
  }

  /// Whether `entry` is the name of a temporary file of `name`: `.syncthing.NAME.RANDOM.tmp`
  /// with exactly 13 base-36 digits (not Syncthing's own `.syncthing.NAME.tmp`, nor its
  /// in-flight copy of a file named like `NAME.bak`), or `.NAME.RANDOM.tmp` as earlier
  /// versions named them.
  static func isTemporary(_ entry: String, of name: String) -> Bool {
    for (prefix, length) in [(".syncthing." + name + ".", 13), ("." + name + ".", nil)]
    where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
      let random = entry.utf8.dropFirst(prefix.utf8.count).dropLast(4)
      if !random.isEmpty, length.map({ random.count == $0 }) ?? true,
        random.allSatisfy(isBase36)
      {
        return true
      }
    }
    return false
  }

  /// Whether `entry` is named like a sync engine's conflict copy of the lock file of `name`.
  private static func isLockFileCopy(_ entry: String, of name: String) -> Bool {
    guard entry.hasPrefix(name), entry.hasSuffix(".lock"), entry != name + ".lock" else {
      return false
    }
    return entry.dropFirst(name.count).dropLast(5).lowercased().contains("conflict")
  }

  /// Whether `entry` in `folder` is a regular file with one name, of this user or the
  /// folder's owner, holding nothing or a process id (at most 31 digits and newlines).
  private static func isProcessIDFile(_ entry: String, in folder: DataFolder) -> Bool {
    let descriptor = openat(
      folder.descriptor, entry, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1,
      info.st_uid == geteuid() || info.st_uid == folder.owner.0, info.st_size < 32
    else { return false }
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    return count >= 0 && count < 32
      && buffer[..<count].allSatisfy { (0x30...0x39).contains($0) || $0 == 0x0A }
  }

  /// Creates the folder `folder` and its missing parents, each `0700` whatever the umask and
  /// owned, when root creates it, by the owner of the folder it is in.
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
    guard mkdir(folder, 0o700) == 0 else {
      if errno == EEXIST { return }
      throw StoreFileError(path: path, problem: .cannotCreateFolder(path: folder, errno: errno))
    }
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var parentInfo = stat()
    if stat(parent.isEmpty ? "." : parent, &parentInfo) == 0 {
      keepOwner(descriptor, (parentInfo.st_uid, parentInfo.st_gid))
    }
    fchmod(descriptor, 0o700)
  }

  /// `path` with every symbolic link on the way to the file followed, so that a link to a
  /// data file is read and written through: the target is replaced, the link stays.
  ///
  /// - Throws: ``StoreFileError/Problem/tooManyLinks`` for a chain longer than ``maxLinks``
  ///   (or a loop), rather than replacing the last link with a file.
  static func resolvingLinks(_ path: String) throws(StoreFileError) -> String {
    var current = path
    for _ in 0...maxLinks {
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
    throw StoreFileError(path: path, problem: .tooManyLinks)
  }

  /// Gives the file open at `descriptor` the owner `owner`, when that is not who runs and
  /// this process may (root may; others can only keep themselves).
  static func keepOwner(_ descriptor: Int32, _ owner: (uid_t, gid_t)) {
    guard owner.0 != geteuid() || owner.1 != getegid() else { return }
    _ = fchown(descriptor, owner.0, owner.1)
  }

  private static func createTemporaryFile(
    in folder: DataFolder, for name: String, path: String
  ) throws(StoreFileError) -> (String, Int32) {
    while true {
      let temporary = temporaryName(of: name, UInt64.random(in: 0...UInt64.max))
      let descriptor = openat(
        folder.descriptor, temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if descriptor >= 0 {
        // Locked while it is written, so that a cleaner sees it is not stale. A cleaner that
        // took the lock in the moment between the file's making and its locking removes it
        // (see ``removeStaleTemporaries(of:in:)``): then the name is no longer this file's,
        // and another is made. (Where the file system has no locks, the file is used as it is.)
        let isLocked = flock(descriptor, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK
        var opened = stat()
        var named = stat()
        if isLocked, fstat(descriptor, &opened) == 0,
          fstatat(folder.descriptor, temporary, &named, AT_SYMLINK_NOFOLLOW) == 0,
          FileKey(opened) == FileKey(named)
        {
          return (temporary, descriptor)
        }
        close(descriptor)
        continue
      }
      if errno != EEXIST { throw StoreFileError(path: path, problem: .cannotWrite(errno: errno)) }
    }
  }

  private static func isBase36(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }

  /// Sets the modification time of the file at `descriptor` more than
  /// ``FileVersion/safeAge`` seconds back (and its access time to now), returning 0 or the
  /// `errno` of the failure.
  private static func dateBack(_ descriptor: Int32) -> Int32 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var times = [now, now]
    times[1].tv_sec -= Int(FileVersion.safeAge.rounded(.up))
    return futimens(descriptor, times) == 0 ? 0 : errno
  }
}
