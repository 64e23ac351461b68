import Foundation
import StoreTesting
import Stores
import Testing

/// `diary workouts import` on Strava's bulk export from accounts in German and French — a
/// translated header, localized dates and activity types, decimal commas — without a hand
/// edit or a flag, and `stats` totals to the metre and second.
@Suite("diary workouts import: Strava's German and French exports")
struct DiaryImportStravaLocalizedTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @MainActor
  func workouts() throws -> [Workout] {
    try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
  }

  /// By hand (see `Fixtures/import/README.md`): 10.02 + 64.31 + 1.50 + 3.48 + 14.87 + 0 km
  /// = 94.18 km; 3182 + 9067 + 2220 + 2496 + 14530 + 2700 s = 34,195 s = 9:29:55.
  @Test(
    "a German or French Strava export imports without --from, and with it, to the metre and second",
    arguments: [
      ("strava-german.csv", false), ("strava-german.csv", true), ("strava-french.csv", false),
      ("strava-french.csv", true),
    ])
  @MainActor
  func importsAndTotals(fixture: String, from: Bool) throws {
    let path = fixturesFolder.appendingPathComponent("import/\(fixture)").path
    let result = diary.run(["workouts", "import", path] + (from ? ["--from", "strava"] : []))
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(
      result.output.hasPrefix(
        "Added 6 workouts from \(path)"
          + (from ? ".\n" : ", read as Strava's activities.csv (told by its header).\n")),
      "\(result.output)")
    let workouts = try workouts()
    #expect(workouts.map(\.meters) == [10_020, 64_310, 1_500, 3_480, 14_870, 0])
    #expect(workouts.map(\.sport) == [.run, .ride, .swim, .walk, .hike, .strength])
    #expect(workouts.map(\.duration?.elapsed) == [3_182, 9_067, 2_220, 2_496, 14_530, 2_700])
    #expect(
      workouts.map(\.duration?.moving) == [3_118, 8_310, 1_985.5, 2_451, 12_604, 2_700])
    #expect(workouts.first?.date == ISO8601Timestamp.date(from: "2024-01-07T00:05:00Z"))
    #expect(workouts.last?.date == ISO8601Timestamp.date(from: "2024-08-01T17:45:30Z"))
    let stats = diary.run("workouts", "stats").output
    for line in [
      "Workouts:       6\n", "Total distance: 94.18 km\n", "Total time:     9:29:55\n",
      "\nrun              1  10.02 km    53:02  5:11 /km\n",
      "\nride             1  64.31 km  2:31:07  27.9 km/h\n",
      "\nswim             1   1.50 km    37:00  2:12 /100 m\n",
      "\nwalk             1   3.48 km    41:36  11:44 /km\n",
      "\nhike             1  14.87 km  4:02:10  14:08 /km\n",
      "\nstrength         1   0.00 km    45:00\n",
    ] {
      #expect(stats.contains(line), "\(line) in \(stats)")
    }
    // Importing it again adds nothing.
    let again = diary.run("workouts", "import", path)
    #expect(again.output.hasPrefix("Added 0 workouts"), "\(again.output)")
  }
}
