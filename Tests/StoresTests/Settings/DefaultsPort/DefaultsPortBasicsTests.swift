import Foundation
import StoreTesting
import Stores
import Testing

private let sindresorhus = URL(string: "https://sindresorhus.com")!
private let example = URL(string: "https://example.com")!
private let iconFile = URL(string: "file://~/icon.png")!
private let someDate = Date(timeIntervalSince1970: 1_700_000_000.25)

/// How many times `portLazyKey`'s declaration ran, for the test that it runs only when used.
@MainActor private var lazyKeyEvaluations = 0

extension SettingsKeys {
  fileprivate var portFlag: SettingsKey<Bool> {
    SettingsKey("portFlag", default: false, summary: "A flag")
  }
  fileprivate var portURL: SettingsKey<URL> {
    SettingsKey("portURL", default: sindresorhus, summary: "A URL")
  }
  fileprivate var portFile: SettingsKey<URL> {
    SettingsKey("portFile", default: iconFile, summary: "A file URL")
  }
  fileprivate var portData: SettingsKey<Data> {
    SettingsKey("portData", default: Data(), summary: "Bytes")
  }
  fileprivate var portDate: SettingsKey<Date> {
    SettingsKey("portDate", default: someDate, summary: "A date")
  }
  fileprivate var portUUID: SettingsKey<UUID?> {
    SettingsKey("portUUID", default: nil, summary: "An id")
  }
  fileprivate var portEpoch: SettingsKey<Date> {
    SettingsKey("portEpoch", default: Date(timeIntervalSince1970: 0), summary: "A date")
  }
  fileprivate var portOptionalEpoch: SettingsKey<Date?> {
    SettingsKey("portOptionalEpoch", default: Date(timeIntervalSince1970: 1), summary: "A date")
  }
  fileprivate var portLazy: SettingsKey<Date> {
    MainActor.assumeIsolated { lazyKeyEvaluations += 1 }
    return SettingsKey("portLazy", default: Date(), summary: "Made when first used")
  }
}

/// Defaults' `DefaultsTests`: keys, the basic value types, reset, and observation (Combine's
/// publishers and `Defaults.updates` map to `onChange(of:)` and `updates(of:)`).
@MainActor
@Suite("DefaultsPort: basics (DefaultsTests)")
struct DefaultsPortBasicsTests {
  let file = PortFile()

  /// Defaults: DefaultsTests.testKey
  @Test func key() throws {
    let settings = try file.store()
    let key = SettingsKey<Bool>("independentKey", default: false, summary: "")
    #expect(!settings.value(for: key))
    try settings.set(true, for: key)
    #expect(settings.value(for: key))
    #expect(try file.reread(key))
  }

  /// Defaults: DefaultsTests.testValidKeyName — Defaults refuses names with a dot or starting
  /// with `@` (KVO key paths); a settings file has no such limit, so they are ordinary keys.
  @Test func keyNamesWithDotsAndAt() throws {
    let settings = try file.store()
    let dotted = SettingsKey<Bool>("test.a", default: false, summary: "")
    let at = SettingsKey<Bool>("@test", default: false, summary: "")
    try settings.set(true, for: dotted)
    #expect(try file.reread(dotted))
    #expect(!(try file.reread(at)))
    #expect(try file.stored("test.a") == .bool(true))
  }

  /// Defaults: DefaultsTests.testOptionalKey
  @Test func optionalKey() throws {
    let settings = try file.store()
    let flag = SettingsKey<Bool?>("independentOptionalKey", default: nil, summary: "")
    let url = SettingsKey<URL?>("independentOptionalURLKey", default: nil, summary: "")
    #expect(settings.value(for: flag) == nil)
    #expect(settings.value(for: url) == nil)
    try settings.set(true, for: flag)
    try settings.set(sindresorhus, for: url)
    #expect(try file.reread(flag) == true)
    #expect(try file.reread(url) == sindresorhus)
    try settings.set(nil, for: flag)
    try settings.set(nil, for: url)
    #expect(try file.reread(flag) == nil)
    #expect(try file.stored(url.name) == nil, "nil removes the key")
    try settings.set(false, for: flag)
    try settings.set(example, for: url)
    #expect(try file.reread(flag) == false)
    #expect(try file.reread(url) == example)
  }

  /// Defaults: DefaultsTests.testInitializeDynamicDateKey — a key's default is not computed
  /// before the key is used: a key of `SettingsKeys` is made at its key path's first use.
  @Test func keyIsMadeAtFirstUse() throws {
    let before = lazyKeyEvaluations
    let settings = try file.store()
    #expect(lazyKeyEvaluations == before, "opening a store made the key")
    let first = settings.portLazy
    #expect(lazyKeyEvaluations == before + 1)
    #expect(settings.portLazy == first, "the default is computed once")
  }

  /// Defaults: DefaultsTests.testKeyRegistersDefault — a registered key reads its default,
  /// and is listed with it, while the file holds nothing for it.
  @Test func registeredKeyReadsItsDefault() throws {
    let flag = SettingsKey<Bool>("registersDefault", default: true, summary: "")
    let text = SettingsKey<String>("registersDefault2", default: "registersDefault2", summary: "")
    let settings = try file.store(keys: [AnySettingsKey(flag), AnySettingsKey(text)])
    let entries = settings.entries.filter { $0.key.name.hasPrefix("registersDefault") }
    #expect(entries.map(\.value) == [.bool(true), .string("registersDefault2")])
    #expect(entries.allSatisfy { $0.storedValue == nil })
    #expect(settings.value(for: text) == "registersDefault2")
  }

  /// Defaults: DefaultsTests.testKeyWithUserDefaultSubscript — the store's state reads a key
  /// as the store does.
  @Test func stateReadsKeys() throws {
    let settings = try file.store()
    let key = SettingsKey<Bool>("keyWithUserDefaultSubscript", default: false, summary: "")
    #expect(!settings.state.value(for: key))
    try settings.set(true, for: key)
    #expect(settings.state.value(for: key))
  }

  /// Defaults: DefaultsTests.testKeys
  @Test func keyPaths() throws {
    let settings = try file.store()
    #expect(!settings.portFlag)
    settings.portFlag = true
    #expect(settings.portFlag)
    #expect(try file.store().portFlag)
  }

  /// Defaults: DefaultsTests.testUrlType
  @Test func urlType() throws {
    let settings = try file.store()
    #expect(settings.portURL == sindresorhus)
    let twitter = URL(string: "https://twitter.com")!
    settings.portURL = twitter
    #expect(try file.store().portURL == twitter)
  }

  /// Defaults: DefaultsTests.testDataType
  @Test func dataType() throws {
    let settings = try file.store()
    #expect(settings.portData == Data())
    settings.portData = Data([0xFF])
    #expect(try file.store().portData == Data([0xFF]))
  }

  /// Defaults: DefaultsTests.testDateType
  @Test func dateType() throws {
    let settings = try file.store()
    #expect(settings.portDate == someDate)
    let now = Date()
    settings.portDate = now
    #expect(try file.store().portDate == now, "a date reads back exactly")
  }

  /// Defaults: DefaultsTests.testDynamicDateType
  @Test func dateKeyResets() throws {
    let settings = try file.store()
    #expect(settings.portEpoch == Date(timeIntervalSince1970: 0))
    settings.portEpoch = Date(timeIntervalSince1970: 1)
    #expect(try file.store().portEpoch == Date(timeIntervalSince1970: 1))
    #expect(try file.stored("portEpoch") == .string("1970-01-01T00:00:01Z"))
    try settings.reset(\.portEpoch)
    #expect(try file.store().portEpoch == Date(timeIntervalSince1970: 0))
  }

  /// Defaults: DefaultsTests.testDynamicOptionalDateType
  @Test func optionalDateWithDefault() throws {
    let settings = try file.store()
    #expect(settings.portOptionalEpoch == Date(timeIntervalSince1970: 1))
    settings.portOptionalEpoch = Date(timeIntervalSince1970: 2)
    #expect(try file.store().portOptionalEpoch == Date(timeIntervalSince1970: 2))
    settings.portOptionalEpoch = nil
    #expect(settings.portOptionalEpoch == Date(timeIntervalSince1970: 1), "nil reads the default")
    #expect(try file.stored("portOptionalEpoch") == nil)
  }

  /// Defaults: DefaultsTests.testFileURLType
  @Test func fileURLType() throws {
    #expect(try file.store().portFile == iconFile)
    let settings = try file.store()
    let other = FileManager.default.temporaryDirectory.appendingPathComponent("icon.png")
    settings.portFile = other
    #expect(try file.store().portFile == other)
  }

  /// Defaults: DefaultsTests.testUUIDType
  @Test func uuidType() throws {
    let settings = try file.store()
    let id = UUID()
    settings.portUUID = id
    #expect(try file.store().portUUID == id)
  }

  /// Defaults: DefaultsTests.testRemoveAll
  @Test func resetAll() throws {
    let first = SettingsKey<Bool>("removeAll", default: false, summary: "")
    let second = SettingsKey<Bool>("removeAll2", default: false, summary: "")
    let settings = try file.store()
    try settings.set(true, for: first)
    try settings.set(true, for: second)
    #expect(settings.value(for: first) && settings.value(for: second))
    try settings.reset()
    #expect(!settings.value(for: first))
    #expect(!(try file.reread(second)))
  }

  /// Defaults: DefaultsTests.testCustomSuite — two files are two independent sets of values.
  @Test func anotherFile() throws {
    let other = PortFile()
    let key = SettingsKey<Bool>("customSuite", default: false, summary: "")
    try other.store().set(true, for: key)
    #expect(try other.reread(key))
    #expect(!(try file.reread(key)))
  }

  /// Defaults: DefaultsTests.testIsDefaultValue
  @Test func isDefaultValue() throws {
    let key = SettingsKey<Bool>("isDefaultValue", default: false, summary: "")
    let settings = try file.store(keys: [AnySettingsKey(key)])
    func entry() -> SettingsEntry? { settings.entries.first { $0.key.name == key.name } }
    #expect(entry()?.isDefault == true)
    try settings.update(key) { $0.toggle() }
    #expect(entry()?.isDefault == false)
  }

  /// Defaults: DefaultsTests.testObserveKeyCombine
  @Test func observeKey() throws {
    let settings = try file.store()
    let key = SettingsKey<Bool>("observeKey", default: false, summary: "")
    let seen = Received<[Bool]>()
    let token = settings.onChange(of: key) { old, new in seen.add([old, new]) }
    try settings.set(true, for: key)
    try settings.remove([key.name])
    #expect(seen.items == [[false, true], [true, false]])
    token.cancel()
  }

  /// Defaults: DefaultsTests.testObserveOptionalKeyCombine
  @Test func observeOptionalKey() throws {
    let settings = try file.store()
    let key = SettingsKey<Bool?>("observeOptionalKey", default: nil, summary: "")
    let seen = Received<[Bool?]>()
    let token = settings.onChange(of: key) { old, new in seen.add([old, new]) }
    try settings.set(true, for: key)
    try settings.set(false, for: key)
    try settings.remove([key.name])
    #expect(seen.items == [[nil, true], [true, false], [false, nil]])
    token.cancel()
  }

  /// Defaults: DefaultsTests.testDynamicOptionalDateTypeCombine
  @Test func observeOptionalDateWithDefault() throws {
    let first = Date(timeIntervalSince1970: 0)
    let second = Date(timeIntervalSince1970: 1)
    let third = Date(timeIntervalSince1970: 2)
    let settings = try file.store()
    let key = SettingsKey<Date?>("observeOptionalDate", default: first, summary: "")
    let seen = Received<[Date?]>()
    let token = settings.onChange(of: key) { old, new in seen.add([old, new]) }
    try settings.set(second, for: key)
    try settings.set(third, for: key)
    try settings.remove([key.name])
    #expect(seen.items == [[first, second], [second, third], [third, first]])
    token.cancel()
  }

  /// Defaults: DefaultsTests.testObserveMultipleKeysCombine
  @Test func observeSeveralKeys() throws {
    let settings = try file.store()
    let text = SettingsKey<String>("observeKey1", default: "x", summary: "")
    let flag = SettingsKey<Bool>("observeKey2", default: true, summary: "")
    let seen = Received<[String]>()
    let token = settings.onChange(of: [AnySettingsKey(text), AnySettingsKey(flag)]) {
      seen.add($0)
    }
    try settings.set("y", for: text)
    try settings.set(false, for: flag)
    #expect(seen.items == [["observeKey1"], ["observeKey2"]])
    token.cancel()
  }

  /// Defaults: DefaultsTests.testObserveMultipleOptionalKeysCombine
  @Test func observeSeveralOptionalKeys() throws {
    let settings = try file.store()
    let text = SettingsKey<String?>("observeOptionalKey1", default: nil, summary: "")
    let flag = SettingsKey<Bool?>("observeOptionalKey2", default: nil, summary: "")
    let seen = Received<[String]>()
    let token = settings.onChange(of: [AnySettingsKey(text), AnySettingsKey(flag)]) {
      seen.add($0)
    }
    try settings.set("x", for: text)
    try settings.set(false, for: flag)
    try settings.set(nil, for: text)
    #expect(
      seen.items == [["observeOptionalKey1"], ["observeOptionalKey2"], ["observeOptionalKey1"]])
    token.cancel()
  }

  /// Defaults: DefaultsTests.testReceiveValueBeforeSubscriptionCombine — the stream starts
  /// with the value now, then each new one.
  @Test func updatesStartWithTheCurrentValue() async throws {
    let settings = try file.store()
    let key = SettingsKey<String>("receiveValueBeforeSubscription", default: "hello", summary: "")
    var values = settings.updates(of: key).makeAsyncIterator()
    #expect(await values.next() == "hello")
    try settings.set("world", for: key)
    #expect(await values.next() == "world")
  }

  /// Defaults: DefaultsTests.testObservePreventPropagationCombine — an observer that writes
  /// its own key is not called again for that write (Defaults' `withoutPropagation`).
  @Test func observerWritingItsKeyIsNotCalledAgain() throws {
    let settings = try file.store()
    let key = SettingsKey<Bool?>("preventPropagation6", default: nil, summary: "")
    let calls = Received<Bool?>()
    let token = settings.onChange(of: key) { (new: Bool?) in
      calls.add(new)
      try? settings.set(true, for: key)
    }
    try settings.set(false, for: key)
    #expect(calls.items == [false])
    #expect(settings.value(for: key) == true)
    token.cancel()
  }

  /// Defaults: DefaultsTests.testObservePreventPropagationMultipleKeysCombine
  @Test func observerOfSeveralKeysWritingOneIsNotCalledAgain() throws {
    let settings = try file.store()
    let first = SettingsKey<Bool?>("preventPropagation7", default: nil, summary: "")
    let second = SettingsKey<Bool?>("preventPropagation8", default: nil, summary: "")
    let calls = Received<[String]>()
    let token = settings.onChange(of: [AnySettingsKey(first), AnySettingsKey(second)]) {
      calls.add($0)
      try? settings.set(true, for: first)
    }
    try settings.set(false, for: second)
    #expect(calls.items == [["preventPropagation8"]])
    #expect(try file.reread(first) == true)
    token.cancel()
  }

  /// Defaults: DefaultsTests.testResetKey
  @Test func resetOneKey() throws {
    let settings = try file.store()
    let text = SettingsKey<String>("key1", default: "foo1", summary: "")
    let number = SettingsKey<Int>("key2", default: 0, summary: "")
    try settings.set("bar1", for: text)
    try settings.set(1, for: number)
    try settings.remove([text.name])
    #expect(try file.reread(text) == "foo1")
    #expect(try file.reread(number) == 1)
  }

  /// Defaults: DefaultsTests.testResetMultipleKeys
  @Test func resetSeveralKeys() throws {
    let settings = try file.store()
    let first = SettingsKey<String>("akey1", default: "foo1", summary: "")
    let second = SettingsKey<Int>("akey2", default: 0, summary: "")
    let third = SettingsKey<String>("akey3", default: "foo3", summary: "")
    try settings.set("bar1", for: first)
    try settings.set(1, for: second)
    try settings.set("bar3", for: third)
    try settings.remove([first.name, second.name])
    #expect(try file.reread(first) == "foo1")
    #expect(try file.reread(second) == 0)
    #expect(try file.reread(third) == "bar3")
  }

  /// Defaults: DefaultsTests.testResetMultipleOptionalKeys
  @Test func resetSeveralOptionalKeys() throws {
    let settings = try file.store()
    let first = SettingsKey<String?>("aoptionalKey1", default: nil, summary: "")
    let second = SettingsKey<Int?>("aoptionalKey2", default: nil, summary: "")
    let third = SettingsKey<String?>("aoptionalKey3", default: nil, summary: "")
    try settings.set("bar1", for: first)
    try settings.set(1, for: second)
    try settings.set("bar3", for: third)
    try settings.remove([first.name, second.name])
    #expect(try file.reread(first) == nil)
    #expect(try file.reread(second) == nil)
    #expect(try file.reread(third) == "bar3")
  }

  /// Defaults: DefaultsTests.testImmediatelyFinishingPublisherCombine — the first element of
  /// a stream with its initial value comes at once, without any change.
  @Test func firstUpdateComesAtOnce() async throws {
    let settings = try file.store()
    let key = SettingsKey<Bool>("observeKey", default: false, summary: "")
    var values = settings.updates(of: key).makeAsyncIterator()
    #expect(await values.next() == false)
  }

  /// Defaults: DefaultsTests.testImmediatelyFinishingMultiplePublisherCombine
  @Test func firstUpdateOfSeveralKeysComesAtOnce() async throws {
    let settings = try file.store()
    let flag = SettingsKey<Bool>("observeKey1", default: false, summary: "")
    let text = SettingsKey<String>("observeKey2", default: "🦄", summary: "")
    var changes = settings.updates(of: [AnySettingsKey(flag), AnySettingsKey(text)])
      .makeAsyncIterator()
    #expect(await changes.next() == ["observeKey1", "observeKey2"])
  }

  /// Defaults: DefaultsTests.testKeyEquatable — a key declared twice the same way is one key.
  @Test func sameKeyTwiceIsOneKey() throws {
    let settings = try file.store()
    settings.register(
      AnySettingsKey(SettingsKey<Bool>("equatableKeyTest", default: false, summary: "")))
    settings.register(
      AnySettingsKey(SettingsKey<Bool>("equatableKeyTest", default: false, summary: "")))
    #expect(settings.appKeys.map(\.name) == ["equatableKeyTest"])
  }

  /// Defaults: DefaultsTests.testUpdates
  @Test func updatesWithoutInitial() async throws {
    let settings = try file.store()
    let key = SettingsKey<Bool>("updatesKey", default: false, summary: "")
    var values = settings.updates(of: key, initial: false).makeAsyncIterator()
    try settings.set(true, for: key)
    #expect(await values.next() == true)
  }

  /// Defaults: DefaultsTests.testUpdatesMultipleKeys
  @Test func updatesOfSeveralKeys() async throws {
    let settings = try file.store()
    let first = SettingsKey<Bool>("updatesMultipleKey1", default: false, summary: "")
    let second = SettingsKey<Bool>("updatesMultipleKey2", default: false, summary: "")
    let stream = settings.updates(
      of: [AnySettingsKey(first), AnySettingsKey(second)], initial: false)
    var changes = stream.makeAsyncIterator()
    try settings.set(true, for: first)
    try settings.set(true, for: second)
    #expect(await changes.next() == ["updatesMultipleKey1"])
    #expect(await changes.next() == ["updatesMultipleKey2"])
  }

  /// Defaults: DefaultsTests.testUpdatesMultipleKeysVariadic — with key paths.
  @Test func updatesOfSeveralKeyPaths() async throws {
    let settings = try file.store()
    let stream = settings.updates(of: [.key(\.portFlag), .key(\.portData)], initial: false)
    var changes = stream.makeAsyncIterator()
    settings.portFlag = true
    settings.portData = Data([1])
    #expect(await changes.next() == ["portFlag"])
    #expect(await changes.next() == ["portData"])
  }
}
