import Foundation
import StoreTesting
import Testing

@testable import Stores

/// The state read back from what the codec writes for `state`.
func reread<State: PersistentState>(_ state: State) throws -> State {
  try StateFileCoding.decode(StateFileCoding.encode(state, path: "f.json"), path: "f.json")
}

/// The codec's file for `state` without stamps — the state's own fields, as version 1 files
/// hold them — as text.
func codecFile<State: PersistentState>(_ state: State) throws -> String {
  String(decoding: try versionOneFile(state), as: UTF8.self)
}

/// The codec's file for `state` without stamps (as version 1 files are).
func versionOneFile<State: PersistentState>(_ state: State) throws -> Data {
  try StateFileCoding.encode(state, sync: NoSync(unstamped: state), path: "f.json")
}

/// The error reading `text` as a `State` file gives, as its description without the path.
func readingError<State: PersistentState>(_ text: String, as type: State.Type) -> String? {
  do {
    let _: State = try StateFileCoding.decode(Data(text.utf8), path: "f.json")
    return nil
  } catch {
    return error.description
  }
}

/// The codec against the `Codable` conformances through Foundation: on every generated
/// state, the same bytes and the same state back.
@Suite("File codec agrees with Codable")
struct FileCodecAgreementTests {
  /// Checks that `state` survives the codec, that the codec writes what `JSONEncoder` writes
  /// for it, and that `JSONDecoder` reads the codec's bytes as the same state.
  func agree<State: PersistentState>(_ state: State) throws {
    try requireEqual(try reread(state), state, "load(save(x)) == x")
    let written = try versionOneFile(state)
    try requireEqual(
      String(decoding: written, as: UTF8.self), try FoundationReference.file(state),
      "the bytes JSONEncoder writes")
    try requireEqual(try FoundationReference.state(written) as State, state, "JSONDecoder")
  }

  @Test("todos: every generated list of todos")
  func todos() {
    check(Gen<[Todo]>.todos(maxCount: 8), iterations: 300) { todos in
      try agree(TodosStore.State(todos: todos))
    }
  }

  @Test("workouts: every generated diary, sorted or not")
  func workouts() {
    let sortType = Gen<WorkoutsStore.SortType?>.oneOf(
      .constant(nil),
      Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).map { $0 })
    check(
      Gen<([Workout], WorkoutsStore.SortType?)>.zip(.workouts(maxCount: 8), sortType),
      iterations: 300
    ) {
      workouts, sortType in
      try agree(WorkoutsStore.State(workouts: workouts, sortType: sortType))
    }
  }

  @Test("key values: any JSON values under any keys")
  func keyValues() {
    let values = Gen<[String: JSONValue]>.dictionary(
      keys: .string(maxCount: 6), values: .json(depth: 3), maxCount: 6)
    check(values, iterations: 300) { values in
      try agree(KeyValues(values))
    }
  }

  @Test("a number is spelled as JSONEncoder spells it, for any finite Double")
  func numbers() throws {
    var random = SeededRandom(seed: 13)
    let encoder = JSONEncoder()
    var values: [Double] = [
      0, -0.0, 1, 1e15, 1e16, 1e-5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1,
    ]
    for _ in 0..<20_000 {
      let value = Double(bitPattern: random.next())
      if value.isFinite { values.append(value) }
    }
    for value in values {
      let foundation = String(decoding: try encoder.encode([value]), as: UTF8.self)
      #expect("[\(JSONNumber(value).text)]" == foundation, "\(value)")
    }
  }

  @Test("a string is escaped as JSONEncoder escapes it: every ASCII byte and beyond")
  func strings() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    var texts = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
    texts += [
      "é", "e\u{301}", "\u{2028}", "😀", "a\"b\\c/d", String(repeating: "x\u{1}", count: 20),
    ]
    for text in texts {
      let state = KeyValues(["k": .string(text)])
      let expected = String(decoding: try encoder.encode(text), as: UTF8.self)
      #expect(try codecFile(state).contains("\"k\" : \(expected)"), "\(text.debugDescription)")
      #expect(try reread(state) == state)
    }
  }
}

/// The fixtures: what reads is written back as `JSONEncoder` wrote it; the files in the
/// format the stores write come back byte for byte.
@Suite("Fixtures through the codec")
struct FixtureCodecTests {
  /// The fixtures that are exactly what the stores write.
  static let canonical = [
    "settings/valid.json", "settings/wrong-types.json", "settings/out-of-range.json",
    "todos/sample.json", "workouts/sample.json",
  ]

  /// Reads the fixture at `path` as `State` and returns it and its bytes, or `nil` when it is
  /// a file the state refuses.
  func read<State: PersistentState>(_ path: String, as type: State.Type) throws -> (State, Data)? {
    let data = try Data(contentsOf: fixturesFolder.appendingPathComponent(path))
    guard let state: State = try? StateFileCoding.decode(data, path: path) else { return nil }
    return (state, data)
  }

  @Test("the files in the stores' format are written back byte for byte", arguments: canonical)
  func canonicalFiles(path: String) throws {
    let kind = path.prefix { $0 != "/" }
    let written: String?
    let original = try Data(contentsOf: fixturesFolder.appendingPathComponent(path))
    switch kind {
    case "settings": written = try read(path, as: KeyValues.self).map { try codecFile($0.0) }
    case "todos": written = try read(path, as: TodosStore.State.self).map { try codecFile($0.0) }
    default: written = try read(path, as: WorkoutsStore.State.self).map { try codecFile($0.0) }
    }
    // Workouts files are written in format 2 (with a duration and a sport), the same bytes
    // otherwise.
    #expect(
      written
        == String(decoding: original, as: UTF8.self).replacingOccurrences(
          of: kind == "workouts" ? "\"version\" : 1" : "\u{0}", with: "\"version\" : 2"))
  }

  @Test("an empty list written by JSONEncoder across lines reads, and is written as []")
  func emptyLists() throws {
    let todos = try #require(try read("todos/empty.json", as: TodosStore.State.self))
    #expect(String(decoding: todos.1, as: UTF8.self).contains("[\n\n  ]"))
    #expect(try codecFile(todos.0) == "{\n  \"todos\" : [],\n  \"version\" : 1\n}\n")
    let workouts = try #require(try read("workouts/empty.json", as: WorkoutsStore.State.self))
    #expect(try codecFile(workouts.0) == "{\n  \"version\" : 2,\n  \"workouts\" : []\n}\n")
    let settings = try #require(try read("settings/empty-object.json", as: KeyValues.self))
    #expect(try codecFile(settings.0) == "{\n  \"values\" : {},\n  \"version\" : 1\n}\n")
  }

  @Test("every fixture that reads, of every kind, is written as JSONEncoder writes it")
  func everyFixture() throws {
    var checked = 0
    for folder in ["settings", "todos", "workouts"].flatMap({ [$0, "hostile/" + $0] }) {
      let names = try FileManager.default.contentsOfDirectory(
        atPath: fixturesFolder.appendingPathComponent(folder).path)
      for name in names where name.hasSuffix(".json") {
        let path = "\(folder)/\(name)"
        if let (state, _) = try read(path, as: KeyValues.self) {
          #expect(try codecFile(state) == FoundationReference.file(state), "\(path)")
          checked += 1
        }
        if let (state, _) = try read(path, as: TodosStore.State.self) {
          #expect(try codecFile(state) == FoundationReference.file(state), "\(path)")
          checked += 1
        }
        if let (state, _) = try read(path, as: WorkoutsStore.State.self) {
          #expect(try codecFile(state) == FoundationReference.file(state), "\(path)")
          checked += 1
        }
      }
    }
    #expect(checked >= 20)
  }
}
