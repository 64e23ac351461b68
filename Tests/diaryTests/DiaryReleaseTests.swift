import Foundation
import StoreTesting
import Stores
import Testing

/// The habits of a released tool (issue 36: 6), end to end on the built binary: `diary` alone
/// helps, the usage line names every command, `--version` says what the code is and which file
/// format it writes, and with `--json` every error is JSON with the exit code of its text.
@Suite("diary as a released tool")
@MainActor
struct DiaryReleaseTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

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
