import Foundation
import StoreTesting
import Stores
import Testing

/// The twelve checks Defaults repeats for each kind of value (`testKey`, `testOptionalKey`,
/// `testArrayKey` … `testDictionaryType`), on two different values `a` and `b` of a type.
/// Values are compared through `view`, so a type need not be `Equatable` (Defaults' `Unicorn`
/// is not). Every check reads back from a second store on the file.
@MainActor
struct PortFamily<Element: Codable & Sendable, View: Equatable> {
  let file = PortFile()
  let a: Element
  let b: Element
  let view: (Element) -> View

  /// A key of the element itself, made by the caller (a raw-value enumeration takes another
  /// initialiser than a `Codable` type): its default, then `change` applied, read back.
  func key(_ key: SettingsKey<Element>, change: (inout Element) -> Void) throws {
    let settings = try file.store()
    #expect(view(settings.value(for: key)) == view(key.defaultValue))
    try settings.update(key, change)
    var expected = key.defaultValue
    change(&expected)
    #expect(view(try file.reread(key)) == view(expected))
    #expect(view(expected) != view(key.defaultValue), "the change changes nothing")
  }

  func optionalKey() throws {
    let key = SettingsKey<Element?>("optional", default: nil, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == nil)
    try settings.set(a, for: key)
    #expect(try file.reread(key).map(view) == view(a))
    try settings.set(nil, for: key)
    #expect(try file.reread(key) == nil)
  }

  func arrayKey() throws {
    let key = SettingsKey<[Element]>("array", default: [a], summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key).map(view) == [view(a)])
    try settings.update(key) { $0.append(b) }
    #expect(try file.reread(key).map(view) == [view(a), view(b)])
  }

  func arrayOptionalKey() throws {
    let key = SettingsKey<[Element]?>("arrayOptional", default: nil, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == nil)
    try settings.set([a], for: key)
    try settings.update(key) { $0?.append(b) }
    #expect(try file.reread(key)?.map(view) == [view(a), view(b)])
  }

  func nestedArrayKey() throws {
    let key = SettingsKey<[[Element]]>("nestedArray", default: [[a]], summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key).map { $0.map(view) } == [[view(a)]])
    try settings.update(key) { $0.append([a]) }
    try settings.update(key) { $0[0].append(b) }
    #expect(try file.reread(key).map { $0.map(view) } == [[view(a), view(b)], [view(a)]])
  }

  func arrayDictionaryKey() throws {
    let key = SettingsKey<[[String: Element]]>("arrayDictionary", default: [["0": a]], summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key).map { $0.mapValues(view) } == [["0": view(a)]])
    try settings.update(key) { $0.append(["0": a]) }
    try settings.update(key) { $0[0]["1"] = b }
    #expect(
      try file.reread(key).map { $0.mapValues(view) } == [
        ["0": view(a), "1": view(b)], ["0": view(a)],
      ])
  }

  func dictionaryKey() throws {
    let key = SettingsKey<[String: Element]>("dictionary", default: ["0": a], summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key).mapValues(view) == ["0": view(a)])
    try settings.update(key) { $0["1"] = b }
    #expect(try file.reread(key).mapValues(view) == ["0": view(a), "1": view(b)])
  }

  func dictionaryOptionalKey() throws {
    let key = SettingsKey<[String: Element]?>("dictionaryOptional", default: nil, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == nil)
    try settings.set(["0": a], for: key)
    try settings.update(key) { $0?["1"] = b }
    #expect(try file.reread(key)?.mapValues(view) == ["0": view(a), "1": view(b)])
  }

  func dictionaryArrayKey() throws {
    let key = SettingsKey<[String: [Element]]>("dictionaryArray", default: ["0": [a]], summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key).mapValues { $0.map(view) } == ["0": [view(a)]])
    try settings.update(key) { $0["1"] = [a] }
    try settings.update(key) { $0["0"]?.append(b) }
    #expect(
      try file.reread(key).mapValues { $0.map(view) } == [
        "0": [view(a), view(b)], "1": [view(a)],
      ])
  }

  /// A key of ``SettingsKeys`` holding the element, as a property of the store.
  func type(_ keyPath: KeyPath<SettingsKeys, SettingsKey<Element>>, change: (inout Element) -> Void)
    throws
  {
    let settings = try file.store()
    let before = settings[dynamicMember: keyPath]
    var after = before
    change(&after)
    settings[dynamicMember: keyPath] = after
    #expect(view(try file.store()[dynamicMember: keyPath]) == view(after))
    #expect(view(after) != view(before), "the change changes nothing")
  }

  /// A key of ``SettingsKeys`` holding a list of the element, `[a]` by default.
  func arrayType(_ keyPath: KeyPath<SettingsKeys, SettingsKey<[Element]>>) throws {
    let settings = try file.store()
    #expect(settings[dynamicMember: keyPath].map(view) == [view(a)])
    settings[dynamicMember: keyPath].append(b)
    #expect(try file.store()[dynamicMember: keyPath].map(view) == [view(a), view(b)])
  }

  /// A key of ``SettingsKeys`` holding a dictionary of the element, `["0": a]` by default.
  func dictionaryType(_ keyPath: KeyPath<SettingsKeys, SettingsKey<[String: Element]>>) throws {
    let settings = try file.store()
    #expect(settings[dynamicMember: keyPath].mapValues(view) == ["0": view(a)])
    settings[dynamicMember: keyPath]["1"] = b
    #expect(
      try file.store()[dynamicMember: keyPath].mapValues(view) == ["0": view(a), "1": view(b)])
  }
}

extension PortFamily where Element: Equatable, View == Element {
  init(_ a: Element, _ b: Element) {
    self.init(a: a, b: b) { $0 }
  }
}
