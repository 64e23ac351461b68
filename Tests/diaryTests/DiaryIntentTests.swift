import Foundation
import StoreTesting
import Stores
import Testing

/// A number typed to `diary` names the item `list` showed, even when another process changes
/// the list before the command takes the lock: the test holds the lock while the commands
/// read the file, so every run is the race.
@MainActor
@Suite(
  "diary numbers keep their meaning under races", .serialized,
  .enabled(if: TestPlatform.hasProcessFiles, "tells when diary reached the lock from /proc"))
struct DiaryIntentTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("workouts remove N racing workouts add removes the workout that was N", arguments: 0..<10)
  func removeRacingAdd(round: Int) throws {
    #expect(diary.run("workouts", "sort", "distance").exitCode == 0)
    for (name, distance) in [("A", "5"), ("B", "10"), ("C", "3")] {
      #expect(diary.run("workouts", "add", name, "--distance", distance).exitCode == 0)
    }
    // Shown: B (10), A (5), C (3); number 2 is A.
    let results = try racing(
      on: "workouts.json", ["workouts", "remove", "2"],
      ["workouts", "add", "Marathon", "--distance", "42.195"])
    #expect(results.map(\.exitCode) == [0, 0], "\(results.map(\.errorOutput))")
    #expect(names() == ["Marathon", "B", "C"])
  }

  @Test("two remove 1 at once on A B C: one removes A, the other says A is gone")
  func twoRemovesOfOne() throws {
    for name in ["A", "B", "C"] {
      #expect(diary.run("workouts", "add", name, "--distance", "1").exitCode == 0)
    }
    let results = try racing(
      on: "workouts.json", ["workouts", "remove", "1"], ["workouts", "remove", "1"])
    #expect(results.map(\.exitCode).sorted() == [0, 65])
    let refused = try #require(results.first { $0.exitCode == 65 })
    #expect(
      refused.errorOutput
        == "diary: error: workout 1 was removed by another process meanwhile; nothing changed — "
        + "see 'diary workouts list' for the numbers now\n")
    #expect(names() == ["B", "C"])
  }

  @Test("todos done, remove and move racing todos add act on the todos that were shown")
  func todosRacingAdd() throws {
    for title in ["z", "y", "x"] { #expect(diary.run("todos", "add", title).exitCode == 0) }
    // Shown: x, y, z. Each command races an add that puts a new todo at the top.
    var results = try racing(on: "todos.json", ["todos", "done", "1"], ["todos", "add", "w"])
    #expect(results.map(\.exitCode) == [0, 0])
    #expect(todos() == ["w", "x*", "y", "z"])
    results = try racing(
      on: "todos.json", ["todos", "move", "4", "--to", "1"], ["todos", "add", "v"])
    #expect(results.map(\.exitCode) == [0, 0])
    #expect(Set(todos().prefix(2)) == ["v", "z"], "z moved to the top of the list it was in")
    #expect(Array(todos().dropFirst(2)) == ["w", "x*", "y"])
    results = try racing(on: "todos.json", ["todos", "remove", "3"], ["todos", "add", "u"])
    #expect(results.map(\.exitCode) == [0, 0])
    #expect(!todos().contains("w") && todos().contains("x*") && todos().contains("u"))
  }

  /// Runs `first` and `second` at once while holding the lock of `file`, so that both read
  /// the data before either can write; returns their results in the order given.
  func racing(on file: String, _ first: [String], _ second: [String]) throws
    -> [DiaryProcess.Result]
  {
    let lock = try HeldLock(folder.file(file + ".lock").path)
    let processes = try [first, second].map { arguments in
      let process = try BackgroundDiary(arguments, environment: diary.environment)
      try process.waitUntilItOpens(lock.path)
      return process
    }
    lock.release()
    return processes.map { $0.wait() }
  }

  func names() -> [String] {
    let workouts = try? WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
    return workouts?.map(\.name) ?? []
  }

  /// The titles in order, done ones marked with `*`.
  func todos() -> [String] {
    let todos = try? TodosStore(contentsOf: folder.file("todos.json")).todos
    return todos?.map { $0.title + ($0.isDone ? "*" : "") } ?? []
  }
}

/// An exclusive `flock` on a lock file, as a writer holds it.
final class HeldLock {
  let path: String
  private let descriptor: Int32

  init(_ path: String) throws {
    self.path = path
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
  }

  func release() {
    flock(descriptor, LOCK_UN)
  }

  deinit {
    close(descriptor)
  }
}

/// `diary` running in the background.
final class BackgroundDiary {
  private let process = Process()
  private let output = Pipe()
  private let errorOutput = Pipe()

  init(_ arguments: [String], environment: [String: String]) throws {
    process.executableURL = DiaryProcess.binary
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = output
    process.standardError = errorOutput
    try process.run()
  }

  /// Waits until the process has the file at `path` open (it reached the lock), up to 10 s.
  func waitUntilItOpens(_ path: String) throws {
    for _ in 0..<2_000 {
      if TestPlatform.openFiles(of: process.processIdentifier)?.contains(path) == true { return }
      guard process.isRunning else { break }
      usleep(5_000)
    }
    throw CancellationError()
  }

  var isRunning: Bool { process.isRunning }

  func kill() {
    TestPlatform.send(SIGKILL, to: process.processIdentifier)
  }

  func wait() -> DiaryProcess.Result {
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errorOutput.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return DiaryProcess.Result(
      exitCode: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      errorOutput: String(decoding: errorData, as: UTF8.self))
  }
}
