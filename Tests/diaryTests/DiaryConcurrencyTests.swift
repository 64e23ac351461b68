import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// `diary` processes running at once never lose each other's changes.
@Suite("diary concurrency, end to end")
struct DiaryConcurrencyTests {
  let folder = TemporaryFolder()

  @Test("4 processes × 50 todos add at once give exactly 200 todos")
  func concurrentAdds() throws {
    let diary = DiaryProcess(folder: folder.url)
    let failures = FailureCount()
    DispatchQueue.concurrentPerform(iterations: 4) { writer in
      for index in 0..<50
      where diary.run("todos", "add", "writer \(writer) todo \(index)").exitCode != 0 {
        failures.add()
      }
    }
    #expect(failures.value == 0)
    let data = try Data(contentsOf: folder.file("todos.json"))
    let titles = try #require(
      (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["todos"] as? [[String: Any]]
    ).compactMap { $0["title"] as? String }
    #expect(titles.count == 200)
    #expect(Set(titles).count == 200)
    for writer in 0..<4 {
      let own = titles.filter { $0.hasPrefix("writer \(writer) ") }
      #expect(
        own == (0..<50).reversed().map { "writer \(writer) todo \($0)" },
        "each writer's todos in order")
    }
  }

  @Test("two processes setting different settings keep both")
  func concurrentSettings() throws {
    let diary = DiaryProcess(folder: folder.url)
    let failures = FailureCount()
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      for index in 0..<25 {
        let arguments =
          writer == 0
          ? ["settings", "set", "sleepGoal", "\(Double(index) / 4)"]
          : ["settings", "set", "isNotificationsEnabled", index % 2 == 0 ? "on" : "off"]
        if diary.run(arguments).exitCode != 0 { failures.add() }
      }
    }
    #expect(failures.value == 0)
    #expect(diary.run("settings", "get", "sleepGoal").output == "6\n")
    #expect(diary.run("settings", "get", "isNotificationsEnabled").output == "true\n")
  }
}

/// Writer processes on the library at once, for every store: 4 × 50 actions on one file give
/// the exact result, and a reader listing meanwhile never sees a torn or half-applied list.
@Suite("Concurrency: writer processes on one file, for every store", .serialized)
struct ConcurrentWriterTests {
  let folder = TemporaryFolder()
  var environment: [String: String] { DiaryProcess(folder: folder.url).environment }
  static let writer = BuildProducts.executable("stores-writer")

  @Test(
    "4 processes × 50 actions on one file, for every store: the exact result",
    arguments: ["todos", "workouts", "keyvalue", "settings"])
  @MainActor
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
  @MainActor
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

/// A counter that concurrent writers can bump.
final class FailureCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }
  func add() { lock.withLock { count += 1 } }
}
