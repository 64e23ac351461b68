import Foundation
import Observation
import StoreTesting
import Stores
import Testing

/// Settings are observed key by key, as `@AppStorage` and Defaults' `@Default` are: a tracker
/// of one setting hears of that setting's changes — here, through a reload, from another
/// process — and of no other; `updates(of:)` streams one setting's values.
@MainActor
@Suite("Settings, observed per key")
struct SettingsObservationTests {
  let folder = TemporaryFolder()

  /// Tracks what `read` reads, once; returns a flag that turns true when it is told of a
  /// change.
  func tracking(_ read: @escaping () -> Void) -> Flag {
    let flag = Flag()
    withObservationTracking(read) { flag.set() }
    return flag
  }

  @Test("a tracker of one setting is told of its changes, not of another setting's")
  func perKey() throws {
    let settings = try SettingsStore(contentsOf: folder.file("settings.json"))
    let goal = tracking { _ = settings.sleepGoal }
    let unit = tracking { _ = settings.distanceUnit }
    settings.distanceUnit = .miles
    #expect(unit.isSet)
    #expect(!goal.isSet, "told of distanceUnit")
    settings.sleepGoal = 6
    #expect(goal.isSet)

    let again = tracking { _ = settings.sleepGoal }
    settings.distanceUnit = .kilometers
    settings.isNotificationsEnabled = false
    settings.sleepGoal = 6  // the same value: no change
    #expect(!again.isSet)
  }

  @Test("a reload tells exactly the keys another store on the file changed")
  func reload() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    let goal = tracking { _ = settings.sleepGoal }
    let unit = tracking { _ = settings.distanceUnit }
    try SettingsStore(contentsOf: url).set(\.distanceUnit, to: .miles)
    try settings.refresh()
    #expect(unit.isSet)
    #expect(!goal.isSet)
    #expect(settings.distanceUnit == .miles)
  }

  @Test("another process, through watch(): only the trackers of the keys it changed")
  func otherProcess() async throws {
    let settings = try SettingsStore(contentsOf: folder.file("settings.json"))
    try settings.watch()
    let goal = tracking { _ = settings.sleepGoal }
    let unit = tracking { _ = settings.distanceUnit }
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = [
      "-c",
      #"printf '{"values": {"sleepGoal": 6.5}, "version": 1}' > "$0.new" && mv "$0.new" "$0""#,
      folder.file("settings.json").path,
    ]
    try writer.run()
    writer.waitUntilExit()
    #expect(await eventually { goal.isSet })
    #expect(settings.sleepGoal == 6.5)
    #expect(!unit.isSet)
  }

  @Test("a reset tells exactly the keys whose values it removed")
  func reset() throws {
    let settings = SettingsStore(values: ["sleepGoal": .number(6), "theme": .string("dark")])
    let goal = tracking { _ = settings.sleepGoal }
    let unit = tracking { _ = settings.distanceUnit }
    try settings.reset()
    #expect(goal.isSet)
    #expect(!unit.isSet, "distanceUnit was not set, so resetting it changed nothing")
    #expect(settings.state.values == ["theme": .string("dark")], "keys of others stay")
  }

  @Test("updates(of:) gives the current value, then each new one, and ends with the store")
  func updates() async throws {
    var settings: SettingsStore? = try SettingsStore(contentsOf: folder.file("settings.json"))
    let stream = try #require(settings).updates(of: \.sleepGoal)
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next() == 8)
    settings?.sleepGoal = 7
    settings?.distanceUnit = .miles
    settings?.sleepGoal = 7
    try SettingsStore(contentsOf: folder.file("settings.json")).set(\.sleepGoal, to: 5)
    try settings?.refresh()
    #expect(await iterator.next() == 7)
    #expect(await iterator.next() == 5, "from the file, and no repeat of 7 for distanceUnit")
    settings = nil
    #expect(await iterator.next() == nil, "finished with the store")
  }

  @Test("a key that is no property of SettingsKeys is observed and streamed on its own")
  func anyKey() async throws {
    let volume = SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Volume")
    let theme = SettingsKey<String>("theme", default: "light", summary: "Theme")
    let file = try SettingsStore(
      contentsOf: folder.file("keys.json"), keys: [AnySettingsKey(volume), AnySettingsKey(theme)])
    let tracked = tracking { _ = file.value(for: volume) }
    try file.set("dark", for: theme)
    #expect(!tracked.isSet)
    try file.set(7, for: volume)
    #expect(tracked.isSet)
    var values = file.updates(of: theme).makeAsyncIterator()
    #expect(await values.next() == "dark")
    try file.set("blue", for: theme)
    #expect(await values.next() == "blue")
  }
}
