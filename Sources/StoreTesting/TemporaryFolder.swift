import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh, empty folder for one test, removed with everything in it when released: a
/// place for the files of file-backed stores.
///
/// ```swift
/// let folder = TemporaryFolder()
/// let store = try TodosStore(contentsOf: folder.file("todos.json"))
/// ```
public final class TemporaryFolder: Sendable {
  /// The folder.
  public let url: URL

  /// Creates the folder in the system's temporary directory.
  ///
  /// The first one made in a process also gives the process a local state folder of its own
  /// when it has none: it sets `STORES_STATE_HOME` (see ``testStateFolder``), so the stores
  /// the tests open, and the processes they start, never read or make the machine's device
  /// id or write to the user's Application Support or `~/.local/state`.
  public init() {
    _ = Self.isolatingState
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-tests-\(UUID().uuidString)", isDirectory: true)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The local state folder the tests of this process use when `STORES_STATE_HOME` was not
  /// set before the first ``TemporaryFolder``: `stores-tests-state` in the system's temporary
  /// directory (kept, a few bytes: one device id for all test runs of the user).
  public static let testStateFolder = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-tests-state", isDirectory: true)

  /// Sets `STORES_STATE_HOME` to ``testStateFolder`` unless it is set; once per process.
  private static let isolatingState: Void = {
    setenv("STORES_STATE_HOME", testStateFolder.path, 0)
  }()

  deinit {
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
      if getuid() == 0 { runQuietly("/usr/bin/env", ["chattr", "+i", folder.path]) }
    #endif
    let probe = folder.appendingPathComponent(".probe-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: probe.path, contents: nil) else { return true }
    try? FileManager.default.removeItem(at: probe)
    return false
  }

  /// Undoes ``makeReadOnly(_:)`` on `folder` and everything below it.
  public static func makeWritable(_ folder: URL) {
    #if os(Linux)
      if getuid() == 0 { runQuietly("/usr/bin/env", ["chattr", "-R", "-i", folder.path]) }
    #endif
    let paths =
      [folder.path]
      + (FileManager.default.subpaths(atPath: folder.path) ?? [])
      .map { folder.appendingPathComponent($0).path }
    for path in paths { chmod(path, 0o700) }
  }

  #if os(Linux)
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
