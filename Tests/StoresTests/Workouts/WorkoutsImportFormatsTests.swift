import Foundation
import StoreTesting
import Testing

@testable import Stores

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The import of the files people have: Strava's export, European spreadsheets, other units
/// and date forms, every bad row at once, rows already in the diary, GPX tracks, pipes.
@Suite("Import of real files")
struct WorkoutsImportFormatsTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 817_600_000)
  let folder = TemporaryFolder()

  func importFixture(_ name: String) -> URL {
    fixturesFolder.appendingPathComponent("import/\(name)")
  }

  /// Every workout of `urls`, read as `options` say.
  func read(_ urls: [URL], _ options: WorkoutsImportOptions) throws(WorkoutsImportError)
    -> WorkoutsImport
  {
    var importer = try WorkoutsImporter(files: urls, options: options)
    var next = 0
    let imported = try importer.readAll(
      rowsPerPart: 500, now: { now },
      makeID: {
        defer { next += 1 }
        return Gen<UUID>.testID(next)
      },
      goOn: { _ in true })
    return imported!
  }

  @Test("readAll shows the progress between parts, and stops when told to")
  func readAllInParts() throws {
    let file = folder.file("runs.csv")
    var text = "name,distance\n"
    for index in 0..<1_200 { text += "Run \(index),1\n" }
    try Data(text.utf8).write(to: file)
    var importer = try WorkoutsImporter(
      files: [file], options: WorkoutsImportOptions(timeZone: utc))
    var rows: [Int] = []
    let all = try importer.readAll(
      rowsPerPart: 500, now: { now }, makeID: UUID.init,
      goOn: {
        rows.append($0.rows)
        return true
      })
    #expect(rows == [500, 1_000])
    #expect(all?.rows.count == 1_200)
    var stopped = try WorkoutsImporter(files: [file], options: WorkoutsImportOptions(timeZone: utc))
    var calls = 0
    let none = try stopped.readAll(
      rowsPerPart: 500, now: { now }, makeID: UUID.init,
      goOn: { _ in
        calls += 1
        return false
      })
    #expect(none == nil)
    #expect(calls == 1)
  }

  func read(_ text: String, _ options: WorkoutsImportOptions? = nil) throws(WorkoutsImportError)
    -> WorkoutsImport
  {
    try WorkoutsCSV.read(
      Data(text.utf8), path: "f.csv", options: options ?? WorkoutsImportOptions(timeZone: utc),
      now: now,
      makeID: UUID.init)
  }

  func date(_ text: String) -> Date { LocalDate.date(from: text, in: utc)! }

  @Test("Strava's activities.csv: 2,000 rows, its date form in UTC, the first Distance column")
  func strava() throws {
    let imported = try read([importFixture("strava-activities.csv")], .strava())
    #expect(imported.rows.count == 2_000)
    let first = try #require(imported.rows.first?.workout)
    #expect(first.name == "Evening Run")
    #expect(first.distance == 14.37)
    #expect(first.date == date("2021-01-02T09:57:23"))
    #expect(imported.rows[1].workout.date == date("2021-01-03T12:41:01"), "12 PM is noon")
    #expect(imported.rows.allSatisfy { !$0.hasID && $0.hasDate })
    #expect(imported.ignoredColumns.first == "Activity ID")
    #expect(imported.ignoredColumns.count(where: { $0 == "Elapsed Time" }) == 1, "named once")
    #expect(imported.distancesWithoutUnit == 2_000)
    let inMiles = try read([importFixture("strava-activities.csv")], .strava(unit: .miles))
    #expect(inMiles.rows[0].workout.distance == 14.37 * DistanceUnit.kilometersPerMile)
  }

  @Test("semicolons, a decimal comma, miles and DD/MM/YYYY dates")
  func european() throws {
    let options = WorkoutsImportOptions(dateFormat: try DatePattern("%d/%m/%Y"), timeZone: utc)
    let imported = try read([importFixture("european.csv")], options)
    #expect(
      imported.rows.map(\.workout.name) == [
        "Lauf am Morgen", "Radtour", "Schwimmen; Hallenbad", "Spaziergang",
      ])
    #expect(imported.rows[0].workout.distance == 3.1 * DistanceUnit.kilometersPerMile)
    #expect(imported.rows[1].workout.date == date("2026-11-28"))
    #expect(imported.rows[3].workout.date == date("2026-12-01"), "day first: 1 December")
    #expect(imported.distancesWithoutUnit == 0)
  }

  @Test("the delimiter is told from the header: comma, semicolon or tab")
  func delimiters() throws {
    for (text, expected) in [
      ("name,distance\nRun,5\n", 5.0), ("name;distance\nRun;5,5\n", 5.5),
      ("name\tdistance\tnote\nRun\t5.5\ta, b; c\n", 5.5),
      ("\"x;y\",name,distance\n1,Run,2\n", 2.0),
    ] {
      let imported = try read(text)
      #expect(imported.rows.map(\.workout.distance) == [expected], "\(text)")
    }
    #expect(try read("name,distance\nRun,\"5,5\"\n").rows.map(\.workout.distance) == [5.5])
    #expect(throws: WorkoutsImportError.self, "1,500 where nothing tells which it is") {
      try read("name,distance\nRun,\"1,500\"\n")
    }
  }

  @Test("distances as add takes them, from 0 to 100,000, in the unit given for bare numbers")
  func distances() throws {
    let mile = DistanceUnit.kilometersPerMile
    for (typed, kilometres) in [
      ("5km", 5.0), ("3.1 mi", 3.1 * mile), ("14.79 mi", 14.79 * mile), ("2 Miles", 2 * mile),
      (".5", 0.5), ("0", 0), ("100000", 100_000),
    ] {
      let imported = try read("name,distance\nRun,\(typed)\n")
      #expect(imported.rows.first?.workout.distance == kilometres, "\(typed)")
    }
    let miles = WorkoutsImportOptions(unit: .miles, timeZone: utc)
    #expect(try read("name,distance\nRun,5\n", miles).rows.first?.workout.distance == 5 * mile)
    #expect(try read("name,distance\nRun,5km\n", miles).rows.first?.workout.distance == 5)
    for refused in ["100001", "1e300", "-1", "nan", "inf", "5 parsecs", "", "0x10", "1.2.3"] {
      #expect(throws: WorkoutsImportError.self, "\(refused)") {
        try read("name,distance\nRun,\(refused)\n")
      }
    }
  }

  @Test("dates: the forms of add, a space for the T, and any pattern")
  func dates() throws {
    for (typed, expected) in [
      ("2026-11-29 07:30:00", "2026-11-29T07:30:00"), ("2026-11-29 07:30", "2026-11-29T07:30"),
      ("2026-11-29", "2026-11-29"), ("2026-11-29T07:30:00Z", "2026-11-29T07:30:00"),
    ] {
      #expect(
        try read("name,distance,date\nRun,1,\(typed)\n").rows[0].workout.date == date(expected))
    }
    #expect(
      try read("name,distance,date\nRun,1,today\n").rows[0].workout.date
        == LocalDate.startOfDay(0, from: now, in: utc))
    let american = try DatePattern("%m/%d/%Y")
    #expect(american.date(from: "11/29/2026", in: utc) == date("2026-11-29"))
    #expect(american.date(from: "2/3/2026", in: utc) == date("2026-02-03"))
    #expect(american.date(from: "29/11/2026", in: utc) == nil, "no month 29")
    let strava = try DatePattern("%b %d, %Y, %I:%M:%S %p")
    #expect(strava.date(from: "Nov 29, 2026, 7:30:00 AM", in: utc) == date("2026-11-29T07:30"))
    #expect(strava.date(from: "nov 29, 2026, 12:05:00 am", in: utc) == date("2026-11-29T00:05"))
    #expect(strava.date(from: "Nov 29, 2026, 12:05:00 PM", in: utc) == date("2026-11-29T12:05"))
    #expect(strava.date(from: "Feb 30, 2026, 7:30:00 AM", in: utc) == nil)
    #expect(strava.date(from: "Nov 29, 2026, 7:30:00 AM trailing", in: utc) == nil)
    #expect(
      try DatePattern("%d.%m.%y %H:%M").date(from: "29.11.26 19:05", in: utc)
        == date("2026-11-29T19:05"))
    for bad in ["%Q/%d/%Y", "%m/%d", "%Y-%m-%d %I:%M", "%Y-%m-%d %"] {
      #expect(throws: DatePattern.Invalid.self, "\(bad)") { try DatePattern(bad) }
    }
    let options = WorkoutsImportOptions(dateFormat: american, timeZone: utc)
    let error = #expect(throws: WorkoutsImportError.self) {
      try read("name,distance,date\nRun,1,2026/11/29\n", options)
    }
    #expect(error?.description.contains("or as %m/%d/%Y, found \"2026/11/29\"") == true)
  }

  @Test("columns mapped by header; the others ignored and named once")
  func columns() throws {
    let options = WorkoutsImportOptions(
      columns: [.name: "Activity Name", .distance: "KM"], timeZone: utc)
    let imported = try read("Activity Name,Notes,km,notes\nRun,x,5,y\n", options)
    #expect(imported.rows.map(\.workout.name) == ["Run"])
    #expect(imported.ignoredColumns == ["Notes", "notes"])
    let error = #expect(throws: WorkoutsImportError.self) {
      try read("Activity Name,Distance\nRun,5\n")
    }
    #expect(error?.description.contains("the header has no name column") == true)
    #expect(error?.description.contains("--column name=HEADER") == true)
  }

  @Test("every bad row is found in one run: the first 20 with their places, then the count")
  func everyProblem() throws {
    var text = "name,distance,complexity\n"
    for index in 0..<30 {
      text += index % 6 == 0 ? "Run,\(index)km,extreme\n" : "Run,\(index)km,low\n"
    }
    for index in 0..<24 { text += "Bad,\(index)e9,low\n" }
    let error = #expect(throws: WorkoutsImportError.self) { try read(text) }
    guard case .invalidRows(let problems, let count) = error?.problem else {
      Issue.record("\(String(describing: error))")
      return
    }
    #expect(count == 5 + 24)
    #expect(problems.count == WorkoutsImporter.problemsListed)
    #expect(
      problems.first
        == .init(line: 2, column: 9, message: #"expected low, medium or high, found "extreme""#))
    #expect(problems.map(\.line) == problems.map(\.line).sorted())
    #expect(error?.description.hasSuffix("\n  … and 9 more") == true)
    #expect(error?.description.contains("29 problems in its rows; nothing was imported") == true)
  }

  @Test("rows without ids equal to workouts in the diary are skipped: any file twice adds nothing")
  @MainActor
  func twiceAddsNothing() {
    let rows = Gen<([Workout], Bool)>.zip(.workouts(maxCount: 8), .bool)
    check(rows) { workouts, hasDate in
      var state = WorkoutsStore.State()
      for round in 0..<2 {
        let fresh = workouts.enumerated().map { index, workout in
          try! Workout(
            id: Gen<UUID>.testID(100 * (round + 1) + index), name: workout.name,
            distance: workout.distance, date: workout.date, complexity: workout.complexity)
        }
        WorkoutsStore.reduce(
          &state,
          .finishImport(
            WorkoutsImport(
              file: "f.csv",
              rows: fresh.enumerated().map {
                .init(line: $0.offset + 2, workout: $0.element, hasID: false, hasDate: hasDate)
              })))
        guard case .finished(let summary) = state.importStatus else {
          return try require(false, "no summary after round \(round)")
        }
        try requireEqual(summary.added, round == 0 ? workouts.count : 0, "round \(round)")
        try requireEqual(summary.skipped.count, round == 0 ? 0 : workouts.count)
      }
      try requireEqual(state.workouts.count, workouts.count)
    }
  }

  @Test("finishing an import agrees with the model, rows with and without ids and dates")
  func finishAgreesWithModel() {
    let rows = Gen<(Workout, Bool, Bool)>.zip(.workout(id: .id(among: 12)), .bool, .bool)
      .array(maxCount: 6)
    let cases = Gen<([Workout], WorkoutsStore.SortType?, [(Workout, Bool, Bool)], Int)>.zip(
      .workouts(maxCount: 8),
      Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional, rows,
      Gen<Int>.integer(in: 0...8))
    check(cases) { workouts, sortType, rows, copies in
      // Some rows are copies of workouts there, with other ids, so that contents match.
      var copied: [(Workout, Bool, Bool)] = []
      for (index, workout) in workouts.prefix(copies).enumerated() {
        let copy = try! Workout(
          id: Gen<UUID>.testID(50 + index), name: workout.name, distance: workout.distance,
          date: workout.date, complexity: workout.complexity)
        copied.append((copy, index % 2 == 0, index % 3 == 0))
      }
      let imported = WorkoutsImport(
        file: "f.csv",
        rows: (rows + copied).enumerated().map { line, row -> WorkoutsImport.Row in
          WorkoutsImport.Row(line: line + 2, workout: row.0, hasID: row.1, hasDate: row.2)
        })
      var state = WorkoutsStore.State(workouts: workouts, sortType: sortType)
      WorkoutsStore.reduce(&state, .finishImport(imported))
      let model = WorkoutsModel.apply(
        .finishImport(imported), to: WorkoutsModel(added: workouts, sortType: sortType))
      try requireEqual(state.workoutsInAddedOrder, model.added)
      try requireEqual(state.workouts, model.shown)
      guard case .finished(let summary) = state.importStatus else {
        return try require(false, "no summary")
      }
      try requireEqual(summary.added + summary.skipped.count, imported.rows.count)
    }
  }

  @Test("a name a spreadsheet would run is exported behind a quote and imported without it")
  func formulas() throws {
    let names = ["=cmd|' /C calc'!A0", "+1", "-2 laps", "@SUM(A1)", "'=quoted", "'plain"]
    let workouts = try names.map { try Workout(name: $0, distance: 1, date: now) }
    let text = WorkoutsCSV.export(workouts)
    #expect(text.contains(",'=cmd|' /C calc'!A0,1,"))
    #expect(text.contains(",'+1,1,") && text.contains(",'-2 laps,1,"))
    #expect(text.contains(",''=quoted,1,"))
    #expect(text.contains(",'plain,1,"), "a quote before other text stays as it is")
    #expect(try read(text).rows.map(\.workout) == workouts)
  }

  @Test("the same limits as add: one-line names, distances to 100,000")
  func limits() {
    for row in ["\"Two\nlines\",5", "Run,100000.5", "Run,1e300", " ,5"] {
      #expect(throws: WorkoutsImportError.self, "\(row)") { try read("name,distance\n\(row)\n") }
    }
  }

  @Test("GPX tracks: great-circle distances, the first time, the track's or the file's name")
  func gpx() throws {
    #expect(
      abs(WorkoutsGPX.distance(from: (0, 0), to: (1, 0)) - 6_371.0088 * Double.pi / 180) < 1e-9)
    #expect(abs(WorkoutsGPX.distance(from: (0, 0), to: (0, 180)) - 6_371.0088 * Double.pi) < 1e-6)
    #expect(WorkoutsGPX.distance(from: (48.85, 2.35), to: (48.85, 2.35)) == 0)
    let file = folder.write(
      """
      <?xml version="1.0"?>
      <gpx version="1.1"><trk><name> Along
      the equator </name><trkseg>
      <trkpt lat="0" lon="0"><time>2026-11-29T07:30:00Z</time></trkpt>
      <trkpt lat="0" lon="0.01"/>
      <trkpt lat="0" lon="0.02"><time>2026-11-29T07:40:00Z</time></trkpt>
      </trkseg></trk><trk><trkseg><trkpt lat="1" lon="1"><time>2026-11-30T07:00:00.5Z</time>
      </trkpt></trkseg></trk></gpx>
      """, to: "equator walk.gpx")
    let imported = try read([file], WorkoutsImportOptions())
    #expect(imported.rows.map(\.workout.name) == ["Along the equator", "equator walk"])
    let expected = 2 * WorkoutsGPX.distance(from: (0, 0), to: (0, 0.01))
    #expect(abs(imported.rows[0].workout.distance - expected) < 1e-12)
    #expect(imported.rows[0].workout.date == date("2026-11-29T07:30:00"))
    #expect(imported.rows[1].workout.distance == 0)
    #expect(imported.rows.map(\.line) == [2, 7])
    #expect(imported.rows.allSatisfy { !$0.hasID })
    let tracks = try read([importFixture("tracks")], WorkoutsImportOptions())
    #expect(tracks.rows.count == 4)
    #expect(
      tracks.rows.map(\.workout.name) == ["Lap 1", "Lap 2", "2026-11-28-ride", "Morning Run"])
    #expect(tracks.rows.allSatisfy { $0.file?.hasSuffix(".gpx") == true })
  }

  @Test(
    "hostile or broken GPX is refused with its place, and nothing is read",
    arguments: [
      ("", "the file is empty"),
      ("  \n", "the file is empty"),
      ("<gpx><trk>", "it was cut short"),
      ("<?xml version=\"1.0\"?><kml></kml>", "no <gpx> element"),
      ("<gpx></gpx>", "no track"),
      ("<gpx><trk><trkseg></trkseg></trk></gpx>", "the track has no points"),
      ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>", "no times"),
      ("<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"2\"/></trkseg></trk></gpx>", "lat (-90…90)"),
      ("<gpx><trk><trkseg><trkpt lat=\"nan\" lon=\"2\"/></trkseg></trk></gpx>", "lat (-90…90)"),
      (
        "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>soon</time></trkpt></trkseg></trk>"
          + "</gpx>", "expected a time such as"
      ),
      (
        """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>
        <gpx><trk><name>&lol2;</name></trk></gpx>
        """, "line 2, column 1: <!DOCTYPE is not allowed"
      ),
      (
        "<gpx><trk><name>x</name></trk><!ENTITY x SYSTEM \"file:///etc/passwd\"></gpx>",
        "<!ENTITY is not allowed"
      ),
      (
        "<gpx>" + String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
          + "</gpx>", "nested more than 32 deep"
      ),
      ("\u{0}\u{0}<gpx>", "not well-formed XML"),
    ])
  func hostileGPX(text: String, message: String) {
    let file = folder.write(text, to: "track.gpx")
    let error = #expect(throws: WorkoutsImportError.self) {
      try read([file], WorkoutsImportOptions())
    }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    #expect(error?.description.hasSuffix("nothing was imported") == true)
  }

  @Test("a GPX file of 10 MB or more is read, up to the import's limit")
  func largeGPX() throws {
    // libxml2 refuses one part of its input of 10 MB or more: a track of a week at a point a
    // second, just under the limit of an import, made here rather than kept in Fixtures.
    let head = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><name>Week</name><trkseg>\n"
    let tail = "</trkseg></trk></gpx>\n"
    let pair =
      "<trkpt lat=\"0\" lon=\"0\"><time>2026-11-29T07:30:00Z</time></trkpt>\n"
      + "<trkpt lat=\"0\" lon=\"0.00001\"><time>2026-11-29T07:30:01Z</time></trkpt>\n"
    let pairs =
      (WorkoutsImporter.maximumFileSize - head.utf8.count - tail.utf8.count)
      / pair.utf8.count
    let text = head + String(repeating: pair, count: pairs) + tail
    #expect(text.utf8.count > WorkoutsImporter.maximumFileSize - pair.utf8.count)
    #expect(text.utf8.count <= WorkoutsImporter.maximumFileSize)
    let file = folder.write(text, to: "week.gpx")
    let imported = try read([file], WorkoutsImportOptions())
    #expect(imported.rows.map(\.workout.name) == ["Week"])
    let step = WorkoutsGPX.distance(from: (0, 0), to: (0, 0.00001))
    #expect(abs(imported.rows[0].workout.distance - Double(2 * pairs - 1) * step) < 1e-6)
  }

  @Test("a GPX track longer than any workout is refused, named, with the fix")
  func farGPX() {
    // Points that jump half round the Earth: 7 × 20,015 km.
    var text = "<gpx><trk><name>Zigzag</name><trkseg>\n"
    for index in 0..<8 {
      text +=
        "<trkpt lat=\"0\" lon=\"\(index % 2 == 0 ? 0 : 180)\">"
        + "<time>2026-11-29T07:30:00Z</time></trkpt>\n"
    }
    let file = folder.write(text + "</trkseg></trk></gpx>\n", to: "zigzag.gpx")
    let error = #expect(throws: WorkoutsImportError.self) {
      try read([file], WorkoutsImportOptions())
    }
    #expect(
      error?.description
        == file.path + ": line 1, column 1: the track \"Zigzag\" is 140,106 km long, more than "
        + "the 100,000 km a workout can be — its points are far apart or out of order; remove "
        + "the stray points, or split it into tracks (<trk>) of less than 100,000 km; nothing "
        + "was imported")
    let unnamed = folder.write(
      text.replacingOccurrences(of: "<name>Zigzag</name>", with: "") + "</trkseg></trk></gpx>",
      to: "unnamed.gpx")
    let second = #expect(throws: WorkoutsImportError.self) {
      try read([unnamed], WorkoutsImportOptions())
    }
    #expect(second?.description.contains("the track is 140,106 km long") == true)
  }

  @Test("a billion laughs is refused at once, before any expansion")
  func billionLaughs() {
    var entities = "<!ENTITY lol0 \"lol\">"
    for level in 1..<10 {
      entities +=
        "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
    }
    let file = folder.write(
      "<?xml version=\"1.0\"?><!DOCTYPE gpx [\(entities)]><gpx><trk><name>&lol9;</name>"
        + "</trk></gpx>", to: "laughs.gpx")
    let error = #expect(throws: WorkoutsImportError.self) {
      try read([file], WorkoutsImportOptions())
    }
    #expect(error?.description.contains("<!DOCTYPE is not allowed") == true)
  }

  @Test("files larger than the limit are refused before they are read; folders need files")
  func limitsOfFiles() throws {
    let big = folder.file("big.csv")
    #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
    #expect(truncate(big.path, 100_000_000) == 0, "a sparse 100 MB file")
    let error = #expect(throws: WorkoutsImportError.self) {
      try read([big], WorkoutsImportOptions())
    }
    #expect(error?.problem == .tooLarge(limit: WorkoutsImporter.maximumFileSize))
    #expect(error?.description.contains("larger than 50 MB") == true)
    let empty = folder.file("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    #expect(throws: WorkoutsImportError.self) { try read([empty], WorkoutsImportOptions()) }
    let missing = #expect(throws: WorkoutsImportError.self) {
      try read([folder.file("missing.csv")], WorkoutsImportOptions())
    }
    guard case .unreadable = missing?.problem else {
      Issue.record("\(String(describing: missing))")
      return
    }
  }

  @Test("a pipe is read as a stream, to its end; a FIFO without a writer reads as empty")
  func pipe() async throws {
    let pipe = Pipe()
    let text = "name,distance\n" + (0..<20_000).map { "Run \($0),\($0 % 9)\n" }.joined()
    let writing = pipe.fileHandleForWriting
    // More than a pipe holds: the reader must read while the writer writes.
    let writer = Task.detached {
      try writing.write(contentsOf: Data(text.utf8))
      try writing.close()
    }
    let path = URL(fileURLWithPath: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
    let imported = try read([path], WorkoutsImportOptions(timeZone: utc))
    try await writer.value
    #expect(imported.rows.count == 20_000)
    let fifo = folder.file("fifo.csv")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let error = #expect(throws: WorkoutsImportError.self) {
      try read([fifo], WorkoutsImportOptions())
    }
    #expect(error?.description.contains("the file is empty") == true)
  }

  @Test("lastError is cleared by a successful refresh, as by a saved action")
  @MainActor
  func lastErrorCleared() throws {
    let url = folder.file("workouts.json")
    let store = try WorkoutsStore(contentsOf: url)
    try store.trySend(.addWorkout(try Workout(name: "Run", distance: 5, date: now)))
    let good = try Data(contentsOf: url)
    try Data("{ broken".utf8).write(to: url)
    store.send(.sort(by: .distance))
    #expect(store.lastError is StoreFileError)
    #expect(throws: StoreFileError.self) { try store.refresh() }
    #expect(store.lastError != nil, "a failed refresh leaves the error")
    try good.write(to: url)
    try store.refresh()
    #expect(store.lastError == nil)
    #expect(store.state.workouts.map(\.name) == ["Run"])
  }
}
