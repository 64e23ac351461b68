import Foundation
import StoreTesting
import Stores
import Testing

/// An app's settings of every type, declared in an extension.
extension SettingsKeys {
  var visited: SettingsKey<[String]> { SettingsKey("visited", default: [], summary: "Places") }
  var lastBackup: SettingsKey<Date> {
    SettingsKey("lastBackup", default: Date(timeIntervalSinceReferenceDate: 0), summary: "Backup")
  }
  var icon: SettingsKey<Data> { SettingsKey("icon", default: Data(), summary: "Icon") }
  var homePage: SettingsKey<URL> {
    SettingsKey("homePage", default: URL(string: "https://example.com")!, summary: "Home")
  }
  var deviceID: SettingsKey<UUID> {
    SettingsKey(
      "deviceID", default: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
      summary: "Device")
  }
  var volume: SettingsKey<Int> { SettingsKey("volume", default: 5, in: 0...10, summary: "Volume") }
  var ratio: SettingsKey<Double> { SettingsKey("ratio", default: 1, summary: "Ratio") }
  var muted: SettingsKey<Bool> { SettingsKey("muted", default: false, summary: "Muted") }
  var city: SettingsKey<String?> { SettingsKey("city", default: nil, summary: "City") }
  var hours: SettingsKey<ClosedRange<Int>> {
    SettingsKey("hours", default: 9...17, summary: "Working hours")
  }
  var counts: SettingsKey<[String: Int]> { SettingsKey("counts", default: [:], summary: "Counts") }

  static let diaryApp: [AnySettingsKey] = [
    .key(\.visited), .key(\.lastBackup), .key(\.icon), .key(\.homePage), .key(\.deviceID),
    .key(\.volume), .key(\.ratio), .key(\.muted), .key(\.city), .key(\.hours), .key(\.counts),
  ]
}

/// `diary settings` on an app's keys of every type: what the app writes diary shows, what
/// diary sets (`--type`, or the type of the value held) the app reads — exactly.
@Suite("diary settings of every value type")
struct DiarySettingTypesTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }
  var url: URL { folder.file("settings.json") }

  /// Values of `keyPath` from `gen` go both ways: set by diary as `text(value)` with `--type
  /// type`, read by the app; set by the app, shown by `diary settings get` as `text(value)`.
  @MainActor
  func roundTrip<Value: Equatable>(
    _ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>, _ gen: Gen<Value>, type: String,
    _ text: @escaping (Value) -> String
  ) {
    let name = SettingsStore.definitions[keyPath: keyPath].name
    check(gen, iterations: 12) { value in
      // After "--", a value such as "-a" is not an option.
      let set = diary.run("settings", "set", "--type", type, "--", name, text(value))
      try requireEqual(set.exitCode, 0, set.errorOutput)
      let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.diaryApp)
      try requireEqual(settings[dynamicMember: keyPath], value, "the app reads what diary set")
      try requireEqual(settings.entries.first { $0.key.name == name }?.problem, nil)
      try settings.set(keyPath, to: value)
      try settings.reset(keyPath)
      try settings.set(keyPath, to: value)
      let get = diary.run("settings", "get", name)
      try requireEqual(get.output, text(value) + "\n", "diary shows what the app set")
      try requireEqual(get.errorOutput, "")
      // Without --type, the key keeps the type of its value.
      try requireEqual(diary.run("settings", "set", "--", name, text(value)).exitCode, 0)
      try requireEqual(try SettingsStore(contentsOf: url)[dynamicMember: keyPath], value)
    }
  }

  @Test("each type round-trips through diary settings set and get (property)")
  @MainActor
  func eachType() {
    let text = Gen<String>.string(from: .asciiPrintable, count: 1...10)
    roundTrip(\.visited, .array(of: text, maxCount: 4), type: "json") {
      JSONValue.array($0.map(JSONValue.string)).description
    }
    roundTrip(\.lastBackup, .date(), type: "date") { ISO8601Timestamp.string(from: $0)! }
    roundTrip(
      \.icon, Gen<[UInt8]>.array(of: .integer(in: 0...255), maxCount: 30).map { Data($0) },
      type: "data"
    ) {
      $0.base64EncodedString()
    }
    roundTrip(
      \.homePage,
      Gen<Int>.integer(in: 0...999_999).map { URL(string: "https://example.com/p\($0)")! },
      type: "url"
    ) {
      $0.absoluteString
    }
    roundTrip(\.deviceID, Gen<Int>.integer(in: 0...999_999).map { _ in UUID() }, type: "uuid") {
      $0.uuidString
    }
    roundTrip(\.volume, .integer(in: 0...10), type: "integer") { String($0) }
    roundTrip(\.ratio, .double(in: -1e9...1e9), type: "number") { JSONNumber($0 + 0).text }
    roundTrip(\.muted, .bool, type: "bool") { String($0) }
    roundTrip(\.city, text.map { $0 }, type: "string") { $0 ?? "" }
    roundTrip(
      \.hours,
      Gen<(Int, Int)>.zip(.integer(in: 0...23), .integer(in: 0...23)).map {
        min($0, $1)...max($0, $1)
      }, type: "json"
    ) {
      "[\($0.lowerBound),\($0.upperBound)]"
    }
    roundTrip(
      \.counts, .dictionary(keys: text, values: .integer(in: -99...99), maxCount: 3), type: "json"
    ) {
      JSONValue.object($0.mapValues { .number(JSONNumber($0)) }).description
    }
  }

  @Test(
    "a value that is not of the type given is refused (65), nothing written",
    arguments: [
      ("json", "[1,", "is not JSON"), ("json", "", "is not JSON"),
      ("json", #"{"a": 1, "a": 2}"#, "is not JSON"), ("date", "soon", "is not a date"),
      ("date", "10000-01-01T00:00:00Z", "is not a date"), ("data", "AQI", "is not base64"),
      ("url", "not a url", "is not a URL"), ("uuid", "6F1C2A4E", "is not a UUID"),
      ("number", "1e-400", "is out of range (it would round to zero)"),
      ("number", "-1e-400", "is out of range (it would round to zero)"),
      ("number", "1e400", "is out of range (too large for a number)"),
      ("integer", "9223372036854775808", "is out of range"),
      ("integer", "-9223372036854775809", "is out of range"),
    ])
  func refused(type: String, text: String, message: String) {
    folder.write(#"{"values": {"x": 1}, "version": 1}"#, to: "settings.json")
    expectFailure(["settings", "set", "x", text, "--type", type], exitCode: 65, message: message)
  }

  @Test("a built-in number refuses one that would round to zero, as the file does")
  func underflow() {
    expectFailure(
      ["settings", "set", "sleepGoal", "1e-400"], exitCode: 65,
      message: "\"1e-400\" is out of range (it would round to zero)")
    // 0 written with any exponent is zero, not an underflow.
    #expect(diary.run("settings", "set", "sleepGoal", "0e-400").exitCode == 0)
  }

  @Test("an app's optional set to nil: its key is removed, and diary shows it not set")
  @MainActor
  func optionalNil() throws {
    #expect(diary.run("settings", "set", "city", "Oslo", "--type", "string").exitCode == 0)
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.diaryApp)
    #expect(settings.city == "Oslo")
    settings.city = nil
    #expect(settings.state.values["city"] == nil)
    let get = diary.run("settings", "get", "city", "--json")
    #expect(get.exitCode == 0, "the app's key catalog describes it")
    #expect(get.output.contains(#""value" : null"#))
  }

  @Test("values with zero-width characters are shown escaped by list, get and set")
  func invisibleValues() throws {
    let set = diary.run("settings", "set", "motto", "a\u{200B}b\u{AD}", "--type", "string")
    #expect(set.exitCode == 0)
    let list = diary.run("settings", "list")
    let get = diary.run("settings", "get", "motto")
    #expect(get.output == #"a\u{200B}b\u{AD}"# + "\n")
    #expect(list.output.contains(#"a\u{200B}b\u{AD}"#))
    #expect(set.output.contains(#"a\u{200B}b\u{AD}"#))
    for output in [set.output, list.output, get.output] {
      #expect(!output.unicodeScalars.contains { [0x200B, 0xAD].contains($0.value) })
    }
  }

  @Test("keys with zero-width or control characters are shown escaped, never alike")
  func invisibleKeys() throws {
    folder.write(
      #"{"values": {"ab": 1, "a\u200bb": 2, "a\u0007b": 3, "a\u00adb": 4}, "version": 1}"#,
      to: "settings.json")
    let list = diary.run("settings", "list")
    #expect(list.exitCode == 0)
    let lines = list.output.split(separator: "\n").map(String.init)
    for key in ["ab ", #"a\u{200B}b "#, #"a\u{7}b "#, #"a\u{AD}b "#] {
      #expect(lines.contains { $0.hasPrefix(key) }, "\(key) in \(list.output)")
    }
    #expect(!list.output.unicodeScalars.contains { [0x200B, 0x07, 0xAD].contains($0.value) })
  }
}

/// Keys that differ only in Unicode normalization (NFC `café`, NFD `cafe` + U+0301) are two
/// keys for `diary`, as for JSON: neither write replaces the other, both are listed, apart.
@Suite("diary settings keys are their Unicode scalars")
struct DiarySettingsKeyScalarsTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("setting one spelling never replaces the other; list shows them apart")
  func twoSpellings() throws {
    #expect(diary.run("settings", "set", "caf\u{E9}", "1", "--type", "integer").exitCode == 0)
    #expect(diary.run("settings", "set", "cafe\u{301}", "2", "--type", "integer").exitCode == 0)
    let file = try Data(contentsOf: folder.file("settings.json"))
    #expect(String(decoding: file, as: UTF8.self).contains("\"caf\u{E9}\" : 1"))
    #expect(String(decoding: file, as: UTF8.self).unicodeScalars.contains("\u{301}"))
    #expect(diary.run("settings", "get", "caf\u{E9}").output == "1\n")
    #expect(diary.run("settings", "get", "cafe\u{301}").output == "2\n")
    let list = diary.run("settings", "list").output.split(separator: "\n")
    #expect(list.contains { $0.hasPrefix("caf\u{E9} ") })
    #expect(list.contains { $0.hasPrefix(#"cafe\u{301} "#) })
    #expect(diary.run("settings", "reset", "cafe\u{301}").exitCode == 0)
    #expect(diary.run("settings", "get", "caf\u{E9}").output == "1\n")
  }

  @Test("a settings file another app wrote with both spellings stops no command")
  func otherApp() throws {
    folder.write(
      #"{"values": {"caf\u00e9": 1, "cafe\u0301": 2, "distanceUnit": "miles"}, "version": 1}"#,
      to: "settings.json")
    #expect(diary.run("workouts", "add", "Run", "--distance", "5").exitCode == 0)
    let list = diary.run("workouts", "list")
    #expect(list.exitCode == 0)
    #expect(list.output.contains("5.00 mi"))
    #expect(list.errorOutput.isEmpty)
    #expect(diary.run("settings", "list").exitCode == 0)
  }
}
