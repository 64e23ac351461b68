import Foundation
import StoreTesting
import Stores
import Testing

/// Where the two writers of a ``TwoSettingsWritersMachine`` keep their settings.
@MainActor
protocol SettingsWritersPlace: Sendable {
  /// Whether both writers open one file (in a ``TemporaryFolder``); else each is a store in
  /// memory of its own.
  static var isOneFile: Bool { get }
}

/// Both writers on one settings file — the app and, say, the command-line tool.
enum OneFile: SettingsWritersPlace {
  static let isOneFile = true
}

/// Each writer a store in memory: the same machine without files, for comparison.
enum InMemory: SettingsWritersPlace {
  static let isOneFile = false
}

/// A key of the app's, registered by both writers.
private let volume = SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Volume")

/// Two settings stores with a key of the app's registered, each acting in its own
/// transactions, with four rules: set or remove any keys, set the volume through the typed,
/// validating API, reset, refresh. On one file, the model is what the file holds: every change
/// by either writer applies to the latest content, so neither loses the other's changes; a
/// writer's own state changes only when it acts or refreshes, and is then the file's. In
/// memory, each writer is its own place.
@MainActor
struct TwoSettingsWritersMachine<Place: SettingsWritersPlace>: StateMachine {
  enum Writer: Int, CaseIterable {
    case first, second
  }

  enum Command: Equatable {
    /// The writer sends the action (set any JSON value, remove keys).
    case send(Writer, SettingsStore.Action)
    /// The writer sets the volume through the typed, validating API.
    case setVolume(Writer, Int)
    /// The writer resets every registered key.
    case reset(Writer)
    /// The writer reloads the file.
    case refresh(Writer)
  }

  let folder: TemporaryFolder?
  let writers: [SettingsStore]
  /// On one file, a third store that only reads it: refreshed after every step, it holds
  /// what the file holds (refreshing reads the file whenever another store replaced it).
  let reader: SettingsStore?
  /// What each place holds: the file, or each writer's memory.
  var places: [SettingsStore.State.Values]
  /// What each writer last saw of its place.
  var seen: [SettingsStore.State.Values] = [[:], [:]]

  init() throws {
    let keys = [AnySettingsKey(volume)]
    if Place.isOneFile {
      let folder = TemporaryFolder()
      self.folder = folder
      writers = try Writer.allCases.map { _ in
        try SettingsStore(contentsOf: folder.file("values.json"), keys: keys)
      }
      reader = try SettingsStore(contentsOf: folder.file("values.json"))
      places = [[:]]
    } else {
      folder = nil
      reader = nil
      writers = Writer.allCases.map { _ in SettingsStore(keys: keys) }
      places = [[:], [:]]
    }
  }

  var rules: [Rule<Command>] {
    let writer = Gen<Writer>.element(of: Writer.allCases)
    let names = ["volume", "theme"] + Set(places.flatMap(\.keys)).sorted()
    return [
      Rule(
        "a writer sets or removes keys",
        Gen.zip(writer, Gen<SettingsStore.Action>.settingsAction(keys: names)).map { .send($0, $1) }
      ),
      Rule(
        "a writer sets the volume, in range or not",
        Gen.zip(writer, Gen<Int>.integer(in: -2...12)).map { .setVolume($0, $1) }),
      Rule("a writer resets", writer.map { .reset($0) }),
      Rule("a writer refreshes", writer.map { .refresh($0) }),
    ]
  }

  /// The index in ``places`` of where `writer` keeps its settings.
  func place(of writer: Writer) -> Int { places.count == 1 ? 0 : writer.rawValue }

  mutating func perform(_ command: Command) throws {
    switch command {
    case .send(let writer, let action):
      try writers[writer.rawValue].trySend(action)
      apply(action, by: writer)
    case .setVolume(let writer, let value):
      do {
        try writers[writer.rawValue].set(value, for: volume)
        apply(.set(key: "volume", value: value.json), by: writer)
      } catch is SettingsError {
        try require(!(0...10).contains(value), "a valid volume is stored")
      }
    case .reset(let writer):
      let store = writers[writer.rawValue]
      try store.reset()
      apply(.remove(keys: store.keys.map(\.name)), by: writer)
    case .refresh(let writer):
      try writers[writer.rawValue].refresh()
      seen[writer.rawValue] = places[place(of: writer)]
    }
  }

  /// The action done plainly on the writer's place; the writer then sees it.
  private mutating func apply(_ action: SettingsStore.Action, by writer: Writer) {
    let index = place(of: writer)
    switch action {
    case .set(let key, let value): places[index][key] = value
    case .remove(let keys): for key in keys { places[index][key] = nil }
    case .restore(let changes):
      for change in changes
      where change.from != change.to && places[index][change.key] == change.from {
        places[index][change.key] = change.to
      }
    }
    seen[writer.rawValue] = places[index]
  }

  func checkInvariants() throws {
    if let reader {
      try reader.refresh()
      try requireEqual(reader.state.values, places[0], "the file")
    }
    for (writer, values) in zip(writers, seen) {
      try requireEqual(writer.state.values, values, "a writer's values")
      let stored = values["volume"].flatMap { Int(json: $0) }.flatMap {
        (0...10).contains($0) ? $0 : nil
      }
      try requireEqual(writer.value(for: volume), stored ?? 5, "a writer's volume")
    }
  }
}

/// The machine at the defaults (100 programs of up to 50 steps), on one file and in memory:
/// `swift test --filter TwoSettingsWriters` shows what the file costs (in a ``TemporaryFolder``,
/// unflushed; `STORES_DURABLE_TESTS=1` for durable writes).
@MainActor
@Suite("SettingsStore, two writers, stateful")
struct TwoSettingsWritersTests {
  @Test("two writers on one file never lose each other's changes, and see them after a refresh")
  func oneFile() async {
    await check(TwoSettingsWritersMachine<OneFile>.self)
  }

  @Test("two writers in memory keep what each sets")
  func inMemory() async {
    await check(TwoSettingsWritersMachine<InMemory>.self)
  }
}
