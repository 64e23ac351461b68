import Foundation
import Stores
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh, empty folder for one test, removed with everything in it when released — and with
/// the outboxes this process wrote for its files in the local state folder: a
/// place for the files of file-backed stores.
///
/// ```swift
/// let folder = TemporaryFolder()
/// let store = try TodosStore(contentsOf: folder.file("todos.json"))
/// ```
///
/// The stores this process opens on files in the folder (or below it) write them
/// ``Durability-swift.enum/unflushed`` by default: every promise of a file store is kept —
/// a temporary file renamed over the data file under the lock, catching up with other
/// writers, merging conflict copies — but nothing is flushed to the drive, which makes a
/// write many times faster (most of a durable write is its flushes). Pass `.flushed`, or set
/// `STORES_DURABLE_TESTS=1`, to test the durable writes themselves. A store opened on any
/// other folder is always written durably; so are the files other processes (`diary`) write.
public final class TemporaryFolder: Sendable {
  /// Whether the writes of file stores in a folder reach the drive before they return.
  public enum Durability: Sendable, Equatable {
    /// Each write flushes the new file and the folder (`fsync`; a barrier and `F_FULLFSYNC`
    /// on Apple platforms), as every store outside a temporary folder does: a crash of the
    /// machine keeps every write that returned.
    case flushed
    /// No flush: a crash of the process still leaves the old file or the new one, never a
    /// torn one, but a crash of the machine may lose recent writes.
    case unflushed

    /// The environment variable that makes every ``TemporaryFolder`` made without a
    /// durability ``flushed``: `STORES_DURABLE_TESTS=1`.
    public static let variable = "STORES_DURABLE_TESTS"

    /// The durability of a ``TemporaryFolder`` made without one: ``flushed`` when
    /// `environment` sets ``variable`` to `1` (or `true`, `yes`), else ``unflushed``.
    public static func `default`(
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Durability {
      let value = environment[variable]?.lowercased()
      return ["1", "true", "yes"].contains(value) ? .flushed : .unflushed
    }
  }

  /// The folder.
  public let url: URL
  /// Whether the stores this process opens on files in the folder flush their writes.
  public let durability: Durability

  /// Creates the folder in the system's temporary directory, its files written with
  /// `durability`: by default ``Durability-swift.enum/unflushed``, unless
  /// `STORES_DURABLE_TESTS=1` (see ``Durability-swift.enum/default(environment:)``).
  ///
  /// The first one made in a process also gives the process a local state folder of its own
  /// when it has none: it sets `STORES_STATE_HOME` (see ``testStateFolder``), so the stores
  /// the tests open, and the processes they start, never read or make the machine's device
  /// id or write to the user's Application Support or `~/.local/state`.
  public init(durability: Durability = .default()) {
    _ = Self.isolatingState
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-tests-\(UUID().uuidString)", isDirectory: true)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    self.durability = durability
    if durability == .unflushed { UnflushedFolders.register(url) }
  }

  /// The local state folder the tests of this process use when `STORES_STATE_HOME` was not
  /// set before the first ``TemporaryFolder``: `stores-tests-state` in the system's temporary
  /// directory (kept, a few bytes: one device id for all test runs of the user).
  public static let testStateFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-tests-state", isDirectory: true)

  /// Sets `STORES_STATE_HOME` to ``testStateFolder`` unless it is set; once per process.
  /// Unless `STORES_DURABLE_TESTS=1`, that folder's files — the clock the stores share, written
  /// for each change while a test has made the clock run ahead — are written unflushed too.
  private static let isolatingState: Void = {
    guard getenv("STORES_STATE_HOME") == nil else { return }
    setenv("STORES_STATE_HOME", testStateFolder.path, 0)
    guard Durability.default() == .unflushed else { return }
    try? FileManager.default.createDirectory(
      at: testStateFolder, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    UnflushedFolders.register(testStateFolder)
  }()

  deinit {
    if durability == .unflushed { UnflushedFolders.unregister(url) }
    // The outboxes of its files (in the test state folder, kept between runs) go with them.
    Outbox.removeAll(under: url)
    TemporaryFolder.makeWritable(url)
    try? FileManager.default.removeItem(at: url)
  }

  /// The URL of `name` (a relative path) in the folder; nothing is created.
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// Writes `text` to `name` in the folder, creating folders on the way; returns its URL.
  @discardableResult
  public func write(_ text: String, to name: String) -> URL {
    write(Data(text.utf8), to: name)
  }

  /// Writes `data` to `name` in the folder, creating folders on the way; returns its URL.
  @discardableResult
  public func write(_ data: Data, to name: String) -> URL {
    let file = file(name)
    try! FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try! data.write(to: file)
    return file
  }

  /// Copies the file at `source` into the folder as `name` (its own name by default),
  /// creating folders on the way and replacing a file already there.
  @discardableResult
  public func copy(_ source: URL, as name: String? = nil) -> URL {
    write(try! Data(contentsOf: source), to: name ?? source.lastPathComponent)
  }

  /// The names in the folder (not below it), sorted.
  public var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }

  /// The bytes of every file below the folder except lock files (`*.lock`), by relative
  /// path: compare two snapshots to check that a command changed no data file.
  public func snapshot() -> [String: Data] {
    var files: [String: Data] = [:]
    for path in FileManager.default.subpaths(atPath: url.path) ?? [] where !path.hasSuffix(".lock")
    {
      var isFolder: ObjCBool = false
      let file = url.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        files[path] = (try? Data(contentsOf: file)) ?? Data()
      }
    }
    return files
  }

  /// Makes `folder` refuse new files, even to root (who ignores permissions): `chmod 0500`,
  /// plus, on Linux, the immutable attribute (`chattr +i`) when running as root.
  ///
  /// - Returns: Whether the folder now refuses new files.
  @discardableResult
  public static func makeReadOnly(_ folder: URL) -> Bool {
    chmod(folder.path, 0o500)
    #if os(Linux)
      if getuid() == 0 {
        runQuietly("/usr/bin/env", ["chattr", "+i", folder.path])
        immutableFolders.withLock { _ = $0.insert(folder.standardizedFileURL.path) }
      }
    #endif
    let probe = folder.appendingPathComponent(".probe-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: probe.path, contents: nil) else { return true }
    try? FileManager.default.removeItem(at: probe)
    return false
  }

  /// Undoes ``makeReadOnly(_:)`` on `folder` and everything below it.
  public static func makeWritable(_ folder: URL) {
    #if os(Linux)
      let path = folder.standardizedFileURL.path
      let isImmutable = immutableFolders.withLock { folders in
        let below = folders.filter { $0 == path || $0.hasPrefix(path + "/") }
        folders.subtract(below)
        return !below.isEmpty
      }
      if isImmutable { runQuietly("/usr/bin/env", ["chattr", "-R", "-i", folder.path]) }
    #endif
    let paths =
      [folder.path]
      + (FileManager.default.subpaths(atPath: folder.path) ?? [])
      .map { folder.appendingPathComponent($0).path }
    for path in paths { chmod(path, 0o700) }
  }

  #if os(Linux)
    /// The folders ``makeReadOnly(_:)`` made immutable (`chattr +i`) and ``makeWritable(_:)``
    /// has not undone: only those need a `chattr` to be removed (a process each).
    private static let immutableFolders = Mutex<Set<String>>([])

    /// Runs `executable` with `arguments`, output discarded, and waits for it. (`Process`
    /// exists on macOS and Linux only; `chattr` on Linux only.)
    private static func runQuietly(_ executable: String, _ arguments: [String]) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try? process.run()
      process.waitUntilExit()
    }
  #endif
}

/// Waits up to `seconds` for `condition` to hold, checking every 20 ms and letting the main
/// actor run meanwhile (a store's watch delivers there). Returns whether it held — at once
/// when it does, so the generous default costs only a test that fails.
///
/// The time counts while the main actor is free: on a loaded machine other work can hold it
/// for many seconds, during which no event could be delivered. A check that waited longer than
/// 100 ms to run counts as 100 ms, so a test that fails waits longer than `seconds` only when
/// the main actor was that busy.
@MainActor
public func eventually(
  within seconds: Double = 30, _ condition: @MainActor () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let budget = Duration.seconds(seconds)
  var waited = Duration.zero
  while !condition() {
    if waited > budget { return false }
    let start = clock.now
    try? await Task.sleep(for: .milliseconds(20))
    waited += min(clock.now - start, .milliseconds(100))
  }
  return true
}
