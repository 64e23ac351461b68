import Foundation
import StoreTesting
import Stores
import Testing

/// `diary workouts import` end to end: times read with `--decimal` as distances are, and
/// Garmin Connect's files from accounts in German, told by their header.
@Suite("diary workouts import: times with --decimal, German Garmin files")
struct DiaryImportLeftoversTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @MainActor
  func workouts() throws -> [Workout] {
    try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
  }

  /// `4.742` with `--decimal comma` was imported as 4.742 seconds (shown `0:04.74`).
  @Test("--decimal comma: a time of 4.742 is 1:19:02; 4742.0 is refused, nothing imported")
  @MainActor
  func timesFollowDecimal() throws {
    let file = folder.write(
      "name;distance;time\nRun;10,02;4.742\nSwim;1.500 m;33:40,5\n", to: "times.csv")
    let result = diary.run("workouts", "import", file.path, "--decimal", "comma")
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(try workouts().map(\.duration?.elapsed) == [4_742, 2_020.5])
    #expect(try workouts().map(\.meters) == [10_020, 1_500])
    #expect(diary.run("workouts", "list").output.contains("1:19:02"))

    let contradicted = folder.write("name;distance;time\nRun;10;4742.0\n", to: "point.csv")
    expectFailure(
      ["workouts", "import", contradicted.path, "--decimal", "comma"], exitCode: 65,
      message:
        "line 2, column 8: \"4742.0\" is not a number as --decimal comma reads them (a comma "
        + "before the decimals, points grouping thousands) — write it 4742,0, or import "
        + "without --decimal")
    // Without the option, the file is read as it tells: 4742.0 is 4742 seconds.
    #expect(diary.run("workouts", "import", contradicted.path).exitCode == 0)
    #expect(try workouts().last?.duration?.elapsed == 4_742)
  }

  /// A Garmin Connect account in German writes `Aktivitätstyp`, `Titel`, `Distanz`: the file
  /// was not recognised ("the header has no name column") and needed `--column` for each.
  @Test(
    "Garmin's German file imports without --from, to the metre and second, per sport",
    arguments: ["garmin-german.csv", "garmin-german-comma.csv"])
  @MainActor
  func germanGarmin(fixture: String) throws {
    let path = fixturesFolder.appendingPathComponent("import/\(fixture)").path
    let result = diary.run("workouts", "import", path)
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(
      result.output.hasPrefix(
        "Added 5 workouts from \(path), read as Garmin Connect's activities CSV (told by its "
          + "header).\n"))
    let workouts = try workouts()
    #expect(workouts.map(\.meters) == [10_020, 64_310, 1_500, 0, 3_480])
    #expect(workouts.map(\.sport) == [.run, .ride, .swim, .strength, .walk])
    #expect(
      workouts.map { $0.duration.map { Int($0.elapsed) } } == [3_182, 9_067, 2_020, 2_496, 2_700])
    let stats = diary.run("workouts", "stats").output
    #expect(stats.contains("\nrun              1  10.02 km    53:02  5:11 /km\n"), "\(stats)")
    #expect(stats.contains("\nstrength         1   0.00 km    41:36\n"), "\(stats)")
  }
}
