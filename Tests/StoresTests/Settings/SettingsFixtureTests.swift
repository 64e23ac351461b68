import Foundation
import StoreTesting
import Stores
import Testing

/// Every file in `Fixtures/settings/`, with the outcome it must have; no file ever changes.
@MainActor
@Suite("Settings fixtures")
struct SettingsFixtureTests {
  let folder = TemporaryFolder()

  /// Opens a copy of the fixture `name` and checks that reading left it as it was.
  func open(_ name: String) throws -> SettingsStore {
    let url = folder.copy(fixture: "settings/\(name)", as: "settings.json")
    let before = contents(url)
    defer { #expect(contents(url) == before, "\(name) changed") }
    let settings = try SettingsStore(contentsOf: url)
    _ = settings.entries
    return settings
  }

  @Test("valid.json reads as written")
  func valid() throws {
    let settings = try open("valid.json")
    #expect(settings.sleepGoal == 7.5)
    #expect(settings.isNotificationsEnabled == false)
    #expect(settings.distanceUnit == .miles)
  }

  @Test("an empty object is a version-0 file with nothing set: all defaults")
  func emptyObject() throws {
    let settings = try open("empty-object.json")
    #expect(settings.entries.allSatisfy { $0.storedValue == nil })
  }

  @Test("version 0, a bare object of settings, is read")
  func versionZero() throws {
    let settings = try open("version-0.json")
    #expect(settings.sleepGoal == 6)
    #expect(settings.distanceUnit == .miles)
  }

  @Test("unknown keys are read and kept; the known ones apply")
  func unknownKeys() throws {
    let settings = try open("unknown-keys.json")
    #expect(settings.sleepGoal == 6)
    #expect(settings.unknownKeys == ["theme", "window"])
  }

  @Test("wrong types and out-of-range values read as defaults, each reported")
  func invalidValues() throws {
    for name in ["wrong-types.json", "out-of-range.json"] {
      let settings = try open(name)
      #expect(settings.sleepGoal == 8)
      #expect(settings.distanceUnit == .kilometers)
      #expect(settings.entries.filter { $0.problem != nil }.count >= 2, "\(name)")
    }
    let wrong = try open("wrong-types.json")
    #expect(
      wrong.entries.map(\.problem) == [
        "expected a number, found \"eight\"", "expected one of true, false, found \"yes\"",
        "expected one of kilometers, miles, meters, yards, found 5",
      ])
  }

  @Test("a huge value is read: a 200 KB string kept, 1e308 reported out of range")
  func hugeValue() throws {
    let settings = try open("huge-value.json")
    #expect(settings.unknownKeys == ["notes"])
    #expect(settings.entries[0].problem == "1e+308 is out of range 0...24")
    #expect(settings.sleepGoal == 8)
  }

  @Test("a UTF-8 byte-order mark at the start is accepted")
  func byteOrderMark() throws {
    #expect(try open("bom.json").sleepGoal == 6.5)
  }

  @Test(
    "broken files are refused with the place and the problem",
    arguments: [
      ("truncated.json", "line 4, column 15: unterminated string"),
      ("not-json.json", "line 1, column 1: expected a JSON value"),
      ("zero-bytes.json", "the file is empty"),
      ("newer-version.json", "newer version (file version 3; this version reads up to 2)"),
      ("invalid-utf8.json", "invalid UTF-8"),
      ("deeply-nested.json", "nested deeper than 512 levels"),
      (
        "duplicate-keys.json",
        "line 4, column 5: duplicate key 'sleepGoal' (first at line 3, column 5)"
      ),
    ])
  func broken(name: String, expected: String) throws {
    let url = folder.copy(fixture: "settings/\(name)", as: "settings.json")
    let before = contents(url)
    let error = #expect(throws: StoreFileError.self) { try SettingsStore(contentsOf: url) }
    #expect(error?.description.hasPrefix(url.path) == true)
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    #expect(contents(url) == before)
  }
}
