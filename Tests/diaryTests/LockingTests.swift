import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// Locking across processes, with real writers: a lock file deleted under running writers
/// lets no two of them in; a stopped holder makes the others fail after the timeout (75),
/// naming the lock and, where the system tells, the holder; timed-out waits leave one thread
/// and one descriptor; a wait that cannot start a thread says so; any timeout works.
@Suite("Locking across processes: one writer at a time, waits that end", .serialized)
struct LockingTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }
  static let writer = BuildProducts.executable("stores-writer")

  @Test("a lock file deleted while writers run never lets two of them in at once")
  @MainActor
  func deletedLockFile() throws {
    let file = folder.file("todos.json")
    let writers = try (0..<4).map { index in
      try WriterProcess(
        Self.writer, ["todos", file.path, "100", "w\(index)"], environment: diary.environment)
    }
    var deletions = 0
    while writers.contains(where: { $0.process.isRunning }) {
      if unlink(file.path + ".lock") == 0 { deletions += 1 }
      usleep(200)
    }
    for writer in writers { _ = writer.kill() }
    #expect(
      writers.allSatisfy { $0.process.terminationStatus == 0 },
      "\(writers.map(\.errorOutput).joined())")
    let titles = try TodosStore(contentsOf: file).todos.map(\.title)
    #expect(titles.count == 400, "lost \(400 - titles.count) acknowledged adds")
    #expect(deletions > 0, "the lock file was deleted under the writers")
  }

  @Test("a stopped lock holder makes writers fail after the timeout (75), naming it")
  @MainActor
  func stoppedHolder() throws {
    let file = folder.file("todos.json")
    let holder = try WriterProcess(
      Self.writer, ["hold", file.path, "60", "held"], environment: diary.environment,
      waitingFor: "locked")
    kill(holder.process.processIdentifier, SIGSTOP)
    defer {
      kill(holder.process.processIdentifier, SIGCONT)
      _ = holder.kill()
    }
    let before = folder.snapshot()
    let started = ContinuousClock.now
    let result = try runWithin(seconds: 30, ["todos", "add", "x"])
    #expect(ContinuousClock.now - started < .seconds(20))
    #expect(result.exitCode == 75, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("\(file.path).lock"))
    #expect(result.errorOutput.contains("try again"))
    #expect(folder.snapshot() == before, "nothing changed")

    let store = try TodosStore(contentsOf: file, lockTimeout: .milliseconds(200))
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.addTodo(Todo(title: "y")))
    }
    guard case .lockTimedOut(let lock, _, _) = error?.problem else {
      Issue.record("expected a lock timeout, got \(String(describing: error))")
      return
    }
    #expect(lock == file.path + ".lock")
    #expect(store.todos.map(\.title) == ["held first"], "the write it saw, not its own")

    // The abandoned waits let go of the lock they get once the holder is gone.
    kill(holder.process.processIdentifier, SIGCONT)
    _ = holder.kill()
    try store.trySend(.addTodo(Todo(title: "y")))
    #expect(store.todos.map(\.title) == ["y", "held first"])
    #expect(try runWithin(seconds: 30, ["todos", "add", "z"]).exitCode == 0)
  }

  @Test(
    "a lock that timed out names the process holding it",
    .enabled(
      if: TestPlatform.namesLockHolders,
      "only Linux tells who holds a flock (/proc/locks); Apple platforms have no public table"))
  @MainActor
  func holderNamed() throws {
    let file = folder.file("todos.json")
    let holder = try WriterProcess(
      Self.writer, ["hold", file.path, "60", "held"], environment: diary.environment,
      waitingFor: "locked")
    kill(holder.process.processIdentifier, SIGSTOP)
    defer {
      kill(holder.process.processIdentifier, SIGCONT)
      _ = holder.kill()
    }
    let result = try runWithin(seconds: 30, ["todos", "add", "x"])
    #expect(result.exitCode == 75, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("process \(holder.process.processIdentifier)"))
    let store = try TodosStore(contentsOf: file, lockTimeout: .milliseconds(200))
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.addTodo(Todo(title: "y")))
    }
    guard case .lockTimedOut(_, let pid, _) = error?.problem else {
      Issue.record("expected a lock timeout, got \(String(describing: error))")
      return
    }
    #expect(pid == holder.process.processIdentifier)
  }

  // MARK: Waits

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
}
