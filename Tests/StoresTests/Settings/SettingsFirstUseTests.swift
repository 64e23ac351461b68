import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Keys declared once, in an extension, and never listed.
extension SettingsKeys {
  var accent: SettingsKey<String> {
    SettingsKey("accent", default: "blue", summary: "The accent colour")
  }
  var fontSize: SettingsKey<Int> {
    SettingsKey("fontSize", default: 12, in: 8...32, summary: "Size")
  }
  /// Named as a built-in setting: a programmer error, found at its first use.
  var clashingGoal: SettingsKey<String> {
    SettingsKey("sleepGoal", default: "", summary: "Clashes with the built-in key")
  }
}

/// One declaration per key: a key declared in an extension of `SettingsKeys` is registered
/// with a store at its first use there — in its keys, entries, reset and the key catalog —
/// without a list.
@MainActor
@Suite("Settings keys registered at their first use")
struct SettingsFirstUseTests {
  let folder = TemporaryFolder()
  var url: URL { folder.file("settings.json") }

  @Test("a key read through its key path joins keys, entries, reset and the catalog")
  func readThroughKeyPath() throws {
    let settings = try SettingsStore(contentsOf: url)
    #expect(!settings.keys.contains { $0.name == "accent" })
    #expect(settings.accent == "blue")
    #expect(settings.appKeys.map(\.name) == ["accent"])
    #expect(settings.entries.last?.key.name == "accent")
    #expect(SettingsCatalog.read(besideSettingsAt: url).keys.map(\.name) == ["accent"])
    settings.accent = "green"
    #expect(try SettingsStore(contentsOf: url).state.values["accent"] == .string("green"))
    try settings.reset()
    #expect(settings.accent == "blue" && settings.state.values["accent"] == nil)
    // Used again, or through another entry point: registered once.
    _ = settings.accent
    try settings.set(\.accent, to: "red")
    #expect(settings.appKeys.map(\.name) == ["accent"])
  }

  @Test("a key first set, reset or observed through its key path is registered too")
  func otherEntryPoints() throws {
    let settings = try SettingsStore(contentsOf: url)
    try settings.set(\.fontSize, to: 14)
    #expect(settings.appKeys.map(\.name) == ["fontSize"])
    #expect(throws: SettingsError.self) { try settings.set(\.fontSize, to: 40) }
    let observing = SettingsStore()
    let token = observing.onChange(of: \.accent) { _ in }
    #expect(observing.appKeys.map(\.name) == ["accent"])
    token.cancel()
    let resetting = SettingsStore()
    try resetting.reset(\.fontSize)
    #expect(resetting.appKeys.map(\.name) == ["fontSize"])
  }

  @Test("a key used as a value, not a key path, is registered by its name")
  func usedAsValue() throws {
    let settings = try SettingsStore(contentsOf: url)
    let key = SettingsKey<Bool>("compact", default: false, summary: "Compact rows")
    #expect(settings.value(for: key) == false)
    #expect(settings.keys.contains { $0.name == "compact" })
    #expect(SettingsCatalog.read(besideSettingsAt: url).keys.map(\.name) == ["compact"])
  }

  @Test("reading a built-in key registers nothing and writes no catalog")
  func builtInKeys() throws {
    let settings = try SettingsStore(contentsOf: url)
    _ = settings.sleepGoal
    settings.sleepGoal = 7
    #expect(settings.appKeys.isEmpty)
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.file(SettingsCatalog.fileName(forSettingsFile: "settings.json")).path))
  }

  @Test("a key named as a built-in one stops the process at its first use, naming both")
  func clashAtFirstUse() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      await MainActor.run { _ = SettingsStore().clashingGoal }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("takes the name of the built-in setting"), "\(message)")
  }
}
