import Foundation
import StoreTesting
import Stores
import Testing

@testable import diary

/// The habits of a released tool (issue 36: 6), end to end on the built binary: `diary` alone
/// helps, the usage line names every command, `--version` says what the code is and which file
/// format it writes, and with `--json` every error is JSON with the exit code of its text.
@Suite("diary as a released tool")
@MainActor
struct DiaryReleaseTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// Every command `diary` takes after its options, from the declarations: each group, and
  /// help.
  static var commandNames: [String] { Diary.groups.map(\.name) + [Help.helpCommand] }

  @Test("diary alone prints the help on standard output and exits 0")
  func aloneHelps() {
    let alone = diary.run()
    #expect(alone.exitCode == 0)
    #expect(alone.errorOutput.isEmpty)
    #expect(alone.output == diary.run("--help").output)
    #expect(alone.output.hasPrefix("OVERVIEW: "))
    #expect(folder.snapshot().filter { !$0.key.hasPrefix("home/") }.isEmpty)
  }

  @Test("the usage line lists every group and command, and the synopsis each group's commands")
  func usageLineListsEveryCommand() throws {
    // A mistake's usage line is one line, however wide.
    let mistake = diary.run("frob")
    #expect(mistake.exitCode == 64)
    let usage = try #require(
      mistake.errorOutput.components(separatedBy: "\nusage: ").last?.dropLast(),
      "\(mistake.errorOutput)")
    let names = try #require(
      usage.split(separator: "<").dropFirst().first?.split(separator: ">").first, "\(usage)")
    #expect(names.split(separator: "|").map(String.init) == Self.commandNames)
    // The help's usage line is the same, wrapped to the terminal.
    let help = diary.run("--help").output
    let helpUsage = try #require(
      help.components(separatedBy: "USAGE: ").dropFirst().first?
        .components(separatedBy: "\n\n").first)
    #expect(helpUsage.split(whereSeparator: \.isWhitespace).joined(separator: " ") == usage)
    // And the synopsis has a line for every command of every group.
    let synopsis = "\n" + (help.components(separatedBy: "COMMANDS:\n").last ?? "")
    for group in Diary.groups {
      for command in group.commands {
        let line = group.isCommand ? "diary \(group.name)" : "diary \(group.name) \(command.name)"
        #expect(synopsis.contains("\n  \(line)\n") || synopsis.contains("\n  \(line) "), "\(line)")
      }
    }
    #expect(synopsis.contains("\n  \(Help.helpUsage)\n"))
  }

  @Test("--version says which version, that the code is unreleased, and the file format")
  func version() throws {
    let fileFormat = StoresVersion.fileFormat
    let line = diary.run("--version")
    #expect(line.exitCode == 0)
    #expect(
      line.output
        == (StoresVersion.isRelease
          ? "diary \(StoresVersion.current) (writes file format \(fileFormat))\n"
          : "diary \(StoresVersion.current) (unreleased; writes file format \(fileFormat))\n"))
    // No tag exists: the code says it is unreleased.
    #expect(!StoresVersion.isRelease)
    #expect(StoresVersion.current.hasSuffix("-dev"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(diary.run("--version", "--json").output.utf8))
        as? [String: Any])
    #expect(json["version"] as? String == StoresVersion.current)
    #expect(json["isRelease"] as? Bool == false)
    #expect(json["fileFormat"] as? Int == fileFormat)
    // The format named is the one every file diary writes has.
    for arguments in [
      ["todos", "add", "Buy milk"], ["workouts", "add", "Run", "--distance", "5km"],
      ["settings", "set", "sleepGoal", "7"],
    ] {
      #expect(diary.run(arguments).exitCode == 0)
    }
    for file in ["todos.json", "workouts.json", "settings.json"] {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file(file)))
          as? [String: Any])
      #expect(object["version"] as? Int == fileFormat, "\(file)")
    }
    #expect(StateFileCoding.writtenVersion(of: WorkoutsStore.State.self) == fileFormat)
    #expect(StateFileCoding.writtenVersion(of: KeyValues.self) == fileFormat)
  }

  @Test("the README's diary transcripts are real runs")
  func readmeTranscripts() throws {
    let readme = try String(
      contentsOf: fixturesFolder.deletingLastPathComponent().appendingPathComponent("README.md"),
      encoding: .utf8)
    // The code blocks whose first line is a `$ diary` command, with the output after each.
    var blocks: [[Substring]] = []
    var block: [Substring]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        if let finished = block, finished.first?.hasPrefix("$ diary ") == true {
          blocks.append(finished)
        }
        block = block == nil ? [] : nil
      } else {
        block?.append(line)
      }
    }
    try #require(blocks.count >= 2, "the README shows diary --version and a JSON error")
    for block in blocks {
      let replay = TemporaryFolder()
      var steps: [(command: String, output: [String])] = []
      for line in block {
        if line.hasPrefix("$ ") {
          steps.append((String(line.dropFirst(2)), []))
        } else {
          steps[steps.count - 1].output.append(String(line))
        }
      }
      for (command, expected) in steps {
        let words = try #require(ReadmeTranscriptTests.words(command), "\(command)")
        try #require(words.first == "diary", "not a diary command: \(command)")
        let result = DiaryProcess(folder: replay.url).run(Array(words.dropFirst()))
        let printed = (result.output + result.errorOutput).split(
          separator: "\n", omittingEmptySubsequences: false
        ).dropLast().map(String.init)
        #expect(printed == expected, "$ \(command)")
      }
    }
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
