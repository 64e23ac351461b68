import Foundation
import StoreTesting
import Stores
import Testing

/// Defaults' `FixtureCodableEnum`: raw values and `Codable`, as an app declares it.
private enum Interval: String, Hashable, Codable {
  case tenMinutes = "10 Minutes"
  case halfHour = "30 Minutes"
  case oneHour = "1 Hour"
}

extension SettingsKeys {
  fileprivate var portInterval: SettingsKey<Interval> {
    SettingsKey("codable_enum", default: .oneHour, summary: "")
  }
  fileprivate var portIntervals: SettingsKey<[Interval]> {
    SettingsKey("codable_enum_array", default: [.oneHour], summary: "")
  }
  fileprivate var portIntervalsByName: SettingsKey<[String: Interval]> {
    SettingsKey("codable_enum_dictionary", default: ["0": .oneHour], summary: "")
  }
}

/// Defaults' `DefaultsCodableEnumTests`: a `Codable` enumeration with raw values, stored as
/// its raw value, alone and in lists, dictionaries and optionals.
@MainActor
@Suite("DefaultsPort: Codable enumerations (DefaultsCodableEnumTests)")
struct DefaultsPortCodableEnumTests {
  fileprivate let family = PortFamily(Interval.oneHour, Interval.halfHour)

  /// Defaults: DefaultsCodableEnumTests.testKey
  @Test func key() throws {
    let key = SettingsKey<Interval>("independentCodableEnumKey", default: .tenMinutes, summary: "")
    try family.key(key) { $0 = .halfHour }
    #expect(try family.file.stored(key.name) == .string("30 Minutes"))
  }

  /// Defaults: DefaultsCodableEnumTests.testOptionalKey
  @Test func optionalKey() throws { try family.optionalKey() }

  /// Defaults: DefaultsCodableEnumTests.testArrayKey
  @Test func arrayKey() throws {
    try family.arrayKey()
    #expect(try family.file.stored("array") == .array([.string("1 Hour"), .string("30 Minutes")]))
  }

  /// Defaults: DefaultsCodableEnumTests.testArrayOptionalKey
  @Test func arrayOptionalKey() throws { try family.arrayOptionalKey() }

  /// Defaults: DefaultsCodableEnumTests.testNestedArrayKey
  @Test func nestedArrayKey() throws { try family.nestedArrayKey() }

  /// Defaults: DefaultsCodableEnumTests.testArrayDictionaryKey
  @Test func arrayDictionaryKey() throws { try family.arrayDictionaryKey() }

  /// Defaults: DefaultsCodableEnumTests.testDictionaryKey
  @Test func dictionaryKey() throws { try family.dictionaryKey() }

  /// Defaults: DefaultsCodableEnumTests.testDictionaryOptionalKey
  @Test func dictionaryOptionalKey() throws { try family.dictionaryOptionalKey() }

  /// Defaults: DefaultsCodableEnumTests.testDictionaryArrayKey
  @Test func dictionaryArrayKey() throws { try family.dictionaryArrayKey() }

  /// Defaults: DefaultsCodableEnumTests.testType
  @Test func type() throws { try family.type(\.portInterval) { $0 = .tenMinutes } }

  /// Defaults: DefaultsCodableEnumTests.testArrayType
  @Test func arrayType() throws { try family.arrayType(\.portIntervals) }

  /// Defaults: DefaultsCodableEnumTests.testDictionaryType
  @Test func dictionaryType() throws { try family.dictionaryType(\.portIntervalsByName) }

  /// Defaults: DefaultsCodableEnumTests.testFixtureCodableEnumPreferRawRepresentable — an
  /// `Int` enumeration that is also `Codable` is stored as its raw number, and its cases are
  /// the values it allows.
  @Test func codableEnumStoredAsRawValue() throws {
    enum Minutes: Int, Codable, CaseIterable {
      case ten = 10
      case thirty = 30
      case sixty = 60
    }
    let key = SettingsKey<Minutes>("preferRawRepresentable", default: .ten, summary: "")
    try family.file.store().set(.sixty, for: key)
    #expect(try family.file.stored(key.name) == .number(60))
    #expect(key.allowedValues == .oneOf([.number(10), .number(30), .number(60)]))
  }
}
