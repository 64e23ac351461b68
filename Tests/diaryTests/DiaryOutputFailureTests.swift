import Foundation
import StoreTesting
import Stores
import Testing

/// `diary` when it cannot write its output (issue 12, item 6): never a crash; exit 74 with
/// one line on standard error when that works, saying what was saved; quiet when the reader
/// went away.
@MainActor
@Suite("diary when its output cannot be written")
struct DiaryOutputFailureTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// `diary` run by a shell that redirects its output first: `redirection` such as `>&-`.
  func redirected(_ redirection: String) -> DiaryProcess {
    var diary = self.diary
    diary.launcher = ["/bin/sh", "-c", "exec \"$0\" \"$@\" \(redirection)"]
    return diary
  }

  func titles() throws -> [String] {
    try TodosStore(contentsOf: folder.file("todos.json")).todos.map(\.title)
  }

  @Test(
    "a full disk as standard output: 74 and one line, saying what was saved",
    .enabled(if: TestPlatform.hasFullDevice, "writes to /dev/full (Linux)"))
  func fullDevice() throws {
    let full = try #require(TestPlatform.fullDevice())
    for title in ["a", "b", "c"] { diary.run("todos", "add", title) }
    let list = diary.run(["todos", "list"], standardOutput: full)
    #expect(list.exitCode == 74)
    #expect(list.errorOutput == "diary: error: cannot print the output: No space left on device\n")

    let add = diary.run(["todos", "add", "d"], standardOutput: full)
    #expect(add.exitCode == 74)
    #expect(
      add.errorOutput
        == "diary: error: added todo 1, but could not print: No space left on device\n")
    #expect(try titles() == ["d", "c", "b", "a"])

    let json = diary.run(["todos", "done", "2", "--json"], standardOutput: full)
    #expect(json.exitCode == 74)
    #expect(
      json.errorOutput
        == #"{"error": {"exitCode": 74, "message": "marked 1 todo done, but could not print: "#
        + #"No space left on device", "saved": "marked 1 todo done", "usage": null}}"# + "\n")
    #expect(try TodosStore(contentsOf: folder.file("todos.json")).todos[1].isDone)
  }

  @Test(
    "a long list to a full disk fails at its first block, with one line",
    .enabled(if: TestPlatform.hasFullDevice, "writes to /dev/full (Linux)"))
  func longListToFullDevice() throws {
    folder.write(todosFile(count: 5_000), to: "todos.json")
    let full = try #require(TestPlatform.fullDevice())
    for arguments in [["todos", "list"], ["todos", "list", "--json"]] {
      let result = diary.run(arguments, standardOutput: full)
      #expect(result.exitCode == 74)
      #expect(result.errorOutput.split(separator: "\n").count == 1, "\(result.errorOutput)")
    }
  }

  @Test("standard output closed: 74 and one line that says so; the output lands in no file")
  func closedOutput() throws {
    let closed = redirected(">&-")
    let list = closed.run("todos", "list")
    #expect(list.exitCode == 74)
    #expect(
      list.errorOutput == "diary: error: cannot print the output: standard output is closed\n")

    let add = closed.run("todos", "add", "milk")
    #expect(add.exitCode == 74)
    #expect(
      add.errorOutput
        == "diary: error: added todo 1, but could not print: standard output is closed\n")
    #expect(try titles() == ["milk"])
    // The data files, and the undo history under the home folder (which is in the folder).
    let files = FileManager.default.enumerator(atPath: folder.url.path)?.allObjects as? [String]
    for name in files ?? []
    where !name.hasSuffix(".lock") && !name.hasSuffix("/")
      && (try? folder.file(name).resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
    {
      let content = try String(contentsOf: folder.file(name), encoding: .utf8)
      #expect(!content.contains("Added todo"), "the output went into \(name)")
    }
    #expect(closed.run("settings", "set", "sleepGoal", "7").exitCode == 74)
    #expect(try SettingsStore(contentsOf: folder.file("settings.json")).sleepGoal == 7)
  }

  @Test(
    "standard error full or closed: the exit code of the command, no crash",
    .enabled(if: TestPlatform.hasFullDevice, "writes to /dev/full (Linux)"))
  func brokenErrorOutput() {
    let full = TestPlatform.fullDevicePath
    for redirection in ["2>\(full)", "2>&-"] {
      let diary = redirected(redirection)
      #expect(diary.run("frob").exitCode == 64, "\(redirection)")
      #expect(diary.run("todos", "done", "9").exitCode == 65, "\(redirection)")
      let list = diary.run("todos", "list")
      #expect(list.exitCode == 0, "\(redirection)")
      #expect(list.output.hasPrefix("No todos yet"))
    }
    let neither = redirected(">\(full) 2>\(full)")
    #expect(neither.run("todos", "list").exitCode == 74)
    #expect(neither.run("todos", "add", "x").exitCode == 74)
    #expect(neither.run("frob").exitCode == 64)
  }

  @Test("a reader that went away (| head): quiet, and what was saved stays saved")
  func brokenPipe() throws {
    for title in ["a", "b"] { diary.run("todos", "add", title) }
    for arguments in [
      ["todos", "list"], ["todos", "list", "--json"], ["todos", "add", "c"], ["--help"],
    ] {
      // A pipe whose reading end is closed before diary starts: its first write fails.
      let pipe = Pipe()
      try pipe.fileHandleForReading.close()
      let result = diary.run(arguments, standardOutput: pipe.fileHandleForWriting)
      #expect(result.exitCode == 0, "\(arguments)")
      #expect(result.errorOutput.isEmpty, "\(arguments): \(result.errorOutput)")
    }
    #expect(try titles() == ["c", "b", "a"])
  }
}

/// A todos file of `count` todos, `todo 0` to `todo count-1`.
func todosFile(count: Int) -> String {
  let todos = (0..<count).map { index in
    let id = String(format: "00000000-0000-4000-8000-%012X", index)
    return #"{"date": "2026-11-29T07:30:00Z", "id": "\#(id)", "isDone": false, "#
      + #""priority": \#(index % 7), "title": "todo \#(index)"}"#
  }
  return #"{"version": 1, "todos": ["# + todos.joined(separator: ",\n") + "]}"
}
