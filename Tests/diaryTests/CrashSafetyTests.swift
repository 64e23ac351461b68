import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// Crash safety: writers killed with SIGKILL at random moments lose no acknowledged write and
/// leave no torn file; the next writer clears what crashed writers left — their temporaries
/// and old lock files' conflict copies — and nothing else.
@Suite("Crash safety: killed writers, and what they leave", .serialized)
struct CrashSafetyTests {
  let folder = TemporaryFolder()
  var environment: [String: String] { DiaryProcess(folder: folder.url).environment }
  static let writer = BuildProducts.executable("stores-writer")

  /// The data files, read through the library: throws if any is torn or invalid.
  @MainActor
  func readAll() throws -> (todos: [String], workouts: [String], keys: Set<String>) {
    _ = try SettingsStore(contentsOf: folder.file("settings.json"))
    let todos = try TodosStore(contentsOf: folder.file("todos.json")).todos.map(\.title)
    let workouts = try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts.map(
      \.name)
    let keys = Set(try SettingsStore(contentsOf: folder.file("keys.json")).state.values.keys)
    return (todos, workouts, keys)
  }

  @Test("SIGKILL at random moments: every file parses, no acknowledged write is lost")
  @MainActor
  func crashes() throws {
    let kills = Int(ProcessInfo.processInfo.environment["STORES_CRASH_KILLS"] ?? "") ?? 200
    var random = SeededRandom(
      seed: UInt64(ProcessInfo.processInfo.environment["STORES_PROPERTY_SEED"] ?? "")
        ?? UInt64.random(in: 0...UInt64.max))
    let seed = random
    var acknowledged = (todos: Set<String>(), workouts: Set<String>(), keys: Set<String>())
    var acknowledgedCount = 0
    for round in 0..<kills {
      let choice = Int(random.next(below: 6))
      let tag = "r\(round)"
      let process: WriterProcess
      switch choice {
      case 0:
        process = try WriterProcess(
          DiaryProcess.binary, ["todos", "add", tag], environment: environment)
      case 1:
        process = try WriterProcess(
          DiaryProcess.binary, ["workouts", "add", tag, "--distance", "1"], environment: environment
        )
      case 2:
        process = try WriterProcess(
          DiaryProcess.binary, ["settings", "set", "sleepGoal", "\(round % 25)"],
          environment: environment)
      default:
        let kind = ["todos", "workouts", "keyvalue"][choice - 3]
        let file = kind == "keyvalue" ? "keys.json" : "\(kind).json"
        process = try WriterProcess(
          Self.writer, [kind, folder.file(file).path, "1000", tag], environment: environment)
      }
      usleep(UInt32(random.next(below: 40_000)))
      let (succeeded, acks) = process.kill()
      switch choice {
      case 0 where succeeded: acknowledged.todos.insert(tag)
      case 1 where succeeded: acknowledged.workouts.insert(tag)
      case 3: acknowledged.todos.formUnion(acks.map { "\(tag) \($0)" })
      case 4: acknowledged.workouts.formUnion(acks.map { "\(tag) \($0)" })
      case 5: acknowledged.keys.formUnion(acks.map { "\(tag)-\($0)" })
      default: break
      }
      acknowledgedCount += (succeeded && choice < 3 ? 1 : 0) + acks.count
      let found = try readAll()
      try #require(acknowledged.todos.isSubset(of: found.todos), "round \(round), seed \(seed)")
      try #require(acknowledged.workouts.isSubset(of: found.workouts), "round \(round)")
      try #require(acknowledged.keys.isSubset(of: found.keys), "round \(round)")
    }
    // The next writers are not stopped by anything the killed ones left, and clear it away.
    let diary = DiaryProcess(folder: folder.url)
    #expect(diary.run("todos", "add", "after the crashes").exitCode == 0)
    #expect(diary.run("workouts", "add", "after the crashes", "--distance", "1").exitCode == 0)
    // A value no round sets (they set whole hours), so that this is a change, which cleans up.
    #expect(diary.run("settings", "set", "sleepGoal", "7.5").exitCode == 0)
    let keys = try WriterProcess(
      Self.writer, ["keyvalue", folder.file("keys.json").path, "1", "after"],
      environment: environment)
    keys.process.waitUntilExit()
    #expect(keys.process.terminationStatus == 0)
    let found = try readAll()
    let leftovers = folder.names.filter { $0.hasSuffix(".tmp") }
    print(
      "crash test: \(kills) kills, \(acknowledgedCount) acknowledged writes, all found "
        + "(\(found.todos.count) todos, \(found.workouts.count) workouts, \(found.keys.count) keys); "
        + "\(leftovers.count) temporary files left")
    #expect(leftovers.isEmpty)
  }

  @Test("a store on 'todos' leaves diary's in-flight temporaries of 'todos.json' alone")
  @MainActor
  func temporariesOfAnotherFile() throws {
    let inFlight = folder.write("{}", to: ".todos.json.1x2y3z.tmp")
    let stale = folder.write("{}", to: ".todos.k9z.tmp")
    let notOurs = folder.write("{}", to: ".todos.has.dots.tmp")
    let store = try TodosStore(contentsOf: folder.file("todos"))
    try store.trySend(.addTodo(Todo(title: "x")))
    #expect(FileManager.default.fileExists(atPath: inFlight.path))
    #expect(FileManager.default.fileExists(atPath: notOurs.path))
    #expect(!FileManager.default.fileExists(atPath: stale.path), "a crashed writer's own is gone")
  }

  @Test(
    "a writer clears the litter of crashed writers and of old lock files' conflict copies, and nothing else"
  )
  @MainActor
  func litter() throws {
    let stale = folder.write("{}", to: ".syncthing.todos.json.0000000000k9z.tmp")
    let copies = [
      "todos.json.sync-conflict-20261201-135016-E7BDN4G.lock",
      "todos.json (Ann's conflicted copy 2026-12-01).lock",
      "todos.json (conflicted copy 2026-12-01 135016).lock",
    ]
    for (index, copy) in copies.enumerated() {
      _ = folder.write(index == 0 ? "" : "4242\n", to: copy)
    }
    // Syncthing's own in-flight files, of this file and of one named like it; a copy that
    // holds something else; a copy with another name (a hard link); a folder named like one.
    let kept = [
      ".syncthing.todos.json.tmp", ".syncthing.todos.json.bak.tmp",
      "todos.json.sync-conflict-20261201-135016-AAAAAAA.lock",
      "todos.json.sync-conflict-20261201-135016-BBBBBBB.lock",
    ]
    _ = folder.write("{}", to: kept[0])
    _ = folder.write("{}", to: kept[1])
    _ = folder.write("notes", to: kept[2])
    #expect(link(folder.write("1\n", to: "other").path, folder.file(kept[3]).path) == 0)
    let directory = folder.file("todos.json.sync-conflict-20261201-135016-CCCCCCC.lock")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    let store = try TodosStore(contentsOf: folder.file("todos.json"))
    try store.trySend(.addTodo(Todo(title: "x")))
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    for copy in copies {
      #expect(!FileManager.default.fileExists(atPath: folder.file(copy).path), "\(copy)")
    }
    for name in kept + [directory.lastPathComponent] {
      #expect(FileManager.default.fileExists(atPath: folder.file(name).path), "\(name)")
    }
  }
}
