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
}
