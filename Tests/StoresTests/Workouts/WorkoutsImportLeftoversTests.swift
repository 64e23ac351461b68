import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Times read with the decimal mark the options give, as distances are; Garmin Connect's
/// activities CSV with German and French headers.
@Suite("Workouts import: times with --decimal, localized Garmin files")
struct WorkoutsImportLeftoversTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 816_000_000)

  func read(_ text: String, _ options: WorkoutsImportOptions) throws -> WorkoutsImport {
    try WorkoutsCSV.read(
      Data(text.utf8), path: "a.csv", options: options, now: now, makeID: UUID.init)
  }

  func elapsed(_ text: String, _ mark: WorkoutsImportOptions.DecimalMark?) throws -> [Double?] {
    try read(text, WorkoutsImportOptions(timeZone: utc, decimalMark: mark)).rows.map(
      \.workout.duration?.elapsed)
  }

  /// With `--decimal comma` a point groups thousands: `4.742` is 4742 seconds, as a distance
  /// `1.500` is 1500 — it was read as 4.742 seconds. `4742,0` and `4742` are 4742 seconds too.
  @Test("with a decimal comma given, a time of 4.742 is 4742 seconds, as 1.500 m is 1500 m")
  func pointGroupsWithDecimalComma() throws {
    let file = "name;distance;time\nA;1.500 m;4.742\nB;5;4742,0\nC;5;4742\nD;5;1:02:03,5\n"
    #expect(try elapsed(file, .comma) == [4_742, 4_742, 4_742, 3_723.5])
    #expect(
      try read(file, WorkoutsImportOptions(timeZone: utc, decimalMark: .comma)).rows.first?
        .workout.meters == 1_500)
    // With a decimal point given: 4,742 groups thousands, 4.742 is 4.742 seconds.
    #expect(try elapsed("name;distance;time\nA;5;4,742\nB;5;4.742\n", .point) == [4_742, 4.742])
    // Without the option, as before: the file tells (here: its distance shows a decimal comma).
    #expect(try elapsed("name;distance;time\nA;5,5;4.742\nB;5;4742.0\n", nil) == [4_742, 4_742])
  }

  /// A number the option contradicts — `4742.0` with `--decimal comma`, `4742,5` with
  /// `--decimal point` — is refused with its place, what the option means and the fix, as a
  /// distance is: never read another way than the option says.
  @Test("a time or distance that --decimal contradicts is refused with its place and the fix")
  func contradictionRefused() throws {
    let comma = WorkoutsImportOptions(timeZone: utc, decimalMark: .comma)
    #expect {
      try read("name;distance;time\nA;5;4742.0\n", comma)
    } throws: { error in
      "\(error)".contains(
        "line 2, column 5: \"4742.0\" is not a number as --decimal comma reads them (a comma "
          + "before the decimals, points grouping thousands) — write it 4742,0, or import "
          + "without --decimal")
    }
    #expect {
      try read("name;distance\nA;10.5 km\n", comma)
    } throws: { error in
      "\(error)".contains(
        "line 2, column 3: \"10.5\" is not a number as --decimal comma reads them")
        && "\(error)".contains("write it 10,5,")
    }
    #expect {
      try read(
        "name;distance;time\nA;5;4742,5\n",
        WorkoutsImportOptions(timeZone: utc, decimalMark: .point))
    } throws: { error in
      "\(error)".contains(
        "line 2, column 5: \"4742,5\" is not a number as --decimal point reads them (a point "
          + "before the decimals, commas grouping thousands) — write it 4742.5")
    }
    // Anything else keeps the message that says what a time is.
    #expect {
      try read("name;distance;time\nA;5;4742x\n", comma)
    } throws: { error in
      "\(error)".contains("expected a time such as 4742 (seconds), 1:02:03, 45:00 or 1h2m")
    }
    // With --skip-invalid, the row is left out and the reason given.
    var skipping = comma
    skipping.skipsInvalidRows = true
    let result = try read("name;distance;time\nA;5;4742.0\nB;5;4.742\n", skipping)
    #expect(result.rows.map(\.workout.duration?.elapsed) == [4_742])
    #expect(result.skipped.map(\.line) == [2])
    #expect(result.skipped.first?.reason.contains("--decimal comma") == true)
    // Grouping marks are swapped in the fix too.
    #expect {
      try read("name;distance\nA;\"1,500,000.5 m\"\n", comma)
    } throws: { error in
      "\(error)".contains("\"1,500,000.5\" is not a number as --decimal comma reads them")
        && "\(error)".contains("write it 1.500.000,5,")
    }
  }

  /// The totals of both German fixtures, by hand: Laufen 10.02 km in 53:02 (moving 51:58),
  /// Rennradfahren 64.31 km in 2:31:07 (2:18:30), Schwimmbadschwimmen 1500 m in 33:40 (29:55),
  /// Krafttraining 0 km in 41:36, Gehen 3.48 km in 45:00 (44:10).
  let germanMeters: [Double] = [10_020, 64_310, 1_500, 0, 3_480]
  let germanSports: [Sport?] = [.run, .ride, .swim, .strength, .walk]
  let germanMoving: [Double?] = [3_118, 8_310, 1_795, nil, 2_650]

  /// A Garmin Connect account in German writes its header in German: it was not recognised
  /// (no `Title`, no `Distance`), and with `--from garmin` its columns were not found.
  @Test(
    "Garmin's German file is told by its header and read to the metre and second",
    arguments: [
      ("garmin-german.csv", 3_182.0, 2_020.0), ("garmin-german-comma.csv", 3_182, 2_020.5),
    ])
  func german(file: String, runElapsed: Double, swimElapsed: Double) throws {
    let url = fixturesFolder.appendingPathComponent("import/\(file)")
    for options in [
      WorkoutsImportOptions(timeZone: utc), WorkoutsImportOptions.garmin(timeZone: utc),
    ] {
      var importer = try WorkoutsImporter(files: [url], options: options)
      let result = try #require(
        try importer.readAll(rowsPerPart: 2, now: { now }, makeID: UUID.init, goOn: { _ in true }))
      let workouts = result.rows.map(\.workout)
      #expect(result.recognized == (options.source == nil ? .garmin : nil))
      #expect(
        workouts.map(\.name) == [
          "Morgenlauf", "Rund um den See", "Schwimmen", "Krafttraining", "Spaziergang",
        ])
      #expect(workouts.map(\.meters) == germanMeters)
      #expect(workouts.map(\.sport) == germanSports)
      #expect(
        workouts.map(\.duration?.elapsed) == [runElapsed, 9_067, swimElapsed, 2_496, 2_700])
      #expect(workouts.map(\.duration?.moving) == germanMoving)
      #expect(
        workouts.first?.date
          == ISO8601DateFormatter().date(from: "2026-11-29T07:30:12Z"))
      #expect(
        !result.ignoredColumns.contains("Titel") && result.ignoredColumns.contains("Kalorien"))
    }
  }

  /// Without `Verstrichene Zeit`, the elapsed time is `Zeit`, as `Time` is in older English
  /// files; the header of 2017 (`Ø HF`, `Max. HF`) is told too.
  @Test("an older German Garmin header: Zeit is the time")
  func olderGerman() throws {
    let result = try read(
      "Aktivitätstyp,Datum,Favorit,Titel,Distanz,Kalorien,Zeit,Ø HF,Max. HF,Aerober TE\n"
        + "Radfahren,2017-04-22 13:12:32,false,\"Monschau Radfahren\",\"42.02\",\"2,336\","
        + "\"03:51:46\",\"139\",\"181\",\"3.3\"\n",
      WorkoutsImportOptions(timeZone: utc))
    #expect(result.recognized == .garmin)
    let workout = try #require(result.rows.first?.workout)
    #expect(workout.meters == 42_020 && workout.sport == .ride)
    #expect(workout.duration?.elapsed == 13_906 && workout.duration?.moving == nil)
  }

  /// Garmin Connect in French: `Titre`, `Durée`, `Temps de déplacement`, `Temps écoulé`.
  @Test("Garmin's French file is told by its header: Titre, Durée, Temps de déplacement")
  func french() throws {
    let header =
      "Type d'activité,Date,Favori,Titre,Distance,Calories,Durée,"
      + "Fréquence cardiaque moyenne,Pas,Temps de déplacement"
    let result = try read(
      header + "\n"
        + "Course à pied,2026-08-10 10:52:21,false,\"Sortie du matin\",\"3.95\",\"407\","
        + "\"00:35:20\",\"151\",\"4,404\",\"00:35:08\"\n"
        + "Natation en piscine,2026-08-11 07:00:00,false,\"Natation\",\"1,500\",\"300\","
        + "\"00:30:00\",\"120\",\"--\",\"00:28:00\"\n"
        + "Randonnée,2026-05-16 13:18:54,false,\"Randonnée en forêt\",\"9.70\",\"943\","
        + "\"02:49:38\",\"105\",\"12,426\",\"01:57:11\"\n",
      WorkoutsImportOptions(timeZone: utc))
    #expect(result.recognized == .garmin)
    let workouts = result.rows.map(\.workout)
    #expect(workouts.map(\.meters) == [3_950, 1_500, 9_700])
    #expect(workouts.map(\.sport) == [.run, .swim, .hike])
    #expect(workouts.map(\.duration?.elapsed) == [2_120, 1_800, 10_178])
    #expect(workouts.map(\.duration?.moving) == [2_108, 1_680, 7_031])
  }

  /// German headers tell Garmin's file only when all four are there; a file of one's own
  /// with `Titel` and `Distanz` alone is not taken for Garmin's.
  @Test("German headers alone do not make a file Garmin's")
  func notGarmin() {
    #expect(WorkoutsImportOptions.Source(recognizing: ["Titel", "Distanz", "Datum"]) == nil)
    #expect(
      WorkoutsImportOptions.Source(recognizing: [" aktivitätstyp", "DATUM", "Titel", "Distanz"])
        == .garmin)
  }
}
