import Foundation
import StoreTesting
import Stores
import Testing

/// `diary` as a newcomer expects it (issue 17), each bullet end to end on the built binary:
/// the input people type, messages that tell the truth, JSON that scripts can use.
@Suite("diary as a newcomer expects it")
struct DiaryNewcomerTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  func json(_ result: DiaryProcess.Result) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(result.output.utf8), options: [.fragmentsAllowed])
  }

  func object(_ result: DiaryProcess.Result) throws -> [String: Any] {
    try #require(try json(result) as? [String: Any], "\(result.output)")
  }

  func list(_ result: DiaryProcess.Result) throws -> [[String: Any]] {
    try #require(try json(result) as? [[String: Any]], "\(result.output)")
  }

  // MARK: Input people type

  @Test("distances are typed in the unit shown, or with a unit after them; files keep km")
  func distances() throws {
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    for (typed, kilometers) in [
      ("3", 3 * 1.609344), ("5km", 5.0), ("3.1mi", 3.1 * 1.609344), ("5 km", 5.0),
      (".5", 0.5 * 1.609344), ("2 MI", 2 * 1.609344), ("10kilometres", 10.0),
    ] {
      let added = try object(diary.run("workouts", "add", "Run", "--distance", typed, "--json"))
      let distance = try #require(added["distance"] as? Double, "\(typed)")
      #expect(abs(distance - kilometers) < 1e-9, "\(typed)")
    }
    #expect(
      diary.run("workouts", "add", "Walk", "--distance", "2km").output
        == "Added workout 8: Walk, 1.24 mi\n")
    #expect(diary.run("settings", "set", "distanceUnit", "km").exitCode == 0)
    let added = try object(diary.run("workouts", "add", "Run", "--distance", "3", "--json"))
    #expect(added["distance"] as? Double == 3)
    for bad in ["-1", "+5", "5 furlongs", "1.2.3", "km", "", "1e3", "100001", "nan"] {
      expectFailure(
        ["workouts", "add", "Run", "--distance", bad], exitCode: 65,
        message: "--distance must be a distance from 0 to 100,000")
    }
  }

  @Test("distanceUnit takes kilometers, kilometres, km, miles and mi, in any case")
  func distanceUnitSpellings() throws {
    for (typed, unit) in [
      ("kilometers", "kilometers"), ("Kilometres", "kilometers"), ("KM", "kilometers"),
      ("miles", "miles"), ("Mi", "miles"),
    ] {
      #expect(
        diary.run("settings", "set", "distanceUnit", typed).output == "distanceUnit = \(unit)\n")
      #expect(diary.run("settings", "get", "distanceUnit").output == "\(unit)\n")
    }
    // The help and the list use one spelling.
    #expect(!diary.run("help", "settings", "set").output.contains("kilometres"))
    #expect(diary.run("settings", "list").output.contains("kilometers, miles"))
  }

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

  @Test("workouts sort date puts the newest first; sort none brings back the order added")
  func sortByDateAndNone() throws {
    for (name, date) in [("b", "2026-11-02"), ("c", "2026-11-03"), ("a", "2026-11-01")] {
      #expect(
        diary.run("workouts", "add", name, "--distance", "1", "--date", date).exitCode == 0)
    }
    #expect(
      diary.run("workouts", "sort", "date").output
        == "Sorted by date, newest first; new workouts go to their place.\n")
    let names = {
      try self.list(self.diary.run("workouts", "list", "--json")).map { $0["name"] as? String }
    }
    #expect(try names() == ["c", "b", "a"])
    #expect(diary.run("workouts", "list").output.hasPrefix("Sorted by date, newest first.\n"))
    #expect(
      diary.run("workouts", "add", "d", "--distance", "1", "--date", "2026-11-04").exitCode == 0)
    #expect(try names() == ["d", "c", "b", "a"])
    #expect(
      diary.run("workouts", "sort", "none").output
        == "Not sorted any more: the workouts are in the order they were added.\n")
    #expect(try names() == ["b", "c", "a", "d"])
    #expect(diary.run("workouts", "list").output.hasPrefix("#"))
    let file = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("workouts.json")))
        as? [String: Any])
    #expect(file["sortType"] == nil, "not sorted: no sort in the file")
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

  // MARK: Messages that tell the truth

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

  @Test(
    "every invalid value exits 65 with a did-you-mean; unknown names exit 64",
    arguments: [
      (
        ["todos", "order", "dates"], 65,
        "the order must be date or priority, not 'dates' — did you mean 'date'?"
      ),
      (
        ["workouts", "add", "Run", "--distance", "5", "--complexity", "extreme"], 65,
        "--complexity must be low, medium or high, not 'extreme'"
      ),
      (
        ["workouts", "add", "Run", "--distance", "5", "--complexity", "hgih"], 65,
        "--complexity must be low, medium or high, not 'hgih' — did you mean 'high'?"
      ),
      (
        ["workouts", "sort", "dat"], 65,
        "the order must be distance, complexity, date or none, not 'dat' — did you mean 'date'?"
      ),
      (
        ["settings", "set", "distanceUnit", "miels"], 65,
        "invalid value for distanceUnit: \"miels\" is not kilometers or miles — did you mean 'miles'?"
      ),
      (
        ["settings", "set", "isNotificationsEnabled", "maybe"], 65,
        "invalid value for isNotificationsEnabled: \"maybe\" is not true, false, yes, no, on, off, 1 or 0"
      ),
      (
        ["todos", "ordr", "date"], 64, "unknown command 'ordr' for 'todos' — did you mean 'order'?"
      ),
      (["todos", "list", "--actve"], 64, "unknown option '--actve' — did you mean '--active'?"),
      (
        ["settings", "set", "sleepgoal", "9"], 64,
        "unknown setting 'sleepgoal' — did you mean 'sleepGoal'?"
      ),
    ])
  func invalidValues(arguments: [String], exitCode: Int32, message: String) {
    expectFailure(arguments, exitCode: exitCode, message: message)
  }

  @Test("the '--' hint only where the command takes a value; --done suggests --completed")
  func dashHints() {
    let list = diary.run("todos", "list", "-x")
    #expect(list.exitCode == 64)
    #expect(!list.errorOutput.contains("'--'"))
    let add = diary.run("todos", "add", "-x")
    #expect(
      add.errorOutput.hasPrefix(
        "diary: error: unknown option '-x' (to give it as a value, put it after '--': "
          + "diary todos add -- -x)\n"))
    let done = diary.run("todos", "list", "--done")
    #expect(done.exitCode == 64)
    #expect(
      done.errorOutput.hasPrefix(
        "diary: error: unknown option '--done' — did you mean '--completed'?\n"))
  }

  @Test("diary help help explains help; -v and -j suggest --version and --json")
  func helpAndShortOptions() {
    let help = diary.run("help", "help")
    #expect(help.exitCode == 0)
    #expect(help.output.hasPrefix("OVERVIEW: Show help for diary, a group or a command.\n"))
    #expect(help.output.contains("USAGE: diary help [<group> [<command>]]"))
    #expect(
      diary.run("-v").errorOutput.hasPrefix(
        "diary: error: unknown option '-v' — did you mean '--version'?\n"))
    #expect(
      diary.run("todos", "list", "-j").errorOutput.hasPrefix(
        "diary: error: unknown option '-j' — did you mean '--json'?\n"))
  }

  @Test(
    "top-level errors end with the usage line like the others",
    arguments: [
      ["--frob"], ["-v"], ["frob"], ["--data-dir", "/tmp"], ["--data-dir"], ["help", "frob"],
    ])
  func topLevelUsage(arguments: [String]) {
    let result = diary.run(arguments)
    #expect(result.exitCode == 64)
    #expect(
      result.errorOutput.hasSuffix(
        "\nusage: diary [--data-dir DIR] [--json] <settings|todos|workouts|sync|undo|redo|help> "
          + "[<command>] [args]\n"
      ),
      "\(arguments): \(result.errorOutput)")
  }

  @Test("a second --data-dir or --json is an error, like any repeated option")
  func repeatedGlobalOptions() {
    expectFailure(
      [
        "--data-dir", folder.file("a").path, "todos", "add", "x", "--data-dir",
        folder.file("b").path,
      ],
      exitCode: 64, message: "--data-dir is given twice")
    let twice = diary.run("--json", "todos", "list", "--json")
    #expect(twice.exitCode == 64)
    #expect(
      twice.errorOutput.hasPrefix(
        #"{"error": {"exitCode": 64, "message": "--json is given twice", "#))
  }

  @Test("settings list fits in 80 columns, or in the terminal's width")
  func settingsListWidth() throws {
    #expect(
      diary.run(
        "settings", "set", "anAppsSettingWithAVeryLongNameIndeed",
        String(repeating: "wide ", count: 30),
        "--type", "string"
      ).exitCode == 0)
    #expect(diary.run("settings", "set", "sleepGoal", "7.25").exitCode == 0)
    let narrow = diary.run("settings", "list").output
    for line in narrow.split(separator: "\n") {
      #expect(line.count <= 80, "\(line.count) columns: \(line)")
    }
    #expect(narrow.contains("\n  Hours of sleep to aim for each night\n"))
    let goal = narrow.split(separator: "\n").first { $0.hasPrefix("sleepGoal ") }
    #expect(goal?.contains(" 7.25 *  ") == true, "\(narrow)")
    #expect(
      narrow.contains("anAppsSettingWithAVeryLongNameIndeed  wide wide"),
      "the allowed values, the default and the value give way before the key")
    // At 40 columns, a value cut keeps its marker.
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    var tiny = diary
    tiny.environment["COLUMNS"] = "40"
    let cut = tiny.run("settings", "list").output
    for line in cut.split(separator: "\n") {
      #expect(line.count <= 40, "\(line.count) columns: \(line)")
    }
    let unit = cut.split(separator: "\n").first { $0.hasPrefix("distanceUnit ") }
    #expect(unit?.contains("… *") == true, "\(cut)")
    var wide = diary
    wide.environment["COLUMNS"] = "300"
    let one = wide.run("settings", "list").output
    let sleep = try #require(one.split(separator: "\n").first { $0.hasPrefix("sleepGoal") })
    #expect(sleep.hasSuffix("Hours of sleep to aim for each night"))
    #expect(one.contains(String(repeating: "wide ", count: 29)))
  }

  // MARK: JSON that scripts can use

  @Test("empty arrays and objects print as [] and {}")
  func emptyJSON() {
    #expect(diary.run("todos", "list", "--json").output == "[]\n")
    #expect(diary.run("workouts", "list", "--json").output == "[]\n")
    #expect(diary.run("todos", "list", "--search", "x", "--json").output == "[]\n")
    #expect(diary.run("workouts", "stats", "--json").output.contains(#""weeks" : []"#))
    folder.write(#"{"version": 1, "values": {"layout": {}, "tags": []}}"#, to: "settings.json")
    let layout = diary.run("settings", "get", "layout", "--json").output
    #expect(layout.contains(#""value" : {}"#))
    #expect(diary.run("settings", "get", "tags", "--json").output.contains(#""value" : []"#))
  }

  @Test("stats: longestDistance is null with no workouts; allowedValues an array or a range")
  func statsAndAllowedValues() throws {
    let stats = try object(diary.run("workouts", "stats", "--json"))
    #expect(stats.keys.contains("longestDistance"))
    #expect(stats["longestDistance"] is NSNull)
    #expect(diary.run("workouts", "add", "Run", "--distance", "5").exitCode == 0)
    #expect(try object(diary.run("workouts", "stats", "--json"))["longestDistance"] as? Double == 5)
    let entries = try list(diary.run("settings", "list", "--json"))
    #expect(entries[0]["allowedValues"] as? [String: Double] == ["min": 0, "max": 24])
    #expect(entries[1]["allowedValues"] as? [Bool] == [true, false])
    #expect(entries[2]["allowedValues"] as? [String] == ["kilometers", "miles"])
  }

  @Test("settings reset KEY --json prints the object settings set prints; --json --version")
  func resetAndVersionJSON() throws {
    let set = try object(diary.run("settings", "set", "distanceUnit", "mi", "--json"))
    let reset = try object(diary.run("settings", "reset", "distanceUnit", "--json"))
    #expect(Set(set.keys) == Set(reset.keys))
    #expect(set["value"] as? String == "miles" && reset["value"] as? String == "kilometers")
    #expect(
      try object(diary.run("--json", "--version"))["version"] as? String == StoresVersion.current)
    #expect(
      try object(diary.run("--version", "--json"))["version"] as? String == StoresVersion.current)
  }
}
