import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// What the tests of this target need that only some platforms have — `/proc`, `/dev/full`,
// util-linux's `setpriv` and `script`, a ramfs mount, root — is told or done here, and
// nowhere else: each test that needs one is enabled by it, with the reason, so that it runs
// wherever it can and is skipped, saying why, elsewhere. `.ci/platform-check` fails on a
// platform-only name used in another file.
enum TestPlatform {
  /// Whether the tests run as root (some give files to other users, or mount).
  static let isRoot = geteuid() == 0
  /// Whether `/proc` tells a process's threads, descriptors and inotify watches (Linux).
  static let hasProcessFiles = FileManager.default.fileExists(atPath: "/proc/self/fdinfo")
  /// Whether the system tells which process holds a `flock` (`/proc/locks`, Linux): Apple
  /// platforms have no public table of lock holders.
  static let namesLockHolders = FileManager.default.fileExists(atPath: "/proc/locks")
  /// Whether `/dev/full` exists: a device whose every write fails with `ENOSPC` (Linux).
  static let hasFullDevice = FileManager.default.fileExists(atPath: fullDevicePath)
  /// Whether util-linux's `setpriv` can run a command as another user (needs root).
  static let canRunAsAnotherUser =
    isRoot && FileManager.default.isExecutableFile(atPath: setpriv)
  /// Whether util-linux's `script` can run a command on a terminal (`-qefc`).
  static let hasScript: Bool = {
    #if os(Linux)
      FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
    #else
      false
    #endif
  }()

  /// `setpriv`'s path.
  static let setpriv = "/usr/bin/setpriv"

  /// The launcher that runs a command as the user and group `id`, with no other groups.
  static func asUser(_ id: Int) -> [String] {
    [setpriv, "--reuid", "\(id)", "--regid", "\(id)", "--clear-groups", "--"]
  }

  /// The launcher that runs a command as root without the capabilities that let root read
  /// and write any file.
  static let rootWithoutOverride = [
    setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--",
  ]

  /// The path of a device whose every write fails with `ENOSPC` (see ``hasFullDevice``).
  static let fullDevicePath = "/dev/full"

  /// The full device, opened for writing.
  static func fullDevice() -> FileHandle? {
    FileHandle(forWritingAtPath: fullDevicePath)
  }

  /// The command that runs `command` (one shell line) on a terminal of its own, printing
  /// what the terminal shows.
  static func onATerminal(_ command: String) -> [String] {
    ["/usr/bin/script", "-qefc", command, "/dev/null"]
  }

  /// Sets the access and modification times of the file open at `descriptor` to those in
  /// `info`; returns whether it could.
  static func setTimes(of descriptor: Int32, to info: stat) -> Bool {
    #if canImport(Darwin)
      var times = [info.st_atimespec, info.st_mtimespec]
    #else
      var times = [info.st_atim, info.st_mtim]
    #endif
    return futimens(descriptor, &times) == 0
  }

  /// Sends `signal` to the process `pid`.
  static func send(_ signal: Int32, to pid: Int32) {
    kill(pid, signal)
  }

  /// The paths the process `pid` has open, where `/proc` tells them; `nil` elsewhere.
  static func openFiles(of pid: Int32) -> [String]? {
    let folder = "/proc/\(pid)/fd"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return nil
    }
    return names.compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")
    }
  }

  /// `count` different TCP ports on 127.0.0.1 that no one listens on now, none handed out
  /// before in this process: the system picks each for a socket bound to port 0, all held
  /// open until all are picked (a port closed and picked again would come back twice, as
  /// Syncthing's listener and API once did), then closed — so another process could take
  /// one meanwhile, which is unlikely among the tens of thousands of free ones.
  static func freeLoopbackPorts(_ count: Int) throws -> [Int] {
    var descriptors: [Int32] = []
    defer { for descriptor in descriptors { close(descriptor) } }
    var ports: [Int] = []
    while ports.count < count {
      #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
      #endif
      guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
      descriptors.append(descriptor)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
      }
      guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
      let port = Int(UInt16(bigEndian: address.sin_port))
      if handedOutPorts.withLock({ $0.insert(port).inserted }) { ports.append(port) }
    }
    return ports
  }

  /// The ports ``freeLoopbackPorts(_:)`` handed out in this process.
  private static let handedOutPorts = Mutex<Set<Int>>([])

  /// Whether a ramfs can be mounted here (Linux, as root): one is mounted and unmounted once
  /// to find out.
  static let canMountRamfs: Bool = {
    #if os(Linux)
      guard isRoot, let probe = CoarseClockFolder() else { return false }
      return withExtendedLifetime(probe) { true }
    #else
      false
    #endif
  }()
}

/// A folder on a ramfs, whose timestamps move with the kernel's coarse clock (a tick of a few
/// milliseconds), where root can mount one (Linux); unmounted when released.
final class CoarseClockFolder {
  let url: URL

  init?() {
    guard geteuid() == 0 else { return nil }
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-ramfs-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    guard Self.run(["/bin/mount", "-t", "ramfs", "ramfs", url.path]) else {
      try? FileManager.default.removeItem(at: url)
      return nil
    }
  }

  deinit {
    _ = Self.run(["/bin/umount", url.path])
    try? FileManager.default.removeItem(at: url)
  }

  private static func run(_ command: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
