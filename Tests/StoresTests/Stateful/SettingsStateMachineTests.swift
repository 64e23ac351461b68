import Foundation
import StoreTesting
import Stores
import Testing

/// Settings on a file, changed through the store's own API — property setters that refuse
/// invalid values, resets — against a plain model of what is set; a store opened on the file
/// after every step sees the same settings.
@MainActor
struct SettingsMachine: StateMachine {
  enum Command: Equatable {
    case setSleepGoal(Double)
    case setNotifications(Bool)
    case setDistanceUnit(DistanceUnit)
    case resetSleepGoal
    case reset
    case reopen
  }

  let folder = TemporaryFolder()
  var store: SettingsStore
  /// The settings set explicitly; `nil` reads as the default.
  var sleepGoal: Double?
  var isNotificationsEnabled: Bool?
  var distanceUnit: DistanceUnit?

  var url: URL { folder.file("settings.json") }

  init() throws {
    store = try SettingsStore(contentsOf: folder.file("settings.json"))
  }

  var rules: [Rule<Command>] {
    [
      Rule(
        "set the sleep goal, in range or not",
        Gen<Double>.double(in: -2...26).map { .setSleepGoal($0) }),
      Rule("set notifications", Gen<Bool>.bool.map { .setNotifications($0) }),
      Rule(
        "set the distance unit",
        Gen<DistanceUnit>.element(of: DistanceUnit.allCases).map { .setDistanceUnit($0) }),
      Rule("reset the sleep goal", when: sleepGoal != nil, .constant(.resetSleepGoal)),
      Rule("reset everything", .constant(.reset)),
      Rule("reopen the store", .constant(.reopen)),
    ]
  }

  mutating func perform(_ command: Command) throws {
    switch command {
    case .setSleepGoal(let hours):
      store.sleepGoal = hours
      if (0...24).contains(hours) {
        sleepGoal = hours
      } else {
        try require(store.core.lastError is SettingsError, "an invalid sleep goal is refused")
      }
    case .setNotifications(let isEnabled):
      store.isNotificationsEnabled = isEnabled
      isNotificationsEnabled = isEnabled
    case .setDistanceUnit(let unit):
      store.distanceUnit = unit
      distanceUnit = unit
    case .resetSleepGoal:
      try store.reset(\.sleepGoal)
      sleepGoal = nil
    case .reset:
      try store.reset()
      (sleepGoal, isNotificationsEnabled, distanceUnit) = (nil, nil, nil)
    case .reopen:
      store = try SettingsStore(contentsOf: url)
    }
  }

  func checkInvariants() throws {
    for settings in [store, try SettingsStore(contentsOf: url)] {
      try requireEqual(settings.sleepGoal, sleepGoal ?? 8, "the sleep goal")
      try requireEqual(
        settings.isNotificationsEnabled, isNotificationsEnabled ?? true, "notifications")
      try requireEqual(settings.distanceUnit, distanceUnit ?? .kilometers, "the distance unit")
      try requireEqual(
        Set(settings.state.values.keys),
        Set(
          [
            sleepGoal.map { _ in "sleepGoal" },
            isNotificationsEnabled.map { _ in "isNotificationsEnabled" },
            distanceUnit.map { _ in "distanceUnit" },
          ].compactMap { $0 }), "only settings set explicitly are written")
    }
  }
}

@MainActor
@Suite("SettingsStore, stateful")
struct SettingsStateMachineTests {
  @Test("settings changed through the API are kept, refused or reset as the model says, on file")
  func agreesWithTheModel() async {
    await check(SettingsMachine.self, steps: 20, iterations: 50)
  }
}
