import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// A writer process started in the background: `diary` or `stores-writer`.
final class WriterProcess {
  let process = Process()
  private let output = Pipe()
  private let errors = Pipe()
  /// What the process printed to standard error, once it ended (see ``kill()``).
  private(set) var errorOutput = ""

  /// Starts `binary` with `arguments`; with `line`, returns once it printed that line.
  init(
    _ binary: URL, _ arguments: [String], environment: [String: String],
    waitingFor line: String? = nil
  ) throws {
    process.executableURL = binary
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    guard let line else { return }
    var printed = ""
    while !printed.split(separator: "\n").contains(Substring(line)) {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw CancellationError() }
      printed += String(decoding: data, as: UTF8.self)
    }
  }

  /// Kills the process with SIGKILL if it still runs, waits for it, and returns whether it
  /// had finished successfully before (so its write was acknowledged) and the `ack` lines
  /// it printed.
  func kill() -> (succeeded: Bool, acknowledged: [Int]) {
    if process.isRunning { TestPlatform.send(SIGKILL, to: process.processIdentifier) }
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    errorOutput = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let succeeded = process.terminationReason == .exit && process.terminationStatus == 0
    let acks = printed.split(separator: "\n").compactMap { line in
      line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
    }
    return (succeeded, acks)
  }
}

/// The promises under force: SIGKILL at random moments loses no acknowledged write and never
/// leaves a torn file; writers at once lose nothing; a reader never sees half a change.
@MainActor
@Suite("Reliability: crashes and concurrency", .serialized)
struct ReliabilityTests {
  let folder = TemporaryFolder()
  var environment: [String: String] { DiaryProcess(folder: folder.url).environment }
  static let writer = BuildProducts.executable("stores-writer")

  /// The data files, read through the library: throws if any is torn or invalid.
  func readAll() throws -> (todos: [String], workouts: [String], keys: Set<String>) {
    _ = try SettingsStore(contentsOf: folder.file("settings.json"))
    let todos = try TodosStore(contentsOf: folder.file("todos.json")).todos.map(\.title)
    let workouts = try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts.map(
      \.name)
    let keys = Set(try SettingsStore(contentsOf: folder.file("keys.json")).state.values.keys)
    return (todos, workouts, keys)
  }

  @Test("SIGKILL at random moments: every file parses, no acknowledged write is lost")
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

  @Test(
    "4 processes × 50 actions on one file, for every store: the exact result",
    arguments: ["todos", "workouts", "keyvalue", "settings"])
  func concurrentWriters(kind: String) throws {
    let file = folder.file("\(kind).json")
    let writers = try (0..<4).map { writer in
      try WriterProcess(
        Self.writer, [kind, file.path, "50", "w\(writer)"], environment: environment)
    }
    var failures = 0
    for writer in writers {
      writer.process.waitUntilExit()
      if writer.process.terminationStatus != 0 { failures += 1 }
    }
    #expect(failures == 0)
    switch kind {
    case "todos":
      let titles = try TodosStore(contentsOf: file).todos.map(\.title)
      #expect(Set(titles) == Set((0..<4).flatMap { w in (0..<50).map { "w\(w) \($0)" } }))
      #expect(titles.count == 200)
    case "workouts":
      let names = try WorkoutsStore(contentsOf: file).state.workouts.map(\.name)
      #expect(Set(names).count == 200 && names.count == 200)
    case "keyvalue":
      let values = try SettingsStore(contentsOf: file).state.values
      #expect(values.count == 200)
      #expect(
        (0..<4).allSatisfy { w in
          (0..<50).allSatisfy { values["w\(w)-\($0)"] == .number(JSONNumber($0)) }
        })
    default:
      // Every writer ends by setting sleepGoal to 49 % 25.
      #expect(try SettingsStore(contentsOf: file).sleepGoal == 24)
    }
  }

  @Test("a reader listing while 4 writers add never sees a torn or half-applied list")
  func readerDuringWrites() throws {
    let file = folder.file("todos.json")
    let writers = try (0..<4).map { writer in
      try WriterProcess(
        Self.writer, ["todos", file.path, "50", "w\(writer)"], environment: environment)
    }
    var reads = 0
    var lastCount = 0
    let diary = DiaryProcess(folder: folder.url)
    while writers.contains(where: { $0.process.isRunning }) || reads == 0 {
      let result = diary.run("todos", "list", "--json")
      try #require(result.exitCode == 0, "\(result.errorOutput)")
      let titles = try #require(
        try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]
      ).compactMap { $0["title"] as? String }
      // Each writer adds its todos in order, each change whole: a consistent list holds, for
      // every writer, exactly its first k todos — and never fewer than the list before.
      for writer in 0..<4 {
        let own = titles.filter { $0.hasPrefix("w\(writer) ") }
        #expect(Set(own) == Set((0..<own.count).map { "w\(writer) \($0)" }), "read \(reads)")
      }
      #expect(titles.count >= lastCount)
      lastCount = titles.count
      reads += 1
    }
    for writer in writers { writer.process.waitUntilExit() }
    #expect(try TodosStore(contentsOf: file).todos.count == 200)
    print("reader: \(reads) consistent reads while 4 writers added 200 todos")
  }
}
