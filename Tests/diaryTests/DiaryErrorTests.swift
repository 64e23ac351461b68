import Foundation
import StoreTesting
import Testing

/// Every mistake in a command line, on copies of the fixtures: exit 64 for its shape, with the
/// usage line, or 65 for a value, with what is expected — a message on standard error that
/// explains, nothing on standard output, and every data file byte for byte as it was.
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
        "\"miels\" is not kilometers, miles, meters or yards — did you mean 'miles'?"
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
}

/// Mistyped and hostile arguments on a data folder of its own: a did-you-mean for a near
/// miss, the `--` way out only where a value is taken, a repeated option, numbers no one
/// should type and an unknown flag in every position — refused, changing nothing — and
/// choices read in any case.
@Suite("diary errors: mistyped and hostile arguments")
struct DiaryArgumentErrorTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

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
        "invalid value for distanceUnit: \"miels\" is not kilometers, miles, meters or yards — did you mean 'miles'?"
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

  @Test(
    "hostile numbers and indexes are refused; duplicate indexes count once",
    arguments: [
      ["todos", "done", "1x"], ["todos", "done", "99999999999999999999999"],
      ["todos", "done", "0"],
      ["todos", "done", "-5"], ["todos", "done", ""], ["todos", "done", " 1"],
      ["todos", "done", "1.0"],
      ["todos", "add", "x", "--priority", "1e3"], ["todos", "add", "x", "--priority", "0x10"],
      ["workouts", "add", "Run", "--distance", "1e400"],
      ["workouts", "add", "Run", "--distance", "+5"],
      ["settings", "set", "sleepGoal", "8 "], ["settings", "set", "sleepGoal", "٨"],
    ])
  func hostileNumbers(arguments: [String]) {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    let before = folder.snapshot()
    let result = diary.run(arguments)
    #expect(result.exitCode == 65, "\(arguments): \(result.errorOutput)")
    #expect(result.errorOutput.hasPrefix("diary: error: "))
    #expect(folder.snapshot() == before)
  }

  @Test("an unknown flag in every position is a usage error that changes nothing")
  func unknownFlagEverywhere() {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    let line = ["todos", "add", "milk", "--priority", "2"]
    for position in 0...line.count {
      var arguments = line
      arguments.insert("--bogus", at: position)
      let before = folder.snapshot()
      let result = diary.run(arguments)
      #expect(result.exitCode == 64, "\(arguments)")
      // Right after --priority, "--bogus" is its value and "2" is the stray argument.
      #expect(
        result.errorOutput.contains(
          position == 4 ? "unexpected argument '2'" : "unknown option '--bogus'"))
      #expect(folder.snapshot() == before)
    }
  }

  @Test("choices are read in any case")
  func anyCase() {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    #expect(diary.run("todos", "order", "Priority").output == "Ordered by priority.\n")
    #expect(
      diary.run("workouts", "add", "Run", "--distance", "5", "--complexity", "HIGH").exitCode == 0)
    #expect(diary.run("workouts", "sort", "Distance").exitCode == 0)
  }
}
