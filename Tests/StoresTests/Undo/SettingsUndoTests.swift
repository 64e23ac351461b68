import Foundation
import StoreTesting
import Stores
import Testing

@MainActor
@Suite("SettingsStore undo")
struct SettingsUndoTests {
  let folder = TemporaryFolder()
  static let names = SettingsStore().keys.map(\.name)
  static let actions = Gen<SettingsStore.Action>.settingsAction(keys: names)

  @Test("undo after each action brings back the values before it; redo the values after it")
  func undoRedoInMemory() {
    check(Self.actions.array(maxCount: 12)) { actions in
      try requireUndoRedo(
        SettingsStore(values: ["sleepGoal": 6.0.json, "theme": "dark".json]), after: actions)
    }
  }

  @Test("a restore that sets a key and sets it back changes nothing and records no step")
  func restoreThereAndBack() {
    let settings = SettingsStore(values: ["theme": "dark".json])
    var changes = 0
    let token = settings.onChange { _, _ in changes += 1 }
    let thereAndBack = SettingsStore.Action.restore([
      .init(key: "window", from: nil, to: .null), .init(key: "window", from: .null, to: nil),
    ])
    settings.send(thereAndBack)
    #expect(settings.state.values == ["theme": "dark".json])
    #expect(changes == 0)
    #expect(settings.undoHistory.undoSteps.isEmpty)
    #expect(SettingsStore.inverse(of: thereAndBack, in: settings.state) == nil)
    withExtendedLifetime(token) {}
  }

  @Test("the inverse recorded while reducing is the one inverse(of:in:) gives")
  func inverseWhileReducing() {
    check(Self.actions.array(maxCount: 12)) { actions in
      try requireInverseWhileReducing(
        SettingsStore.self, from: SettingsStore.State(["sleepGoal": 6.0.json]), after: actions)
    }
  }

  @Test("with another writer between an action and its undo, every key they changed keeps theirs")
  func otherWriterSurvives() {
    let cases = Gen<(SettingsStore.Action, [SettingsStore.Action])>.zip(
      Self.actions, Self.actions.array(maxCount: 5))
    var caseNumber = 0
    check(cases, iterations: 60) { action, interleaved in
      caseNumber += 1
      let url = folder.file("settings-\(caseNumber).json")
      try SettingsStore(contentsOf: url).trySend(.set(key: "sleepGoal", value: 6.0.json))
      let store = try SettingsStore(contentsOf: url)
      let other = try SettingsStore(contentsOf: url)
      guard
        let (acted, written, undone, _) = try undoAfterOtherWriter(
          store, other, action: action, interleaved: interleaved)
      else { return }
      try requireEqual(undone, try SettingsStore(contentsOf: url).state, "the undo is on the file")
      for name in Self.names + ["theme", "window"] where acted.values[name] != written.values[name]
      {
        try requireEqual(undone.values[name], written.values[name], "their \(name) stays")
      }
    }
  }

  @Test("a setting's undo restores the previous value, or removes the key")
  func settingUndo() throws {
    let settings = try SettingsStore(contentsOf: folder.file("settings.json"))
    settings.sleepGoal = 7.5
    settings.sleepGoal = 6
    #expect(settings.undoHistory.undoSteps.last?.name == "Change sleepGoal")
    settings.undo()
    #expect(settings.sleepGoal == 7.5)
    settings.undo()
    #expect(settings.state.values["sleepGoal"] == nil)
    settings.redo()
    #expect(settings.sleepGoal == 7.5)
  }

  @Test("a reset's undo puts back every value it removed, in one step")
  func resetUndo() throws {
    let settings = SettingsStore(values: ["sleepGoal": 6.0.json, "distanceUnit": "miles".json])
    try settings.reset()
    #expect(settings.state.values.isEmpty)
    #expect(settings.undo()?.name == "Reset Settings")
    #expect(settings.sleepGoal == 6 && settings.distanceUnit == .miles)
  }

  @Test("an undo leaves a key someone changed meanwhile, and says so")
  func changedMeanwhile() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    try settings.reset()
    settings.sleepGoal = 7.5
    settings.isNotificationsEnabled = false
    try settings.set(\.distanceUnit, to: .miles)
    let undoneKeys = SettingsStore.Action.remove(keys: ["sleepGoal", "distanceUnit"])
    try settings.trySend(undoneKeys)
    let other = try SettingsStore(contentsOf: url)
    other.sleepGoal = 9
    let outcome = settings.undo()
    #expect(outcome?.skipped == ["sleepGoal (changed meanwhile)"])
    #expect(settings.sleepGoal == 9 && settings.distanceUnit == .miles)
    #expect(!settings.isNotificationsEnabled)
  }

  @Test("a restore's changes are an array: one change or many, equal and encoded alike")
  func valueChangesAreAnArray() throws {
    let change = { (key: String) in SettingsStore.ValueChange(key: key, from: 1.json, to: nil) }
    let one = SettingsStore.ValueChanges(change("a"))
    #expect(one == [change("a")] && Array(one) == [change("a")] && one.count == 1)
    #expect(one != [change("b")] && one != [change("a"), change("a")] && one != [])
    let many: SettingsStore.ValueChanges = [change("a"), change("b")]
    #expect(many.map(\.key) == ["a", "b"] && SettingsStore.ValueChanges([]).isEmpty)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for changes in [one, many, []] {
      let action = SettingsStore.Action.restore(changes)
      let encoded = try encoder.encode(action)
      let asArray = try encoder.encode(ArrayRestore.restore(Array(changes)))
      #expect(encoded == asArray)
      #expect(try JSONDecoder().decode(SettingsStore.Action.self, from: encoded) == action)
    }
  }

  @Test("an undo step is named after the action it reverses, also after the store is gone")
  func stepNames() throws {
    var history: UndoHistory<SettingsStore.Action>
    do {
      let settings = SettingsStore()
      settings.sleepGoal = 7.5
      try settings.set(\.distanceUnit, to: .miles)
      try settings.reset()
      settings.send(.restore([.init(key: "theme", from: nil, to: "dark".json)]))
      settings.send(
        .restore([
          .init(key: "theme", from: "dark".json, to: nil),
          .init(key: "sleepGoal", from: nil, to: 6.0.json),
        ]))
      history = settings.undoHistory
    }
    #expect(
      history.undoSteps.map(\.name) == [
        "Change sleepGoal", "Change distanceUnit", "Reset Settings", "Change theme",
        "Change Settings",
      ])
    #expect(SettingsStore.isNamedByItsInverse(.set(key: "theme", value: "dark".json)))
    #expect(!SettingsStore.isNamedByItsInverse(.remove(keys: ["theme"])))
    history.limit = 5
    var renamed = history.undoSteps[0]
    renamed.name = "Sleep"
    #expect(renamed.name == "Sleep" && renamed.action == history.undoSteps[0].action)
    // A step named by its own action keeps its name when the action is replaced.
    var replaced = history.undoSteps[0]
    replaced.action = .remove(keys: ["theme"])
    #expect(replaced.name == "Change sleepGoal")
  }

  /// `SettingsStore.Action` as it was declared with an array of changes, to compare encodings.
  enum ArrayRestore: Encodable {
    case restore([SettingsStore.ValueChange])
  }
}
