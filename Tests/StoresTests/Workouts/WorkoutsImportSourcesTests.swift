import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Files read as their apps write them without a hand edit: an export told by its header,
/// numbers in every locale's way (`10,02`, `1,500`, `1.500,5`), Garmin's pool swims in metres,
/// a header's unit, hints that name the right column; and, on request, the valid rows of a
/// file with bad ones, each bad one reported; values outside what people do flagged.
@Suite("Import: sources, decimal marks, skipped and flagged rows")
struct WorkoutsImportSourcesTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 817_600_000)

  func importFixture(_ name: String) -> URL {
    fixturesFolder.appendingPathComponent("import/\(name)")
  }

  func read(_ text: String, _ options: WorkoutsImportOptions? = nil) throws(WorkoutsImportError)
    -> WorkoutsImport
  {
    try WorkoutsCSV.read(
      Data(text.utf8), path: "f.csv", options: options ?? WorkoutsImportOptions(timeZone: utc),
      now: now, makeID: UUID.init)
  }

  func read(_ url: URL, _ options: WorkoutsImportOptions) throws(WorkoutsImportError)
    -> WorkoutsImport
  {
    var importer = try WorkoutsImporter(files: [url], options: options)
    var next = 0
    return try importer.readAll(
      rowsPerPart: 3, now: { now },
      makeID: {
        defer { next += 1 }
        return Gen<UUID>.testID(next)
      }, goOn: { _ in true })!
  }

  @Test(
    "numbers in every locale's way: what tells by itself, and what needs the mark",
    arguments: [
      ("10,02", nil, "10.02", "comma"), ("10.02", nil, "10.02", "point"),
      ("1,500.5", nil, "1500.5", "point"), ("1.500,5", nil, "1500.5", "comma"),
      ("1,500,000", nil, "1500000", "point"), ("0,500", nil, "0.5", "comma"),
      ("1500,000", nil, "1500", "comma"), ("1,500", "point", "1500", ""),
      ("1,500", "comma", "1.5", ""), ("1.500", "comma", "1500", ""), ("42", nil, "42", ""),
    ] as [(String, String?, String, String)])
  func decimalMarks(text: String, mark: String?, expected: String, shows: String) {
    let reading = DecimalText.read(
      text.utf8, mark: mark.flatMap(WorkoutsImportOptions.DecimalMark.init(rawValue:)))
    guard case .number(let value, let shown)? = reading else {
      Issue.record("\(text): \(String(describing: reading))")
      return
    }
    #expect(value.text == expected, "\(text)")
    #expect(shown?.rawValue ?? "" == shows, "\(text)")
  }

  @Test("1,500 and 1.500 could be either; marks that break the groups or the option are refused")
  func ambiguousAndRefused() {
    #expect(
      DecimalText.read("1,500".utf8, mark: nil)
        == .ambiguous(
          separator: UInt8(ascii: ","), asDecimal: ScaledDecimal("1.5".utf8)!,
          asGrouping: ScaledDecimal("1500".utf8)!))
    for (text, mark) in [
      ("1,50,0", nil), ("1,,5", nil), ("10,02", "point"), ("5.5", "comma"), ("1,5.0,0", nil),
      ("1,500,000", "comma"), (",", nil),
    ] as [(String, String?)] {
      #expect(
        DecimalText.read(
          text.utf8, mark: mark.flatMap(WorkoutsImportOptions.DecimalMark.init(rawValue:))) == nil,
        "\(text)")
    }
  }

  @Test("Strava's and Garmin's exports are told by their header, without options")
  func recognised() throws {
    let strava = try read(
      importFixture("strava-activities.csv"), WorkoutsImportOptions(timeZone: utc))
    let given = try read(importFixture("strava-activities.csv"), .strava())
    #expect(strava.recognized == .strava && given.recognized == nil)
    #expect(strava.rows == given.rows)
    let garmin = try read(
      importFixture("garmin-activities.csv"), WorkoutsImportOptions(timeZone: utc))
    #expect(garmin.recognized == .garmin)
    #expect(
      garmin.rows == (try read(importFixture("garmin-activities.csv"), .garmin(timeZone: utc))).rows
    )
    // A header that names the fields is read as it is; one with both signatures is neither.
    #expect(
      try read("name,distance,Title,Date,Activity Type\nRun,5,x,2026-11-29,Run\n").recognized == nil
    )
    #expect(
      WorkoutsImportOptions.Source(
        recognizing: [
          "Activity ID", "Activity Date", "Activity Name", "Activity Type",
          "Elapsed Time", "Distance", "Date", "Title",
        ]) == nil)
    // The user's columns are kept over the export's.
    var options = WorkoutsImportOptions(timeZone: utc)
    options.columns[.sport] = "Commute"
    let mapped = try read(importFixture("strava-activities.csv"), options)
    #expect(mapped.recognized == .strava && mapped.rows[0].workout.sport?.name == "false")
  }

  @Test("a comma-decimal Strava account: \"10,02\" in a comma-separated file, to the metre")
  func stravaCommaDecimal() throws {
    let imported = try read(importFixture("strava-comma-decimal.csv"), WorkoutsImportOptions())
    #expect(imported.recognized == .strava)
    let workouts = imported.rows.map(\.workout)
    #expect(workouts.map(\.meters) == [10_020, 64_310, 1_500, 3_480])
    #expect(workouts.map(\.duration?.moving) == [3_118, 8_310, 1_985.5, 2_451])
    #expect(workouts.map(\.sport) == [.run, .ride, .swim, .walk])
    #expect(workouts[0].date == ISO8601Timestamp.date(from: "2024-01-07T00:05:00Z"))
  }

  @Test("Garmin's pool swims: \"1,500\" metres with a thousands separator, hh:mm:ss times")
  func garminPoolSwims() throws {
    let imported = try read(
      importFixture("garmin-pool-swim.csv"), WorkoutsImportOptions(timeZone: utc))
    let workouts = imported.rows.map(\.workout)
    #expect(workouts.map(\.meters) == [1_500, 10_020, 750])
    #expect(workouts.map(\.duration?.elapsed) == [2_020, 3_182, 949])
    #expect(workouts.map(\.sport) == [.swim, .run, .swim])
    // A Garmin file of swims alone: nothing else tells, and Garmin groups thousands.
    let swims =
      "Activity Type,Date,Title,Distance,Time\nPool Swim,2026-11-30 06:45:03,Swim,\"2,000\",00:40:00\n"
    #expect(try read(swims).rows.map(\.workout.meters) == [2_000])
    // An account in German groups with a point: 2.000 m, not 2 m, when nothing else tells.
    let german = swims.replacingOccurrences(of: "\"2,000\"", with: "2.000")
    #expect(try read(german).rows.map(\.workout.meters) == [2_000])
    // A run's decimal point elsewhere in the file still says a point is the decimal mark.
    let withRun = german + "Running,2026-11-29 07:00:00,Run,10.02,00:50:00\n"
    #expect(try read(withRun).rows.map(\.workout.meters) == [2, 10_020])
    #expect(
      try read(swims, .garmin(unit: .miles, timeZone: utc)).rows.map(\.workout.meters) == [1_828.8])
  }

  @Test("1,500 is read as the file tells: its other numbers, its delimiter, or the option")
  func toldByTheFile() throws {
    func meters(_ text: String, _ mark: WorkoutsImportOptions.DecimalMark? = nil) throws -> [Double]
    {
      try read(text, WorkoutsImportOptions(timeZone: utc, decimalMark: mark)).rows.map(
        \.workout.meters)
    }
    // Other rows show a decimal comma, before or after: 1,500 is 1.5 km.
    #expect(try meters("name,distance\nA,\"1,500\"\nB,\"10,02\"\n") == [1_500, 10_020])
    #expect(try meters("name,distance\nA,\"10,5\"\nB,\"1,500\"\n") == [10_500, 1_500])
    // Other rows show a decimal point: 1,500 is 1500 km.
    #expect(try meters("name,distance\nA,\"1,500\"\nB,10.5\n") == [1_500_000, 10_500])
    // Semicolons: a comma is a decimal mark; a point alone too.
    #expect(try meters("name;distance\nA;1,500\n") == [1_500])
    #expect(try meters("name;distance\nA;1.500\n") == [1_500])
    // The option says it.
    #expect(try meters("name,distance\nA,\"1,500\"\n", .point) == [1_500_000])
    #expect(try meters("name,distance\nA,\"1,500\"\n", .comma) == [1_500])
    #expect(try meters("name;distance\nA;1.500\n", .comma) == [1_500_000])
    // Nothing tells: the row's problem asks for the option.
    #expect {
      try read("name,distance\nA,\"1,500\"\n")
    } throws: { error in
      "\(error)".contains(
        "line 2, column 3: \"1,500\" could be 1.5 or 1500 — say which with --decimal comma (1.5) "
          + "or --decimal point (1500)")
    }
    // Both marks in one file: told which lines.
    #expect {
      try read("name,distance\nA,\"10,5\"\nB,10.5\nC,\"1,500\"\n")
    } throws: { error in
      "\(error)".contains(
        "line 4, column 3: \"1,500\" could be 1.5 or 1500, and the file writes "
          + "decimals both ways (lines 2 and 3)")
    }
  }

  @Test("a header's unit: Distance (km), distance [mi]; hints name Title and Distanz (km)")
  func headerUnitsAndHints() throws {
    let miles = try read("name,Distance [mi]\nRun,3.1\n")
    #expect(miles.rows.map(\.workout.meters) == [4_988.9664])
    #expect(miles.distancesWithoutUnit == 0)
    #expect(try read("name,distance (m)\nSwim,1500\n").rows.map(\.workout.meters) == [1_500])
    #expect {
      try read("Date,Title,Distance\n2026-11-29,Run,5\n")
    } throws: { error in
      "\(error)".contains("the header has no name column (\"name\") — did you mean \"Title\"?")
    }
    #expect {
      try read("Name;Distanz (km);Datum\nLauf;5,2;2026-11-29\n")
    } throws: { error in
      "\(error)".contains(
        "the header has no distance column (\"distance\") — did you mean \"Distanz (km)\"?")
    }
  }

  @Test("a GPX file is told by its text, whatever its name")
  func gpxByContent() throws {
    let folder = TemporaryFolder()
    let text = try Data(contentsOf: importFixture("apple-watch-run.gpx"))
    let file = folder.file("route.txt")
    try text.write(to: file)
    let imported = try read(file, WorkoutsImportOptions())
    #expect(imported.rows.map(\.workout.name) == ["Route 2026-11-28 7:45am"])
    // Apple Health's route: 41 steps of 0.0003° of latitude, a pause between its segments.
    let workout = try #require(imported.rows.first?.workout)
    #expect(abs(workout.meters - 41 * 6_371_008.8 * 0.0003 * .pi / 180) < 0.001)
    #expect(workout.duration == (try WorkoutDuration(elapsed: 460, moving: 400)))
    #expect(workout.sport == nil, "no <type>")
  }

  // MARK: Bad rows and implausible values

  @Test("skipping invalid rows imports the others and names each skipped one: line, column, why")
  func skipInvalid() throws {
    let text =
      "name,distance,date\nRun,5,2026-11-29\nBad,x,2026-11-29\nToo,many,fields,here\n"
      + "Late,3,someday\nBoth,y,never\nSwim,1.5,2026-11-27\n"
    #expect {
      try read(text)
    } throws: { error in
      (error as? WorkoutsImportError)?.isInRows == true
    }
    var options = WorkoutsImportOptions(timeZone: utc)
    options.skipsInvalidRows = true
    let imported = try read(text, options)
    #expect(imported.rows.map(\.workout.name) == ["Run", "Swim"])
    #expect(imported.skipped.map(\.line) == [3, 4, 5, 6])
    #expect(imported.skipped.map(\.column) == [5, 1, 8, 6])
    #expect(imported.skipped.allSatisfy { $0.isInvalid })
    #expect(imported.skipped[0].reason.hasPrefix("expected a distance from 0 to 100,000"))
    #expect(imported.skipped[1].reason == "this row has 4 fields, the header 3")
    #expect(imported.skipped[3].reason.hasSuffix("(and 1 more problem in this row)"))
    // Text that is not CSV still stops the import: what follows cannot be told apart.
    #expect {
      try read("name,distance\nRun,5\n\"Open,5\n", options)
    } throws: { error in
      (error as? WorkoutsImportError)?.isInRows == false
    }
    // A 1,500 nothing tells is skipped too.
    let ambiguous = try read("name,distance\nA,\"1,500\"\nB,2\n", options)
    #expect(ambiguous.rows.map(\.workout.name) == ["B"])
    #expect(ambiguous.skipped.map(\.column) == [3])
  }

  @Test("plausibility per sport: a 1,500 km swim, a 4-minute marathon, a stopped watch")
  func plausibility() throws {
    func workout(_ sport: Sport?, _ meters: Double, _ seconds: Double?) throws -> Workout {
      try Workout(
        name: "W", meters: meters, date: now, complexity: .medium,
        duration: try seconds.map { try WorkoutDuration(elapsed: $0) }, sport: sport)
    }
    #expect(
      try workout(.swim, 1_500_000, 1_800).implausibility?.hasPrefix(
        "swim of 1500.0 km: longer than any swim people do (50 km at most)") == true)
    #expect(
      try workout(.run, 42_195, 240).implausibility
        == "run of 42.2 km in 4:00, 0:06 /km: faster than any run people do (the fastest is "
        + "1:35 /km) — is the distance or the time right?")
    #expect(
      try workout(.ride, 20_000, 36_000).implausibility?.contains(
        "slower than any ride people do (the slowest is 2.9 km/h)") == true)
    #expect(try workout(.swim, 1_500, 1_800).implausibility == nil)
    #expect(try workout(.run, 42_195, 7_235).implausibility == nil, "the world record")
    #expect(try workout(.strength, 0, 3_600).implausibility == nil)
    #expect(try workout(Sport("Rowing"), 900_000, 60).implausibility == nil)
    #expect(try workout(nil, 900_000, 60).implausibility == nil)
    #expect(try workout(.run, 5_000, nil).implausibility == nil)
  }

  @Test("the store's summary: rows skipped as not valid, and the added workouts flagged")
  @MainActor
  func summary() throws {
    var options = WorkoutsImportOptions(timeZone: utc)
    options.skipsInvalidRows = true
    let imported = try read(
      "name,distance,sport,time\nSwim,1500,swim,30:00\nBad,x,run,\nRun,10,run,50:00\n", options)
    let store = WorkoutsStore()
    store.send(.finishImport(imported))
    guard case .finished(let summary) = store.state.importStatus else {
      Issue.record("\(store.state.importStatus)")
      return
    }
    #expect(summary.added == 2)
    #expect(summary.skipped.map(\.line) == [3])
    #expect(summary.flagged.map(\.line) == [2])
    #expect(summary.flagged.first?.id == imported.rows[0].workout.id)
  }
}
