import Foundation
import StoreTesting
import Stores
import Testing

/// Defaults' `Bag`: a collection of the app's own, `Codable` as its stored list of items.
private struct Bag<Element: Codable & Equatable & Sendable>: Collection, Codable, Equatable {
  var items: [Element]
  var startIndex: Int { items.startIndex }
  var endIndex: Int { items.endIndex }
  func index(after index: Int) -> Int { items.index(after: index) }
  subscript(position: Int) -> Element { items[position] }
  mutating func insert(element: Element, at index: Int) { items.insert(element, at: index) }
}

/// Defaults' `Item` of `DefaultsCollectionCustomElementTests`: a plain `Codable` struct where
/// Defaults needs a custom bridge.
private struct Item: Codable, Equatable {
  let name: String
  let count: UInt
}

private let fruit = Bag(items: ["Juice", "Apple", "Banana"])
private let drinks = Bag(items: ["Water", "Tea"])
private let items = Bag(items: [Item(name: "Apple", count: 10), Item(name: "Banana", count: 20)])
private let moreItems = Bag(items: [Item(name: "Grape", count: 30)])

extension SettingsKeys {
  fileprivate var portBag: SettingsKey<Bag<String>> {
    SettingsKey("collection", default: fruit, summary: "")
  }
  fileprivate var portBags: SettingsKey<[Bag<String>]> {
    SettingsKey("collectionArray", default: [fruit], summary: "")
  }
  fileprivate var portBagsByName: SettingsKey<[String: Bag<String>]> {
    SettingsKey("collectionDictionary", default: ["0": fruit], summary: "")
  }
  fileprivate var portItemBag: SettingsKey<Bag<Item>> {
    SettingsKey("collectionCustomElement", default: items, summary: "")
  }
  fileprivate var portItemBags: SettingsKey<[Bag<Item>]> {
    SettingsKey("collectionCustomElementArray", default: [items], summary: "")
  }
  fileprivate var portItemBagsByName: SettingsKey<[String: Bag<Item>]> {
    SettingsKey("collectionCustomElementDictionary", default: ["0": items], summary: "")
  }
}

/// Defaults' `DefaultsCollectionTests`: a collection type of the app's own.
@MainActor
@Suite("DefaultsPort: collections (DefaultsCollectionTests)")
struct DefaultsPortCollectionTests {
  fileprivate let family = PortFamily(fruit, drinks)

  /// Defaults: DefaultsCollectionTests.testKey
  @Test func key() throws {
    let key = SettingsKey<Bag<String>>("independentCollectionKey", default: fruit, summary: "")
    try family.key(key) { $0.insert(element: "123", at: 0) }
    #expect(try family.file.reread(key).first == "123")
  }

  /// Defaults: DefaultsCollectionTests.testOptionalKey
  @Test func optionalKey() throws { try family.optionalKey() }

  /// Defaults: DefaultsCollectionTests.testArrayKey
  @Test func arrayKey() throws { try family.arrayKey() }

  /// Defaults: DefaultsCollectionTests.testArrayOptionalKey
  @Test func arrayOptionalKey() throws { try family.arrayOptionalKey() }

  /// Defaults: DefaultsCollectionTests.testNestedArrayKey
  @Test func nestedArrayKey() throws { try family.nestedArrayKey() }

  /// Defaults: DefaultsCollectionTests.testArrayDictionaryKey
  @Test func arrayDictionaryKey() throws { try family.arrayDictionaryKey() }

  /// Defaults: DefaultsCollectionTests.testDictionaryKey
  @Test func dictionaryKey() throws { try family.dictionaryKey() }

  /// Defaults: DefaultsCollectionTests.testDictionaryOptionalKey
  @Test func dictionaryOptionalKey() throws { try family.dictionaryOptionalKey() }

  /// Defaults: DefaultsCollectionTests.testDictionaryArrayKey
  @Test func dictionaryArrayKey() throws { try family.dictionaryArrayKey() }

  /// Defaults: DefaultsCollectionTests.testType
  @Test func type() throws {
    try family.type(\.portBag) { $0.insert(element: "123", at: 0) }
  }

  /// Defaults: DefaultsCollectionTests.testArrayType
  @Test func arrayType() throws { try family.arrayType(\.portBags) }

  /// Defaults: DefaultsCollectionTests.testDictionaryType
  @Test func dictionaryType() throws { try family.dictionaryType(\.portBagsByName) }
}

/// Defaults' `DefaultsCollectionCustomElementTests`: a collection of the app's own holding a
/// struct of the app's own.
@MainActor
@Suite("DefaultsPort: collections of structs (DefaultsCollectionCustomElementTests)")
struct DefaultsPortCollectionCustomElementTests {
  fileprivate let family = PortFamily(items, moreItems)

  /// Defaults: DefaultsCollectionCustomElementTests.testKey
  @Test func key() throws {
    let key = SettingsKey<Bag<Item>>("independentCustomElementKey", default: items, summary: "")
    try family.key(key) { $0.insert(element: Item(name: "Grape", count: 30), at: 0) }
    #expect(try family.file.reread(key).first?.count == 30)
  }

  /// Defaults: DefaultsCollectionCustomElementTests.testOptionalKey
  @Test func optionalKey() throws { try family.optionalKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testArrayKey
  @Test func arrayKey() throws { try family.arrayKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testArrayOptionalKey
  @Test func arrayOptionalKey() throws { try family.arrayOptionalKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testNestedArrayKey
  @Test func nestedArrayKey() throws { try family.nestedArrayKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testArrayDictionaryKey
  @Test func arrayDictionaryKey() throws { try family.arrayDictionaryKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testDictionaryKey
  @Test func dictionaryKey() throws { try family.dictionaryKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testDictionaryOptionalKey
  @Test func dictionaryOptionalKey() throws { try family.dictionaryOptionalKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testDictionaryArrayKey
  @Test func dictionaryArrayKey() throws { try family.dictionaryArrayKey() }

  /// Defaults: DefaultsCollectionCustomElementTests.testType
  @Test func type() throws {
    try family.type(\.portItemBag) { $0.insert(element: Item(name: "Grape", count: 30), at: 0) }
  }

  /// Defaults: DefaultsCollectionCustomElementTests.testArrayType
  @Test func arrayType() throws { try family.arrayType(\.portItemBags) }

  /// Defaults: DefaultsCollectionCustomElementTests.testDictionaryType
  @Test func dictionaryType() throws { try family.dictionaryType(\.portItemBagsByName) }
}
