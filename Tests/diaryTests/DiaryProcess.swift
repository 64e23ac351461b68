import Foundation
import StoreTesting
import TestSupport
import Testing

/// Runs the built `diary` binary as a separate process, on a data folder of its own.
struct DiaryProcess {
  struct Result {
    var exitCode: Int32
    var output: String
    var errorOutput: String
  }

  /// The `diary` binary beside the test bundle (`swift build` puts every product there).
  static let binary = BuildProducts.executable("diary")

  /// The data folder the runs use.
  let folder: URL
  /// The environment of each run: a home of its own (`home` in the data folder), its local
  /// state folder in it (`STORES_STATE_HOME`: `home/state`, where the device id and the undo
  /// history are — the same for every run on the folder, as on one machine), UTC, no colour.
  var environment: [String: String]
  /// A command that runs `diary` (such as `setpriv … --`), or nothing.
  var launcher: [String] = []
  /// The folder each run starts in, or the tests' own.
  var currentDirectory: URL?

  init(folder: URL) {
    self.folder = folder
    environment = [
      "HOME": folder.appendingPathComponent("home").path, "TZ": "UTC", "NO_COLOR": "1",
      "PATH": "/usr/bin:/bin", "DIARY_HOME": folder.path,
      "STORES_STATE_HOME": folder.appendingPathComponent("home/state").path,
    ]
  }

  /// `diary` on `folder`, its tables as wide as they need (`COLUMNS=200`: not cut to 80).
  static func wide(on folder: URL) -> DiaryProcess {
    var diary = DiaryProcess(folder: folder)
    diary.environment["COLUMNS"] = "200"
    return diary
  }

  /// Runs `diary` with `arguments` and waits for it.
  @discardableResult
  func run(_ arguments: String...) -> Result {
    run(arguments)
  }

  /// Runs `diary` with `arguments` and waits for it; its standard output goes to
  /// `standardOutput` when one is given (the result's output is empty then); `input`, when
  /// given, is written to its standard input, a pipe; else `standardInput`, when given, is its
  /// standard input as the test set it up (a file at some offset, a pipe it writes to); else
  /// the null device.
  @discardableResult
  func run(
    _ arguments: [String], standardOutput: FileHandle? = nil, input: Data? = nil,
    standardInput: FileHandle? = nil
  ) -> Result {
    let process = Process()
    if let first = launcher.first {
      process.executableURL = URL(fileURLWithPath: first)
      process.arguments = Array(launcher.dropFirst()) + [Self.binary.path] + arguments
    } else {
      process.executableURL = Self.binary
      process.arguments = arguments
    }
    process.environment = environment
    process.currentDirectoryURL = currentDirectory
    let output = standardOutput == nil ? Pipe() : nil
    let errorOutput = Pipe()
    process.standardOutput = standardOutput.map { $0 as Any } ?? output
    process.standardError = errorOutput
    let inputPipe = input.map { _ in Pipe() }
    process.standardInput = inputPipe.map { $0 as Any } ?? standardInput ?? FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      Issue.record("cannot run \(Self.binary.path): \(error) — build the diary product first")
      return Result(exitCode: -1, output: "", errorOutput: "")
    }
    if let inputPipe, let input {
      let writing = inputPipe.fileHandleForWriting
      // Written while diary reads, so that more than a pipe holds gets through.
      Thread.detachNewThread {
        try? writing.write(contentsOf: input)
        try? writing.close()
      }
    }
    // Read both pipes before waiting, so that a large output cannot block the process.
    let outputData = output?.fileHandleForReading.readDataToEndOfFile() ?? Data()
    let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if process.terminationReason != .exit {
      Issue.record("diary \(arguments) was killed by signal \(process.terminationStatus)")
    }
    return Result(
      exitCode: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      errorOutput: String(decoding: errorData, as: UTF8.self))
  }
}

extension DiaryProcess {
  /// What a terminal shows when `diary` runs on one with `arguments` (where
  /// ``TestPlatform/hasScript``), which must end with `exitCode`.
  func runOnATerminal(_ arguments: [String], exitCode: Int32 = 0) throws -> String {
    let command = ([Self.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let process = Process()
    let terminal = TestPlatform.onATerminal(command)
    process.executableURL = URL(fileURLWithPath: terminal[0])
    process.arguments = Array(terminal.dropFirst())
    process.environment = environment.merging(["TERM": "xterm"]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == exitCode)
    return String(decoding: data, as: UTF8.self)
  }
}

/// The repository's `Fixtures` folder.
let fixturesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Fixtures")

/// A suite that runs `diary` on a temporary data folder of its own.
protocol DiaryFolderSuite {
  var folder: TemporaryFolder { get }
  var diary: DiaryProcess { get }
}

extension DiaryFolderSuite {
  /// Runs `arguments`, which must fail cleanly: exit `exitCode`, one short
  /// `diary: error: …` message that contains `message`, nothing on standard output, and every
  /// file in the folder byte for byte as it was (the machine's home, `home`, aside: the device
  /// id may be made there).
  func expectFailure(
    _ arguments: [String], exitCode: Int32, message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = folder.snapshot().filter { !$0.key.hasPrefix("home/") }
    let result = diary.run(arguments)
    #expect(
      result.exitCode == exitCode, "\(arguments): \(result.errorOutput)",
      sourceLocation: sourceLocation)
    #expect(
      result.errorOutput.hasPrefix("diary: error: ") && result.errorOutput.contains(message),
      "\(arguments): \(result.errorOutput)", sourceLocation: sourceLocation)
    #expect(
      result.errorOutput.utf8.count < 600, "\(result.errorOutput.prefix(200))",
      sourceLocation: sourceLocation)
    #expect(result.output.isEmpty, "\(arguments)", sourceLocation: sourceLocation)
    #expect(
      folder.snapshot().filter { !$0.key.hasPrefix("home/") } == before,
      "\(arguments) changed a file", sourceLocation: sourceLocation)
  }

  /// The width of each line of `text` in terminal columns (every character here is one).
  func widths(_ text: String) -> [Int] {
    text.split(separator: "\n").map(\.count)
  }

  /// Copies the fixture files named into the data folder.
  func install(_ fixtures: [String: String]) {
    for (name, fixture) in fixtures {
      folder.copy(fixturesFolder.appendingPathComponent(fixture), as: name)
    }
  }

  /// What `diary` printed with `--json`: any JSON value, a bare number or string too.
  func json(_ result: DiaryProcess.Result) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(result.output.utf8), options: [.fragmentsAllowed])
  }

  /// What `diary` printed with `--json`, which must be an object.
  func object(_ result: DiaryProcess.Result) throws -> [String: Any] {
    try #require(try json(result) as? [String: Any], "\(result.output)")
  }

  /// What `diary` printed with `--json`, which must be a list of objects.
  func list(_ result: DiaryProcess.Result) throws -> [[String: Any]] {
    try #require(try json(result) as? [[String: Any]], "\(result.output)")
  }
}
