import Foundation
import StoreTesting
import Stores
import Testing

/// `diary` on data files it cannot use, on copies of the fixtures: a corrupt or newer file
/// (65), a read-only data folder (73), a data folder that is a file (66) — each named, with
/// nothing on standard output and every file byte for byte as it was.
@Suite("diary's data files: corrupt, newer, out of reach")
struct DiaryDataFileTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  init() {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    folder.copy(fixturesFolder.appendingPathComponent("workouts/sample.json"), as: "workouts.json")
    folder.copy(fixturesFolder.appendingPathComponent("settings/valid.json"), as: "settings.json")
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
    // The data files stay as they are (`list` records its numbering in the state folder).
    let dataFiles = { folder.snapshot().filter { !$0.key.hasPrefix("home/") } }
    let before = dataFiles()
    for arguments in [["workouts", "list"], ["workouts", "stats"]] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 0, "\(arguments): \(result.errorOutput)")
      #expect(result.output.contains(" km"))
      #expect(
        result.errorOutput.hasPrefix("diary: warning: ")
          && result.errorOutput.contains("newer version")
          && result.errorOutput.hasSuffix("; distances are shown in kilometers\n"))
    }
    #expect(dataFiles() == before)
    let added = diary.run("workouts", "add", "Run", "--distance", "5km")
    #expect(added.exitCode == 0)
    #expect(added.output.contains("5.00 km"))
  }

  @Test("a stamp that is not valid: list shows the todos; a change exits 65 naming its place")
  func malformedStamp() throws {
    #expect(diary.run("todos", "done", "1").exitCode == 0, "written with stamps")
    let url = folder.file("todos.json")
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var sync = try #require(object["sync"] as? [String: Any])
    var items = try #require(sync["items"] as? [String])
    items[0] = "not-a-stamp"
    sync["items"] = items
    object["sync"] = sync
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      .write(to: url)
    let list = diary.run("todos", "list")
    #expect(list.exitCode == 0, "\(list.errorOutput)")
    #expect(list.output.contains("Buy milk"))
    let before = folder.snapshot()
    expectFailure(
      ["todos", "add", "x"], exitCode: 65,
      message: "todos.json at sync.items[0]: expected a position and a stamp")
    #expect(folder.snapshot() == before)
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

/// `diary` on a data folder of its own: reading makes nothing; `--data-dir` at nothing, at a
/// file or at a read-only folder; every hostile fixture, zero bytes, deep nesting and huge
/// strings, a folder or a FIFO where a data file should be, a broken file another command
/// reads — each a clear error naming the file, the sysexits code, no crash, no hang, and
/// every file byte for byte as it was.
@Suite("diary's data folder: what it makes, reads and refuses")
struct DiaryDataFolderTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  static let kinds = ["settings", "todos", "workouts"]

  /// A command that reads and one that writes, for each kind.
  static let commands = [
    "settings": (["settings", "list"], ["settings", "set", "sleepGoal", "6"]),
    "todos": (["todos", "list"], ["todos", "add", "x"]),
    "workouts": (["workouts", "list"], ["workouts", "add", "Run", "--distance", "5"]),
  ]

  @Test("a fresh machine: reading commands work and create nothing")
  func firstRun() {
    for line in [
      ["settings", "list"], ["todos", "list"], ["workouts", "list"], ["workouts", "stats"],
      ["settings", "get", "sleepGoal"], ["settings", "path"],
    ] {
      let result = diary.run(line)
      #expect(result.exitCode == 0, "\(line): \(result.errorOutput)")
    }
    #expect(folder.names.isEmpty)
    #expect(
      diary.run("todos", "list").output
        == "No todos yet. Add one with: diary todos add \"Buy milk\"\n")
  }

  @Test("--data-dir at nothing works; at a file or a read-only folder fails cleanly")
  func dataDirectories() {
    let nowhere = folder.file("does/not/exist")
    #expect(diary.run("--data-dir", nowhere.path, "todos", "list").exitCode == 0)
    #expect(!FileManager.default.fileExists(atPath: nowhere.path))
    #expect(diary.run("--data-dir", nowhere.path, "todos", "add", "first").exitCode == 0)
    #expect(
      FileManager.default.fileExists(atPath: nowhere.appendingPathComponent("todos.json").path))

    let file = folder.write("a file", to: "plain")
    expectFailure(["--data-dir", file.path, "todos", "list"], exitCode: 66, message: file.path)
    // Every command reads its file first, so writing fails on the read: 66 as well.
    expectFailure(["--data-dir", file.path, "todos", "add", "x"], exitCode: 66, message: file.path)

    let locked = folder.file("locked")
    try? FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    #expect(TemporaryFolder.makeReadOnly(locked))
    defer { TemporaryFolder.makeWritable(locked) }
    expectFailure(
      ["--data-dir", locked.path, "settings", "set", "sleepGoal", "7"], exitCode: 73,
      message: locked.path
    )
  }

  @Test("every hostile fixture, read and written through diary", arguments: kinds)
  func hostileFixtures(kind: String) throws {
    let names = try FileManager.default.contentsOfDirectory(
      atPath: fixturesFolder.appendingPathComponent("hostile/\(kind)").path
    ).sorted()
    let (read, write) = Self.commands[kind]!
    let file = folder.file("\(kind).json")
    for name in names {
      folder.copy(
        fixturesFolder.appendingPathComponent("hostile/\(kind)/\(name)"), as: "\(kind).json")
      if ["negative-zero.json", "bom.json"].contains(name) {
        #expect(diary.run(read).exitCode == 0, "\(name)")
        continue
      }
      expectFailure(read, exitCode: 65, message: file.path)
      expectFailure(write, exitCode: 65, message: file.path)
    }
  }

  @Test("zero bytes, 100,000 nested arrays and a 50 MB string are refused", arguments: kinds)
  func generatedFiles(kind: String) {
    let (read, write) = Self.commands[kind]!
    let file = folder.file("\(kind).json")
    let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let huge = String(repeating: "\u{1B}[31m", count: 10_000_000)
    for content in ["", #"{"version": 1, "\#(kind)": \#(nested)}"#, #"{"version": "\#(huge)"}"#] {
      folder.write(content, to: "\(kind).json")
      expectFailure(read, exitCode: 65, message: file.path)
      expectFailure(write, exitCode: 65, message: file.path)
    }
    #expect(
      !diary.run(read).errorOutput.contains("\u{1B}"), "an escape sequence reached the terminal")
  }

  @Test("a folder where the data file should be: 66", arguments: kinds)
  func folderInsteadOfFile(kind: String) throws {
    let (read, write) = Self.commands[kind]!
    let file = folder.file("\(kind).json")
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
    expectFailure(read, exitCode: 66, message: file.path)
    expectFailure(write, exitCode: 66, message: file.path)
  }

  @Test(
    "a FIFO as a data file is refused at once (66), reading or writing",
    arguments: [
      ["todos", "list"], ["todos", "add", "x"], ["settings", "list"],
      ["workouts", "add", "Run", "--distance", "5"],
    ])
  @MainActor
  func fifo(arguments: [String]) throws {
    let name = arguments[0] == "settings" ? "settings.json" : "\(arguments[0]).json"
    #expect(mkfifo(folder.file(name).path, 0o600) == 0)
    let result = try runWithin(seconds: 10, arguments)
    #expect(result.exitCode == 66, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("is not a regular file"))
    #expect(folder.names == [name], "nothing else was created")
    #expect(throws: StoreFileError(path: folder.file(name).path, problem: .notARegularFile)) {
      if name == "todos.json" { _ = try TodosStore(contentsOf: folder.file(name)) }
      if name == "settings.json" { _ = try SettingsStore(contentsOf: folder.file(name)) }
      if name == "workouts.json" { _ = try WorkoutsStore(contentsOf: folder.file(name)) }
    }
  }

  @Test("a command that fails on another file changes nothing")
  func failureOnAnotherFile() {
    folder.write("{broken", to: "settings.json")
    let before = folder.snapshot()
    let result = diary.run("workouts", "add", "Run", "--distance", "1")
    #expect(result.exitCode == 65)
    #expect(folder.snapshot() == before)
    #expect(!FileManager.default.fileExists(atPath: folder.file("workouts.json").path))
  }
}
