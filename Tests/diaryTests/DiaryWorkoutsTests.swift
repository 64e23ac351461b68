import Foundation
import StoreTesting
import Stores
import Testing

/// `diary workouts`, end to end on the built binary: adding with distances in the unit shown
/// or with their own, listing in the distance unit, removing, sorting and stats.
@Suite("diary workouts")
struct DiaryWorkoutsTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("workouts: add, list in the distance unit, remove, sort and stats")
  func workouts() throws {
    install(["workouts.json": "workouts/sample.json"])
    let list = diary.run("workouts", "list").output
    #expect(list.hasPrefix("Sorted by distance, longest first.\n"))
    #expect(list.contains("1  22 Nov 2026  21.10 km  high        Half marathon"))
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    #expect(diary.run("workouts", "list").output.contains("13.11 mi"))

    let added = try #require(
      try json(
        diary.run(
          "workouts", "add", "Intervals", "--distance", "8km", "--complexity", "high", "--date",
          "2026-11-28T06:00:00Z", "--json")) as? [String: Any])
    #expect(added["number"] as? Int == 3)
    #expect(added["distance"] as? Double == 8)
    #expect(added["complexity"] as? String == "high")
    #expect(
      diary.run("workouts", "add", "Walk", "--distance=1.5").output
        == "Added workout 5: Walk, 1.50 mi (1.5 read in miles, your distanceUnit)\n")

    #expect(diary.run("workouts", "sort", "complexity").exitCode == 0)
    let sorted = try #require(try json(diary.run("workouts", "list", "--json")) as? [[String: Any]])
    #expect(
      sorted.map { $0["complexity"] as? String } == [
        "high", "high", "medium", "medium", "low", "low",
      ])
    #expect(
      sorted.map { $0["name"] as? String } == [
        "Half marathon", "Intervals", "Tempo run", "Walk", "Easy jog", "Yoga",
      ])
    #expect(sorted.map { $0["number"] as? Int } == Array(1...sorted.count))

    #expect(diary.run("workouts", "remove", "1", "2").output == "Removed 2 workouts.\n")
    let stats = try #require(try json(diary.run("workouts", "stats", "--json")) as? [String: Any])
    #expect(stats["count"] as? Int == 4)
    #expect((stats["countByComplexity"] as? [String: Int])?["high"] == 0)
    let human = diary.run("workouts", "stats").output
    #expect(human.contains("Workouts:       4"))
    #expect(human.contains("2026-W48"))
  }

  @Test(
    "workouts' numbers name what the list showed: one added on another device makes them refuse")
  func numbersOfAnOldList() throws {
    install(["workouts.json": "workouts/sample.json"])
    #expect(diary.run("workouts", "list").exitCode == 0)
    var phone = diary
    phone.environment["STORES_STATE_HOME"] = folder.file("home/phone").path
    #expect(phone.run("workouts", "add", "Marathon", "--distance", "42.2").exitCode == 0)
    for command in [["remove", "1"], ["edit", "1", "--name", "Long run"]] {
      expectFailure(
        ["workouts"] + command, exitCode: 65,
        message: "the workouts changed since 'diary workouts list' numbered them")
    }
    let listed = diary.run("workouts", "list", "--json")
    let first = try #require(try json(listed) as? [[String: Any]]).first?["name"] as? String
    #expect(diary.run("workouts", "remove", "1").exitCode == 0)
    let names = try #require(try json(diary.run("workouts", "list", "--json")) as? [[String: Any]])
    #expect(first != nil && !names.contains { $0["name"] as? String == first })
  }

  @Test("distances are typed in the unit shown, or with a unit after them; files keep km")
  func distances() throws {
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    for (typed, kilometers) in [
      ("3", 3 * 1.609344), ("5km", 5.0), ("3.1mi", 3.1 * 1.609344), ("5 km", 5.0),
      (".5", 0.5 * 1.609344), ("2 MI", 2 * 1.609344), ("10kilometres", 10.0),
    ] {
      let added = try object(diary.run("workouts", "add", "Run", "--distance", typed, "--json"))
      let distance = try #require(added["distance"] as? Double, "\(typed)")
      #expect(abs(distance - kilometers) < 1e-9, "\(typed)")
    }
    #expect(
      diary.run("workouts", "add", "Walk", "--distance", "2km").output
        == "Added workout 8: Walk, 1.24 mi\n")
    #expect(diary.run("settings", "set", "distanceUnit", "km").exitCode == 0)
    let added = try object(diary.run("workouts", "add", "Run", "--distance", "3", "--json"))
    #expect(added["distance"] as? Double == 3)
    for bad in ["-1", "+5", "5 furlongs", "1.2.3", "km", "", "1e3", "100001", "nan"] {
      expectFailure(
        ["workouts", "add", "Run", "--distance", bad], exitCode: 65,
        message: "--distance must be a distance from 0 to 100,000")
    }
  }

  @Test("workouts sort date puts the newest first; sort none brings back the order added")
  func sortByDateAndNone() throws {
    for (name, date) in [("b", "2026-11-02"), ("c", "2026-11-03"), ("a", "2026-11-01")] {
      #expect(
        diary.run("workouts", "add", name, "--distance", "1", "--date", date).exitCode == 0)
    }
    #expect(
      diary.run("workouts", "sort", "date").output
        == "Sorted by date, newest first; new workouts go to their place.\n")
    let names = {
      try self.list(self.diary.run("workouts", "list", "--json")).map { $0["name"] as? String }
    }
    #expect(try names() == ["c", "b", "a"])
    #expect(diary.run("workouts", "list").output.hasPrefix("Sorted by date, newest first.\n"))
    #expect(
      diary.run("workouts", "add", "d", "--distance", "1", "--date", "2026-11-04").exitCode == 0)
    #expect(try names() == ["d", "c", "b", "a"])
    #expect(
      diary.run("workouts", "sort", "none").output
        == "Not sorted any more: the workouts are in the order they were added.\n")
    #expect(try names() == ["b", "c", "a", "d"])
    #expect(diary.run("workouts", "list").output.hasPrefix("#"))
    let file = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("workouts.json")))
        as? [String: Any])
    #expect(file["sortType"] == nil, "not sorted: no sort in the file")
  }
}

/// `diary workouts edit` and `stats`: the fields named, changed in place, and the chart of the
/// recent weeks; statistics a hand-edited file makes overflow are an error.
@Suite("diary workouts edit and stats")
struct DiaryWorkoutsEditAndStatsTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  func json(_ result: DiaryProcess.Result) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
      "\(result.output.prefix(300)) \(result.errorOutput)")
  }

  @MainActor
  func workouts() throws -> [Workout] {
    try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
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

  @Test("stats per sport: time, pace or speed as the sport tells it, in km and in miles; --json")
  func statsPerSport() throws {
    for arguments in [
      [
        "Morning run", "--distance", "10", "--time", "52:30", "--moving-time", "50:00", "--sport",
        "run",
      ],
      ["Commute", "--distance", "24", "--time", "1:00:00", "--sport", "Cycling"],
      ["Pool", "--distance", "1500 m", "--time", "30:00", "--sport", "swim"],
      ["Gym", "--distance", "0", "--time", "45:00", "--sport", "strength"],
      ["Flow", "--distance", "0", "--sport", "Yoga"],
      ["Untimed", "--distance", "5"],
    ] {
      #expect(diary.run(["workouts", "add"] + arguments).exitCode == 0)
    }
    var run = diary
    run.environment["COLUMNS"] = "70"
    let human = run.run("workouts", "stats").output
    #expect(human.contains("Total time:     3:07:30\n"))
    let table = human.split(separator: "\n").drop { !$0.hasPrefix("SPORT") }.prefix(7).map {
      $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
    #expect(
      table == [
        "SPORT WORKOUTS DISTANCE TIME PACE", "run 1 10.00 km 52:30 5:00 /km",
        "ride 1 24.00 km 1:00:00 24.0 km/h", "swim 1 1.50 km 30:00 2:00 /100 m",
        "strength 1 0.00 km 45:00", "Yoga 1 0.00 km", "(none) 1 5.00 km",
      ])
    let week = human.split(separator: "\n").drop { !$0.hasPrefix("Distance and time per week") }
    #expect(week.last?.hasSuffix("40.50 km  3:07:30") == true, "\(week)")
    #expect(diary.run("settings", "set", "distanceUnit", "mi").exitCode == 0)
    let miles = run.run("workouts", "stats").output
    for pace in ["8:03 /mi", "14.9 mph", "1:50 /100 yd"] {
      #expect(miles.contains(pace), "\(pace) in \(miles)")
    }
    // Too narrow for every column: the pace goes, then the time; no figure is cut.
    for (columns, header) in [
      (40, "SPORT WORKOUTS DISTANCE TIME"), (30, "SPORT WORKOUTS DISTANCE"),
    ] {
      run.environment["COLUMNS"] = "\(columns)"
      let narrow = run.run("workouts", "stats", "--weeks", "2").output
      // The table and the chart (the headings above them may wrap).
      let lines = narrow.split(separator: "\n").drop { !$0.hasPrefix("SPORT") }.filter {
        !$0.hasPrefix("Distance")
      }
      #expect(lines.allSatisfy { $0.count <= columns }, "\(lines)")
      #expect(
        lines.contains { $0.split(separator: " ").joined(separator: " ") == header }, "\(lines)")
      #expect(!narrow.contains("…"))
    }
    let report = try json(diary.run("--json", "workouts", "stats", "--weeks", "1"))
    #expect(report["totalDuration"] as? Double == 11_250)
    let sports = try #require(report["sports"] as? [[String: Any]])
    #expect(
      sports.map { $0["sport"] as? String ?? "-" } == [
        "run", "ride", "swim", "strength", "Yoga", "-",
      ])
    #expect(sports[0]["secondsPerKilometer"] as? Double == 300)
    #expect(sports[3]["secondsPerKilometer"] is NSNull)
    let recent = try #require(report["recentWeeks"] as? [[String: Any]])
    #expect(recent.last?["duration"] as? Double == 11_250)
  }

  @Test("a distance a hand-edited file makes too large for metres is an error, not a crash")
  func overflowingDistance() {
    folder.write(
      #"{"version": 1, "workouts": [{"id": "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C01", "name": "a", "distance": 1e308, "date": "2026-11-29T07:30:00Z", "complexity": "low"}]}"#,
      to: "workouts.json")
    let result = diary.run("workouts", "stats", "--json")
    #expect(result.exitCode == 65)
    #expect(
      result.errorOutput.contains(
        "workouts.json at workouts[0].distance: a distance must be at most 1.7e308 m (1.7e305 km): this one is too large to hold"
      ))
  }

}
