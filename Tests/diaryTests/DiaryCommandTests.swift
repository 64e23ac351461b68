import Foundation
import StoreTesting
import Stores
import Testing

/// Every command and option of the built `diary` binary, run as a process on copies of the
/// fixtures.
@Suite("diary commands, end to end")
struct DiaryCommandTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// Copies the fixture files named into the data folder.
  func install(_ fixtures: [String: String]) {
    for (name, fixture) in fixtures {
      folder.copy(fixturesFolder.appendingPathComponent(fixture), as: name)
    }
  }

  func json(_ result: DiaryProcess.Result) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(result.output.utf8), options: [.fragmentsAllowed])
  }

  @Test("a fresh machine: reading commands work and create nothing")
  func firstRun() {
    for line in [
      ["settings", "list"], ["todos", "list"], ["workouts", "list"], ["workouts", "stats"],
      ["settings", "get", "sleepGoal"], ["settings", "path"],
    ] {
      let result = diary.run(line)
      #expect(result.exitCode == 0, "\(line): \(result.errorOutput)")
    }
    #expect(folder.names.isEmpty)
    #expect(
      diary.run("todos", "list").output
        == "No todos yet. Add one with: diary todos add \"Buy milk\"\n")
  }

  @Test("settings: list, get, set, reset and path, for people and as JSON")
  func settings() throws {
    #expect(diary.run("settings", "get", "sleepGoal").output == "8\n")
    #expect(diary.run("settings", "set", "sleepGoal", "7.5").output == "sleepGoal = 7.5\n")
    #expect(diary.run("settings", "set", "isNotificationsEnabled", "off").exitCode == 0)
    #expect(diary.run("settings", "set", "distanceUnit", "Miles").exitCode == 0)
    #expect(diary.run("settings", "get", "sleepGoal").output == "7.5\n")

    let list = diary.run("settings", "list").output
    #expect(list.contains("sleepGoal               7.5 *    8  "))
    #expect(list.contains("distanceUnit            miles *"))

    let entries = try #require(
      try json(diary.run("settings", "list", "--json")) as? [[String: Any]])
    #expect(
      entries.map { $0["key"] as? String } == [
        "sleepGoal", "isNotificationsEnabled", "distanceUnit",
      ])
    #expect(entries[0]["value"] as? Double == 7.5)
    #expect(entries[0]["default"] as? Double == 8)
    #expect(entries[0]["isDefault"] as? Bool == false)
    #expect(entries[1]["value"] as? Bool == false)
    #expect(entries[2]["allowedValues"] as? [String] == ["kilometers", "miles"])

    let one = try #require(
      try json(diary.run("settings", "get", "distanceUnit", "--json")) as? [String: Any])
    #expect(one["value"] as? String == "miles")

    #expect(diary.run("settings", "reset", "sleepGoal").output == "sleepGoal = 8 (default)\n")
    #expect(diary.run("settings", "get", "distanceUnit").output == "miles\n")
    #expect(diary.run("settings", "reset").exitCode == 0)
    #expect(diary.run("settings", "get", "distanceUnit").output == "kilometers\n")
    let file = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("settings.json")))
        as? [String: Any])
    #expect((file["values"] as? [String: Any])?.isEmpty == true, "reset removes every value")

    let paths = try #require(try json(diary.run("settings", "path", "--json")) as? [String: String])
    #expect(paths["todos"] == folder.file("todos.json").path)
    #expect(diary.run("settings", "path").output.contains(folder.file("workouts.json").path))
  }

  @Test("todos: add, list and its filters, numbers of the full list")
  func todosListAndFilters() throws {
    install(["todos.json": "todos/sample.json"])
    let list = diary.run("todos", "list").output
    #expect(
      list == """
        #  DONE  PRIORITY  DATE         TITLE
        1  [ ]          2  29 Nov 2026  Buy milk
        2  [x]          1  28 Nov 2026  Call the plumber
        3  [ ]          3  1 Dec 2026   Renew passport
        4  [ ]          0  27 Nov 2026  Café with Zoë

        """)
    #expect(numbers(diary.run("todos", "list", "--active", "--json")) == [1, 3, 4])
    #expect(numbers(diary.run("todos", "list", "--completed", "--json")) == [2])
    #expect(numbers(diary.run("todos", "list", "--search", "CAFE", "--json")) == [4])
    #expect(numbers(diary.run("todos", "list", "--min-priority=2", "--json")) == [1, 3])
    #expect(
      numbers(
        diary.run("todos", "list", "--active", "--min-priority", "1", "--search", "a", "--json"))
        == [3])
    #expect(diary.run("todos", "list", "--search", "nothing").output.hasPrefix("No todos match"))
    #expect(
      diary.run("todos", "list", "--active").output.contains(
        "3  [ ]          3  1 Dec 2026   Renew passport"))

    let added = try #require(
      try json(
        diary.run("todos", "add", "Pay rent", "--priority", "5", "--date", "2026-12-03", "--json"))
        as? [String: Any])
    #expect(added["number"] as? Int == 1)
    #expect(added["title"] as? String == "Pay rent")
    #expect(added["priority"] as? Int == 5)
    #expect(added["date"] as? String == "2026-12-03T00:00:00Z")
    #expect(added["isDone"] as? Bool == false)
    #expect(diary.run("todos", "add", "Stretch").output == "Added todo 1: Stretch\n")
    #expect(titles(diary.run("todos", "list", "--json")).prefix(2) == ["Stretch", "Pay rent"])
  }

  @Test("todos: done, undone, remove, move, order and remove-completed")
  func todosChanges() throws {
    install(["todos.json": "todos/sample.json"])
    #expect(diary.run("todos", "done", "1", "3").output == "Marked 2 todos done.\n")
    #expect(done(diary.run("todos", "list", "--json")) == [true, true, true, false])
    #expect(diary.run("todos", "undone", "2").exitCode == 0)
    #expect(done(diary.run("todos", "list", "--json")) == [true, false, true, false])

    #expect(diary.run("todos", "move", "4", "--to", "1").exitCode == 0)
    #expect(
      titles(diary.run("todos", "list", "--json")) == [
        "Café with Zoë", "Buy milk", "Call the plumber", "Renew passport",
      ])
    #expect(diary.run("todos", "move", "1", "2", "--to=3").exitCode == 0)
    #expect(
      titles(diary.run("todos", "list", "--json")) == [
        "Call the plumber", "Renew passport", "Café with Zoë", "Buy milk",
      ])

    #expect(diary.run("todos", "order", "priority").output == "Ordered by priority.\n")
    #expect(
      titles(diary.run("todos", "list", "--json")) == [
        "Renew passport", "Buy milk", "Call the plumber", "Café with Zoë",
      ])
    #expect(diary.run("todos", "order", "date").exitCode == 0)
    #expect(
      titles(diary.run("todos", "list", "--json")) == [
        "Café with Zoë", "Call the plumber", "Buy milk", "Renew passport",
      ])

    #expect(diary.run("todos", "remove-completed").output == "Removed 2 completed todos.\n")
    #expect(titles(diary.run("todos", "list", "--json")) == ["Café with Zoë", "Call the plumber"])
    #expect(diary.run("todos", "remove-completed").output == "No completed todos to remove.\n")
    let afterRemove = try #require(
      try json(diary.run("todos", "remove", "2", "--json")) as? [[String: Any]])
    #expect(afterRemove.map { $0["title"] as? String } == ["Café with Zoë"])
    #expect(diary.run("todos", "remove", "1").output == "Removed 1 todo.\n")
    #expect(diary.run("todos", "list", "--json").output == "[]\n")
  }

  @Test("workouts: add, list in the distance unit, remove, sort and stats")
  func workouts() throws {
    install(["workouts.json": "workouts/sample.json"])
    let list = diary.run("workouts", "list").output
    #expect(list.hasPrefix("Sorted by distance, longest first.\n"))
    #expect(list.contains("1  22 Nov 2026  21.10 km  high        Half marathon"))
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    #expect(diary.run("workouts", "list").output.contains("13.11 mi"))

    let added = try #require(
      try json(
        diary.run(
          "workouts", "add", "Intervals", "--distance", "8km", "--complexity", "high", "--date",
          "2026-11-28T06:00:00Z", "--json")) as? [String: Any])
    #expect(added["number"] as? Int == 3)
    #expect(added["distance"] as? Double == 8)
    #expect(added["complexity"] as? String == "high")
    #expect(
      diary.run("workouts", "add", "Walk", "--distance=1.5").output
        == "Added workout 5: Walk, 1.50 mi\n")

    #expect(diary.run("workouts", "sort", "complexity").exitCode == 0)
    let sorted = try #require(try json(diary.run("workouts", "list", "--json")) as? [[String: Any]])
    #expect(
      sorted.map { $0["complexity"] as? String } == [
        "high", "high", "medium", "medium", "low", "low",
      ])
    #expect(
      sorted.map { $0["name"] as? String } == [
        "Half marathon", "Intervals", "Tempo run", "Walk", "Easy jog", "Yoga",
      ])
    #expect(sorted.map { $0["number"] as? Int } == Array(1...sorted.count))

    #expect(diary.run("workouts", "remove", "1", "2").output == "Removed 2 workouts.\n")
    let stats = try #require(try json(diary.run("workouts", "stats", "--json")) as? [String: Any])
    #expect(stats["count"] as? Int == 4)
    #expect((stats["countByComplexity"] as? [String: Int])?["high"] == 0)
    let human = diary.run("workouts", "stats").output
    #expect(human.contains("Workouts:       4"))
    #expect(human.contains("2026-W48"))
  }

  @Test("help, version, and help for every command")
  func help() {
    #expect(diary.run("--version").output.hasPrefix("diary \(StoresVersion.current) ("))
    #expect(diary.run("--help").output.contains("USAGE: diary"))
    for group in ["settings", "todos", "workouts"] {
      #expect(diary.run("help", group).exitCode == 0)
      #expect(diary.run(group, "--help").output.contains("COMMANDS:"))
    }
    #expect(diary.run("todos", "move", "--help").output.contains("--to P"))
    #expect(diary.run("help", "workouts", "add").output.contains("--distance DISTANCE"))
  }

  private func numbers(_ result: DiaryProcess.Result) -> [Int] {
    ((try? json(result)) as? [[String: Any]])?.compactMap { $0["number"] as? Int } ?? []
  }

  private func titles(_ result: DiaryProcess.Result) -> [String] {
    ((try? json(result)) as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
  }

  private func done(_ result: DiaryProcess.Result) -> [Bool] {
    ((try? json(result)) as? [[String: Any]])?.compactMap { $0["isDone"] as? Bool } ?? []
  }
}
