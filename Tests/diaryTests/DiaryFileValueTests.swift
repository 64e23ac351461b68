import Foundation
import StoreTesting
import Testing

/// Issue 12, items 12 and 15, through the built `diary`: what a file holds is either refused
/// with its place, or read and written back as it was.
@Suite("diary and the values in files")
struct DiaryFileValueTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("a date that rounds up to the year 10000 is refused (65), never shown or left unwritable")
  func unwritableDate() {
    let file = folder.write(
      #"{"version": 1, "todos": [{"id": "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", "title": "x", "#
        + #""date": "9999-12-31T23:59:59.9999999Z", "isDone": false, "priority": 1}]}"#,
      to: "todos.json")
    let before = folder.snapshot()
    for arguments in [["--json", "todos", "list"], ["todos", "add", "y"]] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 65, "\(arguments): \(result.errorOutput)")
      #expect(
        result.errorOutput.contains(
          "\(file.path) at todos[0].date: expected a date in the years 1…9999 (UTC)"),
        "\(result.errorOutput)")
      #expect(!result.output.contains("description unavailable"))
    }
    #expect(folder.snapshot() == before)
  }

  @Test("a setting change keeps an unknown key's integer above 2^53 digit for digit")
  func unknownIntegerKept() throws {
    let file = folder.write(
      #"{"version": 1, "values": {"counter": 9007199254740993, "ratio": 2.50}}"#,
      to: "settings.json")
    #expect(diary.run("settings", "set", "sleepGoal", "7").exitCode == 0)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains(#""counter" : 9007199254740993"#), "\(text)")
    #expect(text.contains(#""ratio" : 2.50"#), "\(text)")
    #expect(text.contains(#""sleepGoal" : 7"#), "\(text)")
  }

  @Test("--json prints a setting's number as the file holds it, as the human output does")
  func numbersPrintedAsInTheFile() {
    folder.write(
      #"{"version": 1, "values": {"counter": 9007199254740993, "ratio": 2.50}}"#,
      to: "settings.json")
    #expect(diary.run("settings", "get", "counter").output == "9007199254740993\n")
    let counter = diary.run("--json", "settings", "get", "counter").output
    #expect(counter.contains(#""value" : 9007199254740993"#), "\(counter)")
    let ratio = diary.run("--json", "settings", "get", "ratio").output
    #expect(ratio.contains(#""value" : 2.50"#), "\(ratio)")
  }
}
