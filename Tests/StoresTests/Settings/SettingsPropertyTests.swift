import Foundation
import StoreTesting
import Stores
import Testing

@MainActor
@Suite("Settings properties")
struct SettingsPropertyTests {
  let folder = TemporaryFolder()
  var url: URL { folder.file("settings.json") }

  static let validValues = Gen<(Double, Bool, DistanceUnit)>.zip(
    .double(in: 0...24), .bool, .element(of: DistanceUnit.allCases))

  @Test("any valid value round-trips through the file and a reopen")
  func validValuesRoundTrip() {
    check(Self.validValues, iterations: 50) { goal, notifications, unit in
      try? FileManager.default.removeItem(at: url)
      let settings = try SettingsStore(contentsOf: url)
      try settings.set(\.sleepGoal, to: goal)
      try settings.set(\.isNotificationsEnabled, to: notifications)
      try settings.set(\.distanceUnit, to: unit)
      let reopened = try SettingsStore(contentsOf: url)
      try requireEqual(reopened.sleepGoal.bitPattern, (goal + 0).bitPattern, "exact; -0 as 0")
      try requireEqual(reopened.isNotificationsEnabled, notifications)
      try requireEqual(reopened.distanceUnit, unit)
    }
  }

  @Test("any invalid value is refused, and the file stays byte for byte")
  func invalidValuesRefused() throws {
    let settings = try SettingsStore(contentsOf: url)
    try settings.set(\.sleepGoal, to: 7)
    let before = contents(url)
    let invalid = Gen<Double>.oneOf(
      .double(in: -1e9 ... -0.000_001), .double(in: 24.000_001...1e9),
      .element(of: [.nan, .infinity, -.infinity, 24.5, -1]))
    check(invalid) { value in
      do {
        try settings.set(\.sleepGoal, to: value)
        return false
      } catch is SettingsError {
        settings.sleepGoal = value
        return contents(url) == before && settings.sleepGoal == 7
      }
    }
  }

  @Test("random sets, removes and resets agree with a dictionary, unknown keys included")
  func modelBased() {
    let names = SettingsStore().keys.map(\.name)
    let actions = Gen<SettingsStore.Action>.settingsAction(keys: names).array(maxCount: 15)
    check(actions, iterations: 40) { actions in
      try? FileManager.default.removeItem(at: url)
      let settings = try SettingsStore(contentsOf: url)
      var model = SettingsStore.State.Values()
      for action in actions {
        switch action {
        case .set(let key, let value): model[key] = value
        case .remove(let keys): for key in keys { model[key] = nil }
        case .restore(let changes):
          for change in changes where change.from != change.to && model[change.key] == change.from {
            model[change.key] = change.to
          }
        }
        try settings.trySend(action)
        try requireEqual(settings.state.values, model, "after \(action)")
      }
      try requireEqual(try SettingsStore(contentsOf: url).state.values, model, "after reopening")
    }
  }

  @Test("keys no setting knows survive every typed change")
  func unknownKeysSurvive() {
    let operations = Gen<Int>.integer(in: 0...4).array(maxCount: 10)
    check(operations, iterations: 40) { operations in
      folder.copy(fixture: "settings/unknown-keys.json", as: "settings.json")
      let settings = try SettingsStore(contentsOf: url)
      let unknown = settings.state.values.filter { settings.key(named: $0.key) == nil }
      for operation in operations {
        switch operation {
        case 0: try settings.set(\.sleepGoal, to: 5)
        case 1: try settings.reset()
        case 2: try settings.reset(\.sleepGoal)
        case 3: try settings.set(\.distanceUnit, to: .miles)
        default: settings.isNotificationsEnabled.toggle()
        }
      }
      let after = try SettingsStore(contentsOf: url).state.values
      return unknown.allSatisfy { after[$0.key] == $0.value }
    }
  }
}
