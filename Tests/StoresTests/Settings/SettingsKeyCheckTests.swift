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
