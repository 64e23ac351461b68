import Foundation
import StoreTesting
import Stores
import Testing

/// `diary todos`, end to end on the built binary: adding with the dates people type, listing
/// and its filters, done, undone, remove, move and order — saying when nothing changed — on
/// copies of the fixtures and on titles and numbers no one should type.
@Suite("diary todos")
struct DiaryTodosTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

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

  @Test(
    "numbers name what the list showed: a todo added on another device since makes them refuse")
  func numbersOfAnOldList() throws {
    install(["todos.json": "todos/sample.json"])
    // A machine that never changed the todos: the list is recorded all the same.
    #expect(diary.run("todos", "list").output.contains("2  [x]          1  28 Nov 2026  Call"))
    // Another device (its own state folder) adds a todo at the top: "Call the plumber" is 3
    // now, and 2 names "Buy milk".
    var phone = diary
    phone.environment["STORES_STATE_HOME"] = folder.file("home/phone").path
    #expect(phone.run("todos", "add", "From the phone").exitCode == 0)
    for command in [
      ["remove", "2"], ["done", "2"], ["undone", "2"], ["move", "2", "--to", "1"],
    ] {
      expectFailure(
        ["todos"] + command, exitCode: 65,
        message: "the todos changed since 'diary todos list' numbered them")
    }
    // The other device's numbers are its list's as it is: it never listed them.
    #expect(phone.run("todos", "undone", "5").exitCode == 0)
    // Listed again: the numbers are the new list's.
    #expect(diary.run("todos", "list").output.contains("3  [x]          1  28 Nov 2026  Call"))
    #expect(diary.run("todos", "remove", "3").output == "Removed 1 todo.\n")
    #expect(!titles(diary.run("todos", "list", "--json")).contains("Call the plumber"))
  }

  @Test("this machine's own changes keep its numbers: each command numbers the list it leaves")
  func numbersAfterOwnChanges() throws {
    install(["todos.json": "todos/sample.json"])
    #expect(diary.run("todos", "done", "2").exitCode == 0, "the undo history's folder made")
    #expect(diary.run("todos", "list").exitCode == 0)
    #expect(diary.run("todos", "remove", "1").exitCode == 0)
    #expect(diary.run("todos", "add", "Stretch").exitCode == 0)
    #expect(diary.run("todos", "move", "1", "--to", "3").exitCode == 0)
    #expect(diary.run("undo").exitCode == 0)
    #expect(diary.run("todos", "remove", "1").output == "Removed 1 todo.\n", "Stretch")
    #expect(
      titles(diary.run("todos", "list", "--json"))
        == ["Call the plumber", "Renew passport", "Café with Zoë"])
    // An order the user did not see: numbers ask for a list first.
    #expect(diary.run("todos", "order", "priority").exitCode == 0)
    expectFailure(
      ["todos", "done", "1"], exitCode: 65,
      message: "the todos changed since 'diary todos list' numbered them")
    #expect(diary.run("todos", "list").exitCode == 0)
    #expect(diary.run("todos", "done", "1").exitCode == 0)
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

  @Test("todos move N… --to P puts the todos at P in the order typed")
  func moveInTheOrderTyped() throws {
    for title in ["e", "d", "c", "b", "a"] {
      #expect(diary.run("todos", "add", title).exitCode == 0)
    }
    let titles = {
      try self.list(self.diary.run("todos", "list", "--json")).map { $0["title"] as? String }
    }
    #expect(diary.run("todos", "move", "4", "2", "--to", "1").output == "Moved 2 todos to 1.\n")
    #expect(try titles() == ["d", "b", "a", "c", "e"])
    #expect(diary.run("todos", "move", "1", "5", "3", "--to", "2").exitCode == 0)
    #expect(try titles() == ["b", "d", "e", "a", "c"])
    #expect(diary.run("todos", "move", "2", "1", "--to", "4").exitCode == 0)
    #expect(try titles() == ["e", "a", "c", "d", "b"])
  }

  @Test("done, undone and move say when nothing changed, exit 0 and change nothing")
  func nothingChanged() throws {
    for title in ["c", "b", "a"] { #expect(diary.run("todos", "add", title).exitCode == 0) }
    #expect(diary.run("todos", "done", "1").output == "Marked 1 todo done.\n")
    let before = folder.snapshot()
    for (arguments, message) in [
      (["todos", "done", "1"], "Todo 1 is already done.\n"),
      (["todos", "undone", "2", "3"], "Todos 2 and 3 are already not done.\n"),
      (["todos", "move", "2", "--to", "2"], "Todo 2 is already at 2.\n"),
      (["todos", "move", "2", "3", "--to", "2"], "Todos 2 and 3 are already at 2 and 3.\n"),
    ] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 0)
      #expect(result.output == message)
    }
    #expect(folder.snapshot() == before)
    #expect(
      diary.run("todos", "done", "1", "2").output
        == "Marked 1 todo done. Todo 1 was already done.\n")
    #expect(diary.run("todos", "move", "3", "2", "--to", "2").output == "Moved 2 todos to 2.\n")
  }

  @Test("duplicate indexes act once")
  func duplicateIndexes() throws {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    #expect(diary.run("todos", "remove", "2", "2", "2").output == "Removed 1 todo.\n")
    #expect(diary.run("todos", "done", "1", "1").output == "Marked 1 todo done.\n")
  }

  // MARK: Dates

  @Test("dates: today, yesterday, tomorrow, a day, a local time, ISO 8601 with a zone")
  func dates() throws {
    var tokyo = diary
    tokyo.environment["TZ"] = "Asia/Tokyo"
    for (typed, stored) in [
      ("2026-11-29", "2026-11-28T15:00:00Z"), ("2026-11-29T07:30", "2026-11-28T22:30:00Z"),
      ("2026-11-29T07:30:15", "2026-11-28T22:30:15Z"),
      ("2026-11-29T07:30:00Z", "2026-11-29T07:30:00Z"),
      ("2026-11-29T08:30:00+01:00", "2026-11-29T07:30:00Z"),
    ] {
      let added = try object(tokyo.run("todos", "add", "x", "--date", typed, "--json"))
      #expect(added["date"] as? String == stored, "\(typed)")
    }
    // The start of the day, in UTC here: the day is read before and after the run, so
    // that a run across midnight is seen.
    for (word, offset) in [("yesterday", -1), ("today", 0), ("tomorrow", 1), ("Tomorrow", 1)] {
      let before = Self.startOfDay(offset)
      let added = try object(diary.run("todos", "add", "x", "--date", word, "--json"))
      let after = Self.startOfDay(offset)
      let date = try #require(added["date"] as? String)
      #expect(date == before || date == after, "\(word): \(date)")
    }
  }

  @Test("a date before 1582 is stored and shown as typed (issue 12, item 13)")
  func datesBefore1582() throws {
    let added = try object(diary.run("todos", "add", "x", "--date", "1000-01-01", "--json"))
    #expect(added["date"] as? String == "1000-01-01T00:00:00Z")
    #expect(diary.run("todos", "list").output.contains("1 Jan 1000"))
    var tokyo = diary
    tokyo.environment["TZ"] = "Asia/Tokyo"
    #expect(tokyo.run("todos", "add", "y", "--date", "1000-01-01").exitCode == 0)
    #expect(tokyo.run("todos", "list").output.contains("[ ]          0  1 Jan 1000  y"))
  }

  /// The start of the day `offset` days from today in UTC, as the files write it.
  static func startOfDay(_ offset: Int) -> String {
    let day = (Date().timeIntervalSince1970 / 86_400).rounded(.down) + Double(offset)
    return ISO8601Timestamp.string(from: Date(timeIntervalSince1970: day * 86_400))!
  }

  // MARK: Titles

  @Test("hostile titles: empty, 128 KiB, control characters and escape sequences")
  func hostileTitles() throws {
    #expect(diary.run("todos", "add", "").exitCode == 65)
    // Linux refuses a single argument longer than 128 KiB (MAX_ARG_STRLEN), so that is the
    // longest title a command line can carry; the stores take any length.
    let long = String(repeating: "é", count: 65_000)
    #expect(diary.run("todos", "add", long).exitCode == 0)
    let evil = "\u{1B}[2J\u{1B}]0;owned\u{7}\u{8}\u{202E}txt.exe"
    let refused = diary.run("todos", "add", evil + "\r")
    #expect(refused.exitCode == 65, "a line break is refused, not joined")
    #expect(refused.errorOutput.contains("TITLE must be one line: it has a line break"))
    #expect(diary.run("todos", "add", evil).exitCode == 0)
    let list = diary.run("todos", "list")
    #expect(list.exitCode == 0)
    #expect(
      !list.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x202E })
    #expect(list.output.contains("\\u{1B}[2J"))
    let json = diary.run("todos", "list", "--json")
    let titles = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
    ).compactMap { $0["title"] as? String }
    #expect(
      titles == [
        evil, long,
      ])
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

/// `diary todos edit`: the fields named, changed in place.
@Suite("diary todos edit")
struct DiaryTodosEditTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  func json(_ result: DiaryProcess.Result) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
      "\(result.output.prefix(300)) \(result.errorOutput)")
  }

  @Test("todos edit changes the fields named, in place, keeping the id and the rest")
  @MainActor
  func editTodo() throws {
    #expect(
      diary.run("todos", "add", "Buy milk", "--priority", "2", "--date", "2026-11-29")
        .exitCode == 0)
    #expect(diary.run("todos", "add", "Call mum").exitCode == 0)
    #expect(diary.run("todos", "done", "2").exitCode == 0)
    let before = try TodosStore(contentsOf: folder.file("todos.json")).todos
    let result = diary.run("todos", "edit", "2", "--title", "Buy oat milk", "--date", "2026-11-30")
    #expect(result.output == "Edited todo 2: Buy oat milk, priority 2, 30 Nov 2026\n")
    let after = try TodosStore(contentsOf: folder.file("todos.json")).todos
    #expect(after.map(\.id) == before.map(\.id), "same ids, same places")
    #expect(after[1].title == "Buy oat milk" && after[1].priority == 2 && after[1].isDone)
    #expect(after[0] == before[0])
    let edited = try json(diary.run("--json", "todos", "edit", "2", "--priority", "5"))
    #expect(edited["number"] as? Int == 2 && edited["priority"] as? Int == 5)
    #expect(edited["id"] as? String == before[1].id.uuidString)
    #expect(
      diary.run("todos", "edit", "2", "--priority", "5").output
        == "Todo 2 already is so; nothing changed.\n")
    expectFailure(["todos", "edit", "2"], exitCode: 64, message: "nothing to change: give --title")
    expectFailure(
      ["todos", "edit", "3", "--title", "x"], exitCode: 65, message: "there is no todo 3")
    expectFailure(
      ["todos", "edit", "1", "--title", "two\nlines"], exitCode: 65,
      message: "--title must be one line: it has a line break")
    expectFailure(
      ["todos", "edit", "1", "--title", "  "], exitCode: 65, message: "a todo needs a title")
    expectFailure(
      ["todos", "edit", "1", "--priority", "high"], exitCode: 65,
      message: "--priority must be a whole number")
  }
}
