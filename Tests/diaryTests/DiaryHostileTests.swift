import Foundation
import StoreTesting
import Testing

/// Hostile files and hostile arguments through the built `diary`: a clear error naming the
/// file and the problem, the sysexits code, no crash, and every file byte for byte as it was.
@Suite("diary against hostile input")
struct DiaryHostileTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  static let kinds = ["settings", "todos", "workouts"]
  /// A command that reads and one that writes, for each kind.
  static let commands = [
    "settings": (["settings", "list"], ["settings", "set", "sleepGoal", "6"]),
    "todos": (["todos", "list"], ["todos", "add", "x"]),
    "workouts": (["workouts", "list"], ["workouts", "add", "Run", "--distance", "5"]),
  ]

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

  @Test("a data file without read or write permission is refused and kept")
  func permissions() throws {
    let file = folder.copy(
      fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    #expect(TemporaryFolder.makeReadOnly(file))
    expectFailure(["todos", "add", "x"], exitCode: 73, message: file.path)
    #expect(diary.run("todos", "list").exitCode == 0)
    TemporaryFolder.makeWritable(file)

    chmod(file.path, 0)
    defer { chmod(file.path, 0o600) }
    var unprivileged = diary
    if TestPlatform.isRoot {
      // Root reads anything: run diary without the capabilities that let it.
      unprivileged.launcher = TestPlatform.rootWithoutOverride
    }
    // The data, without the machine's home (its local state: the device id).
    func data() -> [String: Data] { folder.snapshot().filter { !$0.key.hasPrefix("home/") } }
    let before = data()
    let result = unprivileged.run(["todos", "list"])
    #expect(result.exitCode == 66, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("cannot read \(file.path): Permission denied"))
    #expect(data() == before)
  }

  @Test("a symbolic link to a data file is followed: the target changes, the link stays")
  func symbolicLink() throws {
    let target = folder.copy(
      fixturesFolder.appendingPathComponent("todos/sample.json"), as: "real/todos.json")
    try FileManager.default.createSymbolicLink(
      at: folder.file("todos.json"), withDestinationURL: target)
    #expect(diary.run("todos", "add", "via the link").exitCode == 0)
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("todos.json").path)
        == target.path)
    #expect(try String(contentsOf: target, encoding: .utf8).contains("via the link"))
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

  @Test("hostile titles: empty, 128 KiB, control characters and escape sequences")
  func hostileTitles() throws {
    #expect(diary.run("todos", "add", "").exitCode == 65)
    // Linux refuses a single argument longer than 128 KiB (MAX_ARG_STRLEN), so that is the
    // longest title a command line can carry; the stores take any length.
    let long = String(repeating: "é", count: 65_000)
    #expect(diary.run("todos", "add", long).exitCode == 0)
    let evil = "\u{1B}[2J\u{1B}]0;owned\u{7}\u{8}\u{202E}txt.exe"
    let refused = diary.run("todos", "add", evil + "\r")
    #expect(refused.exitCode == 65, "a line break is refused, not joined")
    #expect(refused.errorOutput.contains("TITLE must be one line: it has a line break"))
    #expect(diary.run("todos", "add", evil).exitCode == 0)
    let list = diary.run("todos", "list")
    #expect(list.exitCode == 0)
    #expect(
      !list.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x202E })
    #expect(list.output.contains("\\u{1B}[2J"))
    let json = diary.run("todos", "list", "--json")
    let titles = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
    ).compactMap { $0["title"] as? String }
    #expect(
      titles == [
        evil, long,
      ])
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

  @Test("duplicate indexes act once")
  func duplicateIndexes() throws {
    folder.copy(fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    #expect(diary.run("todos", "remove", "2", "2", "2").output == "Removed 1 todo.\n")
    #expect(diary.run("todos", "done", "1", "1").output == "Marked 1 todo done.\n")
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
}
