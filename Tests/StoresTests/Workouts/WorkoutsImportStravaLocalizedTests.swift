import Foundation
import Testing

@testable import Stores

/// Strava's bulk export from accounts in German and French: its header, dates and activity
/// types in the account's language, distances with a decimal comma — told by the header and
/// read to the metre and second without a hand edit.
@Suite("Import: Strava's activities.csv from accounts in German and French")
struct WorkoutsImportStravaLocalizedTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 817_600_000)

  func read(_ text: String, _ options: WorkoutsImportOptions? = nil) throws(WorkoutsImportError)
    -> WorkoutsImport
  {
    try WorkoutsCSV.read(
      Data(text.utf8), path: "f.csv", options: options ?? WorkoutsImportOptions(timeZone: utc),
      now: now, makeID: UUID.init)
  }

  func date(_ text: String) -> Date? { ISO8601Timestamp.date(from: text) }

  /// Both fixtures hold the same six activities, by hand: a run of 10.02 km in 53:02 (moving
  /// 51:58), a ride of 64.31 km in 2:31:07 (2:18:30), a swim of 1.50 km in 37:00 (33:05.5), a
  /// walk of 3.48 km in 41:36 (40:51), a hike of 14.87 km in 4:02:10 (3:30:04), weight
  /// training of 0 km in 45:00 (45:00): 94,180 m, 34,195 s elapsed, 31,168.5 s moving.
  let meters: [Double] = [10_020, 64_310, 1_500, 3_480, 14_870, 0]
  let sports: [Sport] = [.run, .ride, .swim, .walk, .hike, .strength]
  let elapsed: [Double] = [3_182, 9_067, 2_220, 2_496, 14_530, 2_700]
  let moving: [Double] = [3_118, 8_310, 1_985.5, 2_451, 12_604, 2_700]

  @Test(
    "a German and a French export are told by their header, and read as --from strava reads them",
    arguments: ["strava-german.csv", "strava-french.csv"])
  func fixtures(file: String) throws {
    let url = fixturesFolder.appendingPathComponent("import/\(file)")
    for options in [WorkoutsImportOptions(timeZone: utc), .strava()] {
      var importer = try WorkoutsImporter(files: [url], options: options)
      let result = try #require(
        try importer.readAll(rowsPerPart: 4, now: { now }, makeID: UUID.init, goOn: { _ in true }))
      #expect(result.recognized == (options.source == nil ? .strava : nil))
      let workouts = result.rows.map(\.workout)
      #expect(workouts.map(\.meters) == meters)
      #expect(workouts.map(\.sport) == sports)
      #expect(workouts.map(\.duration?.elapsed) == elapsed)
      #expect(workouts.map(\.duration?.moving) == moving)
      #expect(workouts.map(\.meters).reduce(0, +) == 94_180)
      #expect(workouts.compactMap(\.duration?.elapsed).reduce(0, +) == 34_195)
      #expect(workouts.compactMap(\.duration?.moving).reduce(0, +) == 31_168.5)
      #expect(
        workouts.map(\.date) == [
          date("2024-01-07T00:05:00Z"), date("2024-01-07T09:41:13Z"),
          date("2024-01-08T18:30:00Z"), date("2024-01-09T12:00:59Z"),
          date("2024-02-13T10:15:00Z"), date("2024-08-01T17:45:30Z"),
        ])
      #expect(workouts[1].name == "Runde um den See, Gegenwind")
      // The second distance (metres) and the second elapsed time are not read.
      #expect(
        result.ignoredColumns.first
          == (file.contains("german") ? "Aktivitäts-ID" : "ID de l'activité"))
    }
  }

  @Test("Strava's German and French headers are told apart from Garmin's, and from each other")
  func signatures() {
    typealias Source = WorkoutsImportOptions.Source
    let german = [
      "Aktivitäts-ID", "Aktivitätsdatum", "Name der Aktivität", "Aktivitätsart",
      "Verstrichene Zeit", "Distanz",
    ]
    let french = [
      "ID de l'activité", "Date de l'activité", "Nom de l'activité", "Type d'activité",
      "Temps écoulé", "Distance",
    ]
    #expect(Source(recognizing: german) == .strava)
    #expect(Source(recognizing: french) == .strava)
    // Each header is needed; Garmin's German and French headers are not Strava's.
    #expect(Source(recognizing: Array(german.dropLast())) == nil)
    #expect(Source(recognizing: Array(french.dropFirst())) == nil)
    #expect(Source(recognizing: ["Aktivitätstyp", "Datum", "Titel", "Distanz"]) == .garmin)
    #expect(Source(recognizing: ["Type d'activité", "Date", "Titre", "Distance"]) == .garmin)
    // A header with both Strava's and Garmin's is neither.
    #expect(Source(recognizing: french + ["Date", "Titre"]) == nil)
  }

  @Test("French dates with month names, with or without à; German dates with points")
  func dates() throws {
    let header = "ID de l'activité,Date de l'activité,Nom de l'activité,Type d'activité,"
    let rest = "Temps écoulé,Distance,Temps en mouvement\n"
    let result = try read(
      header + rest
        + "1,\"7 janv. 2024, 00:05:00\",Sortie,Course à pied,3182,\"10,02\",3118\n"
        + "2,1 mars 2024 à 7:30:00,Vélotaf,Vélo virtuel,600,\"5,5\",590\n"
        + "3,31 déc. 2023 à 23:59:59,Longueurs,Natation,1800,\"2,00\",1700\n"
        + "4,\"5 juil. 2024, 18:00:00\",Sentier,Course sur sentier,3600,\"9,00\",3500\n")
    #expect(result.recognized == .strava)
    let workouts = result.rows.map(\.workout)
    #expect(
      workouts.map(\.date) == [
        date("2024-01-07T00:05:00Z"), date("2024-03-01T07:30:00Z"),
        date("2023-12-31T23:59:59Z"), date("2024-07-05T18:00:00Z"),
      ])
    #expect(workouts.map(\.sport) == [.run, .ride, .swim, .run])
    // `Temps en mouvement`, the other name Strava has given the moving time in French.
    #expect(workouts.map(\.duration?.moving) == [3_118, 590, 1_700, 3_500])

    let french = try DatePattern("%d %b %Y à %H:%M:%S")
    #expect(french.date(from: "13 févr. 2024 à 10:15:00", in: utc) == date("2024-02-13T10:15:00Z"))
    #expect(french.date(from: "1 août 2024 à 17:45:30", in: utc) == date("2024-08-01T17:45:30Z"))
    #expect(french.date(from: "1 AOÛT 2024 à 17:45:30", in: utc) == date("2024-08-01T17:45:30Z"))
    #expect(
      french.date(from: "9 septembre 2024 à 06:00:00", in: utc) == date("2024-09-09T06:00:00Z"))
    #expect(french.date(from: "9 janvx 2024 à 06:00:00", in: utc) == nil)
    #expect(french.date(from: "9 ja. 2024 à 06:00:00", in: utc) == nil)
    // A pattern that writes the point itself still has it.
    #expect(
      try DatePattern("%b. %d %Y").date(from: "Jan. 7 2024", in: utc)
        == date("2024-01-07T00:00:00Z"))
    #expect(
      try DatePattern("%b %d %Y").date(from: "Jan. 7 2024", in: utc) == date("2024-01-07T00:00:00Z")
    )

    let german = try read(
      "Aktivitäts-ID,Aktivitätsdatum,Name der Aktivität,Aktivitätsart,Verstrichene Zeit,Distanz\n"
        + "1,\"29.02.2024, 23:05:09\",Lauf,Lauf,100,\"1,5\"\n")
    #expect(german.rows.first?.workout.date == date("2024-02-29T23:05:09Z"))
  }

  @Test("a date in none of Strava's forms names them all")
  func badDate() {
    #expect {
      try read(
        "Aktivitäts-ID,Aktivitätsdatum,Name der Aktivität,Aktivitätsart,Verstrichene Zeit,"
          + "Distanz\n1,\"31.02.2024, 07:00:00\",Lauf,Lauf,100,\"1,5\"\n")
    } throws: { error in
      "\(error)".contains(
        "or as \"%b %d, %Y, %I:%M:%S %p\" or \"%d.%m.%Y, %H:%M:%S\" or \"%d %b %Y à %H:%M:%S\" or "
          + "\"%d %b %Y, %H:%M:%S\", found \"31.02.2024, 07:00:00\"")
    }
  }

  @Test("Strava's German and French activity types are the known sports")
  func sportNames() {
    let names: [(String, Sport)] = [
      ("Lauf", .run), ("Radfahrt", .ride), ("Virtuelle Radfahrt", .ride),
      ("E-Bike-Radfahrt", .ride), ("Mountainbike-Fahrt", .ride), ("Schotterfahrt", .ride),
      ("Schwimmen", .swim), ("Spaziergang", .walk), ("Wandern", .hike),
      ("Gewichtstraining", .strength), ("Krafttraining", .strength), ("Training", .other),
      ("Course à pied", .run), ("Course sur sentier", .run), ("Course à pied virtuelle", .run),
      ("Vélo", .ride), ("Vélo virtuel", .ride), ("Natation", .swim), ("Marche", .walk),
      ("Randonnée", .hike), ("Musculation", .strength),
    ]
    for (name, sport) in names {
      #expect(Sport(name) == sport, "\(name)")
    }
    #expect(Sport("Yoga")?.name == "Yoga")
  }
}
