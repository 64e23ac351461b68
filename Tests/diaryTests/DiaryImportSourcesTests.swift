import Foundation
import StoreTesting
import Stores
import Testing

/// `diary workouts import` on the files apps write, without a flag: Strava and Garmin told by
/// their header, decimal commas, Garmin's pool swims, `--decimal`; `--skip-invalid` and its
/// report (text and JSON); flagged workouts; `-` for standard input.
@Suite("diary workouts import: sources, bad rows, flags")
struct DiaryImportSourcesTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  func importFixture(_ name: String) -> String {
    fixturesFolder.appendingPathComponent("import/\(name)").path
  }

  @MainActor
  func workouts() throws -> [Workout] {
    try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
  }

  @Test("Strava's and Garmin's files without --from: told by their header, and said so")
  @MainActor
  func recognised() throws {
    let strava = importFixture("strava-comma-decimal.csv")
    let result = diary.run("workouts", "import", strava)
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(
      result.output.hasPrefix(
        "Added 4 workouts from \(strava), read as Strava's activities.csv (told by its header).\n"))
    #expect(try workouts().map(\.meters) == [10_020, 64_310, 1_500, 3_480])
    let garmin = importFixture("garmin-pool-swim.csv")
    let json = diary.run("--json", "workouts", "import", garmin)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    #expect(report["recognized"] as? String == "garmin")
    #expect(report["added"] as? Int == 3)
    #expect(try workouts().suffix(3).map(\.meters) == [1_500, 10_020, 750])
  }

  @Test("--decimal says what 1,500 is where nothing in the file does; without it, the row says so")
  @MainActor
  func decimal() throws {
    let file = folder.write("name,distance\nSwim,\"1,500\"\n", to: "swim.csv")
    let before = folder.snapshot()
    let refused = diary.run("workouts", "import", file.path)
    #expect(refused.exitCode == 65)
    #expect(
      refused.errorOutput
        == "diary: error: \(file.path): line 2, column 6: \"1,500\" could be 1.5 or 1500 — say "
        + "which with --decimal comma (1.5) or --decimal point (1500); nothing was imported "
        + "(--skip-invalid imports the valid rows)\n")
    #expect(folder.snapshot() == before)
    #expect(diary.run("workouts", "import", file.path, "--decimal", "comma").exitCode == 0)
    #expect(try workouts().map(\.meters) == [1_500])
    #expect(diary.run("workouts", "import", file.path, "--decimal", "point").exitCode == 0)
    #expect(try workouts().map(\.meters) == [1_500, 1_500_000])
    expectFailure(
      ["workouts", "import", file.path, "--decimal", "dot"], exitCode: 65,
      message: "--decimal must be comma or point")
  }

  @Test("--skip-invalid adds the valid rows and lists each bad one; the default adds nothing")
  @MainActor
  func skipInvalid() throws {
    let file = folder.write(
      "name,distance,date\nRun,5,2026-11-29\nBad,x,2026-11-29\nLate,3,someday\nSwim,1.5,2026-11-27\n",
      to: "rows.csv")
    let before = folder.snapshot()
    let refused = diary.run("workouts", "import", file.path)
    #expect(refused.exitCode == 65)
    #expect(
      refused.errorOutput.hasSuffix("\n  (--skip-invalid imports the valid rows and lists these)\n")
    )
    #expect(folder.snapshot() == before)
    let result = diary.run("workouts", "import", file.path, "--skip-invalid")
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(
      result.output
        == "Added 2 workouts from \(file.path).\nLeft out 2 rows that are not valid:\n"
        + "  line 3, column 5: expected a distance from 0 to 100,000 such as 5.2, 5km, 1500 m, "
        + "1650 yd or 3.1 mi, found \"x\"\n"
        + "  line 4, column 8: expected a date such as 2026-11-29, 2026-11-29 07:30 or "
        + "2026-11-29T07:30:00Z, or give its form as a date format such as %d/%m/%Y, found "
        + "\"someday\"\n")
    #expect(try workouts().map(\.name) == ["Run", "Swim"])
    let json = diary.run("--json", "workouts", "import", file.path, "--skip-invalid")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let skipped = try #require(report["skipped"] as? [[String: Any]])
    #expect(skipped.map { $0["line"] as? Int } == [2, 3, 4, 5])
    #expect(skipped.map { $0["column"] as? Int } == [nil, 5, 8, nil])
  }

  @Test("workouts outside what people do are added and flagged, with the line and why")
  func flagged() throws {
    let file = folder.write(
      "name,distance,sport,time\nSwim,1500,swim,30:00\nMarathon,42.195,run,4:00\nEasy,5,run,30:00\n",
      to: "odd.csv")
    let result = diary.run("workouts", "import", file.path)
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(
      result.output
        == "Added 3 workouts from \(file.path).\n"
        + "Flagged 2 workouts outside what people do (added; check them):\n"
        + "  line 2: swim of 1500.0 km: longer than any swim people do (50 km at most) — is the "
        + "unit right?\n"
        + "  line 3: run of 42.2 km in 4:00, 0:06 /km: faster than any run people do (the "
        + "fastest is 1:35 /km) — is the distance or the time right?\n")
    let json = diary.run("--json", "workouts", "import", file.path, "--verbose")
    #expect(
      json.output.contains("\"flagged\" : [\n\n  ]") || json.output.contains("\"flagged\" : []"))
  }

  @Test("- reads standard input; on a terminal it says how to pipe a file in")
  @MainActor
  func standardInput() throws {
    let text = try String(contentsOfFile: importFixture("garmin-pool-swim.csv"), encoding: .utf8)
    let result = diary.run(["workouts", "import", "-"], input: Data(text.utf8))
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(
      result.output.hasPrefix(
        "Added 3 workouts from standard input, read as Garmin Connect's activities CSV"))
    if TestPlatform.hasScript {
      let terminal = try diary.runOnATerminal(["workouts", "import", "-"], exitCode: 66)
      #expect(terminal.contains("- reads the workouts from standard input, which is the terminal"))
    }
  }

  @Test("a distance typed without a unit says which unit it was read in; chart points at stats")
  func smaller() {
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    #expect(
      diary.run("workouts", "add", "Run", "--distance", "1.5", "--date", "2026-11-29").output
        == "Added workout 1: Run, 1.50 mi (1.5 read in miles, your distanceUnit)\n")
    #expect(
      diary.run("workouts", "add", "Swim", "--distance", "1500 m", "--date", "2026-11-28").output
        == "Added workout 2: Swim, 0.93 mi\n")
    #expect(
      diary.run("workouts", "edit", "2", "--distance", "2").output
        == "Edited workout 2: Swim, 2.00 mi, medium, 28 Nov 2026 (2 read in miles, your "
        + "distanceUnit)\n")
    expectFailure(
      ["workouts", "chart"], exitCode: 64,
      message: "unknown command 'chart' for 'workouts' — did you mean 'stats'?")
  }

  @Test("the real-shaped files end to end: per sport, distance to the metre, time to the second")
  @MainActor
  func totals() throws {
    let files = [
      "strava-comma-decimal.csv", "garmin-pool-swim.csv", "apple-watch-run.gpx", "paused-run.gpx",
    ].map(importFixture)
    let result = diary.run(["workouts", "import"] + files)
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(result.output.hasPrefix("Added 9 workouts from 4 files"))
    #expect(!result.output.contains("Flagged"), "nothing outside what people do")
    var totals: [String: (meters: Double, elapsed: Double, moving: Double)] = [:]
    for workout in try workouts() {
      var sums = totals[workout.sport?.name ?? "none", default: (0, 0, 0)]
      sums.meters += workout.meters
      sums.elapsed += workout.duration?.elapsed ?? 0
      sums.moving += workout.duration?.moving ?? 0
      totals[workout.sport?.name ?? "none"] = sums
    }
    // By hand: Strava's Distance (km) and Elapsed/Moving Time; Garmin's Distance (a swim's in
    // metres) and Elapsed/Moving Time (hh:mm:ss); GPX: 41 steps of 0.0003° of latitude
    // (6,371,008.8 m × 0.0003 × π / 180 = 33.3585 m each), 460 s first to last point, 400 s
    // moving (the 60 s between the segments left out); paused-run.gpx as its test says.
    let run = try #require(totals["run"])
    #expect(abs(run.meters - (10_020 + 10_020 + 435.3287)) < 0.001)
    #expect([run.elapsed, run.moving] == [3_182 + 3_182 + 325, 3_118 + 3_118 + 140] as [Double])
    let ride = try #require(totals["ride"])
    #expect([ride.meters, ride.elapsed, ride.moving] == [64_310, 9_067, 8_310] as [Double])
    let swim = try #require(totals["swim"])
    let swimExpected: [Double] = [1_500 + 1_500 + 750, 2_220 + 2_020 + 949, 1_985.5 + 1_795 + 870]
    #expect([swim.meters, swim.elapsed, swim.moving] == swimExpected)
    let walk = try #require(totals["walk"])
    #expect([walk.meters, walk.elapsed, walk.moving] == [3_480, 2_496, 2_451] as [Double])
    let track = try #require(totals["none"])
    let step: Double = 6_371_008.8 * 0.0003 * .pi / 180
    #expect(abs(track.meters - 41 * step) < 0.001)
    #expect([track.elapsed, track.moving] == [460, 400] as [Double])
  }
}
