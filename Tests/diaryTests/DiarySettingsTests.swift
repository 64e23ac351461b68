import Foundation
import StoreTesting
import Stores
import Testing

/// `diary settings` on the built-in keys, end to end: list, get, set, reset and path, for
/// people and as JSON; the spellings a value is typed in; a list that fits the terminal,
/// whatever the values; a stored value that is not valid, reported with the fix.
@Suite("diary settings")
struct DiarySettingsTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("settings: list, get, set, reset and path, for people and as JSON")
  func settings() throws {
    #expect(diary.run("settings", "get", "sleepGoal").output == "8\n")
    #expect(diary.run("settings", "set", "sleepGoal", "7.5").output == "sleepGoal = 7.5\n")
    #expect(diary.run("settings", "set", "isNotificationsEnabled", "off").exitCode == 0)
    #expect(diary.run("settings", "set", "distanceUnit", "Miles").exitCode == 0)
    #expect(diary.run("settings", "get", "sleepGoal").output == "7.5\n")

    let list = diary.run("settings", "list").output
    #expect(list.contains("sleepGoal               7.5 *    8  "))
    #expect(list.contains("distanceUnit            miles *"))

    let entries = try #require(
      try json(diary.run("settings", "list", "--json")) as? [[String: Any]])
    #expect(
      entries.map { $0["key"] as? String } == [
        "sleepGoal", "isNotificationsEnabled", "distanceUnit",
      ])
    #expect(entries[0]["value"] as? Double == 7.5)
    #expect(entries[0]["default"] as? Double == 8)
    #expect(entries[0]["isDefault"] as? Bool == false)
    #expect(entries[1]["value"] as? Bool == false)
    #expect(entries[2]["allowedValues"] as? [String] == ["kilometers", "miles", "meters", "yards"])

    let one = try #require(
      try json(diary.run("settings", "get", "distanceUnit", "--json")) as? [String: Any])
    #expect(one["value"] as? String == "miles")

    #expect(diary.run("settings", "reset", "sleepGoal").output == "sleepGoal = 8 (default)\n")
    #expect(diary.run("settings", "get", "distanceUnit").output == "miles\n")
    #expect(diary.run("settings", "reset").exitCode == 0)
    #expect(diary.run("settings", "get", "distanceUnit").output == "kilometers\n")
    let file = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("settings.json")))
        as? [String: Any])
    #expect((file["values"] as? [String: Any])?.isEmpty == true, "reset removes every value")

    let paths = try #require(try json(diary.run("settings", "path", "--json")) as? [String: String])
    #expect(paths["todos"] == folder.file("todos.json").path)
    #expect(diary.run("settings", "path").output.contains(folder.file("workouts.json").path))
  }

  @Test("distanceUnit takes kilometers, kilometres, km, miles and mi, in any case")
  func distanceUnitSpellings() throws {
    for (typed, unit) in [
      ("kilometers", "kilometers"), ("Kilometres", "kilometers"), ("KM", "kilometers"),
      ("miles", "miles"), ("Mi", "miles"),
    ] {
      #expect(
        diary.run("settings", "set", "distanceUnit", typed).output == "distanceUnit = \(unit)\n")
      #expect(diary.run("settings", "get", "distanceUnit").output == "\(unit)\n")
    }
    // The help and the list use one spelling.
    #expect(!diary.run("help", "settings", "set").output.contains("kilometres"))
    #expect(diary.run("settings", "list").output.contains("kilometers, miles, meters, yards"))
  }

  @Test("-0 is stored as 0")
  func negativeZero() throws {
    #expect(diary.run("settings", "set", "sleepGoal", "-0").exitCode == 0)
    #expect(
      try String(contentsOf: folder.file("settings.json"), encoding: .utf8).contains(
        #""sleepGoal" : 0"#))
    #expect(diary.run("settings", "get", "sleepGoal", "--json").output.contains(#""value" : 0"#))
  }

  @Test("a setting whose stored value is invalid is reported, with the fix")
  func invalidStoredSetting() {
    folder.copy(
      fixturesFolder.appendingPathComponent("settings/out-of-range.json"), as: "s/settings.json")
    var diary = self.diary
    diary.environment["DIARY_HOME"] = folder.file("s").path
    let before = folder.snapshot()
    // get agrees with list: the default, and the same one-line warning; exit 0.
    let result = diary.run("settings", "get", "sleepGoal")
    #expect(result.exitCode == 0)
    #expect(result.output == "8\n")
    let warning =
      "diary: warning: sleepGoal in the file is not valid (99 is out of range 0...24); "
      + "using the default — fix it with 'diary settings set sleepGoal VALUE'\n"
    #expect(result.errorOutput == warning)
    let list = diary.run("settings", "list")
    #expect(list.errorOutput.contains(warning))
    #expect(!list.output.contains("warning"))
    let json = diary.run("settings", "get", "sleepGoal", "--json")
    #expect(json.exitCode == 0)
    let entry = try? JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    #expect(entry?["problem"] as? String == "99 is out of range 0...24")
    #expect(entry?["value"] as? Double == 8)
    #expect(folder.snapshot() == before)
    #expect(diary.run("settings", "set", "sleepGoal", "7").exitCode == 0)
  }

  @Test("settings list fits in 80 columns, or in the terminal's width")
  func settingsListWidth() throws {
    #expect(
      diary.run(
        "settings", "set", "anAppsSettingWithAVeryLongNameIndeed",
        String(repeating: "wide ", count: 30),
        "--type", "string"
      ).exitCode == 0)
    #expect(diary.run("settings", "set", "sleepGoal", "7.25").exitCode == 0)
    let narrow = diary.run("settings", "list").output
    for line in narrow.split(separator: "\n") {
      #expect(line.count <= 80, "\(line.count) columns: \(line)")
    }
    #expect(narrow.contains("\n  Hours of sleep to aim for each night\n"))
    let goal = narrow.split(separator: "\n").first { $0.hasPrefix("sleepGoal ") }
    #expect(goal?.contains(" 7.25 *  ") == true, "\(narrow)")
    #expect(
      narrow.contains("anAppsSettingWithAVeryLongNameIndeed  wide wide"),
      "the allowed values, the default and the value give way before the key")
    // At 40 columns, a value cut keeps its marker.
    #expect(diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    var tiny = diary
    tiny.environment["COLUMNS"] = "40"
    let cut = tiny.run("settings", "list").output
    for line in cut.split(separator: "\n") {
      #expect(line.count <= 40, "\(line.count) columns: \(line)")
    }
    let unit = cut.split(separator: "\n").first { $0.hasPrefix("distanceUnit ") }
    #expect(unit?.contains("… *") == true, "\(cut)")
    var wide = diary
    wide.environment["COLUMNS"] = "300"
    let one = wide.run("settings", "list").output
    let sleep = try #require(one.split(separator: "\n").first { $0.hasPrefix("sleepGoal") })
    #expect(sleep.hasSuffix("Hours of sleep to aim for each night"))
    #expect(one.contains(String(repeating: "wide ", count: 29)))
  }

  @Test(
    "in 40 to 50 columns, the allowed values and descriptions give way before any key; the * stays",
    arguments: [40, 45, 50, 55])
  func narrowKeysWhole(columns: Int) throws {
    #expect(diary.run("settings", "set", "distanceUnit", "yards").exitCode == 0)
    #expect(
      diary.run("settings", "set", "isNotificationsEnabled", "false").exitCode == 0)
    var run = diary
    run.environment["COLUMNS"] = "\(columns)"
    let output = run.run("settings", "list").output
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.allSatisfy { $0.count <= columns }, "\(output)")
    let keys = lines.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("* ") }
      .compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(keys == ["KEY", "sleepGoal", "isNotificationsEnabled", "distanceUnit"], "\(output)")
    for key in ["isNotificationsEnabled", "distanceUnit"] {
      let line = try #require(lines.first { $0.hasPrefix(key + " ") })
      #expect(line.contains(" *"), "\(key) keeps its marker: \(output)")
    }
    // The allowed values are shown, in the table or on the description's line.
    #expect(output.contains("0...24"), "\(output)")
    #expect(output.contains("\n  Hours of sleep") || output.contains("\n  0...24 — Hours"))
  }

  @Test("in a pipe, a value cut to the 80 columns keeps its * marker")
  func pipeKeepsMarker() {
    #expect(
      diary.run("settings", "set", "distanceUnit", "miles").exitCode == 0)
    #expect(
      diary.run(
        "settings", "set", "motto", String(repeating: "carpe diem ", count: 20), "--type",
        "string"
      ).exitCode == 0)
    let output = diary.run("settings", "list").output
    let line = output.split(separator: "\n").first { $0.hasPrefix("distanceUnit ") }
    #expect(line?.contains("miles *") == true, "\(output)")
    #expect(output.split(separator: "\n").allSatisfy { $0.count <= 80 })
  }

  @Test("settings list shows a 50 MB value cut to the width")
  func hugeSetting() throws {
    #expect(diary.run("settings", "set", "theme", "dark", "--type", "string").exitCode == 0)
    let file = folder.file("settings.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    try text.replacingOccurrences(
      of: "\"dark\"", with: "\"" + String(repeating: "x", count: 50_000_000) + "\""
    )
    .write(to: file, atomically: false, encoding: .utf8)
    var run = diary
    run.environment["COLUMNS"] = "80"
    let result = run.run("settings", "list")
    #expect(result.exitCode == 0)
    #expect(result.output.utf8.count < 2_000)
    #expect(result.output.contains("theme "))
    #expect(result.output.contains("xxxxxxxxxx…"))
    #expect(widths(result.output).allSatisfy { $0 <= 80 })
  }
}
