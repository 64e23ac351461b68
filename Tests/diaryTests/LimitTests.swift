import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// The process's limits — the file size limit (`ulimit -f`), the process limit (`ulimit -u`)
/// — and lock waits on a stopped holder: each ends in a clear error, never a killed process,
/// a file left behind, or threads and descriptors piling up.
@Suite("Reliability: limits and waits", .serialized)
struct LimitTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }
  static let writer = BuildProducts.executable("stores-writer")

  /// Runs `binary` with `arguments` through `bash -c "SETUP; exec …"` (after `launcher`), and returns its exit
  /// status (a signal that killed it as 128 + the signal) and its standard error.
  func run(
    _ binary: URL, _ arguments: [String], after setup: String, output: String = "/dev/null",
    as launcher: [String] = []
  ) throws -> (status: Int32, errorOutput: String) {
    let process = Process()
    let shell = ["/bin/bash", "-c", "\(setup); exec \"$0\" \"$@\" > '\(output)'", binary.path]
    process.executableURL = URL(fileURLWithPath: (launcher + shell)[0])
    process.arguments = Array((launcher + shell).dropFirst()) + arguments
    process.environment = diary.environment
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorOutput = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let status =
      process.terminationStatus + (process.terminationReason == .uncaughtSignal ? 128 : 0)
    return (status, errorOutput)
  }

  @Test("a file size limit fails diary's write with 74, not SIGXFSZ, and leaves nothing")
  func fileSizeLimitInDiary() throws {
    let original = todosFile(count: 20_000)
    let url = folder.write(original, to: "todos.json")
    let result = try run(DiaryProcess.binary, ["todos", "add", "x"], after: "ulimit -f 2048")
    #expect(result.status == 74, "\(result.errorOutput)")
    #expect(result.errorOutput == "diary: error: cannot write \(url.path): File too large\n")
    #expect(try String(contentsOf: url, encoding: .utf8) == original)
    // Beside the data, at most the machine's home (its local state: the device id).
    #expect(
      folder.names.filter { $0 != "home" } == ["todos.json", "todos.json.lock"],
      "no temporary file is left")
  }

  @Test("a file size limit fails an export to a file with 74, not SIGXFSZ")
  func fileSizeLimitOnOutput() throws {
    let workouts = (0..<20_000).map { index in
      #"{"complexity": "low", "date": "2026-11-29T07:30:00Z", "distance": 5, "#
        + #""id": "\#(String(format: "00000000-0000-4000-8000-%012X", index))", "#
        + #""name": "run \#(index)"}"#
    }
    folder.write(
      #"{"version": 1, "workouts": ["# + workouts.joined(separator: ",") + "]}",
      to: "workouts.json")
    let export = folder.file("export.csv").path
    let result = try run(
      DiaryProcess.binary, ["workouts", "export"], after: "ulimit -f 64", output: export)
    #expect(result.status == 74, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("File too large"), "\(result.errorOutput)")
  }

  @Test("a file size limit fails the library's write with an error, and leaves nothing")
  func fileSizeLimitInTheLibrary() throws {
    let url = folder.write(todosFile(count: 20_000), to: "todos.json")
    let result = try run(Self.writer, ["todos", url.path, "1", "x"], after: "ulimit -f 2048")
    #expect(result.status == 74, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("File too large"), "\(result.errorOutput)")
    // Beside the data, at most the machine's home (its local state: the device id).
    #expect(
      folder.names.filter { $0 != "home" } == ["todos.json", "todos.json.lock"],
      "no temporary file is left")
  }

  // MARK: Lock waits

  /// A `stores-writer hold` process holding the lock of `file`, stopped.
  func stoppedHolder(of file: URL) throws -> WriterProcess {
    let holder = try WriterProcess(
      Self.writer, ["hold", file.path, "60", "held"], environment: diary.environment,
      waitingFor: "locked")
    kill(holder.process.processIdentifier, SIGSTOP)
    return holder
  }

  /// The outcomes `stores-writer attempts` printed, and its threads and descriptors before
  /// and after them.
  func attempts(_ output: URL) throws -> (outcomes: [String], before: [Int], after: [Int]) {
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
    let resources = lines.filter { $0.hasPrefix("threads ") }.map { line in
      line.split(separator: " ").compactMap { Int($0) }
    }
    try #require(resources.count == 2, "\(lines)")
    return (lines.filter { !$0.hasPrefix("threads ") }.map(String.init), resources[0], resources[1])
  }

  @Test(
    "200 timed-out waits on a stopped holder leave one waiting thread and one descriptor",
    .enabled(if: TestPlatform.hasProcessFiles, "counts threads and descriptors in /proc"))
  func waitsOnAStoppedHolder() throws {
    let file = folder.file("todos.json")
    let holder = try stoppedHolder(of: file)
    defer {
      kill(holder.process.processIdentifier, SIGCONT)
      _ = holder.kill()
    }
    let output = folder.file("attempts.txt")
    let result = try run(
      Self.writer, ["attempts", file.path, "200", "x"], after: "true", output: output.path)
    #expect(result.status == 0, "\(result.errorOutput)")
    let (outcomes, before, after) = try attempts(output)
    #expect(outcomes == Array(repeating: "timed out", count: 200))
    #expect(after[0] <= before[0] + 1, "threads: \(before[0]) before, \(after[0]) after")
    #expect(after[1] <= before[1] + 1, "descriptors: \(before[1]) before, \(after[1]) after")
  }

  @Test(
    "a wait that cannot start a thread (ulimit -u) says so, and a free lock is taken all the same",
    .enabled(
      if: TestPlatform.canRunAsAnotherUser && TestPlatform.hasProcessFiles,
      "runs as another user with setpriv, as root; counts descriptors in /proc"))
  func noThreadForTheWait() throws {
    let data = folder.file("user")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    #expect(chown(data.path, 54_321, 54_321) == 0)
    let file = data.appendingPathComponent("todos.json")
    let output = data.appendingPathComponent("attempts.txt")
    let user = TestPlatform.asUser(54321)
    let holder = try stoppedHolder(of: file)
    let held = try run(
      Self.writer, ["attempts", file.path, "50", "x"], after: "ulimit -u 1", output: output.path,
      as: user)
    #expect(held.status == 0, "\(held.errorOutput)")
    let (outcomes, before, after) = try attempts(output)
    #expect(outcomes.count == 50)
    #expect(
      outcomes.allSatisfy { $0.hasPrefix("cannot wait: ") && $0.contains("ulimit -u") },
      "\(outcomes.first ?? "")")
    #expect(after[1] == before[1], "descriptors: \(before[1]) before, \(after[1]) after")
    kill(holder.process.processIdentifier, SIGCONT)
    _ = holder.kill()
    let free = try run(
      Self.writer, ["attempts", file.path, "3", "x"], after: "ulimit -u 1", output: output.path,
      as: user)
    #expect(free.status == 0, "\(free.errorOutput)")
    #expect(try attempts(output).outcomes == ["added", "added", "added"])
  }

  @Test("a lock timeout of 10^10 s waits without a trap; half a second is said as 0.5 s")
  @MainActor
  func longAndShortTimeouts() throws {
    let file = folder.file("todos.json")
    let holder = try WriterProcess(
      Self.writer, ["hold", file.path, "1", "held"], environment: diary.environment,
      waitingFor: "locked")
    defer { _ = holder.kill() }
    let store = try TodosStore(contentsOf: file, lockTimeout: .seconds(10_000_000_000))
    try store.trySend(.addTodo(Todo(title: "after the holder")))
    #expect(store.todos.map(\.title) == ["after the holder", "held", "held first"])
    let error = StoreFileError(
      path: file.path,
      problem: .lockTimedOut(lock: file.path + ".lock", holder: nil, waited: .milliseconds(500)))
    #expect(error.description.contains("for more than 0.5 s"), "\(error)")
  }

  // MARK: Watches

  @Test(
    "200 watching stores share one inotify instance; 60 renames of their folder leave one watch",
    .enabled(if: TestPlatform.hasProcessFiles, "counts inotify watches in /proc (Linux)"))
  func watchesAreSharedAndRemoved() throws {
    let data = folder.file("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let output = folder.file("inotify.txt")
    let result = try run(
      Self.writer, ["watch", data.path, "60", "200"], after: "true", output: output.path)
    #expect(result.status == 0, "\(result.errorOutput)")
    let printed = try String(contentsOf: output, encoding: .utf8)
    #expect(printed == "inotify 1 watches 1\n")
  }
}
