import Foundation
import StoreTesting
import Stores
import Testing

/// Defaults' `DefaultsSetAlgebra`: a set type of the app's own, `Codable` as its stored set.
private struct Flags<Element: Hashable & Codable & Sendable>: SetAlgebra, Codable, Equatable {
  var store: Set<Element> = []
  init() {}
  init(_ store: Set<Element>) { self.store = store }
  func contains(_ member: Element) -> Bool { store.contains(member) }
  func union(_ other: Self) -> Self { Self(store.union(other.store)) }
  func intersection(_ other: Self) -> Self { Self(store.intersection(other.store)) }
  func symmetricDifference(_ other: Self) -> Self { Self(store.symmetricDifference(other.store)) }
  @discardableResult
  mutating func insert(_ member: Element) -> (inserted: Bool, memberAfterInsert: Element) {
    store.insert(member)
  }
  mutating func remove(_ member: Element) -> Element? { store.remove(member) }
  mutating func update(with member: Element) -> Element? { store.update(with: member) }
  mutating func formUnion(_ other: Self) { store.formUnion(other.store) }
  mutating func formIntersection(_ other: Self) { store.formIntersection(other.store) }
  mutating func formSymmetricDifference(_ other: Self) {
    store.formSymmetricDifference(other.store)
  }
}

/// Defaults' `Item` of `DefaultsSetAlgebraCustomElementTests`: a `Hashable`, `Codable` struct.
private struct Item: Hashable, Codable {
  let name: String
  let count: UInt
}

private let numbers = Flags<Int>([0, 1])
private let otherNumbers = Flags<Int>([2])
private let items = Flags([Item(name: "Apple", count: 10), Item(name: "Banana", count: 20)])
private let otherItems = Flags([Item(name: "Grape", count: 30)])

extension SettingsKeys {
  fileprivate var portFlags: SettingsKey<Flags<Int>> {
    SettingsKey("setAlgebra", default: numbers, summary: "")
  }
  fileprivate var portFlagss: SettingsKey<[Flags<Int>]> {
    SettingsKey("setAlgebraArray", default: [numbers], summary: "")
  }
  fileprivate var portFlagssByName: SettingsKey<[String: Flags<Int>]> {
    SettingsKey("setAlgebraDictionary", default: ["0": numbers], summary: "")
  }
  fileprivate var portItemFlags: SettingsKey<Flags<Item>> {
    SettingsKey("setAlgebraCustomElement", default: items, summary: "")
  }
  fileprivate var portItemFlagss: SettingsKey<[Flags<Item>]> {
    SettingsKey("setAlgebraCustomElementArray", default: [items], summary: "")
  }
  fileprivate var portItemFlagssByName: SettingsKey<[String: Flags<Item>]> {
    SettingsKey("setAlgebraCustomElementDictionary", default: ["0": items], summary: "")
  }
}

/// Defaults' `DefaultsSetAlgebraTests`.
@MainActor
@Suite("DefaultsPort: set algebras (DefaultsSetAlgebraTests)")
struct DefaultsPortSetAlgebraTests {
  fileprivate let family = PortFamily(numbers, otherNumbers)

  /// Defaults: DefaultsSetAlgebraTests.testKey
  @Test func key() throws {
    let key = SettingsKey<Flags<Int>>(
      "independentDefaultsPortSetAlgebraTestsKey", default: numbers, summary: "")
    try family.key(key) { $0.insert(2) }
  }

  /// Defaults: DefaultsSetAlgebraTests.testOptionalKey
  @Test func optionalKey() throws { try family.optionalKey() }

  /// Defaults: DefaultsSetAlgebraTests.testArrayKey
  @Test func arrayKey() throws { try family.arrayKey() }

  /// Defaults: DefaultsSetAlgebraTests.testArrayOptionalKey
  @Test func arrayOptionalKey() throws { try family.arrayOptionalKey() }

  /// Defaults: DefaultsSetAlgebraTests.testNestedArrayKey
  @Test func nestedArrayKey() throws { try family.nestedArrayKey() }

  /// Defaults: DefaultsSetAlgebraTests.testArrayDictionaryKey
  @Test func arrayDictionaryKey() throws { try family.arrayDictionaryKey() }

  /// Defaults: DefaultsSetAlgebraTests.testDictionaryKey
  @Test func dictionaryKey() throws { try family.dictionaryKey() }

  /// Defaults: DefaultsSetAlgebraTests.testDictionaryOptionalKey
  @Test func dictionaryOptionalKey() throws { try family.dictionaryOptionalKey() }

  /// Defaults: DefaultsSetAlgebraTests.testDictionaryArrayKey
  @Test func dictionaryArrayKey() throws { try family.dictionaryArrayKey() }

  /// Defaults: DefaultsSetAlgebraTests.testType
  @Test func type() throws { try family.type(\.portFlags) { $0.insert(2) } }

  /// Defaults: DefaultsSetAlgebraTests.testArrayType
  @Test func arrayType() throws { try family.arrayType(\.portFlagss) }

  /// Defaults: DefaultsSetAlgebraTests.testDictionaryType
  @Test func dictionaryType() throws { try family.dictionaryType(\.portFlagssByName) }

}

/// Defaults' `DefaultsSetAlgebraCustomElementTests`.
@MainActor
@Suite("DefaultsPort: set algebras of structs (DefaultsSetAlgebraCustomElementTests)")
struct DefaultsPortSetAlgebraCustomElementTests {
  fileprivate let family = PortFamily(items, otherItems)

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testKey
  @Test func key() throws {
    let key = SettingsKey<Flags<Item>>(
      "independentDefaultsPortSetAlgebraCustomElementTestsKey", default: items, summary: "")
    try family.key(key) { $0.insert(Item(name: "Grape", count: 30)) }
  }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testOptionalKey
  @Test func optionalKey() throws { try family.optionalKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testArrayKey
  @Test func arrayKey() throws { try family.arrayKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testArrayOptionalKey
  @Test func arrayOptionalKey() throws { try family.arrayOptionalKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testNestedArrayKey
  @Test func nestedArrayKey() throws { try family.nestedArrayKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testArrayDictionaryKey
  @Test func arrayDictionaryKey() throws { try family.arrayDictionaryKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testDictionaryKey
  @Test func dictionaryKey() throws { try family.dictionaryKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testDictionaryOptionalKey
  @Test func dictionaryOptionalKey() throws { try family.dictionaryOptionalKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testDictionaryArrayKey
  @Test func dictionaryArrayKey() throws { try family.dictionaryArrayKey() }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testType
  @Test func type() throws {
    try family.type(\.portItemFlags) { $0.insert(Item(name: "Grape", count: 30)) }
  }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testArrayType
  @Test func arrayType() throws { try family.arrayType(\.portItemFlagss) }

  /// Defaults: DefaultsSetAlgebraCustomElementTests.testDictionaryType
  @Test func dictionaryType() throws { try family.dictionaryType(\.portItemFlagssByName) }

}
