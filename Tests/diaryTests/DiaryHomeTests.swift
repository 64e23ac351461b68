import Foundation
import StoreTesting
import Testing

/// Where `diary` keeps its data when it has no usable home folder (issue 12, item 11): an
/// error that names the three fixes (exit 78), and no folder created anywhere.
@Suite(
  "diary without a usable home folder",
  .enabled(if: TestPlatform.canRunAsAnotherUser, "runs diary as another user: setpriv, as root"))
struct DiaryHomeTests {
  let folder = TemporaryFolder()

  /// `diary` as a user without a passwd entry, started in a folder anyone can write in, with
  /// `HOME` set to `home` (unset for `nil`) and neither `DIARY_HOME`, `STORES_STATE_HOME` nor
  /// the XDG variables.
  func homeless(home: String?) -> DiaryProcess {
    var diary = DiaryProcess(folder: folder.url)
    diary.environment["DIARY_HOME"] = nil
    diary.environment["STORES_STATE_HOME"] = nil
    diary.environment["HOME"] = home
    diary.launcher = TestPlatform.asUser(54321)
    diary.currentDirectory = folder.url
    return diary
  }

  init() {
    chmod(folder.url.path, 0o777)
  }

  @Test(
    "HOME empty, relative or unset, and no home in the password database: 78, the fixes",
    arguments: ["", "relative/home", nil])
  func noHome(home: String?) throws {
    try #require(getpwuid(54321) == nil, "uid 54321 must have no passwd entry")
    let emptyExisted = FileManager.default.fileExists(atPath: "/var/empty")
    let diary = homeless(home: home)
    for arguments in [
      ["todos", "add", "x"], ["todos", "list"], ["settings", "set", "sleepGoal", "7"],
      ["settings", "path"],
    ] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 78, "\(arguments): \(result.errorOutput)")
      #expect(result.output.isEmpty)
      let message = result.errorOutput
      #expect(message.hasPrefix("diary: error: no usable home folder for the data: "))
      #expect(
        message.contains(
          "set HOME to your home folder, or DIARY_HOME to the folder to keep the "
            + "data in, or pass --data-dir DIR"), "\(message)")
      #expect(message.split(separator: "\n").count == 1)
    }
    #expect(folder.names.isEmpty, "created \(folder.names) in the current folder")
    #expect(FileManager.default.fileExists(atPath: "/var/empty") == emptyExisted)
  }

  @Test("each fix works: --data-dir, DIARY_HOME, HOME")
  func fixes() throws {
    var diary = homeless(home: "")
    let data = folder.file("data")
    #expect(diary.run("--data-dir", data.path, "todos", "add", "x").exitCode == 0)
    #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("todos.json").path))
    diary.environment["DIARY_HOME"] = folder.file("diary-home").path
    #expect(diary.run("todos", "add", "y").exitCode == 0)
    diary.environment["DIARY_HOME"] = nil
    let home = folder.file("home")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    chmod(home.path, 0o777)
    diary.environment["HOME"] = home.path
    #expect(diary.run("todos", "add", "z").exitCode == 0)
    #expect(
      FileManager.default.fileExists(
        atPath: home.appendingPathComponent(".local/share/diary/todos.json").path))
  }
}
