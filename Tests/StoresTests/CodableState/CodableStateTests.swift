import Foundation
import Observation
import StoreTesting
import Stores
import TestSupport
import Testing

/// A store on any `CodableState`, whose one action replaces the state.
@MainActor @Observable
final class ValueStore<Value: CodableState>: Store {
  enum Action: Sendable { case set(Value) }

  nonisolated static func reduce(_ state: inout Value, _ action: Action) -> Bool {
    guard case .set(let value) = action, value != state else { return false }
    state = value
    return true
  }

  @ObservationIgnored let core: StoreCore<ValueStore<Value>>

  init(contentsOf url: URL) throws {
    core = try ValueStore.fileCore(contentsOf: url)
  }
}

/// What `JSONEncoder` writes, with the store files' options and dates, for `state` in an
/// envelope of `version`: the state's `Codable` form with a `"version"` member, and a line
/// break.
func foundationFile<State: Encodable>(_ state: State, version: Int = 1) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  encoder.dateEncodingStrategy = .custom { date, encoder in
    var container = encoder.singleValueContainer()
    try container.encode(ISO8601Timestamp.string(from: date)!)
  }
  let data = try encoder.encode(Envelope(state: state, version: version))
  return String(decoding: data, as: UTF8.self) + "\n"
}

/// A state in its file's envelope, as `JSONEncoder` encodes it: its own keys and `"version"`.
private struct Envelope<State: Encodable>: Encodable {
  var state: State
  var version: Int
  enum Keys: String, CodingKey { case version }
  func encode(to encoder: any Encoder) throws {
    try state.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(version, forKey: .version)
  }
}

/// States of every shape the envelope's `"version"` meets.
struct NoKeys: CodableState { var note: String? }
struct KeyBefore: CodableState { var alpha = 1 }
struct KeyAfter: CodableState { var zeta = [1, 2] }
struct KeysAround: CodableState {
  var alpha: [String: [Int]] = ["a": [], "b": [1]]
  var vERSION = "upper case sorts before"
  var versions = ["a prefix of it sorts after"]
  var zeta: [Int] = []
}

/// A state with a property of the envelope's name.
struct Versioned: CodableState { var version = 3 }
struct MaybeVersioned: CodableState {
  var name = "x"
  var version: Int?
}

/// A state that is a list, not an object.
struct Listed: CodableState {
  var items: [Int] = []
  init() {}
  init(from decoder: any Decoder) throws { items = try [Int](from: decoder) }
  func encode(to encoder: any Encoder) throws { try items.encode(to: encoder) }
}

/// A state whose own decoding refuses some values.
struct Percentages: CodableState {
  struct OutOfRange: Error, CustomStringConvertible {
    var value: Int
    var description: String { "\(value) is not a percentage" }
  }
  var values: [Int] = []
  init() {}
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    values = try container.decode([Int].self, forKey: .values)
    if let wrong = values.first(where: { !(0...100).contains($0) }) {
      throw OutOfRange(value: wrong)
    }
  }
}

/// Format 2 of a tally, read from format 1 (`{"names": […], "version": 1}`) and from a bare
/// list of names (version 0).
struct Tally: CodableState {
  static var fileVersion: Int { 2 }
  var counts: [String: Int] = [:]

  static func migrate(fromVersion version: Int, decoder: any Decoder) throws -> Tally {
    struct VersionOne: Decodable { var names: [String] }
    let names =
      version == 0 ? try [String](from: decoder) : try VersionOne(from: decoder).names
    return Tally(counts: Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +))
  }
}

/// A state with a part kept only in memory, out of its `CodingKeys`.
struct Draft: CodableState {
  var saved: [String] = []
  var typing = ""
  enum CodingKeys: String, CodingKey { case saved }
  mutating func keepMemoryOnlyState(from previous: Draft) { typing = previous.typing }
}

@MainActor
@Suite("Codable state")
struct CodableStateTests {
  let folder = TemporaryFolder()

  /// An entry with every kind of value set.
  static func entry(_ text: String, date: Date = Date()) -> JournalStore.Entry {
    JournalStore.Entry(
      text: text, date: date, mood: .described("bright / \"clear\"", intensity: 0.5),
      tags: ["walk", "é"], place: .init(latitude: 48.85, longitude: 2.35, name: nil))
  }

  @Test("nested types, dates, optionals and enumerations load back equal")
  func roundTrip() throws {
    let url = folder.file("journal.json")
    let store = try JournalStore(contentsOf: url)
    let dates = [
      Date(), Date(timeIntervalSinceReferenceDate: -1e-7),
      Date(timeIntervalSince1970: -5e9 + 1 / 3), Date(timeIntervalSinceReferenceDate: 0.25),
    ]
    let moods: [JournalStore.Mood?] = [nil, .calm, .rated(-3), .described("", intensity: 1e-300)]
    for (index, (date, mood)) in zip(dates, moods).enumerated() {
      var entry = Self.entry("entry \(index)", date: date)
      entry.mood = mood
      entry.place = index.isMultiple(of: 2) ? nil : .init(latitude: -1, longitude: 0, name: "∅")
      entry.tags = Array(repeating: "t", count: index)
      try store.trySend(.add(entry))
    }
    try store.trySend(.setAuthor("Anna"))
    try store.trySend(.setZone("Europe/Paris"))
    let reopened = try JournalStore(contentsOf: url)
    #expect(reopened.state == store.state)
    #expect(reopened.state.entries.map(\.date) == dates)
    #expect(reopened.state.counts == ["untagged": 1, "t": 3])
  }

  @Test("the file is the bytes JSONEncoder writes for the state beside its version")
  func fileIsJSONEncoders() throws {
    let url = folder.file("journal.json")
    let store = try JournalStore(contentsOf: url)
    let date = Date(timeIntervalSinceReferenceDate: 817_630_200.25)
    try store.trySend(
      .add(
        JournalStore.Entry(
          id: UUID(uuidString: "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01")!, text: "a / b",
          date: date, mood: .rated(4))))
    #expect(
      text(url) == """
        {
          "author" : "",
          "counts" : {
            "untagged" : 1
          },
          "entries" : [
            {
              "date" : "2026-11-29T07:30:00.25Z",
              "id" : "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01",
              "mood" : {
                "rated" : {
                  "_0" : 4
                }
              },
              "tags" : [

              ],
              "text" : "a / b"
            }
          ],
          "version" : 1
        }

        """)
    try store.trySend(.add(Self.entry("more")))
    try store.trySend(.setZone("UTC"))
    #expect(text(url) == (try foundationFile(store.state)))
  }

  @Test("\"version\" goes where JSONEncoder sorts it, whatever the state's keys")
  func versionAmongKeys() throws {
    func check<State: CodableState>(
      _ state: State, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let file = try StateFileCoding.encode(CodableStateFile(state), path: "state.json")
      #expect(
        String(decoding: file, as: UTF8.self)
          == (try foundationFile(state, version: State.fileVersion)),
        sourceLocation: sourceLocation)
      let read: CodableStateFile<State> = try StateFileCoding.decode(file, path: "state.json")
      #expect(read.value == state, sourceLocation: sourceLocation)
    }
    try check(NoKeys())
    try check(NoKeys(note: "only"))
    try check(KeyBefore())
    try check(KeyAfter())
    try check(KeysAround())
    try check(Tally(counts: ["a": 2]))
  }

  @Test("a file written by hand or another tool, compact or spaced, is read")
  func handWrittenEnvelopes() throws {
    func read<State: CodableState>(_ text: String, as type: State.Type) throws -> State {
      let file: CodableStateFile<State> = try StateFileCoding.decode(
        Data(text.utf8), path: "state.json")
      return file.value
    }
    #expect(try read(#"{"version":1}"#, as: NoKeys.self) == NoKeys())
    #expect(try read(#"{"alpha":2,"version":1}"#, as: KeyBefore.self).alpha == 2)
    #expect(try read(#"{"version":1,"alpha":2}"#, as: KeyBefore.self).alpha == 2)
    #expect(
      try read("\u{FEFF}{ \"alpha\" : 2 ,\r\n\t\"version\" : 1 }\n", as: KeyBefore.self).alpha == 2)
    #expect(
      try read(#"{"zeta":[],"version":1,"unknown":{"kept":false}}"#, as: KeyAfter.self).zeta == [])
    // The envelope's version is never the state's own.
    #expect(try read(#"{"name":"y","version":1}"#, as: MaybeVersioned.self).version == nil)
    #expect(try read(#"{"version":1,"name":"y"}"#, as: MaybeVersioned.self).name == "y")
  }

  @Test("a date that cannot be written fails the action and writes nothing")
  func unwritableDate() throws {
    let url = folder.file("journal.json")
    let store = try JournalStore(contentsOf: url)
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.add(Self.entry("too old", date: .distantPast)))
    }
    #expect(
      error?.problem
        == .cannotEncode(keyPath: "entries[0].date", detail: "its year is outside 1…9999"))
    #expect(store.state.entries.isEmpty)
    #expect(folder.names == ["journal.json.lock"])
    // Nor a number JSON cannot hold.
    var entry = Self.entry("nowhere")
    entry.place = .init(latitude: .nan, longitude: 0)
    let nan = #expect(throws: StoreFileError.self) { try store.trySend(.add(entry)) }
    guard case .cannotEncode(let keyPath, _) = nan?.problem else {
      Issue.record("not a .cannotEncode: \(String(describing: nan))")
      return
    }
    #expect(keyPath == "entries[0].place.latitude")
    #expect(folder.names == ["journal.json.lock"])
  }

  @Test("a value of the wrong type edited by hand is refused with its key path; the file stays")
  func wrongTypeByHand() throws {
    let url = folder.file("journal.json")
    let store = try JournalStore(contentsOf: url)
    try store.trySend(.add(Self.entry("first")))
    let edited = try #require(text(url)).replacingOccurrences(
      of: "\"latitude\" : 48.85", with: "\"latitude\" : \"north\"")
    folder.write(edited, to: "journal.json")
    let expected = StoreFileError(
      path: url.path,
      problem: .invalidContent(
        keyPath: "entries[0].place.latitude",
        detail: "expected to decode Double but found a string instead"))
    #expect(throws: expected) { try JournalStore(contentsOf: url) }
    // The store opened before: its action fails, and keeps the error; nothing is written.
    #expect(throws: expected) { try store.trySend(.add(Self.entry("second"))) }
    store.send(.setAuthor("Anna"))
    #expect(store.lastError as? StoreFileError == expected)
    #expect(text(url) == edited)
    #expect(store.state.entries.map(\.text) == ["first"])
    #expect(expected.description.hasPrefix("\(url.path) at entries[0].place.latitude: expected"))
  }

  @Test("a missing key, a date that is not one, an empty file, a syntax error: each named")
  func invalidFiles() throws {
    let url = folder.file("journal.json")
    let store = try JournalStore(contentsOf: url)
    try store.trySend(.add(Self.entry("first")))
    let written = try #require(text(url))
    func problem(_ text: String) -> StoreFileError.Problem? {
      folder.write(text, to: "journal.json")
      do {
        _ = try JournalStore(contentsOf: url)
        return nil
      } catch let error as StoreFileError {
        #expect(error.path == url.path)
        return error.problem
      } catch {
        Issue.record("not a StoreFileError: \(error)")
        return nil
      }
    }
    #expect(
      problem(written.replacingOccurrences(of: "\"text\" : \"first\"", with: "\"other\" : 1"))
        == .invalidContent(keyPath: "entries[0]", detail: "missing key \"text\""))
    let date = try #require(written.firstRange(of: /"date" : "[^"]*"/))
    #expect(
      problem(written.replacingCharacters(in: date, with: "\"date\" : \"yesterday\""))
        == .invalidContent(
          keyPath: "entries[0].date",
          detail: "expected a date such as \"2026-11-29T07:30:00Z\", found \"yesterday\""))
    #expect(
      problem(written.replacingCharacters(in: date, with: "\"date\" : 12"))
        == .invalidContent(
          keyPath: "entries[0].date",
          detail: "expected a date, a string such as \"2026-11-29T07:30:00Z\""))
    #expect(
      problem(written.replacingOccurrences(of: "\"tags\" : [", with: "\"tags\" : [null,"))
        == .invalidContent(keyPath: "entries[0].tags[0]", detail: "expected String, found null"))
    #expect(problem("") == .malformedJSON(line: 1, column: 1, detail: "the file is empty"))
    guard case .malformedJSON(let line, _, _) = problem("{\n  \"version\" : 1,\n  \"author\" : }")
    else {
      Issue.record("a syntax error is not .malformedJSON")
      return
    }
    #expect(line == 3)
  }

  @Test("a file of a newer version is refused and left as it is")
  func newerVersion() throws {
    let url = folder.write(
      #"{"author":"","entries":[],"counts":{},"version":2}"#, to: "journal.json")
    #expect(throws: StoreFileError(path: url.path, problem: .newerVersion(found: 2, supported: 1)))
    {
      try JournalStore(contentsOf: url)
    }
    #expect(text(url) == #"{"author":"","entries":[],"counts":{},"version":2}"#)
  }

  @Test("an older format is read through migrate(fromVersion:decoder:), and written anew")
  func migration() throws {
    let url = folder.write(#"{"names":["a","b","a"],"version":1}"#, to: "tally.json")
    let store = try ValueStore<Tally>(contentsOf: url)
    #expect(store.state.counts == ["a": 2, "b": 1])
    try store.trySend(.set(Tally(counts: ["c": 1])))
    #expect(text(url) == (try foundationFile(Tally(counts: ["c": 1]), version: 2)))

    let bare = folder.write(#"["x", "y", "x"]"#, to: "bare.json")
    #expect(try ValueStore<Tally>(contentsOf: bare).state.counts == ["x": 2, "y": 1])
    // A migration's decoding error has its key path too.
    let wrong = folder.write(#"{"names":["a",2],"version":1}"#, to: "wrong.json")
    #expect(
      throws: StoreFileError(
        path: wrong.path,
        problem: .invalidContent(
          keyPath: "names[1]", detail: "expected to decode String but found number instead"))
    ) { try ValueStore<Tally>(contentsOf: wrong) }
    // Without a migration, an older file is refused, as every store's is.
    let old = folder.write(#"{"alpha":1,"version":0}"#, to: "old.json")
    #expect(
      throws: StoreFileError(
        path: old.path,
        problem: .invalidContent(keyPath: "", detail: "expected an object with a \"version\" key"))
    ) { try ValueStore<KeyBefore>(contentsOf: old) }
  }

  @Test("a state with a \"version\" key of its own is refused, never mixed with the file's")
  func versionCollision() throws {
    let url = folder.file("versioned.json")
    #expect(
      throws: StoreFileError(
        path: url.path,
        problem: .cannotEncode(
          keyPath: "version",
          detail: "the key \"version\" is the file's own (its format version): give the "
            + "state's property another key in its CodingKeys"))
    ) { try ValueStore<Versioned>(contentsOf: url) }
    #expect(folder.names.isEmpty)

    // One that has it only sometimes: refused by the write that would hold it.
    let maybe = folder.write(#"{"name":"a","version":1}"#, to: "maybe.json")
    let store = try ValueStore<MaybeVersioned>(contentsOf: maybe)
    #expect(store.state == MaybeVersioned(name: "a", version: nil))
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.set(MaybeVersioned(name: "b", version: 7)))
    }
    guard case .cannotEncode(keyPath: "version", _) = error?.problem else {
      Issue.record("not refused at its version: \(String(describing: error))")
      return
    }
    #expect(text(maybe) == #"{"name":"a","version":1}"#)
    try store.trySend(.set(MaybeVersioned(name: "b", version: nil)))
    #expect(text(maybe) == (try foundationFile(MaybeVersioned(name: "b"))))
  }

  @Test("a state that is not an object of keys is refused when its store opens")
  func notAnObject() throws {
    let url = folder.file("listed.json")
    let error = #expect(throws: StoreFileError.self) { try ValueStore<Listed>(contentsOf: url) }
    guard case .cannotEncode(keyPath: "", let detail) = error?.problem else {
      Issue.record("not refused: \(String(describing: error))")
      return
    }
    #expect(detail.contains("Listed is written as a list, not as an object"))
    #expect(error?.description.hasPrefix("cannot write \(url.path): ") == true)
    #expect(folder.names.isEmpty)
  }

  @Test("an error of the state's own decoding is reported with its description")
  func ownDecodingError() throws {
    let url = folder.write(#"{"values":[5,500],"version":1}"#, to: "percent.json")
    #expect(
      throws: StoreFileError(
        path: url.path, problem: .invalidContent(keyPath: "", detail: "500 is not a percentage"))
    ) { try ValueStore<Percentages>(contentsOf: url) }
  }

  @Test("two stores on one file in one process lose neither's writes")
  func twoStoresOneProcess() throws {
    let url = folder.file("journal.json")
    let first = try JournalStore(contentsOf: url)
    let second = try JournalStore(contentsOf: url)
    for index in 0..<20 {
      try first.trySend(.add(Self.entry("first \(index)")))
      try second.trySend(.add(Self.entry("second \(index)")))
    }
    try first.refresh()
    #expect(first.state == second.state)
    #expect(first.state.entries.count == 40)
    #expect(first.state.counts == ["walk": 40])
    #expect(try JournalStore(contentsOf: url).state == first.state)
  }

  @Test("two processes writing one file at once lose none of each other's writes")
  func twoProcesses() throws {
    let url = folder.file("notes.json")
    let writers = try ["a", "b"].map {
      try WriterProcess.start("codable", url, count: 100, tag: $0)
    }
    for writer in writers {
      writer.waitUntilExit()
      #expect(writer.terminationReason == .exit && writer.terminationStatus == 0)
    }
    let texts = Set(try CodableNotesStore(contentsOf: url).state.notes.map(\.text))
    #expect(texts == Set((0..<100).flatMap { ["a \($0)", "b \($0)"] }))
  }

  @Test("a watching store reloads what another store and another process write")
  func watchReloads() async throws {
    let url = folder.file("notes.json")
    let watching = try CodableNotesStore(contentsOf: url)
    try watching.watch()
    var seen: [Int] = []
    let token = watching.onChange { _, state in seen.append(state.notes.count) }
    try CodableNotesStore(contentsOf: url).trySend(.add(.init(text: "here", date: Date())))
    #expect(await eventually { watching.state.notes.count == 1 })
    let writer = try WriterProcess.start("codable", url, count: 1, tag: "other")
    writer.waitUntilExit()
    #expect(writer.terminationReason == .exit && writer.terminationStatus == 0)
    #expect(await eventually { watching.state.notes.map(\.text) == ["here", "other 0"] })
    #expect(seen.last == 2)
    token.cancel()
  }

  @Test("conflict copies beside the file are left as they are: no stamps, no merge")
  func conflictCopiesStay() throws {
    let url = folder.file("notes.json")
    let store = try CodableNotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "kept", date: Date())))
    let copyName = "notes.sync-conflict-20261201-135016-E7BDN4G.json"
    let copy = #"{"notes":[{"date":"2026-12-01T13:50:16Z","text":"elsewhere"}],"version":1}"#
    folder.write(copy, to: copyName)
    try store.trySend(.add(.init(text: "more", date: Date())))
    try store.refresh()
    #expect(store.state.notes.map(\.text) == ["kept", "more"])
    #expect(store.lastError == nil)
    #expect(text(folder.file(copyName)) == copy)
  }

  @Test("what the state keeps only in memory survives a reload")
  func memoryOnlyState() throws {
    let url = folder.file("draft.json")
    let store = try ValueStore<Draft>(contentsOf: url)
    try store.trySend(.set(Draft(saved: ["a"], typing: "hel")))
    #expect(text(url) == (try foundationFile(Draft(saved: ["a"]))))
    try ValueStore<Draft>(contentsOf: url).trySend(.set(Draft(saved: ["a", "b"])))
    try store.refresh()
    #expect(store.state == Draft(saved: ["a", "b"], typing: "hel"))
  }
}
