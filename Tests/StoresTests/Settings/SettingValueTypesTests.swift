import Foundation
import Observation
import StoreTesting
import Stores
import Testing

/// A `Codable` value an app keeps in its settings, as readable JSON.
struct Window: Codable, Sendable, Equatable, SettingValue {
  var width: Int
  var title: String
  var opened: Date
}

/// A `Codable` value that nests as deep as it is made.
struct Tree: Codable, Sendable, Equatable, SettingValue {
  var children: [Tree] = []

  /// A tree of `depth` levels, one child each.
  static func deep(_ depth: Int) -> Tree {
    var tree = Tree()
    for _ in 1..<depth { tree = Tree(children: [tree]) }
    return tree
  }
}

/// An enumeration with `Int` raw values that is not `CaseIterable`.
enum Level: Int, Sendable, SettingValue {
  case low = 1
  case high = 5
}

/// An enumeration with `String` raw values that is `CaseIterable` and `Codable`.
enum Theme: String, CaseIterable, Codable, Sendable, SettingValue {
  case light, dark
}

/// An app's settings, one of each type, declared in an extension and registered once.
extension SettingsKeys {
  var favourites: SettingsKey<[String]> {
    SettingsKey("favourites", default: [], summary: "Favourite places")
  }
  var tags: SettingsKey<Set<String>> { SettingsKey("tags", default: [], summary: "Tags") }
  var scores: SettingsKey<[String: Int]> { SettingsKey("scores", default: [:], summary: "Scores") }
  var lastSync: SettingsKey<Date> {
    SettingsKey("lastSync", default: Date(timeIntervalSinceReferenceDate: 0), summary: "Last sync")
  }
  var avatar: SettingsKey<Data> { SettingsKey("avatar", default: Data(), summary: "Avatar") }
  var server: SettingsKey<URL> {
    SettingsKey("server", default: URL(string: "https://example.com")!, summary: "Server")
  }
  var device: SettingsKey<UUID> {
    SettingsKey(
      "device", default: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
      summary: "This device")
  }
  var nickname: SettingsKey<String?> { SettingsKey("nickname", default: nil, summary: "Nickname") }
  var quietHours: SettingsKey<ClosedRange<Int>> {
    SettingsKey("quietHours", default: 22...23, summary: "Quiet hours") { range in
      range.upperBound <= 23 && range.lowerBound >= 0 ? nil : "must be hours of a day"
    }
  }
  var window: SettingsKey<Range<Double>> {
    SettingsKey("window", default: 0..<1, summary: "A window")
  }
  var level: SettingsKey<Level> { SettingsKey("level", default: .low, summary: "Level") }
  var theme2: SettingsKey<Theme> { SettingsKey("theme2", default: .light, summary: "Theme") }
  var frame: SettingsKey<Window> {
    SettingsKey(
      "frame",
      default: Window(width: 1, title: "", opened: Date(timeIntervalSinceReferenceDate: 0)),
      summary: "The window")
  }
  var colour: SettingsKey<String> {
    SettingsKey("colour", default: "light", summary: "The colour scheme") {
      ["light", "dark"].contains($0) ? nil : "must be light or dark"
    }
  }

  /// The app's keys.
  static let app: [AnySettingsKey] = [
    .key(\.favourites), .key(\.tags), .key(\.scores), .key(\.lastSync), .key(\.avatar),
    .key(\.server), .key(\.device), .key(\.nickname), .key(\.quietHours), .key(\.window),
    .key(\.level), .key(\.theme2), .key(\.frame), .key(\.colour),
  ]
}

@MainActor
@Suite("Settings of every value type, an app's keys first-class")
struct SettingValueTypesTests {
  let folder = TemporaryFolder()

  /// Sets `value` for the key at `keyPath`, then reads it back from a store opened on the
  /// file, and checks the file holds `json`.
  func roundTrip<Value: Equatable>(
    _ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>, _ value: Value, url: URL
  ) throws {
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    try settings.set(keyPath, to: value)
    try requireEqual(settings[dynamicMember: keyPath], value, "in memory")
    let reopened = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    try requireEqual(reopened[dynamicMember: keyPath], value, "read back from the file")
    let name = SettingsStore.definitions[keyPath: keyPath].name
    let entry = try #require(reopened.entries.first { $0.key.name == name })
    try requireEqual(entry.problem, nil, "a value set is valid")
  }

  @Test("each type round-trips exactly through the file (property)")
  func roundTrips() throws {
    let url = folder.file("settings.json")
    let text = Gen<String>.string(maxCount: 12)
    check(Gen<[String]>.array(of: text, maxCount: 6)) { try roundTrip(\.favourites, $0, url: url) }
    check(Gen<Set<String>>.set(of: text, maxCount: 6)) { try roundTrip(\.tags, $0, url: url) }
    check(
      Gen<[String: Int]>.dictionary(keys: text, values: .integer(in: -1000...1000), maxCount: 5)
    ) {
      try roundTrip(\.scores, $0, url: url)
    }
    check(Gen<Date>.date()) { try roundTrip(\.lastSync, $0, url: url) }
    check(Gen<[UInt8]>.array(of: .integer(in: 0...255), maxCount: 40)) {
      try roundTrip(\.avatar, Data($0), url: url)
    }
    check(Gen<Int>.integer(in: 0...Int.max)) {
      try roundTrip(\.server, URL(string: "https://example.com/\($0)?q=\($0 % 7)")!, url: url)
    }
    check(Gen<(UInt64, UInt64)>.zip(.integer(), .integer())) { high, low in
      func hex<T: BinaryInteger>(_ value: T, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: digits - text.count) + text
      }
      let hex = hex(high, 16) + hex(low, 16)
      let text = [
        hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
        hex.dropFirst(16).prefix(4), hex.dropFirst(20),
      ].joined(separator: "-")
      try roundTrip(\.device, try #require(UUID(uuidString: text)), url: url)
    }
    check(Gen<String?>.oneOf(.constant(nil), text.map { $0 })) {
      try roundTrip(\.nickname, $0, url: url)
    }
    check(Gen<(Int, Int)>.zip(.integer(in: 0...23), .integer(in: 0...23))) { a, b in
      try roundTrip(\.quietHours, min(a, b)...max(a, b), url: url)
    }
    check(Gen<(Double, Double)>.zip(.double(in: -1e6...1e6), .double(in: -1e6...1e6))) { a, b in
      try roundTrip(\.window, min(a, b)..<max(a, b), url: url)
    }
    check(Gen<Level>.element(of: [Level.low, .high])) { try roundTrip(\.level, $0, url: url) }
    check(Gen<Theme>.element(of: Theme.allCases)) { try roundTrip(\.theme2, $0, url: url) }
    check(Gen<(Int, String, Date)>.zip(.integer(in: -99...99), text, .date())) {
      width, title, date in
      try roundTrip(\.frame, Window(width: width, title: title, opened: date), url: url)
    }
  }

  @Test("the file holds each type as people read it; built-in types are written as before")
  func fileForm() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    settings.favourites = ["a", "b"]
    settings.tags = ["b", "a"]
    settings.scores = ["x": 1]
    settings.lastSync = Date(timeIntervalSinceReferenceDate: 817_630_200.25)
    settings.avatar = Data([1, 2, 3])
    settings.server = URL(string: "https://example.com/a")!
    settings.device = UUID(uuidString: "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01")!
    settings.quietHours = 1...3
    settings.level = .high
    settings.theme2 = .dark
    settings.frame = Window(
      width: 3, title: "main", opened: Date(timeIntervalSinceReferenceDate: 0))
    settings.sleepGoal = 7.5
    settings.distanceUnit = .miles
    #expect(settings.lastError == nil)
    let text = try #require(settingsText(url))
    #expect(
      text == """
        {
          "values" : {
            "avatar" : "AQID",
            "device" : "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01",
            "distanceUnit" : "miles",
            "favourites" : [
              "a",
              "b"
            ],
            "frame" : {
              "opened" : "2001-01-01T00:00:00Z",
              "title" : "main",
              "width" : 3
            },
            "lastSync" : "2026-11-29T07:30:00.25Z",
            "level" : 5,
            "quietHours" : [
              1,
              3
            ],
            "scores" : {
              "x" : 1
            },
            "server" : "https://example.com/a",
            "sleepGoal" : 7.5,
            "tags" : [
              "a",
              "b"
            ],
            "theme2" : "dark"
          },
          "version" : 1
        }

        """)
  }

  @Test("nil removes an optional's key; a date that cannot be written is refused")
  func optionalNil() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    settings.nickname = "Kim"
    #expect(settings.state.values["nickname"] == .string("Kim"))
    settings.nickname = nil
    #expect(settings.state.values["nickname"] == nil)
    #expect(try SettingsStore(contentsOf: url).state.values.isEmpty)
    #expect(throws: SettingsError.self) {
      try settings.set(\.lastSync, to: Date(timeIntervalSinceReferenceDate: 1e15))
    }
    #expect(settings.state.values.isEmpty)
  }

  @Test("a value the file cannot hold as it is is refused before anything is stored, never a trap")
  func unstorable() throws {
    let start = Date(timeIntervalSinceReferenceDate: 0)
    let due = SettingsKey<Date?>("due", default: nil, summary: "Due")
    let day = SettingsKey<Date>("day", default: start, summary: "Day")
    let tree = SettingsKey<Tree?>("tree", default: nil, summary: "Tree")
    let counts = SettingsKey<[Int]>("counts", default: [], summary: "Counts")
    let ratio = SettingsKey<Double>("ratio", default: 1, summary: "Ratio")
    let url = folder.file("keys.json")
    let keys = [
      AnySettingsKey(due), AnySettingsKey(day), AnySettingsKey(tree), AnySettingsKey(counts),
      AnySettingsKey(ratio),
    ]
    let file = try SettingsStore(contentsOf: url, keys: keys)
    try file.set(start, for: due)
    try file.set(start, for: day)
    try file.set(Tree.deep(3), for: tree)
    try file.set([1, 2], for: counts)
    try file.set(2, for: ratio)
    let before = file.state
    let bytes = try Data(contentsOf: url)

    /// Expects `set` to throw a message that contains `words`, and nothing to change.
    func refused<Value>(
      _ value: Value, _ key: SettingsKey<Value>, _ words: String,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let error = #expect(throws: SettingsError.self, sourceLocation: sourceLocation) {
        try file.set(value, for: key)
      }
      #expect(
        error?.description.contains(words) == true, "\(String(describing: error))",
        sourceLocation: sourceLocation)
      #expect(file.state == before, sourceLocation: sourceLocation)
      #expect((try? Data(contentsOf: url)) == bytes, sourceLocation: sourceLocation)
    }
    let far = Date(timeIntervalSinceReferenceDate: 1e15)
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    refused(far, due, "a date must be in the years 1 to 9999")
    refused(nan, due, #""nan seconds after 2001" cannot be written"#)
    refused(far, day, #""1000000000000000 seconds after 2001" cannot be written"#)
    refused(nan, day, "a date must be in the years 1 to 9999")
    refused(Tree.deep(600), tree, "\"a value of type Optional<Tree>\" cannot be written")
    // A tree of depth d nests 2d levels of JSON.
    refused(Tree.deep(252), tree, "nests deeper than 500 levels")
    refused(Array(0...Int.maxElements), counts, "has 100001 elements, more than the 100000")
    refused(.nan, ratio, "is not a number a settings file can hold")
    refused(.infinity, ratio, "is not a number a settings file can hold")
    // What is stored reads back the same, from the file.
    try file.set(Tree.deep(250), for: tree)
    try file.set(Array(0..<Int.maxElements), for: counts)
    let reopened = try SettingsStore(contentsOf: url, keys: keys)
    #expect(reopened.value(for: tree) == Tree.deep(250))
    #expect(reopened.value(for: counts) == Array(0..<Int.maxElements))
    #expect(reopened.value(for: due) == start)
    try file.set(Date?.none, for: due)
    #expect(file.state.values["due"] == nil, "nil still removes the key")
  }

  @Test(
    "hostile stored values read as the default and are reported, never a crash",
    arguments: [
      ("favourites", #"["a", 1]"#), ("favourites", #""a""#), ("favourites", "null"),
      ("tags", #"{"a": 1}"#), ("scores", #"{"x": "one"}"#), ("scores", "[]"),
      ("lastSync", #""2026-13-01T00:00:00Z""#), ("lastSync", "0"),
      ("lastSync", #""10000-01-01T00:00:00Z""#), ("avatar", #""AQI""#), ("avatar", #""***""#),
      ("server", #""not a url""#), ("server", #""http://[::1""#), ("server", "5"),
      ("device", #""6F1C2A4E-3B1D""#), ("nickname", "5"), ("quietHours", "[5, 1]"),
      ("quietHours", "[1]"), ("quietHours", "[1, 2, 3]"), ("quietHours", "[0, 30]"),
      ("window", "[2.5, 1]"), ("level", "2"), ("level", #""low""#), ("theme2", #""blue""#),
      ("frame", #"{"width": 1}"#), ("frame", #"{"width": "1", "title": "", "opened": "x"}"#),
      ("colour", #""purple""#), ("colour", "5"),
    ])
  func hostile(name: String, stored: String) throws {
    let url = folder.file("settings.json")
    try Data(#"{"values": {"\#(name)": \#(stored)}, "version": 1}"#.utf8).write(to: url)
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    let entry = try #require(settings.entries.first { $0.key.name == name })
    #expect(entry.problem != nil)
    #expect(entry.value == entry.key.defaultValue)
    #expect(!settings.unknownKeys.contains(name))
    // The typed property reads the default.
    let keys = SettingsKeys()
    switch name {
    case "favourites": #expect(settings.favourites == keys.favourites.defaultValue)
    case "lastSync": #expect(settings.lastSync == keys.lastSync.defaultValue)
    case "avatar": #expect(settings.avatar == keys.avatar.defaultValue)
    case "server": #expect(settings.server == keys.server.defaultValue)
    case "quietHours": #expect(settings.quietHours == keys.quietHours.defaultValue)
    case "window": #expect(settings.window == keys.window.defaultValue)
    case "frame": #expect(settings.frame == keys.frame.defaultValue)
    case "colour": #expect(settings.colour == "light")
    default: break
    }
  }

  @Test("a date takes a range, any type a rule: refused when set, the default when stored")
  func validation() throws {
    let start = Date(timeIntervalSinceReferenceDate: 0)
    let day = SettingsKey<Date>(
      "day", default: start, in: start...start.addingTimeInterval(86_400), summary: "A day")
    let layout = SettingsKey<Window>(
      "layout", default: Window(width: 1, title: "", opened: start), summary: "Layout"
    ) { $0.width > 0 ? nil : "must be wider than 0" }
    let url = folder.file("keys.json")
    let file = try SettingsStore(
      contentsOf: url, keys: [AnySettingsKey(day), AnySettingsKey(layout)])
    #expect(throws: SettingsError.self) { try file.set(start.addingTimeInterval(-1), for: day) }
    #expect(throws: SettingsError.self) {
      try file.set(Window(width: 0, title: "", opened: start), for: layout)
    }
    #expect(file.state.values.isEmpty)
    let stored =
      #"{"day": "2000-01-01T00:00:00Z", "layout": {"width": -3, "title": "", "#
      + #""opened": "2001-01-01T00:00:00Z"}}"#
    try Data(#"{"values": \#(stored), "version": 1}"#.utf8).write(to: url)
    try file.refresh()
    #expect(file.value(for: day) == start)
    #expect(file.value(for: layout).width == 1)
    #expect(
      file.entries.map(\.problem) == [
        nil, nil, nil,  // the built-in settings, not set
        #""2000-01-01T00:00:00Z" is out of range 2001-01-01T00:00:00Z...2001-01-02T00:00:00Z"#,
        #"{"opened":"2001-01-01T00:00:00Z","title":"","width":-3} must be wider than 0"#,
      ])
  }

  @Test("a list longer than maxElements reads as the default, reported with a short message")
  func hugeList() throws {
    let url = folder.file("settings.json")
    let items = Array(repeating: "\"a\"", count: [String].maxElements + 1)
    try Data(#"{"values": {"favourites": [\#(items.joined(separator: ","))]}, "version": 1}"#.utf8)
      .write(to: url)
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    #expect(settings.favourites == [])
    let problem = try #require(settings.entries.first { $0.key.name == "favourites" }?.problem)
    #expect(problem.count < 120, "the value is not quoted whole: \(problem.count) characters")
  }

  @Test("an app's registered keys are in keys and entries, reset() resets them, not unknown")
  func registered() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    settings.colour = "dark"
    settings.favourites = ["x"]
    settings.sleepGoal = 6
    try settings.trySend(.set(key: "other", value: .string("kept")))
    #expect(
      settings.keys.map(\.name) == ["sleepGoal", "isNotificationsEnabled", "distanceUnit"]
        + SettingsKeys.app.map(\.name))
    #expect(settings.entries.first { $0.key.name == "colour" }?.value == .string("dark"))
    #expect(settings.unknownKeys == ["other"])
    try settings.reset()
    #expect(settings.state.values == ["other": .string("kept")])
    #expect(settings.colour == "light")

    // Registered later, on a store already open; a built-in key or the same key again adds
    // nothing (a key that takes a built-in one's name stops the process: see
    // SettingsKeyCheckTests).
    let later = try SettingsStore(contentsOf: url)
    #expect(later.unknownKeys == ["other"])
    later.register(.key(\.colour))
    later.register(.key(\.colour))
    later.register(.key(\.sleepGoal))
    #expect(
      later.keys.map(\.name) == ["sleepGoal", "isNotificationsEnabled", "distanceUnit", "colour"])
    let expected = AllowedValues.range(min: .number(0), max: .number(24))
    #expect(later.entries[0].key.allowedValues == expected)
  }
}

/// Observation tells of a change to the value read, and only of that.
@MainActor
@Suite("Settings observation of the value read")
struct SettingsValueObservationTests {
  let folder = TemporaryFolder()

  func tracking(_ read: @escaping () -> Void) -> Flag {
    let flag = Flag()
    withObservationTracking(read) { flag.set() }
    return flag
  }

  /// Another process's write: the file replaced, then a refresh.
  func write(_ values: String, to url: URL, then settings: SettingsStore) throws {
    try Data(#"{"values": {\#(values)}, "version": 1}"#.utf8).write(to: url, options: .atomic)
    try settings.refresh()
  }

  @Test("purple then 5 under a rule that reads both as the default: no redraw, no callback")
  func invalidToInvalid() async throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
    var calls: [String] = []
    let token = settings.onChange(of: \.colour) { calls.append($0) }
    var several: [[String]] = []
    let both = settings.onChange(of: [.key(\.colour), .key(\.sleepGoal)]) { several.append($0) }
    var updates = settings.updates(of: \.colour, initial: false).makeAsyncIterator()
    let view = tracking { _ = settings.colour }
    try write(#""colour": "purple""#, to: url, then: settings)
    try write(#""colour": 5"#, to: url, then: settings)
    #expect(!view.isSet, "redrawn for a value that reads as the default")
    #expect(calls.isEmpty)
    #expect(several.isEmpty)
    try write(#""colour": "dark""#, to: url, then: settings)
    #expect(view.isSet)
    #expect(calls == ["dark"])
    #expect(several == [["colour"]])
    #expect(await updates.next() == "dark", "initial: false skips the current value")
    _ = (token, both)
  }

  @Test("onChange(of:) gives the old and the new value; several keys at once")
  func oldAndNew() throws {
    let settings = SettingsStore(keys: SettingsKeys.app)
    var changes: [(Double, Double)] = []
    let token = settings.onChange(of: \.sleepGoal) { old, new in changes.append((old, new)) }
    var several: [[String]] = []
    let keys = settings.onChange(of: [.key(\.sleepGoal), .key(\.favourites)]) { several.append($0) }
    settings.sleepGoal = 7
    settings.favourites = ["a"]
    settings.distanceUnit = .miles
    settings.sleepGoal = 7
    try settings.reset()
    #expect(changes.map(\.0) == [8, 7])
    #expect(changes.map(\.1) == [7, 8])
    #expect(several == [["sleepGoal"], ["favourites"], ["sleepGoal", "favourites"]])
    _ = (token, keys)
  }

  @Test("an observer that writes its own key is not called again for its own write")
  func ownWrite() throws {
    let settings = SettingsStore(keys: SettingsKeys.app)
    var calls: [Double] = []
    let token = settings.onChange(of: \.sleepGoal) { goal in
      calls.append(goal)
      if goal > 12 { settings.sleepGoal = 12 }
    }
    var others: [Double] = []
    let other = settings.onChange(of: \.sleepGoal) { others.append($0) }
    settings.sleepGoal = 20
    #expect(calls == [20])
    #expect(others == [12], "other observers hear of it (as it is when they are told)")
    #expect(settings.sleepGoal == 12)
    var seen = 0
    let several = settings.onChange(of: [.key(\.sleepGoal)]) { _ in
      seen += 1
      settings.sleepGoal = 3
    }
    settings.sleepGoal = 5
    #expect(seen == 1)
    _ = (token, other, several)
  }

  @Test("updates(of: [keys]) streams the names of the keys that change")
  func severalUpdates() async throws {
    let settings = SettingsStore(keys: SettingsKeys.app)
    var names = settings.updates(of: [.key(\.sleepGoal), .key(\.colour)]).makeAsyncIterator()
    #expect(await names.next() == ["sleepGoal", "colour"])
    settings.distanceUnit = .miles
    settings.colour = "purple"  // refused: nothing changes
    settings.colour = "dark"
    #expect(await names.next() == ["colour"])
  }
}

/// Keys that differ only in Unicode normalization are two keys, as in JSON.
@MainActor
@Suite("Settings keys are their Unicode scalars")
struct SettingsKeyScalarsTests {
  let folder = TemporaryFolder()
  let composed = "caf\u{E9}"
  let decomposed = "cafe\u{301}"

  @Test("a file with both spellings opens; each is kept, and a write to one leaves the other")
  func bothSpellings() throws {
    #expect(composed == decomposed, "Swift holds them equal")
    let url = folder.file("settings.json")
    let text = #"{"values": {"caf\u00e9": 1, "cafe\u0301": 2}, "version": 1}"#
    try Data(text.utf8).write(to: url)
    let settings = try SettingsStore(contentsOf: url)
    #expect(settings.state.values.count == 2)
    #expect(settings.state.values[composed] == .number(1))
    #expect(settings.state.values[decomposed] == .number(2))
    try settings.trySend(.set(key: decomposed, value: .number(3)))
    try settings.trySend(.remove(keys: [composed]))
    try settings.trySend(.set(key: composed, value: .number(4)))
    let reopened = try SettingsStore(contentsOf: url)
    #expect(reopened.state.values[composed] == .number(4))
    #expect(reopened.state.values[decomposed] == .number(3))
    #expect(
      reopened.unknownKeys.map { Array($0.unicodeScalars) }
        == [Array(composed.unicodeScalars), Array(decomposed.unicodeScalars)].sorted {
          String(String.UnicodeScalarView($0)).utf8.lexicographicallyPrecedes(
            String(String.UnicodeScalarView($1)).utf8)
        })
  }

  @Test("observation tells the key written, not its other spelling")
  func observation() throws {
    let settings = SettingsStore(values: [composed: .string("a")])
    let key = SettingsKey<String>(composed, default: "", summary: "")
    let other = SettingsKey<String>(decomposed, default: "", summary: "")
    let file = SettingsStore(values: [composed: .string("a")], keys: [AnySettingsKey(key)])
    let flag = Flag()
    withObservationTracking {
      _ = file.value(for: key)
    } onChange: {
      flag.set()
    }
    try file.set("b", for: other)
    #expect(!flag.isSet)
    #expect(file.value(for: key) == "a")
    try file.set("c", for: key)
    #expect(flag.isSet)
    _ = settings

    // Both spellings read: a change of one tells its trackers only.
    let composedRead = Flag()
    let decomposedRead = Flag()
    withObservationTracking {
      _ = file.value(for: key)
    } onChange: {
      composedRead.set()
    }
    withObservationTracking {
      _ = file.value(for: other)
    } onChange: {
      decomposedRead.set()
    }
    try file.set("d", for: other)
    #expect(decomposedRead.isSet)
    #expect(!composedRead.isSet, "told of the other spelling")
  }

  @Test("two spellings inside a value cannot be kept apart: the file is refused, not changed")
  func nested() throws {
    let url = folder.file("settings.json")
    let text = #"{"values": {"x": {"caf\u00e9": 1, "cafe\u0301": 2}}, "version": 1}"#
    try Data(text.utf8).write(to: url)
    #expect {
      _ = try SettingsStore(contentsOf: url)
    } throws: { error in
      "\(error)".contains("differ only in Unicode normalization")
    }
    #expect(try Data(contentsOf: url) == Data(text.utf8))
  }
}
