import Foundation
import StoreTesting
import Stores
import Testing

/// `diary workouts add` and `edit` with a time, a moving time, a sport and distances in four
/// units, end to end on the built binary: listed, printed as JSON, refused when wrong.
@Suite("diary workouts with times and sports")
struct DiaryWorkoutTimesTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("add and edit take --time, --moving-time, --sport and m, km, yd, mi; list shows them")
  func addEditList() throws {
    let date = ["--date", "2026-11-28T06:00:00Z"]
    #expect(
      diary.run(
        [
          "workouts", "add", "Swim", "--distance", "1650 yd", "--time", "35:10", "--sport",
          "Pool Swim",
        ] + date
      ).output == "Added workout 1: Swim, 1.51 km, 35:10, swim\n")
    let added = try #require(
      try json(
        diary.run(
          [
            "workouts", "add", "Run", "--distance", "10km", "--time", "1:02:03",
            "--moving-time", "58m", "--sport", "Trail Run", "--json",
          ] + date)) as? [String: Any])
    #expect(added["sport"] as? String == "run")
    let duration = try #require(added["duration"] as? [String: Any])
    #expect(duration["elapsed"] as? Double == 3_723 && duration["moving"] as? Double == 3_480)
    #expect(
      diary.run(["workouts", "add", "Yoga", "--distance", "0", "--sport", "Yoga"] + date)
        .exitCode == 0)
    let list = diary.run("workouts", "list").output
    #expect(list.contains("#  DATE         DISTANCE             TIME  SPORT  COMPLEXITY  NAME"))
    #expect(list.contains("1  28 Nov 2026   1.51 km            35:10  swim   medium      Swim"))
    #expect(list.contains("2  28 Nov 2026  10.00 km  1:02:03 (58:00)  run    medium      Run"))
    #expect(list.contains("3  28 Nov 2026   0.00 km                   Yoga   medium      Yoga"))

    #expect(
      diary.run("workouts", "edit", "2", "--time", "1:01:00", "--sport", "ride").output
        == "Edited workout 2: Run, 10.00 km, 1:01:00, ride, medium, 28 Nov 2026\n")
    #expect(diary.run("settings", "set", "distanceUnit", "meters").exitCode == 0)
    #expect(diary.run("workouts", "list").output.contains("1509 m"))
    let file = try String(
      contentsOf: folder.url.appendingPathComponent("workouts.json"), encoding: .utf8)
    #expect(file.contains("\"distance\" : 1.50876"))
    #expect(file.contains("\"version\" : 3"))
  }

  @Test("a time of 0, a moving time longer than the time, or an unknown form is refused")
  func refused() throws {
    expectFailure(
      ["workouts", "add", "Run", "--distance", "5", "--time", "0:00"], exitCode: 65,
      message: "a time must be more than 0")
    expectFailure(
      ["workouts", "add", "Run", "--distance", "5", "--time", "45:00", "--moving-time", "46:00"],
      exitCode: 65, message: "the moving time (46:00) cannot be more than the elapsed time (45:00)")
    expectFailure(
      ["workouts", "add", "Run", "--distance", "5", "--time", "45"], exitCode: 65,
      message: "--time must be a time such as 45:00, 1:02:03, 45m or 1h2m, not '45'")
    expectFailure(
      ["workouts", "add", "Run", "--distance", "5", "--moving-time", "45m"], exitCode: 64,
      message: "--moving-time needs --time")
    expectFailure(
      ["workouts", "add", "Run", "--distance", "5 furlongs"], exitCode: 65,
      message: "--distance must be a distance")
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.url.appendingPathComponent("workouts.json").path))
  }

  /// A sport without time has empty TIME and PACE cells at the end of its row of `stats`:
  /// they were padded with spaces.
  @Test("no line of workouts stats or list ends with spaces, with or without times")
  func noTrailingSpaces() throws {
    let date = ["--date", "2026-11-28T06:00:00Z"]
    for arguments in [
      ["Run", "--distance", "10km", "--time", "50:00", "--sport", "run"],
      ["Lift", "--distance", "0", "--sport", "strength"], ["Walk", "--distance", "3km"],
    ] {
      #expect(diary.run(["workouts", "add"] + arguments + date).exitCode == 0)
    }
    for arguments in [["workouts", "stats"], ["workouts", "list"]] {
      let output = diary.run(arguments).output
      #expect(output.contains("strength"))
      let padded = output.split(separator: "\n").filter { $0.last == " " }
      #expect(padded.isEmpty, "\(arguments): \(padded)")
    }
  }

  func json(_ result: DiaryProcess.Result) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(result.output.utf8))
  }
}
