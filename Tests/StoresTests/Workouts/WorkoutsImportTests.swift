import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Workouts in and out of CSV: the format (RFC 4180) and its errors with their places.
@Suite("Workouts CSV")
struct WorkoutsCSVTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 817_600_000)

  func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/csv/\(name)")
  }

  func read(_ text: String) throws(WorkoutsImportError) -> WorkoutsImport {
    try read(Data(text.utf8))
  }

  func read(_ data: Data, path: String = "f.csv") throws(WorkoutsImportError) -> WorkoutsImport {
    var next = 0
    return try WorkoutsCSV.read(
      data, path: path, options: WorkoutsImportOptions(timeZone: utc), now: now
    ) {
      defer { next += 1 }
      return Gen<UUID>.testID(next)
    }
  }

  /// `workouts` with their dates as an export writes them: to the millisecond.
  static func exported(_ workouts: [Workout]) throws -> [Workout] {
    try workouts.map {
      try Workout(
        id: $0.id, name: $0.name, meters: $0.meters, date: WorkoutsCSV.exportedDate($0.date),
        complexity: $0.complexity, duration: $0.duration, sport: $0.sport)
    }
  }

  @Test("export then import gives the same workouts back, dates to the millisecond; again, exactly")
  func roundTrip() {
    check(Gen<[Workout]>.workouts(maxCount: 12)) { workouts in
      let text = WorkoutsCSV.export(workouts)
      let imported = try read(text).rows.map(\.workout)
      try requireEqual(imported, try Self.exported(workouts))
      try require(text.hasPrefix("id,name,distance,date,complexity,sport,time,movingTime\r\n"))
      // Exported once, a diary's workouts go through any number of exports unchanged.
      try requireEqual(WorkoutsCSV.export(imported), text)
      try requireEqual(try read(WorkoutsCSV.export(imported)).rows.map(\.workout), imported)
    }
  }

  @Test("export writes seconds, or milliseconds: never the 7 digits of a Date()")
  func exportedDates() {
    let date = Date(timeIntervalSinceReferenceDate: 817_630_200.123_456_7)
    let workouts = [
      try! Workout(name: "A", meters: 1, date: date),
      try! Workout(name: "B", meters: 1, date: Date(timeIntervalSinceReferenceDate: 817_630_200)),
      try! Workout(
        name: "C", meters: 1, date: Date(timeIntervalSinceReferenceDate: 817_630_200.999_6)),
    ]
    let text = WorkoutsCSV.export(workouts)
    #expect(text.contains(",2026-11-29T07:30:00.123Z,"))
    #expect(text.contains(",2026-11-29T07:30:00Z,"))
    #expect(text.contains(",2026-11-29T07:30:01Z,"), "rounded to the nearest millisecond")
  }

  @Test("RFC 4180: quotes, commas and line breaks in fields, CRLF or LF, a byte-order mark")
  func format() throws {
    let imported = try read(try Data(contentsOf: fixture("workouts.csv")))
    #expect(
      imported.rows.map(\.workout.name) == ["Morning run", "Long ride, hilly", "The \"easy\" one"])
    #expect(imported.rows.map(\.line) == [2, 3, 4])
    #expect(imported.rows[1].workout.date == LocalDate.date(from: "2026-11-28", in: utc))
    #expect(imported.rows[2].workout.date == LocalDate.date(from: "2026-11-27T18:00", in: utc))
    let reordered = try read(try Data(contentsOf: fixture("reordered.csv")))
    #expect(reordered.rows.map(\.workout.complexity) == [.high, .medium, .low])
    #expect(reordered.rows.map(\.workout.distance) == [10, 7.5, 1])
    #expect(reordered.rows[2].workout.name == "Cool down")
    #expect(reordered.ignoredColumns == ["Notes"], "a line break inside quotes, ignored")
    #expect(reordered.rows.map(\.workout.date) == [now, now, now], "no date: now")
    #expect(reordered.rows.map(\.workout.id) == (0..<3).map { Gen<UUID>.testID($0) })
    #expect(try read("name,distance\nA,1").rows.count == 1, "no line break at the end")
    #expect(try read("name,distance\n\nA,1\r\n\r\nB,2\n\n").rows.count == 2, "blank lines")
    #expect(try read("name,distance\n").rows.isEmpty)
  }

  @Test("the same id twice in a file: the second row is left out, with its line")
  func duplicateIDs() throws {
    let imported = try read(try Data(contentsOf: fixture("duplicate-ids.csv")))
    #expect(imported.rows.map(\.workout.name) == ["First", "Third"])
    #expect(
      imported.skipped == [WorkoutsImport.SkippedRow(line: 3, reason: "the same id as line 2")])
  }

  @Test(
    "a bad file is refused at the first problem, with the line, the column and the fix",
    arguments: [
      ("empty.csv", 1, 1, "the file is empty"),
      (
        "unknown-column.csv", 1, 1,
        #"the header has no distance column ("distance") — did you mean "distnce"?"#
      ),
      ("missing-distance.csv", 1, 1, "the header has no distance column"),
      (
        "negative-distance.csv", 3, 6,
        #"expected a distance from 0 to 100,000 such as 5.2, 5km, 1500 m, 1650 yd or 3.1 mi, found "-1""#
      ),
      ("bad-complexity.csv", 2, 7, #"expected low, medium or high, found "extreme""#),
      ("extra-field.csv", 2, 1, "this row has 3 fields, the header 2"),
      ("unterminated-quote.csv", 2, 1, "the quoted field that starts here never ends"),
      ("stray-quote.csv", 2, 3, "a quote inside a field that does not start with one"),
      ("invalid-utf8.csv", 2, 1, "the text is not UTF-8"),
      ("empty-name.csv", 2, 1, "a workout needs a name"),
    ])
  func refused(name: String, line: Int, column: Int, message: String) throws {
    let error = #expect(throws: WorkoutsImportError.self) {
      try read(try Data(contentsOf: fixture(name)))
    }
    guard case .invalid(let foundLine, let foundColumn, let found) = error?.problem else {
      Issue.record("\(name): \(String(describing: error))")
      return
    }
    #expect((foundLine, foundColumn) == (line, column), "\(name): \(found)")
    #expect(found.contains(message), "\(name): \(found)")
  }

  @Test("more errors: wrong ids, dates, columns named twice; columns count in characters")
  func moreErrors() {
    let cases = [
      ("name,distance,id\nRun,5,nope\n", "line 2, column 7: expected an id such as"),
      ("name,distance,date\nRun,5,29/11/2026\n", "line 2, column 7: expected a date such as"),
      ("name,distance\n\"Two\nlines\",1\n", "line 2, column 1: a name must be one line"),
      ("name,distance\n\"Café, ☕\",x\n", "line 2, column 11: expected a distance"),
      ("name,distance\nRun,nan\n", "line 2, column 5: expected a distance"),
    ]
    for (text, expected) in cases {
      let error = #expect(throws: WorkoutsImportError.self) { try read(text) }
      #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }
  }

  @Test("a huge field and 100,000 rows are read in one pass")
  func large() throws {
    let huge = String(repeating: "x", count: 5_000_000)
    #expect(try read("name,distance\n\(huge),1\n").rows.first?.workout.name.count == 5_000_000)
    var text = "name,distance,complexity\n"
    for index in 0..<100_000 { text += "Run \(index),\(index % 50),low\n" }
    #expect(try read(text).rows.count == 100_000)
    let fields = String(repeating: ",", count: 200_000)
    #expect(throws: WorkoutsImportError.self) { try read("name,distance\nRun,1\(fields)\n") }
  }

}

/// The import as an effect of the store: progress, cancellation, all or nothing, ids skipped.
@MainActor
@Suite("Workouts import")
struct WorkoutsImportTests {
  let folder = TemporaryFolder()
  let utc = TimeZone(identifier: "UTC")!
  let csv = WorkoutsCSVTests()

  func fixture(_ name: String) -> URL { csv.fixture(name) }
  func read(_ data: Data, path: String) throws(WorkoutsImportError) -> WorkoutsImport {
    try csv.read(data, path: path)
  }

  @Test("importing through the store: progress, then every workout added in one action")
  func importEffect() async throws {
    let file = folder.file("big.csv")
    var text = "name,distance,date\n"
    for index in 0..<4_500 { text += "Run \(index),\(index % 20),2026-11-29\n" }
    try Data(text.utf8).write(to: file)
    let tester = StoreTester(WorkoutsStore(environment: .test()))
    let started = WorkoutsImportProgress(file: file.path, bytesRead: 0, totalBytes: 0, rows: 0)
    await tester.send(.importWorkouts(from: file, options: WorkoutsImportOptions(timeZone: utc))) {
      _ = $0.setImportStatus(.importing(started))
    }
    for rows in [2_000, 4_000] {
      await tester.receive(
        .importProgress(
          WorkoutsImportProgress(
            file: file.path, bytesRead: progressBytes(text, rows: rows),
            totalBytes: text.utf8.count, rows: rows))
      ) {
        _ = $0.setImportStatus(
          .importing(
            WorkoutsImportProgress(
              file: file.path, bytesRead: progressBytes(text, rows: rows),
              totalBytes: text.utf8.count, rows: rows)))
      }
    }
    let imported = try read(Data(text.utf8), path: file.path)
    await tester.receive(.finishImport(imported)) {
      $0 = WorkoutsStore.State(workouts: imported.rows.map(\.workout))
      _ = $0.setImportStatus(
        .finished(
          WorkoutsImportSummary(
            file: file.path, added: 4_500, skipped: [], distancesWithoutUnit: 4_500)))
    }
    await tester.finish()
  }

  @Test("an import's end is received by its case alone (the TestingStores article's example)")
  func importReceivedByCase() async throws {
    let file = folder.file("runs.csv")
    try Data("name,distance,date\nRun,5,2026-11-29\n".utf8).write(to: file)
    let tester = StoreTester(WorkoutsStore(environment: .test()))
    tester.exhaustivity = .off
    await tester.send(.importWorkouts(from: file))
    let imported = await tester.receive(\.finishImport)
    #expect(imported?.rows.map(\.workout.name) == ["Run"])
    #expect(tester.store.state.workouts.map(\.name) == ["Run"])
    await tester.finish()
  }

  /// The bytes read after `rows` rows of `text`: the header and those rows.
  func progressBytes(_ text: String, rows: Int) -> Int {
    text.split(separator: "\n", omittingEmptySubsequences: false).prefix(rows + 1)
      .map { $0.utf8.count + 1 }.reduce(0, +)
  }

  @Test("importing the same file twice adds nothing the second time, saying why")
  func twice() async throws {
    let store = try WorkoutsStore(contentsOf: folder.file("workouts.json"), environment: .test())
    for round in 0..<2 {
      store.send(
        .importWorkouts(
          from: fixture("workouts.csv"), options: WorkoutsImportOptions(timeZone: utc)))
      await store.settle()
      guard case .finished(let summary) = store.state.importStatus else {
        Issue.record("round \(round): \(store.state.importStatus)")
        return
      }
      #expect(summary.added == (round == 0 ? 3 : 0))
      #expect(summary.skipped.count == (round == 0 ? 0 : 3))
      #expect(
        summary.skipped.first?.reason == (round == 0 ? nil : "its id is in the diary already"))
    }
    #expect(try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts.count == 3)
  }

  @Test("a bad row fails the whole import: nothing added, the error kept in the status")
  func allOrNothing() async throws {
    let store = try WorkoutsStore(contentsOf: folder.file("workouts.json"), environment: .test())
    store.send(
      .importWorkouts(
        from: fixture("negative-distance.csv"), options: WorkoutsImportOptions(timeZone: utc))
    )
    await store.settle()
    guard case .failed(let error) = store.state.importStatus else {
      Issue.record("\(store.state.importStatus)")
      return
    }
    #expect(error.description.contains("line 3, column 6"))
    #expect(store.state.workouts.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.file("workouts.json").path))
    store.send(
      .importWorkouts(
        from: folder.file("missing.csv"), options: WorkoutsImportOptions(timeZone: utc)))
    await store.settle()
    guard case .failed(let unreadable) = store.state.importStatus,
      case .unreadable = unreadable.problem
    else {
      Issue.record("\(store.state.importStatus)")
      return
    }
  }

  @Test("an import whose save fails ends as failed, saying why; nothing is added")
  func saveFails() async throws {
    let url = folder.file("workouts.json")
    let store = try WorkoutsStore(contentsOf: url, environment: .test())
    try store.trySend(.addWorkout(try Workout(name: "Run", distance: 5)))
    #expect(chmod(url.path, 0o444) == 0)
    store.send(
      .importWorkouts(from: fixture("workouts.csv"), options: WorkoutsImportOptions(timeZone: utc)))
    await store.settle()
    guard case .failed(let error) = store.state.importStatus, case .notSaved = error.problem else {
      Issue.record("\(store.state.importStatus)")
      return
    }
    #expect(error.description.hasSuffix("nothing was imported"))
    #expect(store.lastError != nil)
    #expect(store.state.workouts.map(\.name) == ["Run"])
  }

  @Test("cancelling an import adds nothing")
  func cancel() async throws {
    let file = folder.file("big.csv")
    var text = "name,distance\n"
    for index in 0..<50_000 { text += "Run \(index),1\n" }
    try Data(text.utf8).write(to: file)
    let store = WorkoutsStore(environment: .test())
    store.send(.importWorkouts(from: file, options: WorkoutsImportOptions(timeZone: utc)))
    store.send(.cancelImport)
    await store.settle()
    #expect(store.state.importStatus == .cancelled)
    #expect(store.state.workouts.isEmpty)
  }

  @Test("the import status is kept in memory: not in the file, kept through a reload")
  func memoryOnly() async throws {
    let url = folder.file("workouts.json")
    let store = try WorkoutsStore(contentsOf: url, environment: .test())
    store.send(
      .importWorkouts(from: fixture("workouts.csv"), options: WorkoutsImportOptions(timeZone: utc)))
    await store.settle()
    let status = store.state.importStatus
    try WorkoutsStore(contentsOf: url).trySend(.sort(by: .distance))
    try store.refresh()
    #expect(store.state.sortType == .distance)
    #expect(store.state.importStatus == status, "kept through the reload")
    #expect(try WorkoutsStore(contentsOf: url).state.importStatus == .none)
    #expect(try String(contentsOf: url, encoding: .utf8).contains("import") == false)
  }
}
