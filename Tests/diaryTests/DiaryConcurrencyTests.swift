import Foundation
import StoreTesting
import Stores
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

  @Test("a running SettingsStore notices a diary settings set from another process")
  @MainActor
  func watchSeesTheCommandLine() async throws {
    let settings = try SettingsStore(contentsOf: folder.file("settings.json"))
    try settings.watch()
    var seen: [Double] = []
    let token = settings.onChange(of: \.sleepGoal) { seen.append($0) }
    #expect(
      DiaryProcess(folder: folder.url).run("settings", "set", "sleepGoal", "6.5").exitCode == 0)
    #expect(await eventually { settings.sleepGoal == 6.5 })
    #expect(seen == [6.5])
    token.cancel()
  }
}

/// A counter that concurrent writers can bump.
final class FailureCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }
  func add() { lock.withLock { count += 1 } }
}
