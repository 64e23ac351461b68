import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// What differs between the platforms the package runs on — Linux (Glibc, Musl) and Apple's
// (Darwin) — is here and in the other files of this folder, and nowhere else in the module:
// the rest calls these. `.ci/platform-check` fails on a platform-only name used elsewhere.

/// The operating system's calls whose names, types or meaning differ between platforms.
enum Platform {
  /// The device and inode in `info`. By bit pattern: `dev_t` is a signed 32-bit number on
  /// Apple platforms, where a device number may be negative, and unsigned 64-bit on Linux.
  static func key(_ info: stat) -> (device: UInt64, inode: UInt64) {
    (bitPattern(info.st_dev), bitPattern(info.st_ino))
  }

  /// `number`'s bits as an unsigned 64-bit number, whatever its type and sign: never a trap
  /// (as `UInt64(_:)` is for a negative `Int32`), and distinct numbers stay distinct.
  static func bitPattern<Number: BinaryInteger>(_ number: Number) -> UInt64 {
    UInt64(truncatingIfNeeded: number)
  }

  /// The modification and change times in `info`.
  static func times(_ info: stat) -> (modified: timespec, changed: timespec) {
    #if canImport(Darwin)
      (info.st_mtimespec, info.st_ctimespec)
    #else
      (info.st_mtim, info.st_ctim)
    #endif
  }

  /// The first of the two flushes of a durable replace (see
  /// ``FileSystem/replace(_:in:creating:replacing:path:flushes:committed:writing:)``): puts what was written to
  /// the new file open at `descriptor` on the drive ahead of anything written after it — the
  /// rename that gives it its name — so that after a crash the name holds the old file or the
  /// whole new one, never a new name on data that never reached the drive. Returns 0 or the
  /// `errno` of the failure, which fails the write.
  ///
  /// On Linux, `fsync`, which also flushes the drive's cache: the file is durable from here.
  /// On Apple platforms, `fsync` leaves the data in the drive's cache, where a power loss
  /// loses it and from which the drive may write it after later writes; `F_BARRIERFSYNC` is
  /// `fsync` followed by a barrier the drive keeps — what was `fsync`ed before it is persisted
  /// before any I/O after it — without waiting for the drive to empty its cache (`fcntl(2)`).
  /// That orders the data before the rename; the one flush of the drive's cache comes after
  /// the rename (``makeRenameDurable(folder:file:)``). Where the file system has no barriers,
  /// a full flush (`F_FULLFSYNC`, else `fsync`) does both.
  static func orderBeforeRename(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
      // `#define F_BARRIERFSYNC 85 /* fsync + issue barrier to drive */` in <sys/fcntl.h>,
      // imported as F_FULLFSYNC is (in <sys/fcntl.h> since OS X 10.11, below the package's
      // floor).
      if fcntl(descriptor, F_BARRIERFSYNC) == 0 { return 0 }
      let code = errno
      guard isUnsupported(code) else { return code }
      return fullySynchronize(descriptor)
    #else
      return fsync(descriptor) == 0 ? 0 : errno
    #endif
  }

  /// The second flush of a durable replace: makes the rename of the file open at `file` in the
  /// folder open at `folder` durable, and with it, on Apple platforms, the file's data.
  /// Failing is not an error (the new file is already in place, and some file systems refuse
  /// to flush a folder): it is done as far as the file system allows.
  ///
  /// On Linux, `fsync` of the folder (the file's data is durable since
  /// ``orderBeforeRename(_:)``). On Apple platforms, one `F_FULLFSYNC` of the folder: `fsync`
  /// of its entries, then the drive's whole cache written to the medium — which "acts as a
  /// barrier: data that had been fsync'd on the same device before is guaranteed to be
  /// persisted when this call returns" (`fcntl(2)`), the file's data among it. So a durable
  /// write costs one flush of the drive's cache, not two. Where the folder cannot be flushed
  /// so, it is `fsync`ed, and the file flushed fully (`F_FULLFSYNC`, else `fsync`).
  static func makeRenameDurable(folder: Int32, file: Int32) {
    #if canImport(Darwin)
      if fcntl(folder, F_FULLFSYNC) == 0 { return }
      // The folder's entries as `fsync` can, then the drive's cache flushed through the file:
      // what was `fsync`ed before — the folder too — is persisted when that returns.
      _ = fsync(folder)
      _ = fullySynchronize(file)
    #else
      _ = fsync(folder)
    #endif
  }

  #if canImport(Darwin)
    /// `F_FULLFSYNC` on `descriptor` — `fsync`, then the drive's cache written to the medium
    /// (as SQLite and Core Data do) — with `fsync` where the file system refuses it; 0 or the
    /// `errno` of the failure.
    private static func fullySynchronize(_ descriptor: Int32) -> Int32 {
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
      // Only a file system that cannot do it falls back: an I/O error is an error.
      let code = errno
      guard isUnsupported(code) else { return code }
      return fsync(descriptor) == 0 ? 0 : errno
    }

    /// Whether `code`, an `fcntl` failure, says the file system does not do the command.
    private static func isUnsupported(_ code: Int32) -> Bool {
      [ENOTSUP, EOPNOTSUPP, EINVAL, ENOTTY].contains(code)
    }
  #endif

  /// `read(2)`, by a name no method shadows.
  static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
      Musl.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  /// The name of the running process `pid`, where the system tells it: `/proc` on Linux,
  /// `sysctl` on Apple platforms; `nil` when it does not.
  static func processName(_ pid: Int32) -> String? {
    #if os(Linux)
      guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else {
        return nil
      }
      let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
      return trimmed.isEmpty ? nil : trimmed
    #elseif canImport(Darwin)
      var info = kinfo_proc()
      var size = MemoryLayout<kinfo_proc>.stride
      var query: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
      guard sysctl(&query, UInt32(query.count), &info, &size, nil, 0) == 0, size > 0 else {
        return nil
      }
      let name = withUnsafeBytes(of: info.kp_proc.p_comm) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      return name.isEmpty ? nil : name
    #else
      return nil
    #endif
  }

  /// The process holding a `flock` on the file open at `descriptor`, where the system tells
  /// it: on Linux, the kernel's lock table `/proc/locks` (holder, device and inode of each
  /// lock; its waiters, marked `->`, are skipped) — read only when a wait timed out, O(locks
  /// on the system). Apple platforms have no public table of `flock` holders: `nil` there,
  /// and wherever the table does not name one.
  static func lockHolder(of descriptor: Int32) -> Int32? {
    #if os(Linux)
      var info = stat()
      guard fstat(descriptor, &info) == 0,
        let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
      else { return nil }
      // The device as the kernel prints it: major and minor in hex, at least 2 digits each.
      let device = bitPattern(info.st_dev)
      let major = (device >> 8) & 0xfff | (device >> 32) & ~0xfff
      let minor = device & 0xff | (device >> 12) & ~0xff
      func hex(_ number: UInt64) -> String {
        let digits = String(number, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
      }
      let file = "\(hex(major)):\(hex(minor)):\(bitPattern(info.st_ino))"
      for line in table.split(separator: "\n") {
        // "1: FLOCK  ADVISORY  WRITE 1234 fe:00:16303149 0 EOF"
        let fields = line.split(separator: " ")
        guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file,
          let pid = Int32(fields[4]), pid > 0
        else { continue }
        return pid
      }
      return nil
    #else
      return nil
    #endif
  }

  /// Starts `body` on a detached thread of its own; returns 0, or the `errno` when no thread
  /// could be made (`EAGAIN` past the process limit).
  static func startThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread, nil,
      { context in
        // A pointer on Apple platforms, an optional one on Linux.
        let pointer: UnsafeMutableRawPointer? = context
        Unmanaged<ThreadBody>.fromOpaque(pointer!).takeRetainedValue().run()
        return nil
      }, context)
    guard result == 0 else {
      Unmanaged<ThreadBody>.fromOpaque(context).release()
      return result
    }
    #if canImport(Darwin)
      pthread_detach(thread!)
    #else
      pthread_detach(thread)
    #endif
    return 0
  }

  /// The folder of the App Group `identifier`, which an app, its widgets and extensions
  /// share (Apple platforms; `nil` elsewhere, and for a group the app is not in). On macOS
  /// (Mac Catalyst too) the system names a folder for any group, in the app or not, so there
  /// it must also be an existing folder the app can write to (a sandboxed app that is not in
  /// the group cannot). Creates nothing.
  static func appGroupContainer(_ identifier: String) -> URL? {
    #if os(macOS) || targetEnvironment(macCatalyst)
      guard
        let url = FileManager.default.containerURL(
          forSecurityApplicationGroupIdentifier: identifier),
        access(url.path, W_OK) == 0
      else { return nil }
      return url
    #elseif canImport(Darwin)
      FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier)
    #else
      nil
    #endif
  }

  /// Where `diary` and an app keep their files by default, under `home`: one Application
  /// Support folder on Apple platforms; the XDG places on Linux (`$XDG_CONFIG_HOME` for
  /// settings, `$XDG_DATA_HOME` for the rest, read from `environment`).
  static func standardFolders(
    home: URL, environment: [String: String]
  ) -> (settings: URL, data: URL) {
    #if canImport(Darwin)
      let folder = home.appendingPathComponent(
        "Library/Application Support/diary", isDirectory: true)
      return (folder, folder)
    #else
      func xdg(_ name: String, default relative: String) -> URL {
        if let value = environment[name], value.hasPrefix("/") {
          return URL(fileURLWithPath: value, isDirectory: true)
        }
        return home.appendingPathComponent(relative, isDirectory: true)
      }
      return (
        xdg("XDG_CONFIG_HOME", default: ".config").appendingPathComponent("diary"),
        xdg("XDG_DATA_HOME", default: ".local/share").appendingPathComponent("diary")
      )
    #endif
  }

  /// How a store reaches its data file at `url` (see ``FileCoordination``), decided once,
  /// when it opens: through file coordination when iCloud Drive syncs the file or its folder
  /// (Apple platforms with iCloud Drive: macOS, iOS, visionOS), each coordinated access waiting
  /// at most `timeout`; directly otherwise — a local folder, an App Group, Linux.
  static func fileCoordination(for url: URL, timeout: Duration) -> any FileCoordination {
    #if os(macOS) || os(iOS) || os(visionOS)
      ICloudDriveFile(url, timeout: timeout) ?? LocalFile()
    #else
      LocalFile()
    #endif
  }

  /// Downloads the file at `url` if iCloud Drive syncs it and it is not downloaded yet,
  /// waiting off the calling actor (see ``ICloudDriveFile/download(_:)``); returns at once
  /// otherwise.
  static func downloadIfInICloud(_ url: URL) async throws {
    #if os(macOS) || os(iOS) || os(visionOS)
      try await ICloudDriveFile.download(url)
    #endif
  }

  /// Whether the file at `url` is in iCloud Drive and not downloaded yet (see
  /// ``ICloudDriveFile/isNotDownloaded(_:)``); `false` wherever there is no iCloud Drive.
  static func isNotDownloadedFromICloud(_ url: URL) -> Bool {
    #if os(macOS) || os(iOS) || os(visionOS)
      ICloudDriveFile.isNotDownloaded(url)
    #else
      false
    #endif
  }

  /// The folder of this device's own state, never synced (the device id, `diary`'s undo
  /// history): `$STORES_STATE_HOME` when `environment` sets it to an absolute path, on every
  /// platform; else Application Support on Apple platforms (`FileManager`'s
  /// `.applicationSupportDirectory` in the user's domain: the app's container in a sandbox);
  /// else, on Linux, `$XDG_STATE_HOME` when absolute, else `$HOME/.local/state`. `nil` when
  /// there is none (no absolute `HOME` on Linux, no Application Support on Apple platforms).
  /// Creates nothing.
  static func localStateFolder(environment: [String: String]) -> URL? {
    if let value = environment[DeviceID.stateHomeVariable], value.hasPrefix("/") {
      return URL(fileURLWithPath: value, isDirectory: true)
    }
    #if canImport(Darwin)
      return try? FileManager.default.url(
        for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
        create: false)
    #else
      if let value = environment["XDG_STATE_HOME"], value.hasPrefix("/") {
        return URL(fileURLWithPath: value, isDirectory: true)
      }
      guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
      return URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/state", isDirectory: true)
    #endif
  }

  /// Marks the file at `url` as one that backups (iCloud, iTunes/Finder, Time Machine) leave
  /// out, on Apple platforms, so that a device restored or migrated from a backup does not
  /// get it back; does nothing elsewhere, and nothing when the system refuses.
  static func excludeFromBackup(_ url: URL) {
    #if canImport(Darwin)
      var url = url
      var values = URLResourceValues()
      values.isExcludedFromBackup = true
      try? url.setResourceValues(values)
    #endif
  }
}

/// The work of a thread ``Platform/startThread(_:)`` started.
private final class ThreadBody {
  let run: @Sendable () -> Void

  init(_ run: @escaping @Sendable () -> Void) {
    self.run = run
  }
}

#if os(macOS) || os(iOS) || os(visionOS)
  /// A file in iCloud Drive is reached through Apple's file coordination.
  extension ICloudDriveFile: FileCoordination {}
#endif
