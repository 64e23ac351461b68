import Foundation
import StoreTesting
import Stores
import Testing

@testable import diary

/// `--json` output that scripts can use: empty lists and objects as `[]` and `{}`, a missing
/// value as `null`, and the same object for `settings set` and `reset`.
@Suite("diary --json output")
struct DiaryJSONTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

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
    #expect(entries[2]["allowedValues"] as? [String] == ["kilometers", "miles", "meters", "yards"])
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

/// `--json` errors: a JSON object on standard error, with the exit code and message the text
/// has, for every kind of error.
@Suite("diary --json errors")
struct DiaryJSONErrorTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  init() {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    folder.write("{\n  \"workouts\": [1,]\n}\n", to: "workouts.json")
  }

  /// The error `result` printed with `--json`, checked for its shape: nothing on standard
  /// output, one line on standard error, an object `{"error": {"exitCode", "message", "saved",
  /// "usage"}}`, its exit code the process's.
  func error(
    _ result: DiaryProcess.Result, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String: Any] {
    #expect(result.output.isEmpty, sourceLocation: sourceLocation)
    #expect(
      result.errorOutput.hasSuffix("}}\n") && result.errorOutput.count(where: \.isNewline) == 1,
      "\(result.errorOutput)", sourceLocation: sourceLocation)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.errorOutput.utf8)) as? [String: Any],
      "\(result.errorOutput)", sourceLocation: sourceLocation)
    #expect(Array(object.keys) == ["error"], sourceLocation: sourceLocation)
    let error = try #require(object["error"] as? [String: Any], sourceLocation: sourceLocation)
    #expect(
      Set(error.keys) == ["exitCode", "message", "saved", "usage"], sourceLocation: sourceLocation)
    #expect(error["exitCode"] as? Int == Int(result.exitCode), sourceLocation: sourceLocation)
    return error
  }

  @Test(
    "an error with --json is the text's message and exit code, as JSON on standard error",
    arguments: [
      // Usage errors (64), also before --json is read, and without a command.
      (["frob"], 64),
      (["--frob", "todos", "list"], 64),
      (["todos", "add"], 64),
      (["todos", "list", "--done"], 64),
      // Bad data (65): a value, a number that is not there, a corrupt file.
      (["todos", "add", "x", "--priority", "high"], 65),
      (["todos", "done", "9"], 65),
      (["workouts", "list"], 65),
    ] as [([String], Int32)])
  func sameAsText(arguments: [String], exitCode: Int32) throws {
    let before = folder.snapshot().filter { !$0.key.hasPrefix("home/") }
    let text = diary.run(arguments)
    #expect(text.exitCode == exitCode, "\(text.errorOutput)")
    let parts = text.errorOutput.dropLast().components(separatedBy: "\nusage: ")
    let message = try #require(parts.first?.components(separatedBy: "diary: error: ").last)
    for line in [arguments + ["--json"], ["--json"] + arguments] {
      let json = diary.run(line)
      #expect(json.exitCode == exitCode, "\(line): \(json.errorOutput)")
      let error = try error(json)
      #expect(error["message"] as? String == message, "\(line)")
      #expect((error["usage"] as? String) == parts.dropFirst().first, "\(line)")
      #expect(error["usage"] is NSNull == (exitCode != 64), "\(line)")
      #expect(error["saved"] is NSNull)
    }
    #expect(folder.snapshot().filter { !$0.key.hasPrefix("home/") } == before)
  }

  @Test("a missing file and a data folder that is a file (66), no command (64), as JSON")
  func filesAndMissingCommand() throws {
    var diary = self.diary
    diary.environment["DIARY_HOME"] = folder.file("elsewhere").path
    let notThere = try error(diary.run("workouts", "import", "missing.csv", "--json"))
    #expect(notThere["exitCode"] as? Int == 66)
    #expect((notThere["message"] as? String)?.contains("missing.csv") == true)
    diary.environment["DIARY_HOME"] = folder.file("todos.json").path
    let unreadable = try error(diary.run("todos", "list", "--json"))
    #expect(unreadable["exitCode"] as? Int == 66)
    #expect((unreadable["message"] as? String)?.contains("Not a directory") == true)
    let missing = try error(self.diary.run("--json"))
    #expect(missing["exitCode"] as? Int == 64)
    #expect((missing["message"] as? String)?.hasPrefix("missing command: ") == true)
    #expect((missing["usage"] as? String)?.hasPrefix("diary [--data-dir DIR] [--json] <") == true)
  }

  @Test("--json after -- is a value, not a request for JSON; a successful command prints as before")
  func valuesAndSuccess() throws {
    let added = diary.run("todos", "add", "--json", "--", "--json")
    #expect(added.exitCode == 0)
    #expect(added.errorOutput.isEmpty)
    let todo = try #require(
      try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])
    #expect(todo["title"] as? String == "--json")
    let text = diary.run("todos", "add", "--", "--json")
    #expect(text.output == "Added todo 1: --json\n")
    #expect(!Parser.asksForJSON(["todos", "add", "--", "--json"]))
    #expect(!Parser.asksForJSON(["--data-dir", "--json", "todos", "list"]))
    #expect(Parser.asksForJSON(["--json=yes", "todos", "list"]))
  }
}
