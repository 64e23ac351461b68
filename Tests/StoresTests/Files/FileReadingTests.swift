import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A todos file holding one todo whose members are `members` (JSON text).
func todosFile(_ members: String) -> String {
  #"{"version": 1, "todos": [{\#(members)}]}"#
}

/// The members of a valid todo, with `field`'s value replaced by `value` (or left out when
/// `value` is nil).
func todoMembers(_ field: String, _ value: String?) -> String {
  var members = [
    "id": #""6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01""#, "title": #""Buy milk""#,
    "date": #""2026-11-29T09:00:00Z""#, "isDone": "false", "priority": "1",
  ]
  members[field] = value
  return members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }
    .joined(separator: ", ")
}

/// How the reader reads what people and other tools write, and what it says when a value is
/// wrong: the key path and what was expected, in words, never Foundation's.
@Suite("Reading store files")
struct FileReadingTests {
  let sample = Todo(
    id: UUID(uuidString: "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01")!, title: "Buy milk",
    date: Date(timeIntervalSinceReferenceDate: 817_635_600), isDone: false, priority: 1)

  func read(_ text: String) throws -> [Todo] {
    let state: TodosStore.State = try StateFileCoding.decode(Data(text.utf8), path: "f.json")
    return state.todos
  }

  @Test(
    "members in any order, escaped keys, unknown members, any white space: the same todo",
    arguments: [
      #"{"version": 1, "todos": [{"title": "Buy milk", "priority": 1, "isDone": false, "id": "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", "date": "2026-11-29T09:00:00Z"}]}"#,
      #"{"todos": [{"d\u0061te": "2026-11-29T09:00:00Z", "\u0069d": "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", "isDone": false, "priority": 1, "title": "Buy milk"}], "version": 1}"#,
      #"{"version":1,"todos":[{"date":"2026-11-29T09:00:00Z","extra":{"a":[1,{"b":null}],"c":"}"},"id":"6f1c2a4e-3b1d-4c7a-9e2f-0a1b2c3d4e01","isDone":false,"priority":1,"title":"Buy milk","zzz":[]}],"other":{"version":2}}"#,
      "\u{FEFF}{\r\n\t\"todos\" :\t[ {\"date\":\"2026-11-29T09:00:00Z\" , \"id\" : \"6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01\",\n\"isDone\":false,\"priority\":1,\"title\":\"Buy milk\"} ] ,\r\"version\" : 1 }\n",
      #"{"version": 1, "todos": [{"date": "2026-11-29T10:00:00+01:00", "id": "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", "isDone": false, "priority": 1, "title": "Buy \u006dilk"}]}"#,
    ])
  func tolerantReading(text: String) throws {
    #expect(try read(text) == [sample])
  }

  @Test(
    "whole numbers written with a fraction or an exponent are whole numbers",
    arguments: [("1.0", 1), ("1e0", 1), ("10e-1", 1), ("0.1e1", 1), ("-0", 0), ("-0.0e5", 0)])
  func wholeNumbers(text: String, value: Int) throws {
    #expect(try read(todosFile(todoMembers("priority", text))).first?.priority == value)
  }

  @Test(
    "a wrong value names its key path and what was expected, never Foundation's words",
    arguments: [
      ("priority", "1.5", "todos[0].priority: expected a whole number, found 1.5"),
      (
        "priority", "9223372036854775808",
        "todos[0].priority: expected a whole number that fits in 64 bits, found 9223372036854775808"
      ),
      (
        "priority", "-9223372036854775809",
        "todos[0].priority: expected a whole number that fits in 64 bits, found -9223372036854775809"
      ),
      ("priority", "1e-400", "out of range (it would round to zero)"),
      ("priority", #""1""#, "todos[0].priority: expected a whole number, found a string"),
      ("isDone", "1", "todos[0].isDone: expected true or false, found a number"),
      ("title", "null", "todos[0].title: expected a string, found null"),
      ("title", "[]", "todos[0].title: expected a string, found a list"),
      ("title", #""  ""#, "todos[0].title: a title cannot be empty"),
      (
        "id", #""not-a-uuid""#,
        #"todos[0].id: expected a UUID such as "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", found "not-a-uuid""#
      ),
      (
        "id", "{}",
        #"todos[0].id: expected a UUID such as "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", found an object"#
      ),
      (
        "date", "817635600",
        #"todos[0].date: expected a date such as "2026-11-29T07:30:00Z", found a number"#
      ),
      (
        "date", #""2026-02-30T09:00:00Z""#,
        #"todos[0].date: expected a date such as "2026-11-29T07:30:00Z", found "2026-02-30T09:00:00Z""#
      ),
      ("date", nil, #"todos[0]: missing key "date""#),
    ])
  func wrongValues(field: String, value: String?, expected: String) {
    let error = readingError(todosFile(todoMembers(field, value)), as: TodosStore.State.self)
    #expect(error?.contains(expected) == true, "\(error ?? "read")")
    for foundation in ["Attempted", "given data", "DecodingError", "Expected to decode"] {
      #expect(error?.contains(foundation) == false)
    }
  }

  @Test(
    "a wrong list, object or envelope names its place",
    arguments: [
      (#"{"version": 1, "todos": {}}"#, "f.json at todos: expected a list, found an object"),
      (#"{"version": 1, "todos": [3]}"#, "f.json at todos[0]: expected an object, found a number"),
      (#"{"version": 1}"#, #"f.json: missing key "todos""#),
      (#""todos""#, "f.json: expected a list, found a string"),
      (#"{"todos": []}"#, #"f.json: missing key "version""#),
      (#"{"version": 1.5, "todos": []}"#, "f.json at version: expected a whole number 0 or more"),
      (
        #"{"version": 1, "todos": [{\#(todoMembers("", nil))}, {\#(todoMembers("", nil))}]}"#,
        "f.json at todos: two todos have the same id"
      ),
      (
        #"[{\#(todoMembers("", nil))}, {\#(todoMembers("", nil))}]"#,
        "f.json: two todos have the same id"
      ),
    ])
  func wrongStructure(text: String, expected: String) {
    let error = readingError(text, as: TodosStore.State.self)
    #expect(error?.contains(expected) == true, "\(error ?? "read")")
  }

  @Test("a workout's sort type may be missing or null; a wrong one lists every sort type")
  func optionalMembers() throws {
    for text in [
      #"{"version": 1, "workouts": []}"#, #"{"version": 1, "sortType": null, "workouts": []}"#,
    ] {
      let state: WorkoutsStore.State = try StateFileCoding.decode(Data(text.utf8), path: "f")
      #expect(state.sortType == nil)
    }
    let names = WorkoutsStore.SortType.allCases.map { "\"\($0.rawValue)\"" }
    let error = readingError(
      #"{"version": 1, "sortType": 3, "workouts": []}"#, as: WorkoutsStore.State.self)
    #expect(
      error?.contains(
        "sortType: expected \(names.dropLast().joined(separator: ", ")) or \(names.last!), found a number"
      ) == true, "\(error ?? "read")")
  }

  // Issue 12, item 12: a date read must be writable.

  @Test("a date whose fraction rounds up to the year 10000 is refused when read, with its place")
  func dateRoundingToYear10000() {
    let error = readingError(
      todosFile(todoMembers("date", #""9999-12-31T23:59:59.9999999Z""#)),
      as: TodosStore.State.self)
    #expect(
      error?.contains(
        #"todos[0].date: expected a date in the years 1…9999 (UTC), found "9999-12-31T23:59:59.9999999Z""#
      )
        == true, "\(error ?? "read")")
    #expect(ISO8601Timestamp.date(from: "9999-12-31T23:59:59.9999999Z") == nil)
  }

  @Test("every timestamp that reads, however close to either end of the range, writes back")
  func everyReadDateWrites() throws {
    var texts: [String] = []
    for digits in 1...12 {
      texts.append("9999-12-31T23:59:59." + String(repeating: "9", count: digits) + "Z")
      texts.append("9999-12-31T23:59:59." + String(repeating: "9", count: digits) + "8Z")
      texts.append("0001-01-01T00:00:00." + String(repeating: "0", count: digits) + "1Z")
      texts.append("9999-12-31T22:59:59." + String(repeating: "9", count: digits) + "-01:00")
    }
    var accepted = 0
    for text in texts {
      guard let date = ISO8601Timestamp.date(from: text) else { continue }
      accepted += 1
      let written = try #require(ISO8601Timestamp.string(from: date), "\(text)")
      #expect(ISO8601Timestamp.date(from: written) == date, "\(text)")
    }
    #expect(accepted >= texts.count / 2)
  }
}

/// Issue 12, item 15: values of keys no registered key knows survive a rewrite exactly.
@MainActor
@Suite("Unknown settings are kept byte for byte")
struct UnknownSettingsTests {
  let folder = TemporaryFolder()

  @Test("large integers, trailing zeros, exponents and -0 keep their digits when a setting changes")
  func numbersKeepTheirDigits() throws {
    let url = folder.write(
      #"{"version": 1, "values": {"big": 9007199254740993, "huge": 123456789012345678901234567890, "zeros": 7.50, "exponent": 1E2, "negativeZero": -0, "nested": [1.0, {"id": 18446744073709551617}]}}"#,
      to: "settings.json")
    let settings = try SettingsStore(contentsOf: url)
    try settings.set(\.sleepGoal, to: 6)
    let file = try #require(text(url))
    for member in [
      #""big" : 9007199254740993"#, #""huge" : 123456789012345678901234567890"#,
      #""zeros" : 7.50"#, #""exponent" : 1E2"#, #""negativeZero" : -0"#, "1.0,",
      #""id" : 18446744073709551617"#, #""sleepGoal" : 6"#,
    ] {
      #expect(file.contains(member), "\(member) in \(file)")
    }
    #expect(try SettingsStore(contentsOf: url).unknownKeys.count == 6)
  }

  @Test("a number keeps its text; one made from a Double or an Int is spelled as JSONEncoder does")
  func numberText() {
    #expect(JSONNumber("9007199254740993")?.integer == 9_007_199_254_740_993)
    #expect(JSONNumber("1e2")?.integer == 100)
    #expect(JSONNumber("1.5")?.integer == nil)
    #expect(JSONNumber("1e400") == nil)
    #expect(JSONNumber(" 1") == nil)
    #expect(JSONNumber("1 ") == nil)
    #expect(JSONNumber("01") == nil)
    #expect(JSONNumber(7.5).text == "7.5")
    #expect(JSONNumber(8.0).text == "8")
    #expect(JSONNumber(1e308).text == "1e+308")
    #expect(JSONNumber(Int.min).text == "-9223372036854775808")
    #expect(JSONNumber("7.50") != JSONNumber(7.5))
    #expect(JSONNumber("7.50")?.double == 7.5)
  }
}

/// The validator's duplicate keys, now told by fingerprints in small objects and by hashes in
/// large ones: found however they are spelled.
@Suite("Duplicate keys in every spelling")
struct DuplicateKeySpellingTests {
  @Test(
    "an escaped or decomposed spelling of an earlier key is a duplicate, in small and large objects",
    arguments: [2, 15, 16, 17, 40])
  func spellings(size: Int) {
    let members = (0..<size).map { "\"k\($0)é\": \($0)" }
    let prefix = "{" + members.joined(separator: ", ") + ", "
    for spelling in [#"k0\u00e9"#, "k0e\u{301}", #"\u006b0é"#, #"k0e\u0301"#] {
      let error = validationError(prefix + "\"\(spelling)\": 0}")
      #expect(
        error?.message.hasPrefix("duplicate key 'k0é") == true, "\(spelling): \(error as Any)")
    }
    #expect(validationError("{" + members.joined(separator: ", ") + "}") == nil)
    // Same first eight bytes and length, different keys: not duplicates.
    let similar = (0..<size).map { "\"abcdefgh\(UnicodeScalar(65 + $0 % 26)!)\($0)\": 1" }
    #expect(validationError("{" + similar.joined(separator: ", ") + "}") == nil)
  }
}

@Suite("Platform numbers")
struct PlatformNumberTests {
  @Test("device numbers of every type are taken by bit pattern: a negative Int32 does not trap")
  func deviceNumbersByBitPattern() {
    // dev_t is Int32 on Apple platforms, where a device number can be negative.
    let devices: [Int32] = [-1, .min, 0, 1, .max]
    let keys = devices.map { Platform.bitPattern($0) }
    #expect(Set(keys).count == devices.count, "distinct numbers stay distinct")
    #expect(Platform.bitPattern(Int32(7)) == 7)
    #expect(Platform.bitPattern(UInt64.max) == .max, "Linux's UInt64 as it is")
    #expect(Platform.bitPattern(UInt16(65_535)) == 65_535)
  }
}

/// A racy version (written within a clock tick of now) is confirmed by the hash of the file's
/// content, read in parts — no copy of a large file held while a transaction holds the state.
@Suite("Content hashes read in parts")
struct ContentHashTests {
  let folder = TemporaryFolder()

  @Test("a file's hash read in parts is the hash of its bytes, whatever its size; none for no file")
  func hashInParts() throws {
    var random = SeededRandom(seed: 11)
    let part = FileOutput.partSize
    for size in [0, 1, part - 1, part, part + 1, 3 * part + 17] {
      let data = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
      let url = folder.file("file-\(size)")
      try data.write(to: url)
      #expect(try FileSystem.contentHash(of: url.path, path: url.path) == FileVersion.hash(data))
      let written = FileOutput(
        open(folder.file("written-\(size)").path, O_WRONLY | O_CREAT, 0o600), hashing: true)
      defer { close(written.descriptor) }
      data.withUnsafeBytes { written.append($0) }
      #expect(written.contentHash == FileVersion.hash(data), "as a write hashes what it writes")
    }
    #expect(try FileSystem.contentHash(of: folder.file("none").path, path: "none") == nil)
  }
}
