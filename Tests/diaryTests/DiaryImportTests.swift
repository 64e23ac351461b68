import Foundation
import StoreTesting
import Stores
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `diary workouts import` and `export`, end to end on the CSV fixtures and on real exports
/// (Strava, a European spreadsheet, GPX tracks, a pipe): what is added and skipped — twice
/// adds nothing —, the unit of bare numbers, every bad row at once, bad and hostile files
/// refused with their place and nothing added, a round trip, formulas and escape sequences
/// kept from spreadsheets and terminals, and a progress bar on a terminal.
@Suite("diary workouts import and export")
struct DiaryImportTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  func fixture(_ name: String) -> String {
    fixturesFolder.appendingPathComponent("csv/\(name)").path
  }

  func importFixture(_ name: String) -> String {
    fixturesFolder.appendingPathComponent("import/\(name)").path
  }

  func json(_ result: DiaryProcess.Result) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
      "\(result.output.prefix(300)) \(result.errorOutput)")
  }

  @MainActor
  func workouts() throws -> [Workout] {
    try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
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
    #expect(exported.output.hasPrefix("id,name,distance,date,complexity,sport,time,movingTime\r\n"))
    #expect(exported.output.contains("\"Run, with a comma\",5.2,"))
    #expect(exported.output.contains("\"Swim \"\"fast\"\"\",1,"))
    let file = folder.write(exported.output, to: "exported.csv")
    let other = TemporaryFolder()
    let elsewhere = DiaryProcess(folder: other.url)
    #expect(elsewhere.run("workouts", "import", file.path).exitCode == 0)
    let original = try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
    let imported = try WorkoutsStore(contentsOf: other.file("workouts.json")).state.workouts
    // Dates to the millisecond, which spreadsheets read.
    #expect(imported.map(\.id) == original.map(\.id))
    #expect(imported.map(\.date) == original.map { WorkoutsCSV.exportedDate($0.date) })
    #expect(imported.map(\.meters) == original.map(\.meters))
    #expect(
      exported.output.components(separatedBy: "\r\n").dropFirst().dropLast().allSatisfy {
        let date = $0.components(separatedBy: ",").reversed()[4]
        return date.count <= "2026-11-29T07:30:00.123Z".count
      }, "\(exported.output)")
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
    #expect(result.errorOutput.contains("; nothing was imported"), "\(result.errorOutput)")
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

  // MARK: Real exports

  @Test("Strava's 2,000 activities import in one command, and a second time add nothing")
  @MainActor
  func strava() throws {
    let file = importFixture("strava-activities.csv")
    var result = diary.run("workouts", "import", file, "--from", "strava")
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.first == "Added 2000 workouts from \(file).")
    #expect(
      lines.last.map(String.init)
        == "Ignored 17 columns: Activity ID, Activity Description, Max Heart Rate, Relative "
        + "Effort, Commute and 12 more (--verbose names them).")
    #expect(result.errorOutput.isEmpty, "kilometres is the unit shown: no note")
    #expect(try workouts().count == 2_000)
    #expect(try workouts().first?.name == "Evening Run")
    result = diary.run("workouts", "import", file, "--from", "strava")
    #expect(
      result.output.hasPrefix(
        "Added 0 workouts from \(file).\n"
          + "Skipped 2000 rows: 2000 already in the diary (--verbose lists them).\n"))
    #expect(result.output.split(separator: "\n").count == 3, "one summary line, not 2,000")
    #expect(try workouts().count == 2_000)
    let verbose = diary.run("workouts", "import", file, "--from", "strava", "--verbose")
    #expect(verbose.output.contains("\n  line 2001: the same date, name and distance"))
    #expect(verbose.output.contains(", Elevation Loss, Calories.\n"), "every column named")
    // The same file mapped by hand, in miles: other distances, so new workouts.
    let mapped = diary.run(
      "--json", "workouts", "import", file, "--column", "name=Activity Name",
      "--column", "date=Activity Date", "--date-format", "%b %d, %Y, %I:%M:%S %p", "--unit", "mi")
    let report = try json(mapped)
    #expect(report["added"] as? Int == 2_000)
    #expect((report["ignoredColumns"] as? [String])?.contains("Activity ID") == true)
    #expect(report["distancesWithoutUnit"] as? Int == 2_000)
  }

  @Test("a semicolon file with miles and DD/MM/YYYY dates; a folder of GPX tracks; each twice")
  @MainActor
  func europeanAndTracks() throws {
    for round in 0..<2 {
      let european = diary.run(
        "workouts", "import", importFixture("european.csv"), "--date-format", "%d/%m/%Y")
      #expect(european.exitCode == 0, "\(european.errorOutput)")
      #expect(european.output.hasPrefix("Added \(round == 0 ? 4 : 0) workouts"))
      let tracks = diary.run("workouts", "import", importFixture("tracks"))
      #expect(tracks.exitCode == 0, "\(tracks.errorOutput)")
      #expect(tracks.output.hasPrefix("Added \(round == 0 ? 4 : 0) workouts"))
    }
    let names = try workouts().map(\.name)
    #expect(names.count == 8)
    #expect(names.contains("Schwimmen; Hallenbad") && names.contains("2026-11-28-ride"))
    let radtour = try #require(try workouts().first { $0.name == "Radtour" })
    #expect(radtour.meters == 39_992.1984)
    // Files given one by one are the same import: nothing new.
    let files = ["2026-11-27-two-laps.gpx", "2026-11-29-morning-run.gpx"].map {
      importFixture("tracks/\($0)")
    }
    let again = diary.run(["workouts", "import"] + files + ["--verbose"])
    #expect(again.output.hasPrefix("Added 0 workouts from 2 files.\nSkipped 3 rows:"))
    #expect(again.output.contains("2026-11-29-morning-run.gpx: line 4: the same date"))
  }

  @Test("bare numbers are kilometres, with a note when the unit shown is miles; --unit mi")
  @MainActor
  func units() throws {
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    let file = folder.write(
      "name,distance,date\nRun,3.1,2026-11-29\nRide,10 mi,2026-11-28\n", to: "runs.csv")
    let result = diary.run("workouts", "import", file.path)
    #expect(result.exitCode == 0)
    #expect(
      result.errorOutput
        == "note: 1 distance without a unit was read as kilometres, though your distanceUnit is "
        + "miles; if they are miles, import with --unit mi\n")
    #expect(try workouts().map(\.distance) == [3.1, 10 * DistanceUnit.kilometersPerMile])
    let other = folder.write("name,distance,date\nSwim,1,2026-11-27\n", to: "swim.csv")
    let miles = diary.run("workouts", "import", other.path, "--unit", "mi")
    #expect(miles.errorOutput.isEmpty)
    #expect(try workouts().last?.distance == DistanceUnit.kilometersPerMile)
    expectFailure(
      ["workouts", "import", other.path, "--unit", "parsecs"], exitCode: 65,
      message: "--unit must be km, mi, m or yd")
    expectFailure(
      ["workouts", "import", other.path, "--column", "colour=x"], exitCode: 65,
      message:
        "--column must be FIELD=HEADER, FIELD one of id, name, distance, date, complexity, "
        + "sport, time or movingTime")
    expectFailure(
      ["workouts", "import", other.path, "--date-format", "%d/%m"], exitCode: 65,
      message: "--date-format must be a date format with %Y")
  }

  @Test("every bad row is listed in one run: the first 20, with the fix, then the count")
  func everyBadRow() {
    var text = "name;distance;date\n"
    for index in 0..<25 { text += "Run \(index);\(index)e3;29/11/2026\n" }
    let file = folder.write(text, to: "bad.csv")
    let before = folder.snapshot()
    let result = diary.run("workouts", "import", file.path)
    #expect(result.exitCode == 65)
    let lines = result.errorOutput.split(separator: "\n")
    #expect(
      lines.first == "diary: error: \(file.path): 50 problems in its rows; nothing was imported")
    #expect(lines.count == 1 + 20 + 1 + 1)
    #expect(
      lines[1]
        == "  line 2, column 7: expected a distance from 0 to 100,000 such as 5.2, 5km, 1500 m, 1650 yd or 3.1 mi, found \"0e3\""
    )
    #expect(lines[2].hasPrefix("  line 2, column 11: expected a date such as 2026-11-29"))
    #expect(
      lines[2].hasSuffix("or give its form as a date format such as %d/%m/%Y, found \"29/11/2026\"")
    )
    #expect(lines.dropLast().last == "  … and 30 more")
    #expect(lines.last == "  (--skip-invalid imports the valid rows and lists these)")
    #expect(folder.snapshot() == before)
  }

  @Test(
    "hostile files are refused with a clear error and change nothing",
    arguments: [
      ("", "empty.csv", "line 1, column 1: the file is empty"),
      ("name,distance\n", "header.csv", "Added 0 workouts"),
      ("name,distance\nRun\u{0}x,1\n", "nul.csv", "Added 1 workout"),
      ("name,distance\nRun,1\u{0}\n", "nul-distance.csv", "line 2, column 5: expected a distance"),
      ("name,distance\nR\u{FF}n,1\n", "latin1.csv", "line 2, column 1: the text is not UTF-8"),
      ("\u{0}\u{0}\u{0}", "nul-only.csv", "the header has no name column"),
      ("<gpx><trk>", "cut.gpx", "it was cut short"),
    ])
  func hostile(text: String, name: String, expected: String) {
    var data = Data(text.utf8)
    if name == "latin1.csv" {
      data = Data("name,distance\nR".utf8) + Data([0xFF]) + Data("n,1\n".utf8)
    }
    let file = folder.write(data, to: name)
    let result = diary.run("workouts", "import", file.path)
    if expected.hasPrefix("Added") {
      #expect(result.exitCode == 0, "\(result.errorOutput)")
      #expect(result.output.hasPrefix(expected))
      #expect(!result.output.contains("\u{0}"), "NUL is shown escaped")
    } else {
      #expect(result.exitCode == 65, "\(result.errorOutput)")
      #expect(result.errorOutput.contains(expected), "\(result.errorOutput)")
      #expect(!FileManager.default.fileExists(atPath: folder.file("workouts.json").path))
    }
  }

  @Test("a 100 MB file is refused at once, and so is a device")
  func huge() {
    let big = folder.file("big.csv")
    #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
    #expect(truncate(big.path, 100_000_000) == 0)
    expectFailure(
      ["workouts", "import", big.path], exitCode: 65,
      message: "big.csv is larger than 50 MB, the most an import reads — split it")
    expectFailure(["workouts", "import", "/dev/zero"], exitCode: 66, message: "/dev/zero")
  }

  @Test("importing from a pipe reads it as a stream: /dev/stdin")
  @MainActor
  func pipe() throws {
    let text =
      "name,distance,date\n" + (0..<30_000).map { "Run \($0),\($0 % 7),2026-11-29\n" }.joined()
    let result = diary.run(["workouts", "import", "/dev/stdin"], input: Data(text.utf8))
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(result.output == "Added 30000 workouts from /dev/stdin.\n")
    let gpx = try String(
      contentsOfFile: importFixture("tracks/2026-11-29-morning-run.gpx"), encoding: .utf8)
    let tracks = diary.run(["workouts", "import", "/dev/stdin"], input: Data(gpx.utf8))
    #expect(tracks.output == "Added 1 workout from /dev/stdin.\n", "GPX told by its text")
    #expect(try workouts().last?.name == "Morning Run")
  }

  @Test("a formula in a name is exported behind a quote; escape sequences never reach the terminal")
  func formulasAndEscapes() throws {
    let evil = "=cmd|' /C calc'!A0 \u{1B}[31mred\u{1B}]0;owned\u{7}"
    let file = folder.write("name,distance,\u{1B}[2Jcolumn\n\"\(evil)\",5,x\n", to: "evil.csv")
    let imported = diary.run("workouts", "import", file.path)
    #expect(imported.exitCode == 0, "\(imported.errorOutput)")
    #expect(imported.output.contains("Ignored 1 column: \\u{1B}[2Jcolumn."))
    let exported = diary.run("workouts", "export")
    #expect(
      exported.output.contains(",'=cmd|' /C calc'!A0 \u{1B}[31mred"), "a file keeps the bytes")
    if TestPlatform.hasScript {
      let onTerminal = try diary.runOnATerminal(["workouts", "export"])
      #expect(onTerminal.contains(",'=cmd|' /C calc'!A0 \\u{1B}[31mred\\u{1B}]0;owned\\u{7},5,"))
    }
    for arguments in [
      ["workouts", "list"], ["workouts", "stats"], ["workouts", "edit", "1", "--distance", "6"],
      ["workouts", "import", file.path, "--verbose"],
    ] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 0, "\(arguments) \(result.errorOutput)")
      #expect(!(result.output + result.errorOutput).contains("\u{1B}"), "\(arguments)")
    }
    let error = diary.run(
      "workouts", "import", folder.write("name,distance\n\u{1B}[2J,x\n", to: "e.csv").path)
    #expect(error.exitCode == 65 && !error.errorOutput.contains("\u{1B}"))
  }
}
