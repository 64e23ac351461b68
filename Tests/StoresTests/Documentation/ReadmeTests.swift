import Foundation
import StoreTesting
import TestSupport
import Testing

/// The documentation is code: every ```swift block of the README and of the DocC articles
/// compiles as written, alone in a file with its own
/// imports — a block with `@Test` as a file of a test target, a `Package.swift` block as a
/// manifest — against the modules `swift test` has just built.
@Suite("README")
struct ReadmeTests {
  /// The repository's root folder.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The documentation: the README and the articles of every DocC catalog, by their path in
  /// the repository.
  static func documents() throws -> [String] {
    let sources = root.appendingPathComponent("Sources")
    let articles = (FileManager.default.subpaths(atPath: sources.path) ?? [])
      .filter { $0.contains(".docc/") && $0.hasSuffix(".md") }.map { "Sources/\($0)" }
    return ["README.md"] + articles.sorted()
  }

  /// The ```swift blocks of the documentation, each with the place it starts at
  /// (`README.md:12`).
  static func swiftBlocks() throws -> [(line: String, code: String)] {
    try documents().flatMap { document in
      try swiftBlocks(of: document).map { ("\(document):\($0.line)", $0.code) }
    }
  }

  /// The ```swift blocks of `document`, with the line each starts on.
  static func swiftBlocks(of document: String) throws -> [(line: Int, code: String)] {
    let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    var blocks: [(line: Int, code: String)] = []
    var current: (line: Int, lines: [String])?
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if var block = current {
        if line.hasPrefix("```") {
          blocks.append((block.line, block.lines.joined(separator: "\n") + "\n"))
          current = nil
        } else {
          block.lines.append(String(line))
          current = block
        }
      } else if line == "```swift" {
        current = (number + 2, [])
      }
    }
    return blocks
  }

  @Test("every swift block compiles as written")
  func blocksCompile() throws {
    let blocks = try Self.swiftBlocks()
    try #require(blocks.count >= 10, "the documentation has its examples")
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: blocks.count) { index in
      let (line, code) = blocks[index]
      let isManifest = code.contains("import PackageDescription")
      let file = folder.appendingPathComponent(
        isManifest ? "Package-\(index).swift" : "block\(index).swift")
      do {
        try code.write(to: file, atomically: true, encoding: .utf8)
        let arguments =
          isManifest
          ? [
            "-I", Self.toolchainLibrary.appendingPathComponent("pm/ManifestAPI").path,
            "-package-description-version", "6.0",
          ]
          : ["-I", Self.modules.path] + (code.contains("@Test") ? ["-parse-as-library"] : [])
        let (status, output) = try Self.swiftc(
          ["-typecheck", "-swift-version", "6", "-module-cache-path", folder.path]
            + Self.toolchain.flags + arguments + [file.path])
        if status != 0 { failures.add("\(line): the block does not compile:\n\(output)") }
      } catch {
        failures.add("\(line): \(error)")
      }
    }
    for failure in failures.all { Issue.record(Comment(rawValue: failure)) }
  }

  /// The modules of this build (`.build/debug/Modules`), beside the test bundle.
  static var modules: URL {
    BuildProducts.folder.appendingPathComponent("Modules")
  }

  /// The toolchain's `lib/swift` folder, beside the `swiftc` that runs (a link to the
  /// driver, which works out its mode from the name it is run by).
  static var toolchainLibrary: URL {
    toolchain.swiftc.resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("lib/swift")
  }

  /// The `swiftc` that compiles the blocks, and the flags it needs to find the SDK and Swift
  /// Testing: on macOS Xcode's (or the selected toolchain's), found with `xcrun`, with the
  /// macOS SDK, the platform's developer frameworks, where Swift Testing is, and the
  /// toolchain's Swift Testing macros (which `swiftc` does not look for by itself there);
  /// elsewhere the `swiftc` on the `PATH`, which finds all of them by itself.
  static let toolchain: (swiftc: URL, flags: [String]) = {
    #if os(macOS)
      let platform = xcrun(["--sdk", "macosx", "--show-sdk-platform-path"])
      let swiftc = URL(fileURLWithPath: xcrun(["--sdk", "macosx", "--find", "swiftc"]))
      let macros = swiftc.resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("lib/swift/host/plugins/testing")
      return (
        swiftc,
        [
          "-sdk", xcrun(["--sdk", "macosx", "--show-sdk-path"]),
          "-F", platform + "/Developer/Library/Frameworks",
          "-I", platform + "/Developer/usr/lib",
        ]
          + (FileManager.default.fileExists(atPath: macros.path)
            ? ["-plugin-path", macros.path] : [])
      )
    #else
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
      for folder in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
        if FileManager.default.isExecutableFile(atPath: candidate.path) {
          return (candidate, [])
        }
      }
      return (URL(fileURLWithPath: "/usr/bin/swiftc"), [])
    #endif
  }()

  /// What `xcrun ARGUMENTS` prints, without its last newline ("" when it fails).
  static func xcrun(_ arguments: [String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return "" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs `swiftc` with `arguments`; its exit status and everything it printed.
  static func swiftc(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = toolchain.swiftc
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

/// Messages collected from concurrent work.
private final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [String] = []

  var all: [String] { lock.withLock { messages } }
  func add(_ message: String) { lock.withLock { messages.append(message) } }
}
