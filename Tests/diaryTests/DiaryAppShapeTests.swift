import Foundation
import StoreTesting
import Stores
import Testing

/// A `Codable` value an app keeps as a setting: the key catalog records its shape.
struct WakeUp: Codable, Sendable, Equatable, SettingValue {
  enum Tone: String, Codable, CaseIterable, Sendable { case bell, birds }
  var hour: Int
  var minute: Int
  var tone: Tone
  var label: String?
}

extension SettingsKeys {
  var wakeUp: SettingsKey<WakeUp> {
    SettingsKey("wakeUp", default: WakeUp(hour: 7, minute: 30, tone: .bell), summary: "Alarm") {
      (0...23).contains($0.hour) ? nil : "must be an hour of the day"
    }
  }
  var nap: SettingsKey<WakeUp?> {
    SettingsKey("nap", default: WakeUp(hour: 14, minute: 0, tone: .birds), summary: "Nap")
  }
  var laps: SettingsKey<Int?> { SettingsKey("laps", default: nil, summary: "Laps") }

  static let shapedApp: [AnySettingsKey] = [.key(\.wakeUp), .key(\.nap), .key(\.laps)]
}

/// `diary settings set` on an app's `Codable` and optional keys: the shape the key catalog
/// records is checked, an optional is cleared with `--unset`, and the catalog is there as soon
/// as the app opened its store (issue 38).
@MainActor
@Suite("diary settings set on an app's shaped and optional keys")
struct DiaryAppShapeTests {
  let folder = TemporaryFolder()
  /// `diary` on the folder, its tables as wide as they need.
  var diary: DiaryProcess { .wide(on: folder.url) }
  var url: URL { folder.file("settings.json") }

  func app() throws -> SettingsStore {
    folder.write(#"{"values": {"other": "kept"}, "version": 1}"#, to: "settings.json")
    return try SettingsStore(contentsOf: url, keys: SettingsKeys.shapedApp)
  }

  @Test("a value of the wrong shape is refused (65), naming the field and the shape expected")
  func wrongShape() throws {
    let settings = try app()
    let before = folder.snapshot()
    let expected =
      "expected {hour: a whole number, label (optional): text, minute: a whole number, "
      + #"tone: one of "bell", "birds"}"#
    for (value, problem) in [
      (#"{"hour":8}"#, "lacks minute; " + expected),
      (#"{"hour":"seven","minute":0,"tone":"bell"}"#, #"has hour "seven", not a whole number; "#),
      (#"{"hour":7,"minute":0,"tone":"horn"}"#, #"has tone "horn", not one of "bell", "birds""#),
      (#"{"hour":7,"minute":0,"tone":"bell","label":3}"#, "has label 3, not text"),
      ("[7,30]", #"is not {hour: a whole number, "#),
      ("seven", #"is not JSON"#),
    ] {
      let result = diary.run("settings", "set", "wakeUp", value)
      #expect(result.exitCode == 65, "\(value)")
      #expect(result.errorOutput.hasPrefix("diary: error: invalid value for wakeUp: "), "\(value)")
      #expect(result.errorOutput.contains(problem), "\(result.errorOutput)")
    }
    #expect(folder.snapshot() == before, "nothing changed")

    // What fits is stored; an unknown field is the app's to ignore; null for an optional field.
    let set = diary.run(
      "settings", "set", "wakeUp", #"{"hour":6,"minute":15,"tone":"birds","label":null,"x":1}"#)
    #expect(set.exitCode == 0, "\(set.errorOutput)")
    try settings.refresh()
    #expect(settings.wakeUp == WakeUp(hour: 6, minute: 15, tone: .birds))
    // The app's rule stays the last word: a value that fits the shape but not the rule is
    // stored, read as the default by the app and reported in its entries.
    #expect(
      diary.run("settings", "set", "wakeUp", #"{"hour":25,"minute":0,"tone":"bell"}"#).exitCode
        == 0)
    try settings.refresh()
    #expect(settings.wakeUp == WakeUp(hour: 7, minute: 30, tone: .bell))
    let entry = try #require(settings.entries.first { $0.key.name == "wakeUp" })
    #expect(entry.problem?.contains("must be an hour of the day") == true)
  }

  @Test("a value stored by hand that does not fit the shape: listed with diary's warning")
  func storedMisfit() throws {
    _ = try app()
    folder.write(
      #"{"values": {"wakeUp": {"hour": 7}}, "version": 1}"#, to: "settings.json")
    let list = diary.run("settings", "list")
    #expect(list.exitCode == 0)
    #expect(
      list.errorOutput.hasPrefix(
        #"diary: warning: wakeUp in the file is not valid ({"hour":7} lacks minute; expected {"#),
      "\(list.errorOutput)")
    #expect(list.output.contains("{hour: a whole number, "), "the shape is what it allows")
  }

  @Test("set KEY --unset clears an optional; a word for nothing points to it")
  func unset() throws {
    let settings = try app()
    settings.laps = 3
    settings.nap = WakeUp(hour: 13, minute: 0, tone: .bell)
    let before = folder.snapshot()
    for (arguments, exitCode, message) in [
      (
        ["laps", "none"], 65 as Int32, "to clear the setting, run 'diary settings set laps --unset'"
      ),
      (["laps", ""], 65, "(or 'diary settings reset laps')"),
      (["nap", "none"], 65, #"is not JSON"#),
      (["nap", "nil"], 65, "run 'diary settings set nap --unset'"),
      (["laps"], 64, "the new value is missing: give VALUE, or --unset"),
      (["laps", "2", "--unset"], 64, "--unset clears the setting: leave out VALUE"),
      (["laps", "--unset", "--type", "integer"], 64, "leave out --type"),
      (
        ["sleepGoal", "--unset"], 64,
        "sleepGoal is diary's own setting, not an optional one: --unset clears an optional "
          + "setting; 'diary settings reset sleepGoal' puts sleepGoal back to its default"
      ),
      (["wakeUp", "--unset"], 64, "wakeUp is the app's setting, not an optional one"),
      (["other", "--unset"], 64, "'diary settings reset other'"),
      (["nope", "--unset"], 64, "unknown setting 'nope'"),
    ] {
      let result = diary.run(["settings", "set"] + arguments)
      #expect(result.exitCode == exitCode, "\(arguments): \(result.errorOutput)")
      #expect(result.errorOutput.contains(message), "\(arguments): \(result.errorOutput)")
    }
    #expect(folder.snapshot() == before, "nothing changed")

    let laps = diary.run("settings", "set", "laps", "--unset")
    #expect(laps.exitCode == 0)
    #expect(laps.output == "laps is not set (default)\n")
    let nap = diary.run("settings", "set", "nap", "--unset", "--json")
    #expect(nap.exitCode == 0)
    try settings.refresh()
    #expect(settings.laps == nil)
    #expect(settings.nap == WakeUp(hour: 14, minute: 0, tone: .birds), "its default again")
    #expect(settings.state.values.keys.sorted() == ["other"])
    // Help says so.
    let help = diary.run("settings", "set", "--help").output
    #expect(help.contains("[--unset]") && help.contains("diary settings set nickname --unset"))
  }

  @Test("an app that only read its settings leaves the catalog: diary knows its keys")
  func catalogBeforeSettings() throws {
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.shapedApp)
    _ = settings.wakeUp
    #expect(!FileManager.default.fileExists(atPath: url.path))
    let get = diary.run("settings", "get", "wakeUp")
    #expect(get.exitCode == 0, "\(get.errorOutput)")
    #expect(get.output == #"{"hour":7,"minute":30,"tone":"bell"}"# + "\n")
    let set = diary.run("settings", "set", "wakeUp", #"{"hour":7}"#)
    #expect(set.exitCode == 65)
    #expect(!FileManager.default.fileExists(atPath: url.path), "a refused value writes nothing")
  }
}
