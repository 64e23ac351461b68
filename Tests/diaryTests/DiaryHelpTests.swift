import Foundation
import StoreTesting
import Stores
import Testing

@testable import diary

/// `diary`'s help, usage lines and version, end to end: `diary` alone helps, help at every
/// level wraps to the terminal, every usage line names every command, options that look like
/// others are suggested, and `--version` says what the code is and which file format it
/// writes.
@Suite("diary help, usage and version")
struct DiaryHelpTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// Every command `diary` takes after its options, from the declarations: each group, and
  /// help.
  @MainActor
  static var commandNames: [String] { Diary.groups.map(\.name) + [Help.helpCommand] }

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

  @Test("diary alone prints the help on standard output and exits 0")
  @MainActor
  func aloneHelps() {
    let alone = diary.run()
    #expect(alone.exitCode == 0)
    #expect(alone.errorOutput.isEmpty)
    #expect(alone.output == diary.run("--help").output)
    #expect(alone.output.hasPrefix("OVERVIEW: "))
    #expect(folder.snapshot().filter { !$0.key.hasPrefix("home/") }.isEmpty)
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

  @Test("required options are shown as required, and an option-like title has a way out")
  func usage() {
    #expect(
      diary.run("todos", "move", "--help").output.contains("USAGE: diary todos move N… --to P"))
    let result = diary.run("todos", "add", "-x")
    #expect(result.exitCode == 64)
    #expect(result.errorOutput.contains("put it after '--'"))
    #expect(diary.run("todos", "add", "--", "-x").exitCode == 0)
  }

  @Test(
    "help wraps at the terminal's width (80 in a pipe), usage lines between options, never inside one",
    arguments: [nil, 60, 40] as [Int?])
  func helpFitsTheWidth(columns: Int?) {
    var run = diary
    if let columns { run.environment["COLUMNS"] = "\(columns)" }
    for arguments in [
      ["--help"], ["help", "help"], ["todos", "--help"], ["workouts", "import", "--help"],
      ["todos", "edit", "--help"],
    ] {
      let help = run.run(arguments).output
      for line in help.split(separator: "\n") {
        #expect(line.count <= columns ?? 80, "\(arguments): \(line.count) columns: \(line)")
      }
      // Each bracketed option is whole on one line.
      for line in help.split(separator: "\n") where line.hasPrefix("USAGE:") || line.hasPrefix("  ")
      {
        #expect(
          line.count(where: { $0 == "[" }) == line.count(where: { $0 == "]" }),
          "\(arguments): \(line)")
      }
    }
  }

  @Test("help paragraphs are wrapped once: no line could take the next one's first word")
  func helpWraps() {
    let overview = diary.run("--help").output
    let commands = overview.components(separatedBy: "COMMANDS:\n")[1].components(
      separatedBy: "\n\n")[0]
      .split(separator: "\n").map {
        $0.split(separator: " ").dropFirst().prefix(2).map(String.init)
      }
      .filter { $0.count == 2 && !$0[0].hasPrefix("[") && $0[0] != "<group>" }
    #expect(commands.count > 20)
    for command in commands {
      let help = diary.run(["help"] + command).output
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for (line, next) in zip(lines, lines.dropFirst())
      where !line.isEmpty && !next.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ")
        && !next.hasPrefix("Example") && next.first?.isLowercase == true
      {
        let word = next.split(separator: " ").first.map(String.init) ?? ""
        #expect(line.count + 1 + word.count > 80, "\(command): '\(line)' / '\(next)'")
      }
    }
  }

  // MARK: Usage lines

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

  @Test("the usage line lists every group and command, and the synopsis each group's commands")
  @MainActor
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

  // MARK: Version

  @Test("--version says which version, that the code is unreleased, and the file format")
  @MainActor
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
      // The newest format is the workouts' (3); todos and settings files are format 2.
      #expect(
        object["version"] as? Int == (file == "workouts.json" ? fileFormat : 2), "\(file)")
    }
    #expect(StateFileCoding.writtenVersion(of: WorkoutsStore.State.self) == fileFormat)
    #expect(StateFileCoding.writtenVersion(of: TodosStore.State.self) == 2)
    #expect(StateFileCoding.writtenVersion(of: KeyValues.self) == 2)
  }
}
