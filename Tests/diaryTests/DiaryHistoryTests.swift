import Foundation
import StoreTesting
import Stores
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 29, end to end on the built `diary`: edit in place, imports of real exports (Strava,
/// a European spreadsheet, GPX tracks, a pipe) twice without duplicates, hostile files,
/// tables that fit the terminal, the stats chart, help that wraps cleanly, and data that
/// never drives the terminal.
@Suite("diary for people with a history")
struct DiaryHistoryTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

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

  // MARK: Edit

  @Test("todos edit changes the fields named, in place, keeping the id and the rest")
  @MainActor
  func editTodo() throws {
    #expect(
      diary.run("todos", "add", "Buy milk", "--priority", "2", "--date", "2026-11-29")
        .exitCode == 0)
    #expect(diary.run("todos", "add", "Call mum").exitCode == 0)
    #expect(diary.run("todos", "done", "2").exitCode == 0)
    let before = try TodosStore(contentsOf: folder.file("todos.json")).todos
    let result = diary.run("todos", "edit", "2", "--title", "Buy oat milk", "--date", "2026-11-30")
    #expect(result.output == "Edited todo 2: Buy oat milk, priority 2, 30 Nov 2026\n")
    let after = try TodosStore(contentsOf: folder.file("todos.json")).todos
    #expect(after.map(\.id) == before.map(\.id), "same ids, same places")
    #expect(after[1].title == "Buy oat milk" && after[1].priority == 2 && after[1].isDone)
    #expect(after[0] == before[0])
    let edited = try json(diary.run("--json", "todos", "edit", "2", "--priority", "5"))
    #expect(edited["number"] as? Int == 2 && edited["priority"] as? Int == 5)
    #expect(edited["id"] as? String == before[1].id.uuidString)
    #expect(
      diary.run("todos", "edit", "2", "--priority", "5").output
        == "Todo 2 already is so; nothing changed.\n")
    expectFailure(["todos", "edit", "2"], exitCode: 64, message: "nothing to change: give --title")
    expectFailure(
      ["todos", "edit", "3", "--title", "x"], exitCode: 65, message: "there is no todo 3")
    expectFailure(
      ["todos", "edit", "1", "--title", "two\nlines"], exitCode: 65,
      message: "--title must be one line: it has a line break")
    expectFailure(
      ["todos", "edit", "1", "--title", "  "], exitCode: 65, message: "a todo needs a title")
    expectFailure(
      ["todos", "edit", "1", "--priority", "high"], exitCode: 65,
      message: "--priority must be a whole number")
  }

  @Test("workouts edit changes the fields named, keeping the id; a sorted list moves it")
  @MainActor
  func editWorkout() throws {
    #expect(
      diary.run("workouts", "add", "Run", "--distance", "5", "--date", "2026-11-29").exitCode == 0)
    #expect(
      diary.run("workouts", "add", "Ride", "--distance", "20", "--date", "2026-11-28").exitCode == 0
    )
    #expect(diary.run("workouts", "sort", "distance").exitCode == 0)
    let before = try workouts()
    #expect(before.map(\.name) == ["Ride", "Run"])
    let result = diary.run(
      "workouts", "edit", "2", "--distance", "25km", "--name", "Long run", "--complexity", "high")
    #expect(result.output == "Edited workout 1: Long run, 25.00 km, high, 29 Nov 2026\n")
    let after = try workouts()
    #expect(after.map(\.name) == ["Long run", "Ride"], "to its sorted place")
    #expect(after[0].id == before[1].id && after[0].date == before[1].date)
    let edited = try json(diary.run("--json", "workouts", "edit", "1", "--date", "2026-11-27"))
    #expect(edited["number"] as? Int == 1 && edited["date"] as? String == "2026-11-27T00:00:00Z")
    expectFailure(
      ["workouts", "edit", "1", "--distance", "100001"], exitCode: 65,
      message: "--distance must be a distance from 0 to 100,000")
    expectFailure(
      ["workouts", "edit", "1", "--name", "a\rb"], exitCode: 65,
      message: "--name must be one line: it has a line break")
    expectFailure(["workouts", "edit", "1"], exitCode: 64, message: "nothing to change")
    expectFailure(
      ["workouts", "add", "a\nb", "--distance", "1"], exitCode: 65, message: "NAME must be one line"
    )
  }

  // MARK: Imports of real files

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
        == "Ignored 19 columns: Activity ID, Activity Type, Activity Description, Elapsed Time, "
        + "Max Heart Rate and 14 more (--verbose names them).")
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
    #expect(radtour.distance == 24.85 * DistanceUnit.kilometersPerMile)
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
      message: "--unit must be km or mi")
    expectFailure(
      ["workouts", "import", other.path, "--column", "colour=x"], exitCode: 65,
      message: "--column must be FIELD=HEADER, FIELD one of id, name, distance, date or complexity")
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
    #expect(lines.count == 1 + 20 + 1)
    #expect(
      lines[1]
        == "  line 2, column 7: expected a distance from 0 to 100,000 such as 5.2, 5km or 3.1 mi, found \"0e3\""
    )
    #expect(lines[2].hasPrefix("  line 2, column 11: expected a date such as 2026-11-29"))
    #expect(
      lines[2].hasSuffix("or give its form as a date format such as %d/%m/%Y, found \"29/11/2026\"")
    )
    #expect(lines.last == "  … and 30 more")
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

  // MARK: Output

  /// The width of each line of `text` in terminal columns (every character here is one).
  func widths(_ text: String) -> [Int] {
    text.split(separator: "\n").map(\.count)
  }

  @Test("tables fit the terminal down to 40 columns, cut with …, never wrapped; --json whole")
  func tablesFit() {
    let title = String(repeating: "long title ", count: 30)
    #expect(diary.run("todos", "add", title, "--priority", "3").exitCode == 0)
    #expect(diary.run("workouts", "add", title, "--distance", "12345.5").exitCode == 0)
    #expect(diary.run("settings", "set", "note", title, "--type", "string").exitCode == 0)
    var run = diary
    for columns in [40, 50, 80, 120] {
      run.environment["COLUMNS"] = "\(columns)"
      for arguments in [["todos", "list"], ["workouts", "list"], ["settings", "list"]] {
        let output = run.run(arguments).output
        #expect(
          widths(output).allSatisfy { $0 <= columns }, "\(arguments) at \(columns): \(output)")
        #expect(output.contains("…"), "\(arguments) at \(columns)")
      }
    }
    run.environment["COLUMNS"] = "40"
    #expect(
      run.run("todos", "list").output.contains("1  [ ]          3  "), "the short columns whole")
    #expect(
      run.run("--json", "todos", "list").output.contains(title.trimmingCharacters(in: .whitespaces))
    )
    #expect(
      diary.run("todos", "list").output.contains(title.trimmingCharacters(in: .whitespaces)),
      "a pipe keeps it all")
  }

  @Test("settings list shows a 50 MB value cut to the width")
  func hugeSetting() throws {
    #expect(diary.run("settings", "set", "theme", "dark", "--type", "string").exitCode == 0)
    let file = folder.file("settings.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    try text.replacingOccurrences(
      of: "\"dark\"", with: "\"" + String(repeating: "x", count: 50_000_000) + "\""
    )
    .write(to: file, atomically: false, encoding: .utf8)
    var run = diary
    run.environment["COLUMNS"] = "80"
    let result = run.run("settings", "list")
    #expect(result.exitCode == 0)
    #expect(result.output.utf8.count < 2_000)
    #expect(result.output.contains("theme "))
    #expect(result.output.contains("xxxxxxxxxx…"))
    #expect(widths(result.output).allSatisfy { $0 <= 80 })
  }

  @Test("stats draws the recent weeks: # without a UTF-8 locale, blocks with one; --weeks; --json")
  func statsChart() throws {
    for (name, distance, date) in [("A", "10", "today"), ("B", "5", "today"), ("C", "7.5", "-")] {
      var arguments = ["workouts", "add", name, "--distance", distance]
      if date != "-" {
        arguments += ["--date", date]
      } else {
        arguments += [
          "--date", ISO8601Timestamp.string(from: Date().addingTimeInterval(-7 * 86_400))!,
        ]
      }
      #expect(diary.run(arguments).exitCode == 0)
    }
    var run = diary
    run.environment["COLUMNS"] = "60"
    let plain = run.run("workouts", "stats").output.split(separator: "\n")
    let chart = plain.drop { !$0.hasPrefix("Distance per week") }.dropFirst()
    #expect(chart.count == 12)
    #expect(
      chart.last?.contains(String(repeating: "#", count: 39)) == true, "the longest bar: \(chart)")
    #expect(chart.last?.hasSuffix("15.00 km") == true)
    #expect(chart.dropLast().last?.contains("####") == true && chart.first?.contains("#") == false)
    #expect(chart.allSatisfy { $0.count <= 60 })
    run.environment["LANG"] = "en_GB.UTF-8"
    let blocks = run.run("workouts", "stats", "--weeks", "3").output
    #expect(blocks.contains("█") && !blocks.contains("#"))
    #expect(blocks.split(separator: "\n").drop { !$0.hasPrefix("Distance per week") }.count == 4)
    let report = try json(diary.run("--json", "workouts", "stats", "--weeks", "2"))
    let recent = try #require(report["recentWeeks"] as? [[String: Any]])
    #expect(recent.count == 2 && recent.last?["distance"] as? Double == 15)
    expectFailure(
      ["workouts", "stats", "--weeks", "0"], exitCode: 65, message: "--weeks must be from 1 to 520")
  }

  @Test(
    "help wraps at the terminal's width (80 in a pipe), usage lines between options, never inside one",
    arguments: [nil, 60, 40] as [Int?])
  func helpFitsTheWidth(columns: Int?) {
    var run = diary
    if let columns { run.environment["COLUMNS"] = "\(columns)" }
    for arguments in [
      ["--help"], ["help", "help"], ["todos", "--help"], ["workouts", "import", "--help"],
      ["todos", "edit", "--help"],
    ] {
      let help = run.run(arguments).output
      for line in help.split(separator: "\n") {
        #expect(line.count <= columns ?? 80, "\(arguments): \(line.count) columns: \(line)")
      }
      // Each bracketed option is whole on one line.
      for line in help.split(separator: "\n") where line.hasPrefix("USAGE:") || line.hasPrefix("  ")
      {
        #expect(
          line.count(where: { $0 == "[" }) == line.count(where: { $0 == "]" }),
          "\(arguments): \(line)")
      }
    }
  }

  @Test("help paragraphs are wrapped once: no line could take the next one's first word")
  func helpWraps() {
    let overview = diary.run("--help").output
    let commands = overview.components(separatedBy: "COMMANDS:\n")[1].components(
      separatedBy: "\n\n")[0]
      .split(separator: "\n").map {
        $0.split(separator: " ").dropFirst().prefix(2).map(String.init)
      }
      .filter { $0.count == 2 && !$0[0].hasPrefix("[") && $0[0] != "<group>" }
    #expect(commands.count > 20)
    for command in commands {
      let help = diary.run(["help"] + command).output
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for (line, next) in zip(lines, lines.dropFirst())
      where !line.isEmpty && !next.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ")
        && !next.hasPrefix("Example") && next.first?.isLowercase == true
      {
        let word = next.split(separator: " ").first.map(String.init) ?? ""
        #expect(line.count + 1 + word.count > 80, "\(command): '\(line)' / '\(next)'")
      }
    }
  }
}
