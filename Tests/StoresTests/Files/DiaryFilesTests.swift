import Foundation
import StoreTesting
import Stores
import Testing

/// `DiaryFiles` finds the files exactly where `diary` keeps them, and never a folder outside a
/// real home folder.
@Suite("DiaryFiles: one place for the app and the tool")
struct DiaryFilesTests {
  let folder = TemporaryFolder()

  @Test("a folder holds the three files")
  func inFolder() {
    let files = DiaryFiles(folder: URL(fileURLWithPath: "/data", isDirectory: true))
    #expect(files.settings.path == "/data/settings.json")
    #expect(files.todos.path == "/data/todos.json")
    #expect(files.workouts.path == "/data/workouts.json")
  }

  @Test("DIARY_HOME comes first, whatever HOME and XDG say; empty is unset")
  func diaryHome() throws {
    let files = try DiaryFiles.standard(environment: [
      "DIARY_HOME": "/srv/diary", "HOME": "/nowhere", "XDG_CONFIG_HOME": "/etc",
    ])
    #expect(files == DiaryFiles(folder: URL(fileURLWithPath: "/srv/diary", isDirectory: true)))
    let home = folder.url.path
    let unset = try DiaryFiles.standard(environment: ["DIARY_HOME": "", "HOME": home])
    #expect(unset.todos.path.hasPrefix(home + "/"))
  }

  #if !canImport(Darwin)
    @Test("the XDG places, with empty or relative variables ignored")
    func xdg() throws {
      let home = folder.url.path
      let defaults = try DiaryFiles.standard(environment: ["HOME": home])
      #expect(defaults.settings.path == "\(home)/.config/diary/settings.json")
      #expect(defaults.todos.path == "\(home)/.local/share/diary/todos.json")
      #expect(defaults.workouts.path == "\(home)/.local/share/diary/workouts.json")

      let set = try DiaryFiles.standard(environment: [
        "HOME": home, "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "/share",
      ])
      #expect(set.settings.path == "/cfg/diary/settings.json")
      #expect(set.todos.path == "/share/diary/todos.json")

      for ignored in ["", "relative/path", "./here"] {
        let files = try DiaryFiles.standard(environment: [
          "HOME": home, "XDG_CONFIG_HOME": ignored, "XDG_DATA_HOME": ignored,
        ])
        #expect(files == defaults, "XDG value \(ignored.debugDescription)")
      }
    }
  #else
    @Test("one folder in Application Support")
    func applicationSupport() throws {
      let home = folder.url.path
      let files = try DiaryFiles.standard(environment: ["HOME": home])
      #expect(files.settings.path == "\(home)/Library/Application Support/diary/settings.json")
      #expect(files.todos.deletingLastPathComponent() == files.settings.deletingLastPathComponent())
    }
  #endif

  @Test("an empty or relative HOME is ignored for the user's home in the password database")
  func homeFromPasswordDatabase() throws {
    let fromDatabase = try DiaryFiles.standard(environment: [:])
    for home in ["", "relative", "."] {
      #expect(try DiaryFiles.standard(environment: ["HOME": home]) == fromDatabase)
    }
    #expect(fromDatabase.settings.path.hasPrefix("/"))
  }

  @Test("a home folder that does not exist is an error that says what to set, not a folder made")
  func missingHome() {
    let missing = folder.file("no-such-home").path
    let error = #expect(throws: DiaryFiles.NoHomeFolder.self) {
      try DiaryFiles.standard(environment: ["HOME": missing])
    }
    #expect(error?.description.contains("HOME, \(missing), is not an existing folder") == true)
    #expect(error?.description.contains("set HOME") == true)
    #expect(error?.description.contains("DIARY_HOME") == true)
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test("a sandboxed app's home is its container: the standard files are refused, saying why")
  func sandboxedHome() throws {
    let container = folder.file("Library/Containers/com.example.diary/Data")
    try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
    let sandboxed = ["HOME": container.path, "APP_SANDBOX_CONTAINER_ID": "com.example.diary"]
    let error = #expect(throws: DiaryFiles.NoHomeFolder.self) {
      try DiaryFiles.standard(environment: sandboxed)
    }
    #expect(error?.description.contains("sandboxed (com.example.diary)") == true)
    #expect(error?.description.contains("DiaryFiles.appGroup") == true)
    #expect(error?.description.contains("DIARY_HOME") == true)
    var chosen = sandboxed
    chosen["DIARY_HOME"] = folder.file("group").path
    #expect(
      try DiaryFiles.standard(environment: chosen) == DiaryFiles(folder: folder.file("group")))
  }

  @Test("an App Group's files are in its container's Application Support; no container, an error")
  func appGroup() throws {
    let container = folder.file("Group Containers/group.com.example.diary")
    let files = try DiaryFiles.appGroup("group.com.example.diary") { identifier in
      identifier == "group.com.example.diary" ? container : nil
    }
    let expected = container.appendingPathComponent("Library/Application Support/diary")
    #expect(files == DiaryFiles(folder: expected))
    let error = #expect(throws: DiaryFiles.NoHomeFolder.self) {
      try DiaryFiles.appGroup("group.other") { _ in nil }
    }
    #expect(error?.description.contains("no container for the App Group group.other") == true)
    #expect(error?.description.contains("entitlements") == true)
  }

  @Test("the App Group lookup of the platform: none off Apple platforms, never a crash")
  func appGroupOfThisPlatform() {
    #expect(throws: DiaryFiles.NoHomeFolder.self) {
      try DiaryFiles.appGroup("group.no.such.group.stores-tests")
    }
  }

  @Test("a store opened on the standard files and diary's files are the same files")
  @MainActor
  func sameFilesAsTheTool() throws {
    let environment = ["HOME": folder.url.path]
    let files = try DiaryFiles.standard(environment: environment)
    let settings = try SettingsStore(contentsOf: files.settings)
    settings.sleepGoal = 6
    #expect(
      try SettingsStore(contentsOf: DiaryFiles.standard(environment: environment).settings)
        .sleepGoal == 6)
  }
}
