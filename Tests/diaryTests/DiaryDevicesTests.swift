import Foundation
import StoreTesting
import Stores
import Testing

/// `diary` on a data folder that a sync engine shares with another device.
@Suite("diary on two devices, end to end")
struct DiaryDevicesTests {
  let phone = TemporaryFolder()
  let laptop = TemporaryFolder()

  @Test("every command merges the conflict copies beside the files, and says so in one line")
  func mergesCopies() throws {
    let onPhone = DiaryProcess(folder: phone.url)
    let onLaptop = DiaryProcess(folder: laptop.url)
    #expect(onPhone.run("todos", "add", "Buy milk").exitCode == 0)
    laptop.copy(phone.file("todos.json"), as: "todos.json")
    #expect(onPhone.run("todos", "add", "Call Ann").exitCode == 0)
    #expect(onPhone.run("todos", "done", "2").exitCode == 0)
    #expect(onLaptop.run("todos", "add", "Write report").exitCode == 0)
    let copy = "todos.sync-conflict-20261201-135016-E7BDN4G.json"
    laptop.copy(phone.file("todos.json"), as: copy)
    let result = onLaptop.run("todos", "list")
    #expect(result.exitCode == 0)
    #expect(result.errorOutput == "diary: merged 1 conflict copy into todos.json: \(copy)\n")
    #expect(result.output.contains("Write report") && result.output.contains("Call Ann"))
    #expect(!laptop.names.contains(copy))
    #expect(onLaptop.run("todos", "list").errorOutput.isEmpty, "once merged, nothing to say")
  }

  @Test("a copy from months ago that brings back a todo the file removed and forgot is warned of")
  @MainActor
  func warnsOfForgottenRemovals() throws {
    // The laptop's app, at a clock `days` days back.
    func app(daysAgo days: Int64) throws -> TodosStore {
      TodosStore(
        core: try TodosStore.fileCore(
          contentsOf: laptop.file("todos.json"),
          clock: HybridClock(device: DeviceID("laptopapp")!) {
            Int64(Date().timeIntervalSince1970 * 1000) - days * 86_400_000
          }))
    }
    let milk = Todo(title: "Buy milk")
    try app(daysAgo: 100).trySend(.addTodo(milk))
    // A phone that never changed the file keeps this version for months.
    phone.copy(laptop.file("todos.json"), as: "todos.json")
    try app(daysAgo: 95).trySend(.removeTodos(ids: [milk.id]))
    try app(daysAgo: 0).trySend(.addTodo(Todo(title: "Call Ann")))  // the removal is dropped
    let diary = DiaryProcess(folder: laptop.url)
    let copy = "todos.sync-conflict-20261201-135016-E7BDN4G.json"
    laptop.copy(phone.file("todos.json"), as: copy)
    let result = diary.run("todos", "list")
    #expect(result.exitCode == 0)
    let warning =
      "diary: warning: merging \(copy) brought back 1 entry last changed more than 90 days "
      + "before the latest write of every device to todos.json: its removal may have been "
      + "forgotten; remove it again if it was removed"
    #expect(
      Array(result.errorOutput.split(separator: "\n").map(String.init).dropFirst()) == [warning])
    #expect(result.output.contains("Buy milk"))
    #expect(diary.run("todos", "list").errorOutput.isEmpty, "said once")
  }

  @Test("a todo removed by hand from a version the phone made since the laptop's last write")
  func handRemovalFromThePhonesVersion() throws {
    let onLaptop = DiaryProcess(folder: laptop.url)
    for arguments in [
      ["add", "Old"], ["remove", "1"], ["add", "Buy milk"], ["add", "Call Ann"],
    ] {
      #expect(onLaptop.run(["todos"] + arguments).exitCode == 0)
    }
    // The phone changes the laptop's version; the engine renames it over the laptop's file.
    phone.copy(laptop.file("todos.json"), as: "todos.json")
    #expect(DiaryProcess(folder: phone.url).run("todos", "add", "Pay rent").exitCode == 0)
    laptop.copy(phone.file("todos.json"), as: ".syncthing.todos.json.tmp")
    #expect(
      rename(laptop.file(".syncthing.todos.json.tmp").path, laptop.file("todos.json").path) == 0)
    // Removed by hand on the laptop, in an editor.
    let data = try Data(contentsOf: laptop.file("todos.json"))
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    object["todos"] = (object["todos"] as! [[String: Any]]).filter {
      $0["title"] as? String != "Buy milk"
    }
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      .write(to: laptop.file("todos.json"))
    let result = onLaptop.run("todos", "list")
    #expect(result.exitCode == 0)
    #expect(!result.output.contains("Buy milk") && result.output.contains("Pay rent"))
    #expect(!onLaptop.run("todos", "list").output.contains("Buy milk"))
  }

  @Test("a copy that cannot be merged is named in one warning and left where it is")
  func warnsOfABrokenCopy() throws {
    let diary = DiaryProcess(folder: laptop.url)
    #expect(diary.run("todos", "add", "Buy milk").exitCode == 0)
    let copy = "todos (Anna's conflicted copy 2026-12-01).json"
    try Data("{\"todos\": [".utf8).write(to: laptop.file(copy))
    let result = diary.run("todos", "list")
    #expect(result.exitCode == 0)
    #expect(result.errorOutput.hasPrefix("diary: warning: "))
    #expect(
      result.errorOutput.contains(copy) && result.errorOutput.hasSuffix("it is left as it is\n"))
    #expect(result.errorOutput.split(separator: "\n").count == 1)
    #expect(laptop.names.contains(copy))
  }

  @Test("many copies that cannot be merged: three warnings, then one line for the rest")
  func warnsOfManyBrokenCopiesInFewLines() throws {
    let diary = DiaryProcess(folder: laptop.url)
    #expect(diary.run("todos", "add", "Buy milk").exitCode == 0)
    for index in 0..<20 {
      try Data("{".utf8).write(
        to: laptop.file("todos (conflicted copy 2026-12-01 1350\(10 + index)).json"))
    }
    let result = diary.run("todos", "add", "Call Ann")
    #expect(result.exitCode == 0)
    let lines = result.errorOutput.split(separator: "\n")
    #expect(lines.count == 4, "\(result.errorOutput)")
    #expect(lines.prefix(3).allSatisfy { $0.hasPrefix("diary: warning: ") })
    let summary =
      "diary: warning: and 17 more conflict copies of todos.json cannot be merged; "
      + "`diary sync status` lists them"
    #expect(lines.last.map(String.init) == summary)
    let status = diary.run("sync", "status")
    #expect(status.output.contains("20 copies not merged"))
    let listed = status.output.split(separator: "\n").filter { $0.hasPrefix("Not merged: ") }
    #expect(listed.count == 20)
  }

  @Test("a 2 GB file named as a copy is refused unread, with a warning, by every command")
  func refusesAHugeCopy() throws {
    let diary = DiaryProcess(folder: laptop.url)
    #expect(diary.run("todos", "add", "Buy milk").exitCode == 0)
    let copy = "todos.sync-conflict-20261201-135016-E7BDN4G.json"
    try Data().write(to: laptop.file(copy))
    // Sparse: it takes no disk, but reading it would take 2 GB of memory.
    #expect(truncate(laptop.file(copy).path, 2_000_000_000) == 0)
    let result = diary.run("todos", "add", "Call Ann")
    #expect(result.exitCode == 0)
    #expect(
      result.errorOutput
        == "diary: warning: \(laptop.file(copy).path): 2 GB, more than the 67.1 MB read from a "
        + "conflict copy of this file — it is not read; move it away or remove it; it is left as "
        + "it is\n")
    #expect(diary.run("todos", "list").output.contains("Call Ann"))
  }

  @Test("sync status says how far ahead of this device's clock the changes are stamped")
  @MainActor
  func statusShowsAClockAhead() throws {
    // The phone's app, its clock 2 h 5 min 30 s ahead, wrote the file and left a copy.
    let phoneApp = TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: laptop.file("todos.json"),
        clock: HybridClock(device: DeviceID("phoneapp")!) {
          Int64(Date().timeIntervalSince1970 * 1000) + 7_530_000
        }))
    try phoneApp.trySend(.addTodo(Todo(title: "Buy milk")))
    let copy = "todos.sync-conflict-20261201-135016-E7BDN4G.json"
    laptop.copy(laptop.file("todos.json"), as: copy)
    let diary = DiaryProcess(folder: laptop.url)
    let result = diary.run("--json", "sync", "status")
    #expect(result.exitCode == 0)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let files = try #require(report["files"] as? [[String: Any]])
    let todos = try #require(files.first { $0["name"] as? String == "todos" })
    // Stamped 7,530 s ahead, read by `diary` after the time this test took since: less.
    #expect((7_200...7_530).contains(todos["clockAheadSeconds"] as? Int ?? 0), "\(todos)")
    #expect(todos["merged"] as? [String] == [copy])
    #expect((todos["oldCopies"] as? [Any])?.isEmpty == true)
    let settings = try #require(files.first { $0["name"] as? String == "settings" })
    #expect(settings["clockAheadSeconds"] as? Int == 0)
    #expect(settings["merged"] as? [String] == [])
    let text = diary.run("sync", "status").output
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("todos: ") })
    #expect(line.hasPrefix("todos: changes stamped up to 2 h "), "\(text)")
    #expect(
      line.hasSuffix(
        " min ahead of this device's clock — that device wins concurrent edits of a field "
          + "until this clock catches up"), "\(text)")
    #expect(!text.contains("settings: changes stamped"))
  }

  @Test(
    "sync conflicts lists a setting that lost to a concurrent change, and a reset; resolve settles them on both devices"
  )
  func settingConflicts() throws {
    var onPhone = DiaryProcess(folder: phone.url)
    var onLaptop = DiaryProcess(folder: laptop.url)
    let (phoneState, laptopState) = (TemporaryFolder(), TemporaryFolder())
    onPhone.environment["STORES_STATE_HOME"] = phoneState.url.path
    onLaptop.environment["STORES_STATE_HOME"] = laptopState.url.path
    #expect(onPhone.run("settings", "set", "sleepGoal", "7").exitCode == 0)
    #expect(onPhone.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    laptop.copy(phone.file("settings.json"), as: "settings.json")
    #expect(onPhone.run("settings", "set", "sleepGoal", "9").exitCode == 0)
    #expect(onPhone.run("settings", "set", "distanceUnit", "meters").exitCode == 0)
    // The laptop's changes a millisecond later at least: they win.
    Thread.sleep(forTimeInterval: 0.005)
    #expect(onLaptop.run("settings", "set", "sleepGoal", "6").exitCode == 0)
    #expect(onLaptop.run("settings", "reset", "distanceUnit").exitCode == 0)
    let copy = "settings.sync-conflict-20261204-101500-E7BDN4G.json"
    laptop.copy(phone.file("settings.json"), as: copy)
    let listed = onLaptop.run("sync", "conflicts")
    #expect(listed.exitCode == 0)
    let lines = listed.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(listed.output)")
    #expect(lines.first?.hasPrefix("ID      FILE      ITEM          FIELD  KEPT      NOW") ?? false)
    let rows = lines.dropFirst().prefix(2).map { $0.dropFirst(8).description }
    #expect(
      rows.first?.hasPrefix("settings  distanceUnit  value  \"meters\"  default  ") ?? false,
      "\(listed.output)")
    #expect(
      rows.last?.hasPrefix("settings  sleepGoal     value  9         6        ") ?? false,
      "\(listed.output)")
    let json = onLaptop.run("--json", "sync", "conflicts")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let conflicts = try #require(report["conflicts"] as? [[String: Any]])
    #expect(conflicts.count == 2)
    #expect(
      conflicts.first?["itemID"] is NSNull && conflicts.first?["field"] as? String == "distanceUnit"
    )
    #expect(conflicts.last?["value"] as? Int == 9 && conflicts.last?["current"] as? Int == 6)
    let ids = lines.dropFirst().prefix(2).map { String($0.prefix(6)) }
    let unit = onLaptop.run("sync", "resolve", ids[0])
    #expect(unit.output == "Resolved conflict \(ids[0]) (distanceUnit): set it to \"meters\".\n")
    let goal = onLaptop.run("sync", "resolve", ids[1], "--current")
    #expect(goal.output == "Resolved conflict \(ids[1]) (sleepGoal): kept the current value.\n")
    #expect(
      onLaptop.run("sync", "conflicts").output
        == "No conflicts: no change was lost to another device's.\n")
    // The phone reads the laptop's version (its engine left it as a copy).
    phone.copy(laptop.file("settings.json"), as: copy)
    let values = onPhone.run("settings", "list").output
    #expect(
      values.contains("distanceUnit            meters")
        && values.contains("sleepGoal               6"), "\(values)")
    #expect(
      onPhone.run("sync", "conflicts").output
        == "No conflicts: no change was lost to another device's.\n")
    #expect(
      try Data(contentsOf: phone.file("settings.json"))
        == Data(contentsOf: laptop.file("settings.json")))
  }

  @Test("sync resolve refuses a kept setting this device's keys do not allow, and changes nothing")
  @MainActor
  func resolveRefusesAnInvalidSetting() throws {
    var onLaptop = DiaryProcess(folder: laptop.url)
    onLaptop.environment["STORES_STATE_HOME"] = TemporaryFolder().url.path
    #expect(onLaptop.run("settings", "set", "sleepGoal", "7").exitCode == 0)
    phone.copy(laptop.file("settings.json"), as: "settings.json")
    // The phone's app, of another version, allows a sleep goal this one does not.
    let phoneApp = try SettingsStore(
      contentsOf: phone.file("settings.json"),
      clock: HybridClock(device: DeviceID("phoneapp")!) {
        Int64(Date().timeIntervalSince1970 * 1000)
      })
    try phoneApp.trySend(.set(key: "sleepGoal", value: .string("long")))
    Thread.sleep(forTimeInterval: 0.005)
    #expect(onLaptop.run("settings", "set", "sleepGoal", "6").exitCode == 0)
    laptop.copy(
      phone.file("settings.json"), as: "settings.sync-conflict-20261204-101500-E7BDN4G.json")
    let json = onLaptop.run("--json", "sync", "conflicts")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let conflict = try #require((report["conflicts"] as? [[String: Any]])?.first)
    #expect(conflict["value"] as? String == "long" && conflict["kind"] as? String == "value")
    let id = try #require(conflict["id"] as? String)
    let before = try Data(contentsOf: laptop.file("settings.json"))
    let refused = onLaptop.run("sync", "resolve", id)
    #expect(refused.exitCode == 65)
    #expect(
      refused.errorOutput
        == "diary: error: conflict \(id) keeps \"long\" for sleepGoal, which it does not allow "
        + "(expected a number, found \"long\"): keep the current value with 'diary sync resolve \(id) --current', "
        + "or set another with 'diary settings set sleepGoal VALUE'\n")
    #expect(try Data(contentsOf: laptop.file("settings.json")) == before, "no file changes")
    let kept = onLaptop.run("--json", "sync", "resolve", id, "--current")
    #expect(kept.exitCode == 0)
    let resolved = try #require(
      try JSONSerialization.jsonObject(with: Data(kept.output.utf8)) as? [String: Any])
    #expect(resolved["choice"] as? String == "current")
    #expect((resolved["resolved"] as? [String: Any])?["id"] as? String == id)
  }

  @Test(
    "sync conflicts lists the title that lost to a concurrent edit; sync resolve makes it win on both devices"
  )
  func conflictsAndResolve() throws {
    var onPhone = DiaryProcess(folder: phone.url)
    var onLaptop = DiaryProcess(folder: laptop.url)
    let (phoneState, laptopState) = (TemporaryFolder(), TemporaryFolder())
    onPhone.environment["STORES_STATE_HOME"] = phoneState.url.path
    onLaptop.environment["STORES_STATE_HOME"] = laptopState.url.path
    #expect(onPhone.run("todos", "add", "Buy milk").exitCode == 0)
    laptop.copy(phone.file("todos.json"), as: "todos.json")
    #expect(onPhone.run("todos", "edit", "1", "--title", "Buy oat milk").exitCode == 0)
    #expect(onLaptop.run("todos", "edit", "1", "--title", "Buy soy milk").exitCode == 0)
    let copy = "todos.sync-conflict-20261204-101500-E7BDN4G.json"
    laptop.copy(phone.file("todos.json"), as: copy)
    let listed = onLaptop.run("sync", "conflicts")
    #expect(listed.exitCode == 0)
    let lines = listed.output.split(separator: "\n")
    #expect(lines.count == 3, "\(listed.output)")
    #expect(
      lines.first?.hasPrefix("ID      FILE   ITEM          FIELD  KEPT            NOW") ?? false)
    let id = try #require(lines.dropFirst().first?.prefix(6)).description
    #expect(
      lines.dropFirst().first?.dropFirst(8).hasPrefix(
        "todos  Buy soy milk  title  \"Buy oat milk\"  \"Buy soy milk\"") ?? false,
      "\(listed.output)")
    let json = onLaptop.run("--json", "sync", "conflicts")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let conflicts = try #require(report["conflicts"] as? [[String: Any]])
    #expect(conflicts.count == 1)
    #expect(conflicts.first?["id"] as? String == id)
    #expect(conflicts.first?["value"] as? String == "Buy oat milk")
    #expect(conflicts.first?["current"] as? String == "Buy soy milk")
    #expect(conflicts.first?["field"] as? String == "title")
    let before = try Data(contentsOf: laptop.file("todos.json"))
    let missing = onLaptop.run("sync", "resolve", "zzzzzz")
    #expect(missing.exitCode == 64)
    #expect(
      missing.errorOutput
        == "diary: error: no open conflict has the ID 'zzzzzz': 'diary sync conflicts' lists "
        + "\(id) (a conflict another device resolved is no longer listed)\n")
    #expect(try Data(contentsOf: laptop.file("todos.json")) == before, "no file changes")
    let resolved = onLaptop.run("sync", "resolve", id)
    #expect(resolved.exitCode == 0)
    #expect(
      resolved.output == "Resolved conflict \(id) (Buy soy milk): set title to \"Buy oat milk\".\n")
    #expect(onLaptop.run("todos", "list").output.contains("Buy oat milk"))
    #expect(
      onLaptop.run("sync", "conflicts").output
        == "No conflicts: no change was lost to another device's.\n")
    // The phone reads the laptop's version (its engine left it as a copy).
    phone.copy(laptop.file("todos.json"), as: copy)
    #expect(onPhone.run("todos", "list").output.contains("Buy oat milk"))
    #expect(
      onPhone.run("sync", "conflicts").output
        == "No conflicts: no change was lost to another device's.\n")
    #expect(
      try Data(contentsOf: phone.file("todos.json")) == Data(contentsOf: laptop.file("todos.json")))
    let none = onPhone.run("sync", "resolve", id)
    #expect(none.exitCode == 64)
    #expect(
      none.errorOutput
        == "diary: error: there is no conflict to resolve: 'diary sync conflicts' lists none\n")
  }

  @Test("sync status names the versions a sync engine is still bringing")
  func statusShowsCopiesArriving() throws {
    let diary = DiaryProcess(folder: laptop.url)
    #expect(diary.run("todos", "add", "Buy milk").exitCode == 0)
    laptop.copy(laptop.file("todos.json"), as: ".syncthing.todos.json.tmp")
    let text = diary.run("sync", "status").output
    #expect(
      text.contains(
        "todos: a version from another device is on its way (.syncthing.todos.json.tmp) — "
          + "merged once the sync engine puts it in place"), "\(text)")
    #expect(!text.contains("settings: a version"))
    let result = diary.run("--json", "sync", "status")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let files = try #require(report["files"] as? [[String: Any]])
    let todos = try #require(files.first { $0["name"] as? String == "todos" })
    #expect(todos["copiesArriving"] as? [String] == [".syncthing.todos.json.tmp"])
    let settings = try #require(files.first { $0["name"] as? String == "settings" })
    #expect(settings["copiesArriving"] as? [String] == [])
  }

  @Test("sync status names this device — the same on every run, kept outside the data folder")
  func status() throws {
    var diary = DiaryProcess(folder: laptop.url)
    let state = TemporaryFolder()
    diary.environment["STORES_STATE_HOME"] = state.url.path
    #expect(diary.run("todos", "list").exitCode == 0)
    #expect(state.names.isEmpty, "reading makes no device id")
    let first = diary.run("sync", "status")
    #expect(first.exitCode == 0)
    let device = try #require(first.output.split(separator: "\n").first?.split(separator: " ").last)
    #expect(first.output.hasPrefix("This device: "))
    #expect(first.output.contains("No conflict copies left to merge."))
    #expect(diary.run("sync", "status").output.hasPrefix("This device: \(device)\n"))
    #expect(
      try String(contentsOf: state.file("stores/device"), encoding: .utf8) == "\(device)\n")
    #expect(!laptop.names.contains("stores"), "nothing of this device in the data folder")
    let copy = "todos_conflict-20261201-135016.json"
    try Data("[1]".utf8).write(to: laptop.file(copy))
    let result = diary.run("--json", "sync", "status")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(report["device"] as? String == String(device))
    let todos = try #require(
      (report["files"] as? [[String: Any]])?.first { $0["name"] as? String == "todos" })
    let copies = try #require(todos["copiesNotMerged"] as? [[String: Any]])
    #expect(copies.map { $0["path"] as? String } == [laptop.file(copy).path])
  }
}
