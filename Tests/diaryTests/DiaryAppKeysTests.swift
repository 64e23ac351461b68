import Foundation
import StoreTesting
import Stores
import Testing

/// A `CaseIterable` enumeration an app keeps as a setting.
enum Pace: String, CaseIterable, Sendable, SettingValue {
  case easy, steady, fast
}

extension SettingsKeys {
  var pace: SettingsKey<Pace> { SettingsKey("pace", default: .steady, summary: "Running pace") }

  /// The keys of an app that opens the settings file beside `diary`.
  static let catalogApp: [AnySettingsKey] = [
    .key(\.theme), .key(\.volume), .key(\.pace), .key(\.lastBackup), .key(\.city),
    .key(\.visited), .key(\.ratio),
  ]
}

/// `diary settings` on an app's keys that a store of the app described in the key catalog:
/// listed, read, checked and reset as diary's own keys are (issue 26).
@MainActor
@Suite("diary settings on an app's catalogued keys")
struct DiaryAppKeysTests {
  let folder = TemporaryFolder()
  /// `diary` on the folder, its tables as wide as they need.
  var diary: DiaryProcess { .wide(on: folder.url) }
  var url: URL { folder.file("settings.json") }

  /// The app's store on the file, its keys recorded in the catalog (the file made first).
  func app() throws -> SettingsStore {
    if !FileManager.default.fileExists(atPath: url.path) {
      folder.write(#"{"values": {"other": "kept"}, "version": 1}"#, to: "settings.json")
    }
    return try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogApp)
  }

  func json(_ result: DiaryProcess.Result) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(result.output.utf8))
  }

  @Test("list shows them after diary's own, with default and summary; get prints the default")
  func listAndGet() throws {
    _ = try app()
    let list = diary.run("settings", "list")
    #expect(list.exitCode == 0)
    #expect(list.errorOutput == "")
    let lines = list.output.split(separator: "\n").map(String.init)
    let keys = lines.filter { !$0.hasPrefix(" ") }.compactMap { $0.split(separator: " ").first }
    #expect(
      keys == [
        "KEY", "sleepGoal", "isNotificationsEnabled", "distanceUnit", "theme", "volume", "pace",
        "lastBackup", "city", "visited", "ratio", "other",
      ])
    func line(_ key: String) -> [Substring] {
      (lines.first { $0.hasPrefix(key + " ") } ?? "").split(
        separator: "  ", omittingEmptySubsequences: true
      )
      .map { $0.drop { $0 == " " } }
    }
    #expect(line("volume") == ["volume", "5", "5", "0...10", "Volume"])
    #expect(line("pace") == ["pace", "steady", "steady", "easy, steady, fast", "Running pace"])
    #expect(
      line("theme") == [
        "theme", "light", "light", "any text, checked by the app", "The colour scheme",
      ])
    #expect(line("city") == ["city", "any text", "City"], "not set: no value, no default")
    #expect(!list.output.contains("* differs"), "every app key is at its default")

    let entries = try #require(
      try json(diary.run("settings", "list", "--json")) as? [[String: Any]])
    let volume = try #require(entries.first { $0["key"] as? String == "volume" })
    #expect(volume["default"] as? Int == 5 && volume["value"] as? Int == 5)
    #expect(volume["summary"] as? String == "Volume" && volume["type"] as? String == "integer")
    #expect(volume["allowedValues"] as? [String: Int] == ["min": 0, "max": 10])
    #expect(volume["isDefault"] as? Bool == true)

    #expect(diary.run("settings", "get", "volume").output == "5\n")
    #expect(diary.run("settings", "get", "pace").output == "steady\n")
    #expect(diary.run("settings", "get", "lastBackup").output == "2001-01-01T00:00:00Z\n")
    let city = diary.run("settings", "get", "city", "--json")
    #expect(city.exitCode == 0)
    let cityEntry = try #require(try json(city) as? [String: Any])
    #expect(cityEntry["value"] is NSNull && cityEntry["type"] as? String == "string")
  }

  @Test("set reads by the catalog's type and refuses what the key does not allow, as diary's own")
  func set() throws {
    let settings = try app()
    let before = folder.snapshot()
    for (arguments, exitCode, message) in [
      (["volume", "11"], 65 as Int32, #"invalid value for volume: "11" is out of range 0...10"#),
      (["volume", "loud"], 65, #"invalid value for volume: "loud" is not a whole number"#),
      (["pace", "sprint"], 65, #"invalid value for pace: "sprint" is not easy, steady or fast"#),
      (["pace", "fats"], 65, "did you mean 'fast'?"),
      (["lastBackup", "soon"], 65, #""soon" is not a date"#),
      (["ratio", "nan"], 65, #""nan" is not a number"#),
      (
        ["volume", "7", "--type", "string"], 64,
        "volume is the app's setting, of type integer (its key catalog says so), not string: "
          + "leave out --type"
      ),
    ] {
      let result = diary.run(["settings", "set"] + arguments)
      #expect(result.exitCode == exitCode, "\(arguments)")
      #expect(result.errorOutput.hasPrefix("diary: error: "), "\(arguments)")
      #expect(result.errorOutput.contains(message), "\(result.errorOutput)")
    }
    #expect(folder.snapshot() == before, "nothing changed")
    // The same refusal as a built-in key's, word for word.
    let builtIn = diary.run("settings", "set", "sleepGoal", "25")
    #expect(
      builtIn.errorOutput.hasPrefix(
        #"diary: error: invalid value for sleepGoal: "25" is out of range 0...24"#))

    #expect(
      diary.run("settings", "set", "volume", "7", "--type", "integer").output == "volume = 7\n")
    #expect(diary.run("settings", "set", "pace", "FAST").output == "pace = fast\n")
    #expect(diary.run("settings", "set", "lastBackup", "2026-11-29").exitCode == 0)
    #expect(diary.run("settings", "set", "visited", #"["Oslo"]"#).exitCode == 0)
    try settings.refresh()
    #expect(settings.volume == 7 && settings.pace == .fast && settings.visited == ["Oslo"])
    #expect(settings.lastBackup == ISO8601Timestamp.date(from: "2026-11-29T00:00:00Z"))
    let list = diary.run("settings", "list").output
    #expect(
      list.split(separator: "\n").contains { $0.hasPrefix("volume ") && $0.contains(" 7 * ") },
      "\(list)")
    #expect(list.contains("* differs from the default"))
    // A rule of the app's code is the app's: diary stores the value, the app reads its default.
    #expect(diary.run("settings", "set", "theme", "purple").exitCode == 0)
    try settings.refresh()
    #expect(settings.theme == "light")
  }

  @Test("a stored value that is not valid: the default, with the warning of diary's own keys")
  func invalidStored() throws {
    _ = try app()
    folder.write(
      #"{"values": {"volume": "loud", "sleepGoal": 30, "pace": "jog"}, "version": 1}"#,
      to: "settings.json")
    let list = diary.run("settings", "list")
    #expect(list.exitCode == 0)
    let expected: [String] = [
      "sleepGoal in the file is not valid (30 is out of range 0...24); using the default — "
        + "fix it with 'diary settings set sleepGoal VALUE'",
      #"volume in the file is not valid (expected a whole number, found "loud"); using the "#
        + "default — fix it with 'diary settings set volume VALUE'",
      #"pace in the file is not valid (expected one of easy, steady, fast, found "jog"); "#
        + "using the default — fix it with 'diary settings set pace VALUE'",
    ]
    let warnings = list.errorOutput.split(separator: "\n").map(String.init)
    #expect(warnings == expected.map { "diary: warning: " + $0 })
    let get = diary.run("settings", "get", "volume")
    #expect(get.exitCode == 0)
    #expect(get.output == "5\n")
    #expect(get.errorOutput.contains("volume in the file is not valid"))
    let entry = try #require(
      try json(diary.run("settings", "get", "pace", "--json")) as? [String: Any])
    #expect(entry["value"] as? String == "steady")
    #expect((entry["problem"] as? String)?.contains("jog") == true)
  }

  @Test("reset KEY and reset put them back to their defaults; other keys are kept")
  func reset() throws {
    let settings = try app()
    settings.volume = 3
    settings.pace = .fast
    settings.city = "Oslo"
    #expect(diary.run("settings", "reset", "volume").output == "volume = 5 (default)\n")
    let all = diary.run("settings", "reset")
    #expect(all.exitCode == 0)
    let lines = all.output.split(separator: "\n").map(String.init)
    #expect(
      lines.contains("pace = steady (default)") && lines.contains("city is not set (default)"))
    #expect(lines.count == 3 + SettingsKeys.catalogApp.count)
    try settings.refresh()
    #expect(settings.volume == 5 && settings.pace == .steady && settings.city == nil)
    #expect(settings.state.values.keys == ["other"], "a key nobody declares is kept")
    // diary set nil for an optional: its reset.
    settings.city = "Bergen"
    #expect(diary.run("settings", "reset", "city").output == "city is not set (default)\n")
  }

  @Test(
    "a hostile catalog: one warning, its keys shown as the file's other keys, nothing changed",
    arguments: ["garbage", "huge", "link", "entries"])
  func hostileCatalog(kind: String) throws {
    folder.write(#"{"values": {"volume": 3, "other": "kept"}, "version": 1}"#, to: "settings.json")
    let elsewhere = TemporaryFolder()
    switch kind {
    case "garbage": folder.write(Data([0xFF, 0xFE, 0x00, 0x7B]), to: "settings.keys.json")
    case "huge":
      folder.write(
        #"{"version": 1, "keys": [], "pad": ""# + String(repeating: "x", count: 1 << 20) + #""}"#,
        to: "settings.keys.json")
    case "link":
      let target = elsewhere.write(
        #"{"version": 1, "keys": [{"name": "volume", "type": "integer", "default": 5}]}"#,
        to: "keys.json")
      try FileManager.default.createSymbolicLink(
        at: folder.file("settings.keys.json"), withDestinationURL: target)
    default:
      folder.write(
        #"{"version": 1, "keys": [{"name": "volume", "type": "integer", "default": "x"}, 7]}"#,
        to: "settings.keys.json")
    }
    let before = folder.snapshot()
    for arguments in [["settings", "list"], ["settings", "get", "volume"]] {
      let result = diary.run(arguments)
      #expect(result.exitCode == 0, "\(kind): \(result.errorOutput)")
      let warnings = result.errorOutput.split(separator: "\n")
      #expect(warnings.count == 1, "\(kind): \(result.errorOutput)")
      #expect(warnings.first?.hasPrefix("diary: warning: ") == true)
      #expect(warnings.first?.contains("settings.keys.json") == true)
    }
    #expect(diary.run("settings", "get", "volume").output == "3\n")
    #expect(folder.snapshot() == before, "reading a catalog changes nothing")
    // Not a key of the app: reset leaves it, as any key nobody declares.
    #expect(diary.run("settings", "reset").exitCode == 0)
    #expect(diary.run("settings", "get", "volume").output == "3\n")
  }
}
