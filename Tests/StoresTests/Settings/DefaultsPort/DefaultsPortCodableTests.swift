import Foundation
import StoreTesting
import Stores
import Testing

/// Defaults' `Unicorn`: `Codable` and nothing else — not `Equatable`, no conformance to the
/// store's protocol.
private struct Unicorn: Codable {
  var isUnicorn: Bool
}

extension SettingsKeys {
  fileprivate var portUnicorn: SettingsKey<Unicorn> {
    SettingsKey("codable", default: Unicorn(isUnicorn: true), summary: "")
  }
  fileprivate var portUnicorns: SettingsKey<[Unicorn]> {
    SettingsKey("codableArray", default: [Unicorn(isUnicorn: true)], summary: "")
  }
  fileprivate var portUnicornsByName: SettingsKey<[String: Unicorn]> {
    SettingsKey("codableDictionary", default: ["0": Unicorn(isUnicorn: true)], summary: "")
  }
}

/// Defaults' `DefaultsCodableTests`: a `Codable` struct, alone and in lists, dictionaries and
/// optionals, stored as the JSON `JSONEncoder` writes.
@MainActor
@Suite("DefaultsPort: Codable values (DefaultsCodableTests)")
struct DefaultsPortCodableTests {
  fileprivate let family = PortFamily(a: Unicorn(isUnicorn: true), b: Unicorn(isUnicorn: false)) {
    $0.isUnicorn
  }

  /// Defaults: DefaultsCodableTests.testKey
  @Test func key() throws {
    let key = SettingsKey<Unicorn>("independentCodableKey", default: family.a, summary: "")
    try family.key(key) { $0.isUnicorn = false }
    #expect(try family.file.stored(key.name) == .object(["isUnicorn": .bool(false)]))
  }

  /// Defaults: DefaultsCodableTests.testOptionalKey
  @Test func optionalKey() throws { try family.optionalKey() }

  /// Defaults: DefaultsCodableTests.testArrayKey
  @Test func arrayKey() throws { try family.arrayKey() }

  /// Defaults: DefaultsCodableTests.testArrayOptionalKey
  @Test func arrayOptionalKey() throws { try family.arrayOptionalKey() }

  /// Defaults: DefaultsCodableTests.testNestedArrayKey
  @Test func nestedArrayKey() throws { try family.nestedArrayKey() }

  /// Defaults: DefaultsCodableTests.testArrayDictionaryKey
  @Test func arrayDictionaryKey() throws { try family.arrayDictionaryKey() }

  /// Defaults: DefaultsCodableTests.testDictionaryKey
  @Test func dictionaryKey() throws { try family.dictionaryKey() }

  /// Defaults: DefaultsCodableTests.testDictionaryOptionalKey
  @Test func dictionaryOptionalKey() throws { try family.dictionaryOptionalKey() }

  /// Defaults: DefaultsCodableTests.testDictionaryArrayKey
  @Test func dictionaryArrayKey() throws { try family.dictionaryArrayKey() }

  /// Defaults: DefaultsCodableTests.testCodableAndRawRepresentable — a type both `Codable`
  /// and `RawRepresentable` is stored as its raw value.
  @Test func codableAndRawRepresentable() throws {
    struct Tagged: Codable, RawRepresentable {
      var rawValue: String
    }
    let key = SettingsKey<Tagged>(
      "codableAndRawRepresentable", default: Tagged(rawValue: "-"), summary: "")
    try family.file.store().set(Tagged(rawValue: "x"), for: key)
    #expect(try family.file.stored(key.name) == .string("x"))
    #expect(try family.file.reread(key).rawValue == "x")
  }

  /// Defaults: DefaultsCodableTests.testType
  @Test func type() throws { try family.type(\.portUnicorn) { $0.isUnicorn.toggle() } }

  /// Defaults: DefaultsCodableTests.testArrayType
  @Test func arrayType() throws { try family.arrayType(\.portUnicorns) }

  /// Defaults: DefaultsCodableTests.testDictionaryType
  @Test func dictionaryType() throws { try family.dictionaryType(\.portUnicornsByName) }
}
