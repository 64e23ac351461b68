import Foundation
import StoreTesting
import Stores
import Testing

/// `diary settings` on any key, typed like `defaults write` (issue 15, item 3): the keys the
/// tool knows keep their types and validation; any other key — an app's own — is typed by
/// `--type` or by the value it holds.
@Suite("diary settings on any key")
struct DiarySettingsKeysTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// The values of the settings file.
  func values() throws -> [String: Any] {
    let data = try Data(contentsOf: folder.file("settings.json"))
    let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(file["values"] as? [String: Any])
  }

  func json(_ result: DiaryProcess.Result) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
  }

  @Test(
    "a new key of each type: set, get, list and reset round-trip",
    arguments: [
      ("string", "dark", "dark", "\"dark\""), ("number", "2.5", "2.5", "2.5"),
      ("integer", "-7", "-7", "-7"), ("bool", "Yes", "true", "true"),
    ])
  func roundTrip(type: String, typed: String, shown: String, stored: String) throws {
    let set = diary.run("settings", "set", "myKey", typed, "--type", type)
    #expect(set.exitCode == 0, "\(set.errorOutput)")
    #expect(set.output == "myKey = \(shown)\n")
    let file = try String(contentsOf: folder.file("settings.json"), encoding: .utf8)
    #expect(file.contains("\"myKey\" : \(stored)"), "\(file)")
    #expect(diary.run("settings", "get", "myKey").output == "\(shown)\n")
    let entry = try json(diary.run("settings", "get", "myKey", "--json"))
    // A file keeps numbers, whole or not: an integer reads back as a number.
    #expect(entry["type"] as? String == (type == "integer" ? "number" : type))
    #expect(entry["key"] as? String == "myKey")
    #expect(entry["default"] is NSNull && entry["summary"] is NSNull)
    // Without --type, the key keeps the type of the value it holds.
    #expect(diary.run("settings", "set", "myKey", typed).output == "myKey = \(shown)\n")
    let line = diary.run("settings", "list").output.split(separator: "\n").first {
      $0.hasPrefix("myKey ")
    }
    #expect(line?.contains(shown) == true, "\(String(describing: line))")

    let reset = diary.run("settings", "reset", "myKey", "--json")
    #expect(try json(reset)["value"] is NSNull)
    #expect(try values()["myKey"] == nil)
    let again = diary.run("settings", "get", "myKey")
    #expect(again.exitCode == 64)
    #expect(again.errorOutput.hasPrefix("diary: error: unknown setting 'myKey'"))
  }

  @Test(
    "bad values are refused with the usual errors, and nothing changes",
    arguments: [
      (["number", "nan"], 65, "invalid value for n: \"nan\" is not a number"),
      (["number", "inf"], 65, "\"inf\" is not a number"),
      (["number", "7.5h"], 65, "\"7.5h\" is not a number"),
      (["integer", "7.5"], 65, "\"7.5\" is not a whole number"),
      (["integer", "99999999999999999999"], 65, "is out of range"),
      (
        ["bool", "maybe"], 65,
        "\"maybe\" is not true, false, yes, no, on, off, 1 or 0"
      ),
      (["bool", "ture"], 65, "did you mean 'true'?"),
      (
        ["strng", "x"], 65,
        "--type must be string, number, integer, bool, date, url, uuid, data or json, not 'strng' — did you mean 'string'?"
      ),
    ])
  func badValues(typeAndValue: [String], exitCode: Int32, message: String) {
    folder.copy(fixturesFolder.appendingPathComponent("settings/valid.json"), as: "settings.json")
    let before = folder.snapshot()
    let result = diary.run(
      "settings", "set", "n", typeAndValue[1], "--type", typeAndValue[0])
    #expect(result.exitCode == exitCode)
    #expect(result.errorOutput.hasPrefix("diary: error: "))
    #expect(result.errorOutput.contains(message), "\(result.errorOutput)")
    #expect(folder.snapshot() == before)
  }

  @Test("a key the tool knows keeps its type and validation and refuses --type (64)")
  func builtInKeys() throws {
    let before = folder.snapshot()
    let typed = diary.run("settings", "set", "sleepGoal", "7", "--type", "string")
    #expect(typed.exitCode == 64)
    #expect(
      typed.errorOutput.hasPrefix(
        "diary: error: sleepGoal is diary's own setting, of type number: leave out --type"))
    #expect(typed.errorOutput.contains("\nusage: diary settings set KEY [VALUE] [--type "))
    let range = diary.run("settings", "set", "sleepGoal", "25")
    #expect(range.exitCode == 65)
    #expect(range.errorOutput.contains("\"25\" is out of range 0...24"))
    #expect(folder.snapshot() == before)
  }

  @Test("a key that is neither known nor set: 64 with a did-you-mean, and how to add it")
  func unknownKeys() throws {
    #expect(diary.run("settings", "set", "theme", "dark", "--type", "string").exitCode == 0)
    let before = folder.snapshot()
    let get = diary.run("settings", "get", "themes")
    #expect(get.exitCode == 64)
    #expect(
      get.errorOutput.hasPrefix("diary: error: unknown setting 'themes' — did you mean 'theme'?"))
    let reset = diary.run("settings", "reset", "colour")
    #expect(reset.exitCode == 64)
    #expect(
      reset.errorOutput.hasPrefix(
        "diary: error: unknown setting 'colour' — the settings are sleepGoal, "
          + "isNotificationsEnabled, distanceUnit and theme\n"))
    let set = diary.run("settings", "set", "colour", "red")
    #expect(set.exitCode == 64)
    #expect(
      set.errorOutput.contains("; to add it, give its type: --type string|number|integer|bool"))
    #expect(folder.snapshot() == before)
  }

  @Test("a key holding a list, an object or null is JSON: shown and set as JSON")
  func jsonValues() throws {
    folder.write(
      #"{"version": 1, "values": {"tags": ["a", "b"], "layout": {}, "zero": null}}"#,
      to: "settings.json")
    #expect(diary.run("settings", "get", "tags").output == "[\"a\",\"b\"]\n")
    let layout = try json(diary.run("settings", "get", "layout", "--json"))
    #expect(layout["type"] as? String == "json")
    #expect(diary.run("settings", "get", "layout", "--json").output.contains(#""value" : {}"#))
    let before = folder.snapshot()
    let set = diary.run("settings", "set", "tags", "c")
    #expect(set.exitCode == 65)
    #expect(
      set.errorOutput.contains(#"invalid value for tags: "c" is not JSON, such as ["a","b"]"#))
    #expect(folder.snapshot() == before)
    #expect(diary.run("settings", "set", "tags", #"["c", {"d": 1.50}]"#).exitCode == 0)
    let file = try String(contentsOf: folder.file("settings.json"), encoding: .utf8)
    #expect(file.contains(#""d" : 1.50"#), "the number keeps its digits: \(file)")
    #expect(diary.run("settings", "get", "tags").output == #"["c",{"d":1.50}]"# + "\n")
    #expect(diary.run("settings", "set", "tags", "c", "--type", "string").exitCode == 0)
    #expect(try values()["tags"] as? String == "c")
  }

  @Test("settings list: the built-in keys in order, then the file's others alphabetically")
  func listOrder() throws {
    for (key, value, type) in [("zeta", "1", "integer"), ("alpha", "x", "string")] {
      #expect(diary.run("settings", "set", key, value, "--type", type).exitCode == 0)
    }
    let entries = try #require(
      try JSONSerialization.jsonObject(
        with: Data(diary.run("settings", "list", "--json").output.utf8)) as? [[String: Any]])
    #expect(
      entries.map { $0["key"] as? String } == [
        "sleepGoal", "isNotificationsEnabled", "distanceUnit", "alpha", "zeta",
      ])
    #expect(entries[3]["value"] as? String == "x")
    #expect(entries[4]["value"] as? Int == 1)
    let keys = diary.run("settings", "list").output.split(separator: "\n")
      .filter { !$0.hasPrefix(" ") }.compactMap { $0.split(separator: " ").first }
    #expect(
      keys == ["KEY", "sleepGoal", "isNotificationsEnabled", "distanceUnit", "alpha", "zeta"])
  }

  @Test("settings reset KEY --json prints the same object as settings set")
  func resetPrintsAnEntry() throws {
    #expect(diary.run("settings", "set", "sleepGoal", "6").exitCode == 0)
    let reset = try json(diary.run("settings", "reset", "sleepGoal", "--json"))
    let set = try json(diary.run("settings", "set", "sleepGoal", "8", "--json"))
    #expect(Set(reset.keys) == Set(set.keys))
    #expect(reset["value"] as? Double == 8)
    #expect(reset["isDefault"] as? Bool == true)
    #expect(reset["allowedValues"] as? [String: Double] == ["min": 0, "max": 24])
  }
}

extension SettingsKeys {
  /// An app's own setting, declared as an app declares one: the colour scheme.
  var theme: SettingsKey<String> {
    SettingsKey("theme", default: "light", summary: "The colour scheme") { value in
      ["light", "dark"].contains(value) ? nil : "must be light or dark"
    }
  }
}

/// A setting an app declares in an `extension SettingsKeys` is a typed, validated property of
/// `SettingsStore`, in the same file as the built-in ones — and `diary` lists and edits it.
@MainActor
@Suite("an app's own settings, through the library and diary")
struct AppSettingsTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("the app sets it, diary lists and changes it, the app sees the change")
  func appKey() throws {
    let settings = try SettingsStore(contentsOf: folder.file("settings.json"))
    #expect(settings.theme == "light", "the default until set")
    settings.theme = "purple"
    #expect(settings.lastError as? SettingsError != nil, "refused by its validation")
    settings.theme = "dark"
    #expect(diary.run("settings", "get", "theme").output == "dark\n")
    let list = diary.run("settings", "list").output
    #expect(list.contains("theme"), "\(list)")
    #expect(diary.run("settings", "set", "theme", "light").exitCode == 0)
    try settings.refresh()
    #expect(settings.theme == "light")
    // The tool does not know the app's rule: a value the app refuses reads as the default.
    #expect(diary.run("settings", "set", "theme", "purple").exitCode == 0)
    try settings.refresh()
    #expect(settings.theme == "light")
    #expect(diary.run("settings", "reset", "theme").exitCode == 0)
    try settings.refresh()
    #expect(settings.state.values["theme"] == nil)
  }
}
