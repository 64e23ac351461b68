import Foundation
import StoreTesting
import Testing

@testable import Stores

/// More of an app's keys, for the types `SettingsKeys.app` does not have.
extension SettingsKeys {
  var loudness: SettingsKey<Int> {
    SettingsKey("loudness", default: 5, in: 0...10, summary: "Loud")
  }
  var speed: SettingsKey<Double> { SettingsKey("speed", default: 1, in: 0.5...2, summary: "Speed") }
  var muted: SettingsKey<Bool> { SettingsKey("muted", default: false, summary: "Muted") }
  var mood: SettingsKey<Theme?> { SettingsKey("mood", default: nil, summary: "Mood") }
  var motto: SettingsKey<String> {
    SettingsKey(
      "motto", default: "carpe diem", summary: "Motto", allowedValues: .described("short")
    ) {
      $0.count <= 20 ? nil : "is too long"
    }
  }

  /// Every type: `app`'s and these.
  static let catalogued: [AnySettingsKey] =
    app + [.key(\.loudness), .key(\.speed), .key(\.muted), .key(\.mood), .key(\.motto)]
}

/// The key catalog: an app's store on a file describes its registered keys beside the file
/// (`settings.keys.json`), once, and other programs read the descriptions back — never
/// trusting the file.
@MainActor
@Suite("The key catalog")
struct SettingsCatalogTests {
  let folder = TemporaryFolder()
  var url: URL { folder.file("settings.json") }
  var catalogURL: URL { folder.file("settings.keys.json") }

  /// The identity of the catalog file (it changes with every write: a write renames a new
  /// file over it).
  func catalogIdentity() -> FileIdentity? {
    try? FileSystem.identity(of: catalogURL.path)
  }

  @Test("each type is described as the app declares it")
  func descriptions() throws {
    let keys = Dictionary(
      uniqueKeysWithValues: SettingsKeys.catalogued.map { ($0.name, $0.keyDescription) })
    func kind(_ name: String) -> SettingKind? { keys[name]?.kind }
    #expect(kind("favourites") == .json && kind("tags") == .json && kind("scores") == .json)
    #expect(kind("lastSync") == .date && kind("avatar") == .data && kind("server") == .url)
    #expect(kind("device") == .uuid && kind("quietHours") == .json && kind("window") == .json)
    #expect(kind("frame") == .json && kind("loudness") == .integer && kind("speed") == .number)
    #expect(kind("muted") == .bool && kind("colour") == .string)
    let nickname = try #require(keys["nickname"])
    #expect(nickname.kind == .string && nickname.isOptional && nickname.defaultValue == .null)
    let level = try #require(keys["level"])
    #expect(level.kind == .integer && level.isEnumeration && level.allowedValues == .any)
    let theme = try #require(keys["theme2"])
    #expect(theme.kind == .string && theme.isEnumeration)
    #expect(theme.allowedValues == .oneOf([.string("light"), .string("dark")]))
    let mood = try #require(keys["mood"])
    #expect(mood.isOptional && mood.isEnumeration && mood.kind == .string)
    #expect(keys["loudness"]?.allowedValues == .range(min: .number(0), max: .number(10)))
    #expect(keys["loudness"]?.hasRule == false, "a range is written down, not a rule")
    #expect(keys["colour"]?.hasRule == true && keys["quietHours"]?.hasRule == true)
    #expect(keys["motto"]?.hasRule == true && keys["motto"]?.allowedValues == .described("short"))
    #expect(keys["frame"]?.defaultValue == SettingsStore.definitions.frame.defaultValue.json)
    #expect(keys["server"]?.defaultValue == .string("https://example.com"))
  }

  @Test("written with the first write, once, and read back as declared")
  func writtenOnce() throws {
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued)
    #expect(
      folder.snapshot().keys.sorted() == ["settings.keys.json"],
      "opening a store that only reads records its keys, and writes no setting")
    let written = try #require(catalogIdentity(), "recorded when the store opens")
    settings.loudness = 7
    #expect(catalogIdentity() == written, "not again with the first write")
    let catalog = SettingsCatalog.read(besideSettingsAt: url)
    #expect(catalog.problem == nil)
    #expect(catalog.keys == SettingsKeys.catalogued.map(\.keyDescription))
    #expect(permissions(catalogURL) == 0o600)

    // Opened again — the same keys, a widget's few, from a link to the file — nothing is
    // written.
    _ = try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued)
    _ = try SettingsStore(contentsOf: url, keys: [.key(\.muted)])
    try FileManager.default.createSymbolicLink(
      at: folder.file("link.json"), withDestinationURL: url)
    _ = try SettingsStore(contentsOf: folder.file("link.json"), keys: SettingsKeys.catalogued)
    settings.loudness = 8
    #expect(catalogIdentity() == written)
    #expect(!FileManager.default.fileExists(atPath: folder.file("link.keys.json").path))

    // Another version of the app that declares one key otherwise, and one more: that key's
    // entry changes in place, the new one comes last, the others stay.
    let changed = SettingsKey<Int>("loudness", default: 3, in: 0...11, summary: "Louder")
    let extra = SettingsKey<String>("extra", default: "", summary: "Extra")
    let other = try SettingsStore(
      contentsOf: url, keys: [AnySettingsKey(changed), AnySettingsKey(extra)])
    _ = other
    let after = SettingsCatalog.read(besideSettingsAt: url).keys
    #expect(after.map(\.name) == SettingsKeys.catalogued.map(\.name) + ["extra"])
    #expect(after.first { $0.name == "loudness" } == AnySettingsKey(changed).keyDescription)
    #expect(catalogIdentity() != written)
  }

  @Test("no catalog beside a file the store may not write, nor for a store in memory")
  func readOnly() throws {
    _ = folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
    chmod(url.path, 0o444)
    _ = try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued)
    let memory = SettingsStore(keys: SettingsKeys.catalogued)
    memory.loudness = 2
    #expect(catalogIdentity() == nil)
    chmod(url.path, 0o600)
    _ = try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued)
    #expect(catalogIdentity() != nil, "an existing file the store writes: recorded at open")
  }

  @Test("a lock held by another writer: tried again after the store's next change")
  func lockHeld() throws {
    _ = folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
    let lock = open(folder.file("settings.json.lock").path, O_RDWR | O_CREAT, 0o600)
    #expect(flock(lock, LOCK_EX) == 0)
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued)
    #expect(catalogIdentity() == nil, "not waited for")
    close(lock)
    settings.muted = true
    #expect(SettingsCatalog.read(besideSettingsAt: url).keys.count == SettingsKeys.catalogued.count)
  }

  /// A random description, valid for its kind.
  static let descriptionGen: Gen<SettingsKeyDescription> = {
    let text = Gen<String>.string(from: .unicode, count: 1...12)
    let values: [SettingKind: Gen<JSONValue>] = [
      .string: text.map(JSONValue.string),
      .number: Gen<Double>.double(in: -1e6...1e6).map { .number(JSONNumber($0)) },
      .integer: Gen<Int>.integer(in: -1000...1000).map { .number(JSONNumber($0)) },
      .bool: Gen<Bool>.bool.map(JSONValue.bool),
      .date: Gen<Date>.date().map { $0.json },
      .url: Gen<Int>.integer(in: 0...999).map { .string("https://example.com/\($0)") },
      .uuid: Gen<Int>.integer(in: 0...999_999).map {
        .string("00000000-0000-0000-0000-" + String(format: "%012d", $0))
      },
      .data: Gen<[UInt8]>.array(of: .integer(in: 0...255), maxCount: 8).map {
        .string(Data($0).base64EncodedString())
      },
      .json: Gen<[String: Int]>.dictionary(keys: text, values: .integer(in: 0...9), maxCount: 3)
        .map { $0.json },
    ]
    return Gen<SettingKind>.element(of: SettingKind.allCases).flatMap { kind in
      let value = values[kind]!
      let allowed = Gen<AllowedValues>.oneOf(
        .constant(.any), text.map(AllowedValues.described),
        value.array(count: 1...4).map(AllowedValues.oneOf),
        Gen<(JSONValue, JSONValue)>.zip(value, value).map { .range(min: $0, max: $1) })
      return Gen<(String, String, JSONValue, AllowedValues, Bool, Bool, Bool, Bool)>.zip(
        text, text, value, allowed, .bool, .bool, .bool, .bool
      ).map { name, summary, value, allowed, optional, enumeration, rule, isNil in
        SettingsKeyDescription(
          name: name, kind: kind, isOptional: optional, isEnumeration: enumeration,
          defaultValue: optional && isNil ? .null : value, summary: summary,
          allowedValues: allowed, hasRule: rule)
      }
    }
  }()

  @Test("a description of any kind round-trips through its entry and the file (property)")
  func roundTrip() {
    check(Gen.array(of: Self.descriptionGen, maxCount: 6), iterations: 60) { descriptions in
      for description in descriptions {
        try requireEqual(try SettingsKeyDescription(entry: description.json), description)
      }
      // Through the file: names made unique, none a built-in one.
      let unique = descriptions.enumerated().map { index, description in
        var description = description
        description.name = "k\(index) " + description.name
        return description
      }
      let folder = TemporaryFolder()
      let url = folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
      try require(SettingsCatalog.record(unique, besideSettingsAt: url) || unique.isEmpty)
      let read = SettingsCatalog.read(besideSettingsAt: url)
      try requireEqual(read.problem, nil)
      try requireEqual(read.keys, unique)
    }
  }

  @Test("a key registered from its description reads and checks as the declared one (property)")
  func describedKeyChecksAsDeclared() {
    let key = AnySettingsKey.key(\.loudness)
    let described = AnySettingsKey(described: key.keyDescription)
    let stored = Gen<JSONValue>.oneOf(
      Gen<Int>.integer(in: -3...13).map { .number(JSONNumber($0)) },
      Gen<Double>.double(in: -1...12).map { .number(JSONNumber($0)) },
      .constant(.string("loud")), .constant(.null), .constant(.bool(true)))
    check(Gen<(JSONValue, JSONValue)>.zip(stored, stored), iterations: 200) { a, b in
      try requireEqual(described.problem(with: a), key.problem(with: a))
      try requireEqual(described.readsSame(a, b), key.readsSame(a, b))
    }
  }

  @Test(
    "a hostile catalog is ignored with one problem; the app replaces it unless it is newer",
    arguments: [
      ("garbage", Data([0xFF, 0x00, 0x7B, 0x22]), "is not valid JSON"),
      ("not an object", Data("[1, 2]".utf8), #"is not an object with a "version""#),
      ("no keys", Data(#"{"version": 1, "keys": 5}"#.utf8), #"is not {"version": 1"#),
      ("newer", Data(#"{"version": 2, "keys": []}"#.utf8), "of version 2, newer"),
      ("huge", Data(repeating: 0x20, count: SettingsCatalog.maxSize + 1), "larger than 1 MB"),
      ("deep", Data((String(repeating: "[", count: 100_000)).utf8), "is not valid JSON"),
    ])
  func hostileFiles(name: String, bytes: Data, problem: String) throws {
    let settings = folder.write(#"{"values": {"loudness": 4}, "version": 1}"#, to: "settings.json")
    _ = folder.write(bytes, to: "settings.keys.json")
    let before = folder.snapshot()
    let catalog = SettingsCatalog.read(besideSettingsAt: settings)
    #expect(catalog.keys.isEmpty)
    #expect(catalog.problem?.contains(problem) == true, "\(name): \(catalog.problem ?? "")")
    #expect(folder.snapshot() == before, "reading writes nothing")
    // The app replaces a catalog that is not one with its own — unless it is a newer one.
    let store = try SettingsStore(contentsOf: settings, keys: SettingsKeys.catalogued)
    #expect(store.loudness == 4)
    #expect(contents(settings) == before["settings.json"], "the settings are untouched")
    let after = SettingsCatalog.read(besideSettingsAt: settings)
    if name == "newer" {
      #expect(contents(catalogURL) == bytes)
    } else {
      #expect(after.problem == nil && after.keys.count == SettingsKeys.catalogued.count)
    }
  }

  @Test("entries that are not valid are left out, with one problem; the others are read")
  func hostileEntries() throws {
    let url = folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
    let valid = #"{"name": "volume", "type": "integer", "default": 5, "summary": "Volume"}"#
    let entries = [
      valid, "5", #"{"type": "string", "default": ""}"#, #"{"name": "", "type": "string"}"#,
      #"{"name": "a", "type": "colour", "default": 1}"#,
      #"{"name": "b", "type": "integer", "default": "five"}"#,
      #"{"name": "c", "type": "integer", "default": 1, "allowed": {"min": "x", "max": 2}}"#,
      #"{"name": "d", "type": "integer", "default": 1, "allowed": true}"#,
      #"{"name": "e", "type": "string", "default": "", "optional": "yes"}"#,
      #"{"name": "f", "type": "string", "default": 5, "summary": 5}"#,
      #"{"name": "volume", "type": "string", "default": ""}"#,
      #"{"name": "sleepGoal", "type": "number", "default": 1}"#,
      #"{"name": "g", "type": "date", "default": "soon"}"#,
    ]
    _ = folder.write(
      #"{"version": 1, "keys": ["# + entries.joined(separator: ",") + "]}", to: "settings.keys.json"
    )
    let catalog = SettingsCatalog.read(besideSettingsAt: url)
    #expect(catalog.keys.map(\.name) == ["volume"])
    #expect(
      catalog.problem
        == "12 entries of the key catalog settings.keys.json ignored: entry 2 is not an "
        + "object (and 11 more)")
    // The app keeps the entries of other keys (a newer version's, say) as they are.
    _ = try SettingsStore(contentsOf: url, keys: [.key(\.muted)])
    let written = try #require(text(catalogURL))
    #expect(written.contains(#""colour""#) && written.contains(#""muted""#))
  }

  @Test("a sync engine's copy of the catalog joins the union, then goes; settings leave it be")
  func conflictCopies() throws {
    let url = folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
    let settings = try SettingsStore(contentsOf: url, keys: [.key(\.muted)])
    let copy = "settings.keys.sync-conflict-20261201-120000-ABCDEFG.json"
    folder.write(
      #"{"version": 1, "keys": [{"name": "phoneOnly", "type": "bool", "default": true}]}"#,
      to: copy)
    // Not a copy of settings.json: the settings store neither merges nor reports it.
    settings.muted = true
    try settings.refresh()
    #expect(settings.core.mergeReport.notMerged.isEmpty && settings.core.mergeReport.merged.isEmpty)
    #expect(FileManager.default.fileExists(atPath: folder.file(copy).path))
    #expect(SettingsCatalog.read(besideSettingsAt: url).keys.map(\.name) == ["muted"])
    // The next store that records its keys takes the copy's entries in, and removes it.
    _ = try SettingsStore(contentsOf: url, keys: [.key(\.muted)])
    #expect(SettingsCatalog.read(besideSettingsAt: url).keys.map(\.name) == ["muted", "phoneOnly"])
    #expect(!FileManager.default.fileExists(atPath: folder.file(copy).path))
  }

  @Test("a link, a folder or a FIFO in the catalog's place is not followed nor replaced")
  func notRegularFiles() throws {
    let url = folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
    let elsewhere = TemporaryFolder()
    let target = elsewhere.write(#"{"version": 1, "keys": []}"#, to: "target.json")
    for make in [
      {
        try FileManager.default.createSymbolicLink(at: self.catalogURL, withDestinationURL: target)
      },
      {
        try FileManager.default.createDirectory(
          at: self.catalogURL, withIntermediateDirectories: false)
      },
      { #expect(mkfifo(self.catalogURL.path, 0o600) == 0) },
    ] {
      try make()
      let catalog = SettingsCatalog.read(besideSettingsAt: url)
      #expect(catalog.problem?.contains("not a regular file") == true, "\(catalog)")
      let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued)
      settings.muted.toggle()
      #expect(text(target) == #"{"version": 1, "keys": []}"#)
      #expect(SettingsCatalog.read(besideSettingsAt: url).keys.isEmpty)
      try FileManager.default.removeItem(at: catalogURL)
    }
  }
}

extension SettingsCatalogTests {
  @Test("any bytes as a catalog: read without a crash, each key read back from its entry")
  func anyBytes() throws {
    let valid = try #require(
      text(
        {
          let url = folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
          SettingsCatalog.record(
            SettingsKeys.catalogued.map(\.keyDescription), besideSettingsAt: url)
          return catalogURL
        }()))
    let bytes = Array(valid.utf8)
    // A valid catalog with a few bytes replaced, or removed, anywhere.
    let edits = Gen<(Int, Int, UInt8)>.zip(
      .integer(in: 0...bytes.count - 1), .integer(in: 0...3), Gen<UInt8>.integer(in: 0...127)
    ).array(count: 1...6)
    check(edits, iterations: 300) { edits in
      var mutated = bytes
      for (place, length, byte) in edits {
        let start = min(place, mutated.count)
        mutated.replaceSubrange(
          start..<min(start + length, mutated.count), with: length == 0 ? [] : [byte])
      }
      let catalog = SettingsCatalog(parsing: Data(mutated), name: "settings.keys.json")
      for key in catalog.keys {
        try requireEqual(try SettingsKeyDescription(entry: key.json), key)
      }
      try require(catalog.keys.count <= SettingsKeys.catalogued.count)
    }
  }
}
