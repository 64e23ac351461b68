import Foundation
import StoreTesting
import Stores
import Testing

/// `diary workouts import` and `export`, end to end on the CSV fixtures: what is added and
/// skipped, bad files refused with their place and nothing added, a round trip, and a
/// progress bar on a terminal.
@Suite("diary workouts import and export")
struct DiaryImportTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  func fixture(_ name: String) -> String {
    fixturesFolder.appendingPathComponent("csv/\(name)").path
  }

  @Test("import adds the rows and says so; a second import adds nothing and says why")
  func importTwice() {
    var result = diary.run("workouts", "import", fixture("workouts.csv"))
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(result.output == "Added 3 workouts from \(fixture("workouts.csv")).\n")
    result = diary.run("workouts", "import", fixture("workouts.csv"))
    #expect(
      result.output
        == "Added 0 workouts from \(fixture("workouts.csv")).\n"
        + "Skipped 3 rows: 3 already in the diary (--verbose lists them).\n")
    result = diary.run("workouts", "import", fixture("workouts.csv"), "--verbose")
    #expect(
      result.output
        == "Added 0 workouts from \(fixture("workouts.csv")).\nSkipped 3 rows: 3 already in the "
        + "diary:\n  line 2: its id is in the diary already\n"
        + "  line 3: its id is in the diary already\n  line 4: its id is in the diary already\n")
    #expect(
      diary.run("workouts", "list", "--json").output.components(separatedBy: "\"id\"").count == 4)
    result = diary.run("workouts", "import", fixture("duplicate-ids.csv"))
    #expect(
      result.output
        == "Added 1 workout from \(fixture("duplicate-ids.csv")).\n"
        + "Skipped 2 rows: 1 already in the diary, 1 repeating an earlier row's id "
        + "(--verbose lists them).\n")
    #expect(result.errorOutput.isEmpty, "no progress bar when standard error is not a terminal")
    let json = diary.run("--json", "workouts", "import", fixture("reordered.csv"))
    let report = try? JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    #expect(report?["added"] as? Int == 3)
    #expect((report?["skipped"] as? [Any])?.isEmpty == true)
    #expect(report?["ignoredColumns"] as? [String] == ["Notes"])
  }

  @Test("export prints CSV that import reads back into the same workouts")
  @MainActor
  func roundTrip() throws {
    #expect(diary.run("workouts", "add", "Run, with a comma", "--distance", "5.2km").exitCode == 0)
    #expect(diary.run("workouts", "add", "Swim \"fast\"", "--distance", "1km").exitCode == 0)
    let exported = diary.run("workouts", "export")
    #expect(exported.exitCode == 0)
    #expect(exported.output.hasPrefix("id,name,distance,date,complexity\r\n"))
    #expect(exported.output.contains("\"Run, with a comma\",5.2,"))
    #expect(exported.output.contains("\"Swim \"\"fast\"\"\",1,"))
    let file = folder.write(exported.output, to: "exported.csv")
    let other = TemporaryFolder()
    let elsewhere = DiaryProcess(folder: other.url)
    #expect(elsewhere.run("workouts", "import", file.path).exitCode == 0)
    let original = try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
    let imported = try WorkoutsStore(contentsOf: other.file("workouts.json")).state.workouts
    #expect(imported == original)
    #expect(
      diary.run("workouts", "export", "--json").output
        == diary.run("workouts", "list", "--json").output)
  }

  @Test(
    "a bad file is refused (65) with its line and column, and nothing is added",
    arguments: [
      ("unknown-column.csv", "line 1, column 1: the header has no distance column"),
      ("missing-distance.csv", "line 1, column 1: the header has no distance column"),
      ("negative-distance.csv", "line 3, column 6: expected a distance from 0 to 100,000"),
      ("bad-complexity.csv", "line 2, column 7: expected low, medium or high"),
      ("extra-field.csv", "line 2, column 1: this row has 3 fields, the header 2"),
      ("unterminated-quote.csv", "line 2, column 1: the quoted field that starts here never ends"),
      ("stray-quote.csv", "line 2, column 3: a quote inside a field"),
      ("invalid-utf8.csv", "line 2, column 1: the text is not UTF-8"),
      ("empty.csv", "line 1, column 1: the file is empty"),
      ("empty-name.csv", "line 2, column 1: a workout needs a name"),
    ])
  func refused(name: String, message: String) {
    #expect(diary.run("workouts", "add", "Kept", "--distance", "1km").exitCode == 0)
    let before = folder.snapshot()
    let result = diary.run("workouts", "import", fixture(name))
    #expect(result.exitCode == 65, "\(result.errorOutput)")
    #expect(
      result.errorOutput
        == "diary: error: \(fixture(name)): \(message)"
        + result.errorOutput.dropFirst("diary: error: \(fixture(name)): \(message)".count))
    #expect(result.errorOutput.hasSuffix("; nothing was imported\n"), "\(result.errorOutput)")
    #expect(folder.snapshot() == before)
  }

  @Test("a file that cannot be read is 66: missing, a device; a FIFO without writer is empty")
  func unreadable() throws {
    #expect(mkfifo(folder.file("fifo.csv").path, 0o600) == 0)
    for path in [folder.file("missing.csv").path, "/dev/null", "/dev/zero"] {
      let result = diary.run("workouts", "import", path)
      #expect(result.exitCode == 66, "\(path): \(result.errorOutput)")
      #expect(result.errorOutput.contains(path))
    }
    // The folder holds fifo.csv only: it is read, at once, and is empty.
    for path in [folder.url.path, folder.file("fifo.csv").path] {
      let result = diary.run("workouts", "import", path)
      #expect(result.exitCode == 65, "\(path): \(result.errorOutput)")
      #expect(result.errorOutput.contains("fifo.csv: line 1, column 1: the file is empty"))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("workouts.json").path))
  }

  @Test(
    "100,000 rows and a 5 MB field import; a progress bar shows on a terminal",
    .enabled(if: TestPlatform.hasScript, "runs diary on a terminal with util-linux's script"))
  @MainActor
  func large() throws {
    var text = "name,distance,date,complexity\n"
    for index in 0..<100_000 { text += "Run \(index),\(index % 42),2026-11-29,high\n" }
    let file = folder.write(text, to: "big.csv")
    // `script` gives the command a terminal; its output is the terminal's.
    let terminal = try diary.runOnATerminal(["workouts", "import", file.path])
    #expect(terminal.contains("Added 100000 workouts"), "\(terminal.suffix(300))")
    #expect(terminal.contains("Importing ["), "a bar while it reads")
    let huge = folder.write(
      "name,distance\n\(String(repeating: "long ", count: 1_000_000))x,1\n", to: "huge.csv")
    #expect(diary.run("workouts", "import", huge.path).exitCode == 0)
    #expect(
      try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts.count == 100_001)
  }

}
