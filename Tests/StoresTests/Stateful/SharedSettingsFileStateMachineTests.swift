import Foundation
import StoreTesting
import Stores
import Testing

/// Two settings stores on one file, with a key of the app's registered — the app and, say, the
/// command-line tool — each acting in its own transactions. The model is what the file holds: every change by either writer
/// applies to the latest content, so neither loses the other's changes; a writer's own state
/// changes only when it acts or refreshes, and is then the file's.
@MainActor
struct SharedSettingsFileMachine: StateMachine {
  enum Writer: Int, CaseIterable {
    case first, second
  }

  enum Command: Equatable {
    /// The writer sends the action (set any JSON value, remove keys).
    case send(Writer, SettingsStore.Action)
    /// The writer sets the volume through the typed, validating API.
    case setVolume(Writer, Int)
    /// The writer reloads the file.
    case refresh(Writer)
  }

  static let volume = SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Volume")
  static let keys = [AnySettingsKey(volume)]

  let folder = TemporaryFolder()
  let writers: [SettingsStore]
  /// What the file holds.
  var model = SettingsStore.State.Values()
  /// What each writer last saw of the file.
  var seen: [SettingsStore.State.Values] = [[:], [:]]

  var url: URL { folder.file("values.json") }

  init() throws {
    let url = folder.file("values.json")
    writers = try Writer.allCases.map { _ in try SettingsStore(contentsOf: url, keys: Self.keys) }
  }

  var rules: [Rule<Command>] {
    let writer = Gen<Writer>.element(of: Writer.allCases)
    let names = ["volume", "theme"] + model.keys.sorted()
    return [
      Rule(
        "a writer sets or removes keys",
        Gen.zip(writer, Gen<SettingsStore.Action>.settingsAction(keys: names)).map { .send($0, $1) }
      ),
      Rule(
        "a writer sets the volume, in range or not",
        Gen.zip(writer, Gen<Int>.integer(in: -2...12)).map { .setVolume($0, $1) }),
      Rule("a writer refreshes", writer.map { .refresh($0) }),
    ]
  }

  mutating func perform(_ command: Command) throws {
    switch command {
    case .send(let writer, let action):
      try writers[writer.rawValue].trySend(action)
      apply(action)
      seen[writer.rawValue] = model
    case .setVolume(let writer, let volume):
      do {
        try writers[writer.rawValue].set(volume, for: Self.volume)
        apply(.set(key: "volume", value: volume.json))
        seen[writer.rawValue] = model
      } catch is SettingsError {
        try require(!(0...10).contains(volume), "a valid volume is stored")
      }
    case .refresh(let writer):
      try writers[writer.rawValue].refresh()
      seen[writer.rawValue] = model
    }
  }

  /// The action done plainly on the model.
  private mutating func apply(_ action: SettingsStore.Action) {
    switch action {
    case .set(let key, let value): model[key] = value
    case .remove(let keys): for key in keys { model[key] = nil }
    case .restore(let changes):
      for change in changes where change.from != change.to && model[change.key] == change.from {
        model[change.key] = change.to
      }
    }
  }

  func checkInvariants() throws {
    try requireEqual(try SettingsStore(contentsOf: url).state.values, model, "the file")
    for (writer, values) in zip(writers, seen) {
      try requireEqual(writer.state.values, values, "a writer's values")
      let stored = values["volume"].flatMap { Int(json: $0) }.flatMap {
        (0...10).contains($0) ? $0 : nil
      }
      try requireEqual(writer.value(for: Self.volume), stored ?? 5, "a writer's volume")
    }
  }
}

@MainActor
@Suite("SettingsStore, two writers on one file, stateful")
struct SharedSettingsFileStateMachineTests {
  @Test("two writers on one file never lose each other's changes, and see them after a refresh")
  func twoWriters() {
    check(SharedSettingsFileMachine.self, steps: 20, iterations: 50)
  }
}
