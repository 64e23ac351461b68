import Foundation
import StoreTesting
import Stores
import Testing

/// The three kinds of data file, each opened and changed through its own store.
enum FileKind: String, CaseIterable, Sendable {
  case settings, todos, workouts

  /// Opens the store of this kind on `url`.
  @MainActor
  func open(_ url: URL) throws {
    switch self {
    case .settings: _ = try SettingsStore(contentsOf: url)
    case .todos: _ = try TodosStore(contentsOf: url)
    case .workouts: _ = try WorkoutsStore(contentsOf: url)
    }
  }

  /// Opens the store on `url` and makes one change.
  @MainActor
  func change(_ url: URL) throws {
    switch self {
    case .settings: try SettingsStore(contentsOf: url).set(\.sleepGoal, to: 6)
    case .todos: try TodosStore(contentsOf: url).trySend(.addTodo(Todo(title: "x")))
    case .workouts:
      try WorkoutsStore(contentsOf: url).trySend(.addWorkout(try Workout(name: "x", distance: 1)))
    }
  }

  /// The hostile fixtures of this kind, by file name.
  var hostileFixtures: [String] {
    let folder = fixturesFolder.appendingPathComponent("hostile/\(rawValue)")
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  /// The valid sample of this kind.
  var sample: URL {
    fixturesFolder.appendingPathComponent(
      "\(rawValue)/\(self == .settings ? "valid" : "sample").json")
  }
}

/// Files that are read as a defined value rather than refused.
let readableHostileFiles: Set<String> = ["negative-zero.json", "bom.json"]

/// Files a store cannot use — every hostile fixture, every truncation of a valid file, nesting
/// too deep, a huge string, a folder, a data folder that is a file, a file it may not write —
/// are refused with a short error naming the file, and left byte for byte as they were.
@MainActor
@Suite("Files a store refuses, and leaves as they are")
struct RefusedFileTests {
  let folder = TemporaryFolder()

  /// Checks that opening `url` and changing it both fail with a short error naming the
  /// file, and that its bytes stay as they were.
  func expectRefused(
    _ kind: FileKind, _ url: URL, sourceLocation: SourceLocation = #_sourceLocation
  ) -> StoreFileError? {
    let before = contents(url)
    let error = #expect(throws: StoreFileError.self, sourceLocation: sourceLocation) {
      try kind.open(url)
    }
    #expect(throws: StoreFileError.self, sourceLocation: sourceLocation) { try kind.change(url) }
    let description = error?.description ?? ""
    #expect(description.contains(url.path), "\(description)", sourceLocation: sourceLocation)
    #expect(
      description.count < url.path.count + 300, "\(description)", sourceLocation: sourceLocation)
    #expect(
      contents(url) == before, "\(url.lastPathComponent) changed", sourceLocation: sourceLocation)
    return error
  }

  @Test(
    "every hostile fixture is refused or read as defined, and never changed",
    arguments: FileKind.allCases)
  func fixtures(kind: FileKind) throws {
    #expect(kind.hostileFixtures.count >= 10)
    for name in kind.hostileFixtures {
      let url = folder.copy(
        fixture: "hostile/\(kind.rawValue)/\(name)", as: "\(kind.rawValue)-\(name)")
      if readableHostileFiles.contains(name) {
        try kind.open(url)
      } else {
        _ = expectRefused(kind, url)
      }
    }
  }

  @Test("zero bytes and every truncation of a valid file are refused", arguments: FileKind.allCases)
  func truncations(kind: FileKind) throws {
    let sample = try Data(contentsOf: kind.sample)
    let url = folder.file("\(kind.rawValue).json")
    let complete = String(decoding: sample, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    for length in 0..<sample.count {
      let prefix = sample.prefix(length)
      guard
        String(decoding: prefix, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
          != complete
      else { continue }
      folder.write(prefix, to: "\(kind.rawValue).json")
      let error = expectRefused(kind, url)
      guard case .malformedJSON = error?.problem else {
        Issue.record("truncation at \(length) gave \(String(describing: error))")
        return
      }
    }
  }

  @Test("100,000 nested arrays are refused quickly, without a crash", arguments: FileKind.allCases)
  func deepNesting(kind: FileKind) {
    let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let url = folder.write(#"{"version": 1, "\#(kind.rawValue)": \#(nested)}"#, to: "deep.json")
    #expect(expectRefused(kind, url)?.description.contains("nested deeper than 512 levels") == true)
  }

  @Test(
    "a 50 MB string where a number belongs is refused without quoting it",
    arguments: FileKind.allCases)
  func hugeString(kind: FileKind) {
    let huge = String(repeating: "a", count: 50_000_000)
    let url = folder.write(#"{"version": "\#(huge)"}"#, to: "huge.json")
    let error = expectRefused(kind, url)
    #expect(error?.description.contains("version: expected a whole number 0 or more") == true)
  }

  @Test("a folder where the file should be is refused", arguments: FileKind.allCases)
  func folderInsteadOfFile(kind: FileKind) throws {
    let url = folder.file("\(kind.rawValue).json")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    #expect(expectRefused(kind, url)?.problem == .notARegularFile)
  }

  @Test(
    "a data folder that is a file: reading and writing both refused", arguments: FileKind.allCases)
  func dataFolderIsAFile(kind: FileKind) {
    let file = folder.write("just a file", to: "data")
    let url = file.appendingPathComponent("\(kind.rawValue).json")
    #expect(throws: StoreFileError.self) { try kind.open(url) }
    let error = #expect(throws: StoreFileError.self) { try kind.change(url) }
    #expect(error?.description.contains(url.path) == true)
    #expect(contents(file) == Data("just a file".utf8))
  }

  @Test(
    "a file that may not be written is refused and kept, even for root",
    arguments: FileKind.allCases)
  func readOnlyFile(kind: FileKind) throws {
    let url = folder.copy(kind.sample, as: "\(kind.rawValue).json")
    let before = contents(url)
    for makeReadOnly in [{ _ = chmod(url.path, 0o444) }, { _ = TemporaryFolder.makeReadOnly(url) }]
    {
      makeReadOnly()
      try kind.open(url)
      let error = #expect(throws: StoreFileError.self) { try kind.change(url) }
      guard case .cannotWrite = error?.problem else {
        Issue.record("expected cannotWrite, got \(String(describing: error))")
        return
      }
      #expect(contents(url) == before)
      TemporaryFolder.makeWritable(url)
    }
  }
}
