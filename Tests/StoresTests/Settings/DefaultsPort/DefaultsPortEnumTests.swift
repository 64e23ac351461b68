import Foundation
import StoreTesting
import Stores
import Testing

/// Defaults' `FixtureEnum`: raw values only — not `Codable`, no conformance to the store's
/// protocol.
private enum Interval: String {
  case tenMinutes = "10 Minutes"
  case halfHour = "30 Minutes"
  case oneHour = "1 Hour"
}

extension SettingsKeys {
  fileprivate var portRawInterval: SettingsKey<Interval> {
    SettingsKey("enum", default: .tenMinutes, summary: "")
  }
}

/// Defaults' `DefaultsEnumTests`: an enumeration with raw values, stored as its raw value. Its
/// tests of lists, dictionaries and optionals of the enumeration are those of
/// `DefaultsCodableEnumTests` (ported beside this): inside another value, an enumeration that
/// is only `RawRepresentable` needs `Codable` here (see the Settings article).
@MainActor
@Suite("DefaultsPort: enumerations with raw values (DefaultsEnumTests)")
struct DefaultsPortEnumTests {
  let file = PortFile()

  /// Defaults: DefaultsEnumTests.testKey
  @Test func key() throws {
    let key = SettingsKey<Interval>("independentEnumKey", default: .tenMinutes, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == .tenMinutes)
    try settings.set(.halfHour, for: key)
    #expect(try file.reread(key) == .halfHour)
    #expect(try file.stored(key.name) == .string("30 Minutes"))
  }

  /// Defaults: DefaultsEnumTests.testType
  @Test func type() throws {
    let settings = try file.store()
    #expect(settings.portRawInterval == .tenMinutes)
    settings.portRawInterval = .oneHour
    #expect(try file.store().portRawInterval == .oneHour)
    #expect(try file.stored("enum") == .string("1 Hour"))
  }

  /// Beyond Defaults' tests: a raw value that is no case reads as the default (Defaults'
  /// bridge gives `nil`, then the default).
  @Test func unknownRawValueReadsAsDefault() {
    let key = SettingsKey<Interval>("enumByHand", default: .tenMinutes, summary: "")
    let settings = SettingsStore(values: [key.name: .string("2 Hours")])
    #expect(settings.value(for: key) == .tenMinutes)
    let settingsWithCase = SettingsStore(values: [key.name: .string("1 Hour")])
    #expect(settingsWithCase.value(for: key) == .oneHour)
  }
}
