import Foundation
import StoreTesting
import Stores
import Testing

extension SettingsKeys {
  fileprivate var portStrings: SettingsKey<[String]> {
    SettingsKey("array", default: ["Hank", "Chen"], summary: "")
  }
  fileprivate var portNumberSet: SettingsKey<Set<Int>> {
    SettingsKey("set", default: [0, 1], summary: "")
  }
  fileprivate var portCounts: SettingsKey<[String: Int]> {
    SettingsKey("dictionary", default: ["0": 1], summary: "")
  }
}

/// Defaults' `DefaultsArrayTests`, `DefaultsSetTests`, `DefaultsDictionaryTests` and
/// `DefaultsRangeTests`: lists, sets, dictionaries and ranges of the package's value types.
@MainActor
@Suite("DefaultsPort: arrays, sets, dictionaries, ranges")
struct DefaultsPortValueKindsTests {
  let file = PortFile()

  /// Defaults: DefaultsArrayTests.testKey
  @Test func arrayKey() throws {
    let key = SettingsKey<[String]>(
      "independentArrayStringKey", default: ["Hank", "Chen"], summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == ["Hank", "Chen"])
    try settings.update(key) { $0[0] = "Sindre" }
    #expect(try file.reread(key) == ["Sindre", "Chen"])
  }

  /// Defaults: DefaultsArrayTests.testOptionalKey
  @Test func optionalArrayKey() throws {
    let key = SettingsKey<[String]?>("independentArrayOptionalStringKey", default: nil, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == nil)
    try settings.set(["Hank", "Chen"], for: key)
    try settings.update(key) { $0?[0] = "Sindre" }
    #expect(try file.reread(key) == ["Sindre", "Chen"])
  }

  /// Defaults: DefaultsArrayTests.testNestedKey
  @Test func nestedArrayKey() throws {
    let key = SettingsKey<[[String]]>("nestedArray", default: [["Hank", "Chen"]], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0[0].append("Sindre") }
    try settings.update(key) { $0.append(["Sindre"]) }
    #expect(try file.reread(key) == [["Hank", "Chen", "Sindre"], ["Sindre"]])
  }

  /// Defaults: DefaultsArrayTests.testDictionaryKey
  @Test func arrayOfDictionariesKey() throws {
    let key = SettingsKey<[[String: String]]>(
      "arrayDictionary", default: [["0": "Hank"]], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0[0]["1"] = "Chen" }
    try settings.update(key) { $0.append(["0": "Sindre"]) }
    #expect(try file.reread(key) == [["0": "Hank", "1": "Chen"], ["0": "Sindre"]])
  }

  /// Defaults: DefaultsArrayTests.testNestedDictionaryKey
  @Test func arrayOfNestedDictionariesKey() throws {
    let key = SettingsKey<[[String: [String]]]>(
      "arrayNestedDictionary", default: [["0": ["Hank"]]], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0[0]["0"]?.append("Chen") }
    try settings.update(key) { $0.append(["1": ["Sindre"]]) }
    #expect(try file.reread(key) == [["0": ["Hank", "Chen"]], ["1": ["Sindre"]]])
  }

  /// Defaults: DefaultsArrayTests.testType
  @Test func arrayType() throws {
    let settings = try file.store()
    #expect(settings.portStrings == ["Hank", "Chen"])
    settings.portStrings[0] = "Sindre"
    #expect(try file.store().portStrings == ["Sindre", "Chen"])
  }

  /// Defaults: DefaultsArrayTests.testObserveKeyCombine
  @Test func observeArrayKey() throws {
    let key = SettingsKey<[String]>("observeArrayKey", default: ["Hank", "Chen"], summary: "")
    let settings = try file.store()
    let seen = Received<[[String]]>()
    let token = settings.onChange(of: key) { old, new in seen.add([old, new]) }
    try settings.update(key) { $0[0] = "Sindre" }
    try settings.remove([key.name])
    #expect(
      seen.items == [
        [["Hank", "Chen"], ["Sindre", "Chen"]], [["Sindre", "Chen"], ["Hank", "Chen"]],
      ])
    token.cancel()
  }

  /// Defaults: DefaultsArrayTests.testObserveOptionalKeyCombine
  @Test func observeOptionalArrayKey() throws {
    let key = SettingsKey<[String]?>("observeOptionalArrayKey", default: nil, summary: "")
    let settings = try file.store()
    let seen = Received<[[String]?]>()
    let token = settings.onChange(of: key) { old, new in seen.add([old, new]) }
    try settings.set(["Hank"], for: key)
    try settings.set(["Chen"], for: key)
    try settings.set(nil, for: key)
    #expect(seen.items == [[nil, ["Hank"]], [["Hank"], ["Chen"]], [["Chen"], nil]])
    token.cancel()
  }

  /// Defaults: DefaultsSetTests.testKey
  @Test func setKey() throws {
    let key = SettingsKey<Set<Int>>("independentSetKey", default: [0, 1], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0.insert(2) }
    #expect(try file.reread(key) == [0, 1, 2])
    try settings.update(key) { $0.insert(2) }
    #expect(try file.stored(key.name) == .array([0, 1, 2].map { .number(JSONNumber($0)) }))
  }

  /// Defaults: DefaultsSetTests.testOptionalKey
  @Test func optionalSetKey() throws {
    let key = SettingsKey<Set<Int>?>("independentSetOptionalKey", default: nil, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == nil)
    try settings.set([0, 1], for: key)
    try settings.update(key) { $0?.insert(2) }
    #expect(try file.reread(key) == [0, 1, 2])
  }

  /// Defaults: DefaultsSetTests.testArrayKey
  @Test func arrayOfSetsKey() throws {
    let key = SettingsKey<[Set<Int>]>("independentSetArrayKey", default: [[0, 1]], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0[0].insert(2) }
    try settings.update(key) { $0.append([3]) }
    #expect(try file.reread(key) == [[0, 1, 2], [3]])
  }

  /// Defaults: DefaultsSetTests.testDictionaryKey
  @Test func dictionaryOfSetsKey() throws {
    let key = SettingsKey<[String: Set<Int>]>(
      "independentSetDictionaryKey", default: ["0": [0, 1]], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0["0"]?.insert(2) }
    try settings.update(key) { $0["1"] = [3] }
    #expect(try file.reread(key) == ["0": [0, 1, 2], "1": [3]])
  }

  /// Defaults: DefaultsDictionaryTests.testKey
  @Test func dictionaryKey() throws {
    let key = SettingsKey<[String: String]>(
      "independentDictionaryKey", default: ["0": "Hank"], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0["0"] = "Chen" }
    #expect(try file.reread(key) == ["0": "Chen"])
  }

  /// Defaults: DefaultsDictionaryTests.testOptionalKey
  @Test func optionalDictionaryKey() throws {
    let key = SettingsKey<[String: String]?>(
      "independentDictionaryOptionalKey", default: nil, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: key) == nil)
    try settings.set(["0": "Hank"], for: key)
    try settings.update(key) { $0?["1"] = "Chen" }
    #expect(try file.reread(key) == ["0": "Hank", "1": "Chen"])
  }

  /// Defaults: DefaultsDictionaryTests.testNestedKey
  @Test func nestedDictionaryKey() throws {
    let key = SettingsKey<[String: [String: String]]>(
      "independentDictionaryNestedKey", default: ["0": ["0": "Hank"]], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0["0"]?["1"] = "Chen" }
    try settings.update(key) { $0["1"] = ["0": "Sindre"] }
    #expect(try file.reread(key) == ["0": ["0": "Hank", "1": "Chen"], "1": ["0": "Sindre"]])
  }

  /// Defaults: DefaultsDictionaryTests.testArrayKey
  @Test func dictionaryOfArraysKey() throws {
    let key = SettingsKey<[String: [String]]>(
      "independentDictionaryArrayKey", default: ["0": ["Hank"]], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0["0"]?.append("Chen") }
    #expect(try file.reread(key) == ["0": ["Hank", "Chen"]])
  }

  /// Defaults: DefaultsDictionaryTests.testIntKey — keys other than `String` are not JSON
  /// object keys: an `Int`-keyed dictionary is stored as `Codable` writes it, a list of
  /// alternating keys and values, and reads back.
  @Test func intKeyedDictionary() throws {
    let key = SettingsKey<[Int: String]>(
      "independentDictionaryIntKey", default: [0: "Hank"], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0[1] = "Chen" }
    #expect(try file.reread(key) == [0: "Hank", 1: "Chen"])
  }

  /// Defaults: DefaultsDictionaryTests.testType
  @Test func dictionaryType() throws {
    let settings = try file.store()
    #expect(settings.portCounts == ["0": 1])
    settings.portCounts["1"] = 2
    #expect(try file.store().portCounts == ["0": 1, "1": 2])
  }

  /// Defaults: DefaultsRangeTests.testKey
  @Test func rangeKeys() throws {
    let half = SettingsKey<Range<Int>>("range", default: 0..<1, summary: "")
    let closed = SettingsKey<ClosedRange<Double>>("closedRange", default: 0...1, summary: "")
    let settings = try file.store()
    try settings.set(2..<5, for: half)
    try settings.set(1.5...2.5, for: closed)
    #expect(try file.reread(half) == 2..<5)
    #expect(try file.reread(closed) == 1.5...2.5)
    #expect(try file.stored("range") == .array([.number(2), .number(5)]))
  }

  /// Defaults: DefaultsRangeTests.testOptionalKey
  @Test func optionalRangeKeys() throws {
    let half = SettingsKey<Range<Int>?>("optionalRange", default: nil, summary: "")
    let closed = SettingsKey<ClosedRange<Int>?>("optionalClosedRange", default: nil, summary: "")
    let settings = try file.store()
    #expect(settings.value(for: half) == nil && settings.value(for: closed) == nil)
    try settings.set(1..<2, for: half)
    try settings.set(3...4, for: closed)
    #expect(try file.reread(half) == 1..<2)
    #expect(try file.reread(closed) == 3...4)
  }

  /// Defaults: DefaultsRangeTests.testArrayKey
  @Test func arrayOfRangesKey() throws {
    let key = SettingsKey<[ClosedRange<Int>]>("rangeArray", default: [0...1], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0.append(2...3) }
    #expect(try file.reread(key) == [0...1, 2...3])
  }

  /// Defaults: DefaultsRangeTests.testDictionaryKey
  @Test func dictionaryOfRangesKey() throws {
    let key = SettingsKey<[String: Range<Int>]>(
      "rangeDictionary", default: ["0": 0..<1], summary: "")
    let settings = try file.store()
    try settings.update(key) { $0["1"] = 2..<3 }
    #expect(try file.reread(key) == ["0": 0..<1, "1": 2..<3])
  }
}
