import Foundation
import StoreTesting
import Testing

/// Every error path of the built `diary`: the exit code, a message on stderr that explains,
/// nothing on stdout, and every data file byte for byte as it was.
@Suite("diary errors, end to end")
struct DiaryErrorTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  init() {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    folder.copy(fixturesFolder.appendingPathComponent("workouts/sample.json"), as: "workouts.json")
    folder.copy(fixturesFolder.appendingPathComponent("settings/valid.json"), as: "settings.json")
  }

  @Test(
    "command-line mistakes exit 64 with the usage line",
    arguments: [
      (["todo", "list"], "did you mean 'todos'?"),
      (["todos", "ad", "x"], "did you mean 'add'?"),
      (["todos", "add", "x", "--priorty", "1"], "did you mean '--priority'?"),
      (
        ["settings", "get", "sleepgoal"], "unknown setting 'sleepgoal' — did you mean 'sleepGoal'?"
      ),
      (
        ["settings", "set", "colour", "red"],
        "unknown setting 'colour' — the settings are sleepGoal"
      ),
      (["todos", "add"], "missing TITLE"),
      (["todos", "move", "1"], "missing --to P"),
      (["workouts", "add", "Run"], "missing --distance DISTANCE"),
      (["todos", "list", "--active", "--completed"], "cannot be used together"),
      (["settings", "reset", "a", "b"], "unexpected argument 'b'"),
      (["--data-dir", "/tmp"], "missing command"),
    ])
  func usageErrors(arguments: [String], message: String) {
    expectFailure(arguments, exitCode: 64, message: message)
    #expect(diary.run(arguments).errorOutput.contains("\nusage: "))
  }

  @Test(
    "invalid values exit 65 and say what is expected",
    arguments: [
      (["settings", "set", "sleepGoal", "25"], "\"25\" is out of range 0...24"),
      (["settings", "set", "sleepGoal", "nan"], "is not a number"),
      (["settings", "set", "sleepGoal", "inf"], "is not a number"),
      (["settings", "set", "sleepGoal", "7.5h"], "is not a number"),
      (
        ["settings", "set", "isNotificationsEnabled", "maybe"],
        "\"maybe\" is not true, false, yes, no, on, off, 1 or 0"
      ),
      (
        ["settings", "set", "distanceUnit", "miels"],
        "\"miels\" is not kilometers or miles — did you mean 'miles'?"
      ),
      (["settings", "set", "isNotificationsEnabled", "ture"], "did you mean 'true'?"),
      (
        ["workouts", "sort", "speed"],
        "the order must be distance, complexity, date or none, not 'speed'"
      ),
      (["todos", "order", "prio"], "did you mean 'priority'?"),
      (["todos", "order", "dates"], "did you mean 'date'?"),
      (["todos", "add", "x", "--priority", "2x"], "--priority must be a whole number, not '2x'"),
      (["todos", "add", "x", "--priority", "99999999999999999999"], "must be a whole number"),
      (["todos", "add", "x", "--date", "2026-13-01"], "--date must be a date such as 2026-11-29"),
      (["todos", "add", "x", "--date", "2026-11-29T25:00"], "not '2026-11-29T25:00'"),
      (["todos", "add", ""], "a todo needs a title"),
      (["todos", "add", " \n "], "a todo needs a title"),
      (["todos", "done", "0"], "there is no todo 0: numbers start at 1"),
      (["todos", "done", "-1"], "there is no todo -1: numbers start at 1"),
      (["todos", "done", "5"], "there is no todo 5: the list has 4 todos"),
      (["todos", "remove", "1", "1x"], "a todo number must be a whole number, not '1x'"),
      (["todos", "move", "1", "--to", "5"], "--to must be between 1 and 4"),
      (["todos", "list", "--min-priority", "high"], "--min-priority must be a whole number"),
      (["workouts", "add", "Run", "--distance", "-3"], "--distance must be a distance from 0"),
      (["workouts", "add", "Run", "--distance", "nan"], "not 'nan'"),
      (["workouts", "add", "Run", "--distance", "5 furlongs"], "not '5 furlongs'"),
      (["workouts", "add", "Run", "--distance", "100001"], "not '100001'"),
      (
        ["workouts", "add", "Run", "--distance", "5", "--complexity", "hgh"], "did you mean 'high'?"
      ),
      (["workouts", "add", "  ", "--distance", "5"], "a workout needs a name"),
      (["workouts", "remove", "9"], "there is no workout 9: the list has 4 workouts"),
    ])
  func invalidValues(arguments: [String], message: String) {
    expectFailure(arguments, exitCode: 65, message: message)
  }

  @Test("a corrupt or newer file exits 65 naming the file and the place, and is left alone")
  func corruptFiles() {
    folder.write("{\n  \"todos\": [1,]\n}\n", to: "todos.json")
    for arguments in [["todos", "list"], ["todos", "add", "x"], ["todos", "remove-completed"]] {
      expectFailure(arguments, exitCode: 65, message: "todos.json: line 2, column")
    }
    folder.write(#"{"version": 9, "values": {}}"#, to: "settings.json")
    expectFailure(["settings", "set", "sleepGoal", "7"], exitCode: 65, message: "newer version")
    // A distance typed without its unit needs the settings; showing distances does not.
    expectFailure(
      ["workouts", "add", "Run", "--distance", "5"], exitCode: 65, message: "newer version")
    let before = folder.snapshot()
    for arguments in [["workouts", "list"], ["workouts", "stats"]] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 0, "\(arguments): \(result.errorOutput)")
      #expect(result.output.contains(" km"))
      #expect(
        result.errorOutput.hasPrefix("diary: warning: ")
          && result.errorOutput.contains("newer version")
          && result.errorOutput.hasSuffix("; distances are shown in kilometers\n"))
    }
    #expect(folder.snapshot() == before)
    let added = diary.run("workouts", "add", "Run", "--distance", "5km")
    #expect(added.exitCode == 0)
    #expect(added.output.contains("5.00 km"))
  }

  @Test("a setting whose stored value is invalid is reported, with the fix")
  func invalidStoredSetting() {
    folder.copy(
      fixturesFolder.appendingPathComponent("settings/out-of-range.json"), as: "s/settings.json")
    var diary = self.diary
    diary.environment["DIARY_HOME"] = folder.file("s").path
    let before = folder.snapshot()
    // get agrees with list: the default, and the same one-line warning; exit 0.
    let result = diary.run("settings", "get", "sleepGoal")
    #expect(result.exitCode == 0)
    #expect(result.output == "8\n")
    let warning =
      "diary: warning: sleepGoal in the file is not valid (99 is out of range 0...24); "
      + "using the default — fix it with 'diary settings set sleepGoal VALUE'\n"
    #expect(result.errorOutput == warning)
    let list = diary.run("settings", "list")
    #expect(list.errorOutput.contains(warning))
    #expect(!list.output.contains("warning"))
    let json = diary.run("settings", "get", "sleepGoal", "--json")
    #expect(json.exitCode == 0)
    let entry = try? JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    #expect(entry?["problem"] as? String == "99 is out of range 0...24")
    #expect(entry?["value"] as? Double == 8)
    #expect(folder.snapshot() == before)
    #expect(diary.run("settings", "set", "sleepGoal", "7").exitCode == 0)
  }

  @Test("a read-only data folder exits 73 and changes nothing")
  func readOnlyFolder() {
    #expect(TemporaryFolder.makeReadOnly(folder.url))
    defer { TemporaryFolder.makeWritable(folder.url) }
    expectFailure(["todos", "add", "x"], exitCode: 73, message: "cannot write")
    expectFailure(["settings", "set", "sleepGoal", "6"], exitCode: 73, message: "cannot write")
    #expect(diary.run("todos", "list").exitCode == 0)
  }

  @Test("a data folder that is a file: 66 for reads and writes, which read first")
  func dataFolderIsAFile() {
    let file = folder.write("not a folder", to: "plain")
    var diary = self.diary
    diary.environment["DIARY_HOME"] = file.path
    let before = folder.snapshot()
    for arguments in [
      ["todos", "list"], ["todos", "add", "x"], ["settings", "set", "sleepGoal", "6"],
      ["workouts", "add", "Run", "--distance", "5"],
    ] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 66, "\(arguments): \(result.errorOutput)")
      #expect(
        result.errorOutput.contains("cannot read \(file.path)/") == true
          && result.errorOutput.contains(": Not a directory"), "\(result.errorOutput)")
    }
    #expect(folder.snapshot() == before)
  }
}

/// Mistakes found by trying the tool as a new user, kept fixed.
@Suite("diary, as a new user found it")
struct DiaryNewUserTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("a command that fails on another file changes nothing")
  func failureOnAnotherFile() {
    folder.write("{broken", to: "settings.json")
    let before = folder.snapshot()
    let result = diary.run("workouts", "add", "Run", "--distance", "1")
    #expect(result.exitCode == 65)
    #expect(folder.snapshot() == before)
    #expect(!FileManager.default.fileExists(atPath: folder.file("workouts.json").path))
  }

  @Test("statistics that overflow a hand-edited file are an error, not a crash")
  func overflowingStatistics() {
    folder.write(
      #"{"version": 1, "workouts": [{"id": "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C01", "name": "a", "distance": 1e308, "date": "2026-11-29T07:30:00Z", "complexity": "low"}, {"id": "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C02", "name": "b", "distance": 1.7e308, "date": "2026-11-29T07:30:00Z", "complexity": "low"}]}"#,
      to: "workouts.json")
    let result = diary.run("workouts", "stats", "--json")
    #expect(result.exitCode == 65)
    #expect(
      result.errorOutput.contains(
        #""message": "cannot print this as JSON: recentWeeks[10].distance: inf is not a "#
          + #"number JSON can hold""#))
    #expect(diary.run("workouts", "add", "c", "--distance", "1e308").exitCode == 65)
  }

  @Test("-0 is stored as 0")
  func negativeZero() throws {
    #expect(diary.run("settings", "set", "sleepGoal", "-0").exitCode == 0)
    #expect(
      try String(contentsOf: folder.file("settings.json"), encoding: .utf8).contains(
        #""sleepGoal" : 0"#))
    #expect(diary.run("settings", "get", "sleepGoal", "--json").output.contains(#""value" : 0"#))
  }

  @Test("choices are read in any case")
  func anyCase() {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    #expect(diary.run("todos", "order", "Priority").output == "Ordered by priority.\n")
    #expect(
      diary.run("workouts", "add", "Run", "--distance", "5", "--complexity", "HIGH").exitCode == 0)
    #expect(diary.run("workouts", "sort", "Distance").exitCode == 0)
  }

  @Test("required options are shown as required, and an option-like title has a way out")
  func usage() {
    #expect(
      diary.run("todos", "move", "--help").output.contains("USAGE: diary todos move N… --to P"))
    let result = diary.run("todos", "add", "-x")
    #expect(result.exitCode == 64)
    #expect(result.errorOutput.contains("put it after '--'"))
    #expect(diary.run("todos", "add", "--", "-x").exitCode == 0)
  }
}
