import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A setting of the app's own, `Codable` but not `Equatable`: compared by its JSON.
struct Gauge: Codable, Sendable {
  var level: Double
}

/// The same, `Equatable`.
struct EquatableGauge: Codable, Sendable, Equatable {
  var level: Double
}

/// A `Codable` struct whose encoding always fails.
struct Unwritable: Codable, Sendable, Equatable {
  var x = 1
  struct Refused: Error {}
  func encode(to encoder: any Encoder) throws { throw Refused() }
}

/// A `Hashable` struct, kept in sets.
struct Tag: Codable, Sendable, Hashable {
  var name: String
}

/// ``Tag`` declared a setting value, as the Settings article advises for sets.
struct SettledTag: Codable, Sendable, Hashable, SettingValue {
  var name: String
}

/// A `Codable` struct with whole numbers a `Double` cannot hold exactly.
struct BigCounter: Codable, Sendable, Equatable {
  var signed: Int64
  var unsigned: UInt64
}

/// A `Codable` class, `Equatable` through its base class.
class Animal: Codable, Equatable, @unchecked Sendable {
  var name: String
  init(name: String) { self.name = name }
  static func == (a: Animal, b: Animal) -> Bool { a.name == b.name }
}

/// A subclass of ``Animal``.
final class Cat: Animal, @unchecked Sendable {}

/// Problems found by attacking how a key's values are stored (`SettingForm`): each test
/// fails on the code it was written against.
@Suite("Attack on SettingForm")
@MainActor
struct SettingFormAttackTests {
  let folder = TemporaryFolder()
  var url: URL { folder.file("settings.json") }

  /// Setting an optional value of the app's type that has a part with no JSON form (a
  /// number that is not finite) is refused and keeps the stored value — not taken for `nil`,
  /// which would remove the key.
  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func optionalWithUnwritablePartIsRefused(level: Double) throws {
    let key = SettingsKey<Gauge?>("gauge", default: nil, summary: "")
    let store = try SettingsStore(contentsOf: url)
    try store.set(Gauge(level: 3), for: key)
    #expect(throws: SettingsError.self) { try store.set(Gauge(level: level), for: key) }
    #expect(try SettingsStore(contentsOf: url).value(for: key)?.level == 3)
  }

  /// The same for an `Equatable` type.
  @Test(arguments: [Double.nan, .infinity])
  func optionalEquatableWithUnwritablePartIsRefused(level: Double) throws {
    let key = SettingsKey<EquatableGauge?>("gauge", default: nil, summary: "")
    let store = try SettingsStore(contentsOf: url)
    try store.set(EquatableGauge(level: 3), for: key)
    #expect(throws: SettingsError.self) { try store.set(EquatableGauge(level: level), for: key) }
    #expect(try SettingsStore(contentsOf: url).value(for: key)?.level == 3)
  }

  /// A value whose `encode(to:)` throws is refused, optional or not.
  @Test func throwingEncodeIsRefused() throws {
    let plain = SettingsKey<Unwritable>("plain", default: Unwritable(x: 0), summary: "")
    let optional = SettingsKey<Unwritable?>("optional", default: nil, summary: "")
    let optionals = SettingsKey<[Unwritable?]>("optionals", default: [], summary: "")
    let store = try SettingsStore(contentsOf: url)
    #expect(throws: SettingsError.self) { try store.set(Unwritable(), for: plain) }
    #expect(throws: SettingsError.self) { try store.set(Unwritable(), for: optional) }
    #expect(throws: SettingsError.self) { try store.set([Unwritable()], for: optionals) }
  }

  /// `equalIfEquatable` on optionals, nested optionals and classes.
  @Test func equalityOfOptionals() {
    let form = SettingForm<EquatableGauge?>.codable
    let some = EquatableGauge(level: 1)
    #expect(form.same(nil, nil))
    #expect(form.same(some, some))
    #expect(!form.same(some, nil))
    #expect(!form.same(nil, some))
    #expect(!form.same(some, EquatableGauge(level: 2)))
    let nested = SettingForm<EquatableGauge??>.codable
    #expect(!nested.same(.some(nil), nil))
    #expect(nested.same(.some(some), .some(some)))
    let plain = SettingForm<Gauge?>.codable
    #expect(!plain.same(Gauge(level: .nan), nil))
    #expect(!plain.same(nil, Gauge(level: .nan)))
  }

  /// A set of the app's values is written alike whatever order it was built in — the file's
  /// bytes do not change with the set's history nor from one process (or device) to another —
  /// once its element declares `SettingValue`, as the Settings article advises: a `Codable`
  /// value alone is written by `JSONEncoder`, which writes a set in the order it iterates (a
  /// stated limit).
  @Test func setsOfSettingValuesAreWrittenInOneOrder() throws {
    let names = (0..<40).map { "tag\($0)" }
    var one = Set<SettledTag>()
    for name in names { one.insert(SettledTag(name: name)) }
    var other = Set<SettledTag>(minimumCapacity: 1000)
    for name in names.reversed() { other.insert(SettledTag(name: name)) }
    #expect(one == other)
    let form = SettingForm<Set<SettledTag>>.setting
    #expect(form.encode(one) == form.encode(other))
    let nested = SettingForm<[String: Set<SettledTag>]>.setting
    #expect(nested.encode(["a": one]) == nested.encode(["a": other]))
  }

  /// A key used as a value (`value(for:)`, `set(_:for:)`) with a built-in setting's name is a
  /// programmer error, as it is when registered: it would write over the built-in setting.
  @Test func keyValueNamedAsBuiltInIsRefused() async {
    await #expect(processExitsWith: .failure) {
      await MainActor.run {
        let store = SettingsStore()
        let key = SettingsKey<Gauge>("sleepGoal", default: Gauge(level: 1), summary: "")
        try? store.set(Gauge(level: 2), for: key)
      }
    }
  }

  /// Keys of the package's setting types keep the form they had before a key took any type:
  /// their `json`, so files written before read the same and are written with the same bytes.
  @Test func settingTypesKeepTheirForm() {
    func check<V: SettingValue>(_ value: V, _ line: Int = #line) {
      let key = SettingsKey<V>("k", default: value, summary: "")
      #expect(key.form.storedType != nil || V.self is any Codable.Type, "line \(line)")
      #expect(key.json(value) == value.json, "line \(line)")
      #expect(key.form.decode(value.json) == value, "line \(line)")
    }
    check(5)
    check(-0.0)
    check(0.1)
    check("text")
    check(true)
    check(Date(timeIntervalSinceReferenceDate: 816_000_000.125))
    check(URL(string: "https://example.com/a b?x")!)
    check(UUID())
    check(Data([0, 1, 255]))
    check(Int?.none)
    check(Int?.some(3))
    check(["a", "b"])
    check(["b": 2, "a": 1])
    check(Set([3, 1, 2]))
    check(1...5)
    check(1..<5)
    check(DistanceUnit.miles)
    check([Date(timeIntervalSinceReferenceDate: 0)])
  }

  /// Whole numbers a `Double` cannot hold exactly, in a `Codable` value: stored exactly, or
  /// refused — never read back as other numbers.
  @Test func bigIntegersInCodableValues() throws {
    let key = SettingsKey("counter", default: BigCounter(signed: 0, unsigned: 0), summary: "")
    let store = try SettingsStore(contentsOf: url)
    let big = BigCounter(signed: .max, unsigned: .max)
    do {
      try store.set(big, for: key)
      #expect(try SettingsStore(contentsOf: url).value(for: key) == big)
    } catch {
      #expect(store.value(for: key) == BigCounter(signed: 0, unsigned: 0))
    }
  }

  /// Values of a class compared with its base class's `==`, whatever their subclass.
  @Test func classesCompareWithTheirEquality() {
    let form = SettingForm<Animal>.codable
    #expect(form.same(Animal(name: "a"), Cat(name: "a")))
    #expect(form.same(Cat(name: "a"), Animal(name: "a")))
    #expect(!form.same(Cat(name: "a"), Animal(name: "b")))
  }
}
