import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Keys whose defaults are computed: another value at each evaluation.
extension SettingsKeys {
  var installID: SettingsKey<UUID> {
    SettingsKey("installID", default: UUID(), summary: "This installation")
  }
  var firstLaunch: SettingsKey<Date> {
    SettingsKey("firstLaunch", default: Date(), summary: "The first launch")
  }
}

/// A key's default is computed once, and keys whose names collide are refused when they
/// meet in a store.
@MainActor
@Suite("Settings keys checked when they meet")
struct SettingsKeyCheckTests {
  let folder = TemporaryFolder()
  var url: URL { folder.file("settings.json") }

  @Test("a computed default reads the same in the store, its entries and the catalog")
  func defaultComputedOnce() throws {
    let settings = try SettingsStore(
      contentsOf: url, keys: [.key(\.installID), .key(\.firstLaunch)])
    let id = settings.installID
    #expect(settings.installID == id)
    #expect(settings.value(for: SettingsKeys.declared(\.installID)) == id)
    #expect(SettingsKeys.declared(\.installID).defaultValue == id)
    #expect(AnySettingsKey.key(\.installID).defaultValue == id.json)
    #expect(settings.entries.first { $0.key.name == "installID" }?.value == id.json)
    #expect(settings.firstLaunch == settings.firstLaunch)

    settings.sleepGoal = 7  // the first write records the catalog
    let catalog = SettingsCatalog.read(besideSettingsAt: url)
    #expect(catalog.keys.first { $0.name == "installID" }?.defaultValue == id.json)
    try settings.reset()
    #expect(settings.installID == id, "reset reads the same default")
    let other = SettingsStore(keys: [.key(\.installID)])
    #expect(other.installID == id, "another store of the process, the same default")
  }
}

/// Keys whose names collide: each is a programmer error when registered.
@MainActor
@Suite("Settings keys of one name")
struct SettingsKeyCollisionTests {
  let volume = AnySettingsKey(
    SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Volume"))

  @Test("a key named as a built-in setting is refused, naming both")
  func builtInName() throws {
    let key = AnySettingsKey(SettingsKey<String>("sleepGoal", default: "", summary: "Goal"))
    let problems = SettingsStore.problems(registering: [key], with: [])
    #expect(
      problems == [
        #"settings key "sleepGoal" of type Swift.String (default "") takes the name of the "#
          + "built-in setting of type Swift.Double (default 8, 0...24): rename the app's key"
      ])
    let sameType = AnySettingsKey(
      SettingsKey<Double>("sleepGoal", default: 7, summary: "Hours of sleep"))
    #expect(SettingsStore.problems(registering: [sameType], with: []).count == 1)
  }

  @Test("two keys of one name and another type, default or range are refused, naming both")
  func sameName() throws {
    let loud = AnySettingsKey(SettingsKey<String>("volume", default: "loud", summary: "Volume"))
    #expect(
      SettingsStore.problems(registering: [volume, loud], with: []) == [
        #"settings key "volume" is declared twice, of type Swift.Int (default 5, 0...10) and "#
          + #"of type Swift.String (default "loud"): rename one of the keys, or declare it once"#
      ])
    #expect(SettingsStore.problems(registering: [loud], with: [volume]).count == 1)
    let quieter = AnySettingsKey(
      SettingsKey<Int>("volume", default: 3, in: 0...10, summary: "Volume"))
    let wider = AnySettingsKey(
      SettingsKey<Int>("volume", default: 5, in: 0...11, summary: "Volume"))
    let optional = AnySettingsKey(SettingsKey<Int?>("volume", default: 5, summary: "Volume"))
    for other in [quieter, wider, optional] {
      #expect(SettingsStore.problems(registering: [other], with: [volume]).count == 1)
    }
  }

  @Test("the same key again, or a built-in one, is registered once")
  func sameKeyAgain() throws {
    let again = AnySettingsKey(
      SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Speaker volume"))
    let builtIn = AnySettingsKey.key(\.sleepGoal)
    #expect(SettingsStore.problems(registering: [volume, again, builtIn], with: [volume]) == [])
    let settings = SettingsStore(keys: [volume, again])
    settings.register(volume)
    settings.register(builtIn)
    #expect(settings.appKeys.map(\.name) == ["volume"])
    #expect(settings.keys.count == SettingsKeys.builtIn.count + 1)
  }

  @Test("registering a key that collides stops the process with the message")
  func stops() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      await MainActor.run {
        let key = SettingsKey<String>("sleepGoal", default: "", summary: "")
        SettingsStore().register(AnySettingsKey(key))
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("takes the name of the built-in setting"), "\(message)")
  }
}
