import Foundation
import StoreTesting
import Stores
import Testing

@testable import diary

/// Values typed for the built-in settings are read by each setting's type, strictly.
@MainActor
@Suite("diary reads setting values")
struct SettingValueTests {
  let time = LocalTime(now: Date(timeIntervalSinceReferenceDate: 817_600_000), timeZone: .gmt)

  @Test(
    "values people type are parsed by the setting's type",
    arguments: [
      ("isNotificationsEnabled", "yes", JSONValue.bool(true)),
      ("isNotificationsEnabled", "OFF", .bool(false)),
      ("isNotificationsEnabled", "1", .bool(true)),
      ("isNotificationsEnabled", "0", .bool(false)),
      ("sleepGoal", "7.5", .number(7.5)),
      ("sleepGoal", "0", .number(0)),
      ("sleepGoal", "24", .number(24)),
      ("sleepGoal", "2.4e1", .number(24)), ("sleepGoal", ".5", .number(0.5)),
      ("distanceUnit", "Miles", .string("miles")),
    ])
  func parsing(name: String, text: String, expected: JSONValue) throws {
    let setting = try #require(Setting.builtIn.first { $0.name == name })
    #expect(try setting.read(text, time) == expected)
  }

  @Test(
    "values that are not exactly right are refused",
    arguments: [
      ("isNotificationsEnabled", "maybe"), ("isNotificationsEnabled", ""),
      ("isNotificationsEnabled", "truee"), ("sleepGoal", "nan"), ("sleepGoal", "inf"),
      ("sleepGoal", "-inf"), ("sleepGoal", "7.5h"), ("sleepGoal", " 7"), ("sleepGoal", "0x10"),
      ("sleepGoal", "24.01"), ("sleepGoal", "-1"), ("sleepGoal", "1e999"), ("sleepGoal", ""),
      ("sleepGoal", "7."), ("sleepGoal", "+5"), ("distanceUnit", "kilo"),
      ("distanceUnit", ""),
    ])
  func refusedParsing(name: String, text: String) throws {
    let setting = try #require(Setting.builtIn.first { $0.name == name })
    #expect(throws: SettingsError.self) { try setting.read(text, time) }
  }

  @Test("text people type is a valid value, which is stored, or refused with nothing written")
  func typedText() throws {
    let folder = TemporaryFolder()
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    let builtIn = Setting.builtIn
    check(Gen<(Int, String)>.zip(.integer(in: 0...builtIn.count - 1), .settingText)) {
      index, text in
      let setting = builtIn[index]
      guard let value = try? setting.read(text, time) else { return }
      let key = try #require(settings.key(named: setting.name))
      try requireEqual(key.problem(with: value), nil, "a value read is valid")
      try settings.trySend(.set(key: key.name, value: value))
      try requireEqual(try SettingsStore(contentsOf: url).state.values[key.name], value)
    }
  }
}
