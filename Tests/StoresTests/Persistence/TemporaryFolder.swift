import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh folder for one test, removed when the value is released.
final class TemporaryFolder: Sendable {
  let url: URL

  init() {
    let name = "stores-tests-\(UUID().uuidString)"
    url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    makeWritable(url)
    try? FileManager.default.removeItem(at: url)
  }

  /// The URL of `name` in the folder (not created).
  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// Writes `text` to `name` in the folder and returns its URL.
  @discardableResult
  func write(_ text: String, to name: String) -> URL {
    let file = file(name)
    try! FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try! Data(text.utf8).write(to: file)
    return file
  }

  /// The names in the folder, sorted.
  var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }
}

/// The bytes of the file at `url`, or `nil` when there is none.
func contents(_ url: URL) -> Data? {
  try? Data(contentsOf: url)
}

/// The text of the file at `url`, or `nil` when there is none.
func text(_ url: URL) -> String? {
  contents(url).map { String(decoding: $0, as: UTF8.self) }
}

/// The permission bits of the file at `url`.
func permissions(_ url: URL) -> Int {
  var info = stat()
  guard stat(url.path, &info) == 0 else { return -1 }
  return Int(info.st_mode & 0o7777)
}

/// Makes `folder` refuse new files even to root: `chmod 0500`, plus the immutable
/// attribute when running as root (who ignores permissions). Records an issue if the
/// folder cannot be made read-only on this machine.
func makeReadOnly(_ folder: URL, sourceLocation: SourceLocation = #_sourceLocation) {
  chmod(folder.path, 0o500)
  guard getuid() == 0 else { return }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["chattr", "+i", folder.path]
  try? process.run()
  process.waitUntilExit()
  let probe = folder.appendingPathComponent(".probe")
  if FileManager.default.createFile(atPath: probe.path, contents: nil) {
    try? FileManager.default.removeItem(at: probe)
    Issue.record("cannot make \(folder.path) read-only for root", sourceLocation: sourceLocation)
  }
}

/// Undoes ``makeReadOnly(_:)`` on `folder` and every folder in it.
func makeWritable(_ folder: URL) {
  if getuid() == 0 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["chattr", "-R", "-i", folder.path]
    process.standardError = FileHandle.nullDevice
    try? process.run()
    process.waitUntilExit()
  }
  let paths =
    [folder.path]
    + (FileManager.default.subpaths(atPath: folder.path) ?? [])
    .map { folder.appendingPathComponent($0).path }
  for path in paths { chmod(path, 0o700) }
}

/// Waits up to `seconds` for `condition`, letting the main actor run meanwhile.
@MainActor
func eventually(
  within seconds: Double = 5, _ condition: @MainActor () -> Bool
) async -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() > deadline { return false }
    try? await Task.sleep(for: .milliseconds(20))
  }
  return true
}

/// The repository's `Fixtures` folder.
let fixturesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Fixtures")

extension TemporaryFolder {
  /// Copies the fixture at `path` (relative to `Fixtures/`) into the folder as `name`.
  func copy(fixture path: String, as name: String? = nil) -> URL {
    let source = fixturesFolder.appendingPathComponent(path)
    let destination = file(name ?? source.lastPathComponent)
    try! FileManager.default.copyItem(at: source, to: destination)
    return destination
  }
}
