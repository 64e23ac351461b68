import Foundation
import Observation
import StoreTesting
import Stores
import TestSupport
import Testing

@MainActor
@Suite("SettingsStore")
struct SettingsStoreTests {
  let folder = TemporaryFolder()

  @Test("a missing file is all defaults, and reading writes nothing")
  func defaults() throws {
    let settings = try SettingsStore(contentsOf: folder.file("settings.json"))
    #expect(settings.sleepGoal == 8)
    #expect(settings.isNotificationsEnabled == true)
    #expect(settings.distanceUnit == .kilometers)
    #expect(settings.entries.allSatisfy { $0.isDefault && $0.storedValue == nil })
    try settings.reset()
    #expect(folder.names.isEmpty)
  }

  @Test("only the settings set explicitly are written")
  func writesOnlyWhatIsSet() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    settings.sleepGoal = 7.5
    #expect(settings.lastError == nil)
    #expect(
      settingsText(url) == """
        {
          "values" : {
            "sleepGoal" : 7.5
          },
          "version" : 1
        }

        """)
    settings.distanceUnit = .miles
    let reopened = try SettingsStore(contentsOf: url)
    #expect(reopened.sleepGoal == 7.5)
    #expect(reopened.distanceUnit == .miles)
    #expect(reopened.isNotificationsEnabled == true)
  }

  @Test("an invalid value is refused by the property setter: nothing stored, the error kept")
  func setterRefusesInvalid() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    settings.sleepGoal = 6
    let before = contents(url)
    settings.sleepGoal = 25
    #expect(settings.sleepGoal == 6)
    #expect(
      settings.lastError as? SettingsError
        == .invalidValue(key: "sleepGoal", value: "25", problem: "is out of range 0...24"))
    settings.sleepGoal = -.infinity
    settings.sleepGoal = .nan
    #expect(settings.sleepGoal == 6)
    #expect(contents(url) == before)
    settings.sleepGoal = 9
    #expect(settings.lastError == nil)
  }

  @Test("set throws for an invalid value and leaves the file byte for byte")
  func throwingSet() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    try settings.set(\.sleepGoal, to: 24)
    let before = contents(url)
    #expect(
      throws: SettingsError.invalidValue(
        key: "sleepGoal", value: "24.5", problem: "is out of range 0...24")
    ) {
      try settings.set(\.sleepGoal, to: 24.5)
    }
    #expect(contents(url) == before)
    #expect(settings.sleepGoal == 24)
  }

  @Test("reset puts one setting or all back to the default, removing their keys")
  func reset() throws {
    let url = folder.copy(fixture: "settings/valid.json", as: "settings.json")
    let settings = try SettingsStore(contentsOf: url)
    try settings.reset(\.sleepGoal)
    #expect(settings.sleepGoal == 8)
    #expect(settingsText(url)?.contains("sleepGoal") == false)
    #expect(settings.distanceUnit == .miles)
    try settings.reset()
    #expect(settings.distanceUnit == .kilometers)
    #expect(try SettingsStore(contentsOf: url).entries.allSatisfy { $0.storedValue == nil })
  }

  @Test("keys no setting knows survive every change")
  func unknownKeysSurvive() throws {
    let url = folder.copy(fixture: "settings/unknown-keys.json", as: "settings.json")
    let settings = try SettingsStore(contentsOf: url)
    #expect(settings.unknownKeys == ["theme", "window"])
    settings.sleepGoal = 7
    try settings.reset(\.sleepGoal)
    settings.distanceUnit = .miles
    try settings.reset()
    let values = try SettingsStore(contentsOf: url).state.values
    #expect(values["theme"] == .string("dark"))
    #expect(values["window"] == .object(["height": .number(600), "width": .number(800)]))
    #expect(values.count == 2)
  }

  @Test("a number setting reads 8 and 8.0 alike; a whole-number key refuses 8.5")
  func numberTypes() throws {
    let url = folder.write(
      #"{"version": 1, "values": {"sleepGoal": 8, "count": 8.5, "other": 8.0}}"#, to: "s.json")
    #expect(try SettingsStore(contentsOf: url).sleepGoal == 8)
    let count = SettingsKey<Int>("count", default: 1, in: 0...100, summary: "A count")
    let other = SettingsKey<Int>("other", default: 1, in: 0...100, summary: "Another count")
    let file = try SettingsStore(
      contentsOf: url, keys: [AnySettingsKey(count), AnySettingsKey(other)])
    #expect(file.value(for: count) == 1)
    #expect(file.value(for: other) == 8)
    #expect(
      file.entries.first { $0.key.name == "count" }?.problem == "expected a whole number, found 8.5"
    )
    #expect(
      SettingsStore().key(named: "isNotificationsEnabled")?.problem(with: .string("yes"))
        == "expected one of true, false, found \"yes\"")
  }

  @Test("values in the file that are not valid are reported and read as the default")
  func invalidStoredValues() throws {
    let url = folder.copy(fixture: "settings/out-of-range.json", as: "settings.json")
    let before = contents(url)
    let settings = try SettingsStore(contentsOf: url)
    #expect(settings.sleepGoal == 8)
    #expect(settings.distanceUnit == .kilometers)
    let problems = settings.entries.compactMap { entry in entry.problem.map { (entry.key.name, $0) }
    }
    #expect(problems.map(\.0) == ["sleepGoal", "distanceUnit"])
    #expect(
      problems.map(\.1) == [
        "99 is out of range 0...24",
        "expected one of kilometers, miles, meters, yards, found \"furlongs\"",
      ])
    #expect(contents(url) == before)
    settings.sleepGoal = 7
    #expect(settings.entries[0].problem == nil)
  }

  @Test("every setting describes itself")
  func descriptions() {
    let keys = SettingsStore().keys
    #expect(keys.map(\.name) == ["sleepGoal", "isNotificationsEnabled", "distanceUnit"])
    #expect(
      keys.map(\.allowedValues) == [
        .range(min: .number(0), max: .number(24)), .oneOf([.bool(true), .bool(false)]),
        .oneOf([.string("kilometers"), .string("miles"), .string("meters"), .string("yards")]),
      ])
    #expect(
      keys.map(\.allowedValues.description) == [
        "0...24", "true, false", "kilometers, miles, meters, yards",
      ])
    #expect(keys.map(\.defaultValue.description) == ["8", "true", "\"kilometers\""])
    #expect(keys.allSatisfy { !$0.summary.isEmpty })
  }

  @Test("a callback per setting fires only when that setting's value changes")
  func perKeyCallbacks() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    var goals: [Double] = []
    var units: [DistanceUnit] = []
    let goalToken = settings.onChange(of: \.sleepGoal) { goals.append($0) }
    let unitToken = settings.onChange(of: \.distanceUnit) { units.append($0) }
    settings.sleepGoal = 7
    settings.sleepGoal = 7
    settings.distanceUnit = .miles
    settings.sleepGoal = 8
    try settings.reset(\.sleepGoal)
    try SettingsStore(contentsOf: url).set(\.sleepGoal, to: 5)
    try settings.refresh()
    #expect(goals == [7, 8, 5])
    #expect(units == [.miles])
    goalToken.cancel()
    unitToken.cancel()
  }

  @Test("Observation tracks a setting read through its property")
  func observation() {
    let settings = SettingsStore(values: ["sleepGoal": .number(7)])
    let fired = SendableCounter()
    withObservationTracking {
      _ = settings.sleepGoal
    } onChange: {
      fired.increment()
    }
    settings.sleepGoal = 7
    #expect(fired.value == 0)
    settings.sleepGoal = 6
    #expect(fired.value == 1)
  }

  @Test("two processes setting different keys at once lose neither: 2 × 200 sets")
  func twoProcesses() throws {
    let url = folder.file("shared.json")
    let writers = try ["a", "b"].map {
      try WriterProcess.start("keyvalue", url, count: 200, tag: $0)
    }
    for writer in writers {
      writer.waitUntilExit()
      #expect(writer.terminationReason == .exit && writer.terminationStatus == 0)
    }
    let values = try SettingsStore(contentsOf: url).state.values
    #expect(values.count == 400)
    #expect(
      (0..<200).allSatisfy {
        values["a-\($0)"] == .number(JSONNumber($0)) && values["b-\($0)"] == .number(JSONNumber($0))
      })
  }

  @Test("a watching store picks up another process's write by itself")
  func watchPicksUpOtherProcess() async throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    try settings.watch()
    var seen: [Double] = []
    let token = settings.onChange(of: \.sleepGoal) { seen.append($0) }
    // Another process sets sleepGoal to 0 (its first value).
    let writer = try WriterProcess.start("settings", url, count: 1, tag: "other")
    writer.waitUntilExit()
    #expect(writer.terminationReason == .exit && writer.terminationStatus == 0)
    #expect(await eventually { settings.sleepGoal == 0 })
    #expect(seen == [0])
    token.cancel()
  }
}
