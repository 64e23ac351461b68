import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A `Codable` value with every kind of field: optional ones, an enumeration's cases, a
/// nested value, a list and a dictionary.
struct Alarm: Codable, Sendable, Equatable, SettingValue {
  enum Weekday: String, Codable, CaseIterable, Sendable { case monday, friday }
  var hour: Int
  var minute: Int
  var label: String?
  var days: [Weekday] = []
  var snooze: Snooze = Snooze()
  var tones: [String: Double] = [:]
  var start: Date = Date(timeIntervalSinceReferenceDate: 0)

  struct Snooze: Codable, Sendable, Equatable {
    var minutes = 9
    var isOn = true
  }
}

/// A `Codable` type whose stored JSON is not its `Codable` form: not checked.
struct Packed: Codable, Sendable, Equatable, SettingValue {
  var a: Int
  init?(json: JSONValue) {
    guard case .string(let text) = json, let a = Int(text) else { return nil }
    self.a = a
  }
  init(a: Int) { self.a = a }
  var json: JSONValue { .string(String(a)) }
}

/// A `Codable` value with a field of any JSON.
struct Blob: Codable, Sendable, Equatable, SettingValue {
  var payload: JSONValue = .object(["a": .number(1)])
}

extension SettingsKeys {
  var alarm: SettingsKey<Alarm> {
    SettingsKey("alarm", default: Alarm(hour: 7, minute: 30), summary: "Alarm") { alarm in
      (0...23).contains(alarm.hour) ? nil : "must be an hour of the day"
    }
  }
  var nextAlarm: SettingsKey<Alarm?> {
    SettingsKey("nextAlarm", default: nil, summary: "Next alarm")
  }
  var packed: SettingsKey<Packed> {
    SettingsKey("packed", default: Packed(a: 1), summary: "Packed")
  }
  var blob: SettingsKey<Blob> { SettingsKey("blob", default: Blob(), summary: "Blob") }
}

/// The JSON shape of a `Codable` setting, recorded from its default for the key catalog,
/// written and read back, and checked (issue 38).
@MainActor
@Suite("Settings shapes")
struct SettingShapeTests {
  let folder = TemporaryFolder()

  @Test("recorded from the default: fields, optional ones, cases, lists and dictionaries")
  func recorded() throws {
    let shape = try #require(AnySettingsKey.key(\.alarm).keyDescription.shape)
    #expect(
      shape
        == .object(
          [
            "hour": .value(.integer), "minute": .value(.integer), "label": .value(.string),
            "days": .list(.oneOf([.string("monday"), .string("friday")])),
            "snooze": .object(["minutes": .value(.integer), "isOn": .value(.bool)], optional: []),
            "tones": .dictionary(.value(.number)), "start": .value(.date),
          ], optional: ["label"]))
    #expect(AnySettingsKey.key(\.favourites).keyDescription.shape == .list(.value(.string)))
    #expect(AnySettingsKey.key(\.tags).keyDescription.shape == .list(.value(.string)))
    #expect(AnySettingsKey.key(\.scores).keyDescription.shape == .dictionary(.value(.integer)))
    #expect(AnySettingsKey.key(\.quietHours).keyDescription.shape == .list(.value(.integer)))
    #expect(
      AnySettingsKey.key(\.frame).keyDescription.shape
        == .object(
          ["width": .value(.integer), "title": .value(.string), "opened": .value(.date)],
          optional: []))
    // Not told: a nil default, a type stored otherwise than it encodes, a kind
    // that is not JSON.
    #expect(AnySettingsKey.key(\.nextAlarm).keyDescription.shape == nil)
    #expect(
      AnySettingsKey.key(\.blob).keyDescription.shape == .object(["payload": .any], optional: []))
    #expect(AnySettingsKey.key(\.packed).keyDescription.shape == nil)
    #expect(AnySettingsKey.key(\.loudness).keyDescription.shape == nil)
  }

  @Test("checked: the first field that does not fit is named, with what is expected")
  func checked() throws {
    let description = AnySettingsKey.key(\.alarm).keyDescription
    /// The problem with an alarm whose fields are the default's, with `fields` changed.
    func problem(_ fields: String) -> String? {
      guard case .object(var members) = AnySettingsKey.key(\.alarm).defaultValue,
        case .object(let changes)? = JSONValue(parsing: fields)
      else { return "not an object" }
      members.merge(changes) { $1 }
      return description.problem(with: .object(members))
    }
    #expect(problem(#"{"hour": 25}"#) == nil, "the app's rule is the app's")
    #expect(
      AnySettingsKey.key(\.alarm).problem(with: JSONValue(parsing: #"{"hour": 25}"#)!) != nil)
    #expect(problem(#"{"label": null, "extra": 1}"#) == nil)
    #expect(problem(#"{"label": "Up"}"#) == nil)
    #expect(
      problem(#"{"hour": "seven"}"#)?.contains(
        #"has hour "seven", not a whole number; expected {days: a list of one of "monday", "#)
        == true)
    #expect(
      description.problem(with: JSONValue(parsing: #"{"hour": 7}"#)!)?.hasPrefix(
        #"{"hour":7} lacks days; expected {"#) == true)
    #expect(
      problem(#"{"days": ["monday", "sunday"]}"#)?.contains(
        #"has days[1] "sunday", not one of "monday", "friday""#) == true)
    #expect(
      problem(#"{"snooze": {"minutes": 1.5, "isOn": true}}"#)?.contains(
        "has snooze.minutes 1.5, not a whole number") == true)
    #expect(problem(#"{"start": "soon"}"#)?.contains(#"has start "soon", not a date"#) == true)
    #expect(problem(#"{"tones": {"a": "x"}}"#)?.contains(#"has tones.a "x", not a number"#) == true)
    #expect(
      description.problem(with: .array([.number(1)]))?.hasPrefix("[1] is not {days: a list of")
        == true)
    #expect(
      AnySettingsKey.key(\.favourites).keyDescription.problem(with: .array([.number(1)]))
        == "[1] has [0] 1, not text; expected a list of text")
    // A key whose shape is known checks it in the app too, through its decoding.
    let key = AnySettingsKey.key(\.alarm)
    #expect(key.problem(with: JSONValue(parsing: #"{"hour": "seven", "minute": 0}"#)!) != nil)
  }

  @Test("written in the catalog, read back; an older entry without a shape is not checked")
  func catalog() throws {
    let description = AnySettingsKey.key(\.alarm).keyDescription
    #expect(try SettingsKeyDescription(entry: description.json) == description)
    let entry = try #require(
      JSONValue(parsing: #"{"name": "alarm", "type": "json", "default": {"hour": 7}}"#))
    let older = try SettingsKeyDescription(entry: entry)
    #expect(older.shape == nil)
    #expect(older.problem(with: .string("anything")) == nil)
    // Forms this version does not know are not checked, never refused.
    for form in [
      #""colour""#, #"{"tuple": ["integer"]}"#, #"{"type": "integer", "min": 0}"#, "7",
      #"{"fields": 3}"#,
    ] {
      #expect(SettingShape(json: JSONValue(parsing: form)!) == .any, "\(form)")
    }
    let shapes: [SettingShape] = [
      .value(.uuid), .range(.integer, min: 0, max: 23), .oneOf([.number(1), .string("a")]),
      .list(.dictionary(.value(.bool))),
      .object(["a": .any, "b": .range(.number, min: -1.5, max: 2)], optional: ["b"]),
    ]
    for shape in shapes { #expect(SettingShape(json: shape.json) == shape) }
    // A shape the entry's default does not fit is not its key's: dropped.
    var misfit = description
    misfit.shape = .list(.any)
    #expect(try SettingsKeyDescription(entry: misfit.json).shape == nil)
  }

  @Test("ranges and cases in a shape")
  func ranges() {
    let shape = SettingShape.object(
      ["hour": .range(.integer, min: 0, max: 23), "mode": .oneOf([.string("a"), .string("b")])],
      optional: [])
    #expect(shape.problem(with: JSONValue(parsing: #"{"hour": 23.0, "mode": "a"}"#)!) == nil)
    #expect(
      shape.problem(with: JSONValue(parsing: #"{"hour": 24, "mode": "a"}"#)!)
        == "has hour 24, out of range 0...23")
    #expect(
      shape.problem(with: JSONValue(parsing: #"{"hour": 2, "mode": "c"}"#)!)
        == #"has mode "c", not one of "a", "b""#)
    #expect(
      SettingShape.range(.number, min: 0, max: 1).problem(with: .number(2))
        == "is out of range 0...1")
  }

  @Test("the catalog is written when the store opens on a folder, before settings.json is")
  func writtenAtOpen() throws {
    let url = folder.file("settings.json")
    _ = try SettingsStore(contentsOf: url, keys: [.key(\.alarm)])
    #expect(!FileManager.default.fileExists(atPath: url.path), "no settings written")
    let catalog = SettingsCatalog.read(besideSettingsAt: url)
    #expect(catalog.keys == [AnySettingsKey.key(\.alarm).keyDescription])
    // Not in a folder that is not there, nor in one this process may not write.
    let missing = folder.file("missing/settings.json")
    _ = try SettingsStore(contentsOf: missing, keys: [.key(\.alarm)])
    #expect(!FileManager.default.fileExists(atPath: folder.file("missing").path))
    if geteuid() != 0 {
      let locked = folder.file("locked")
      try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
      chmod(locked.path, 0o500)
      defer { chmod(locked.path, 0o700) }
      let settings = try SettingsStore(
        contentsOf: locked.appendingPathComponent("settings.json"), keys: [.key(\.alarm)])
      _ = settings
      #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
    }
  }
}
