import Foundation
import StoreTesting
import Stores
import Testing

@MainActor
@Suite("WorkoutsStore undo")
struct WorkoutsUndoTests {
  let folder = TemporaryFolder()

  func workout(
    _ name: String, _ index: Int, distance: Double = 5, complexity: Workout.Complexity = .medium
  ) -> Workout {
    try! Workout(
      id: Gen<UUID>.testID(index), name: name, distance: distance,
      date: Date(timeIntervalSinceReferenceDate: Double(index)), complexity: complexity)
  }

  var list: [Workout] {
    [
      workout("run", 0, distance: 5), workout("swim", 1, distance: 1),
      workout("ride", 2, distance: 30),
    ]
  }

  /// The undo actions, on diaries of up to 8 workouts with ids `testID(0)`…: some unknown.
  static let undoActions = Gen<WorkoutsStore.Action>.oneOf(
    Gen<[Workout]>.workouts(maxCount: 4).map { .discardWorkouts($0) },
    Gen<Workout>.workout(id: .id(among: 8)).map { .discardWorkout($0) },
    Gen<([Workout], Int)>.zip(.workouts(maxCount: 4), .integer(in: 0...9)).map {
      workouts, neighbour in
      // Ids 8… (some in the diary, some not), each once.
      let run = workouts.enumerated().map { index, workout in
        try! Workout(
          id: Gen<UUID>.testID(6 + 2 * index), name: workout.name, distance: workout.distance,
          date: workout.date, complexity: workout.complexity)
      }
      return .restoreWorkouts([
        WorkoutRun(
          run, before: Gen<UUID>.testID(neighbour), after: Gen<UUID>.testID(neighbour + 1),
          offset: neighbour)
      ])
    },
    Gen<(Workout, Workout)>.zip(.workout(id: .id(among: 8)), .workout(id: .id(among: 8))).map {
      .editWorkout(
        WorkoutEdit(
          from: $0,
          to: try! Workout(
            id: $0.id, name: $1.name, distance: $1.distance, date: $1.date,
            complexity: $1.complexity)))
    },
    Gen<(WorkoutsStore.SortType?, WorkoutsStore.SortType?)>.zip(
      Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional,
      Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional
    ).map { .restoreSort($0, replacing: $1) }
  )

  static let statesAndUndoActions = Gen<
    ([Workout], WorkoutsStore.SortType?, [WorkoutsStore.Action])
  >.zip(
    .workouts(maxCount: 8),
    Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional,
    Gen<WorkoutsStore.Action>.oneOf(undoActions, .workoutAction(maxCount: 8)).array(maxCount: 8))

  @Test("undo after each action brings back the state before it; redo the state after it")
  func undoRedoInMemory() {
    check(WorkoutsStoreTests.statesAndActions) { workouts, sortType, actions in
      let store = WorkoutsStore(workouts: workouts)
      if let sortType { store.send(.sort(by: sortType)) }
      store.undoHistory.removeAll()
      try requireUndoRedo(store, after: actions)
    }
  }

  @Test("the undo actions agree with the model, and are undone and redone like any other")
  func undoActions() {
    check(Self.statesAndUndoActions) { workouts, sortType, actions in
      let store = WorkoutsStore(workouts: workouts)
      if let sortType { store.send(.sort(by: sortType)) }
      var model = WorkoutsModel(added: workouts, sortType: sortType)
      for action in actions {
        store.send(action)
        model = WorkoutsModel.apply(action, to: model)
        try requireEqual(WorkoutsModel(store.state), model, "after \(action)")
        try requireEqual(store.state.workouts, model.shown, "the list shown")
      }
      let again = WorkoutsStore(workouts: workouts)
      if let sortType { again.send(.sort(by: sortType)) }
      again.undoHistory.removeAll()
      try requireUndoRedo(again, after: actions)
    }
  }

  @Test("with another writer between an action and its undo, every change of theirs stays")
  func otherWriterSurvives() {
    let cases = Gen<([Workout], WorkoutsStore.Action, [WorkoutsStore.Action])>.zip(
      .workouts(maxCount: 8), .workoutAction(maxCount: 8),
      Gen<WorkoutsStore.Action>.workoutAction(maxCount: 8).array(maxCount: 5))
    var caseNumber = 0
    check(cases, iterations: 60) { workouts, action, interleaved in
      caseNumber += 1
      let url = folder.file("workouts-\(caseNumber).json")
      try WorkoutsStore(contentsOf: url).trySend(.addWorkouts(workouts))
      let store = try WorkoutsStore(contentsOf: url)
      let other = try WorkoutsStore(contentsOf: url)
      guard
        let (acted, written, undone, _) = try undoAfterOtherWriter(
          store, other, action: action, interleaved: interleaved)
      else { return }
      try requireEqual(undone, try WorkoutsStore(contentsOf: url).state, "the undo is on the file")
      if acted.sortType != written.sortType {
        try requireEqual(undone.sortType, written.sortType, "their sort stays")
      }
      try requireTheirChangesStay(
        acted: acted.workouts, written: written.workouts, undone: undone.workouts)
    }
  }

  /// Every workout the other writer added, removed or changed a field of between `acted` and
  /// `written` is so after the undo (workouts whose id two share are left out).
  func requireTheirChangesStay(acted: [Workout], written: [Workout], undone: [Workout]) throws {
    var counts: [UUID: Int] = [:]
    for workout in acted + written + undone { counts[workout.id, default: 0] += 1 }
    func unique(_ list: [Workout]) -> [UUID: Workout] {
      Dictionary(list.map { ($0.id, $0) }) { first, _ in first }
    }
    let before = unique(acted)
    let after = unique(undone)
    let shared = Set(acted.map(\.id)).union(written.map(\.id)).union(undone.map(\.id)).filter {
      id in [acted, written, undone].allSatisfy { list in list.count { $0.id == id } <= 1 }
    }
    for workout in written where shared.contains(workout.id) && before[workout.id] != workout {
      guard let now = after[workout.id] else {
        try require(false, "\(workout.name), which they wrote, is gone")
        continue
      }
      guard let old = before[workout.id] else {
        try requireEqual(now, workout, "a workout they added stays as they added it")
        continue
      }
      if old.name != workout.name { try requireEqual(now.name, workout.name, "their name") }
      if old.distance != workout.distance {
        try requireEqual(now.distance, workout.distance, "their distance")
      }
      if old.date != workout.date { try requireEqual(now.date, workout.date, "their date") }
      if old.complexity != workout.complexity {
        try requireEqual(now.complexity, workout.complexity, "their complexity")
      }
    }
    let kept = Set(written.map(\.id))
    for workout in acted where shared.contains(workout.id) && !kept.contains(workout.id) {
      try require(after[workout.id] == nil, "a workout they removed stays removed")
    }
  }

  // MARK: Examples

  @Test("a removal's undo puts the workouts back in the order added and at their sorted place")
  func removeUndo() {
    let store = WorkoutsStore(workouts: list)
    store.sort(by: .distance)
    store.delete(atOffsets: [0])
    #expect(store.state.workouts.map(\.name) == ["run", "swim"])
    #expect(store.undo()?.name == "Remove Workout")
    #expect(store.state.workouts.map(\.name) == ["ride", "run", "swim"])
    #expect(store.state.workoutsInAddedOrder == list)
  }

  @Test("an addition's undo removes it unless changed meanwhile; an import is one step")
  func addAndImportUndo() throws {
    let url = folder.file("workouts.json")
    let store = try WorkoutsStore(contentsOf: url)
    store.send(.addWorkouts(list))
    store.add(workout("walk", 5))
    let other = try WorkoutsStore(contentsOf: url)
    other.update(workout("walk", 5, distance: 3))
    let outcome = store.undo()
    #expect(outcome?.skipped == ["\"walk\" (changed meanwhile)"])
    #expect(store.state.workouts.count == 4)
    #expect(store.undo() == UndoOutcome(name: "Add Workouts", skipped: [], changed: true))
    #expect(store.state.workouts == [workout("walk", 5, distance: 3)])
  }

  @Test("an update's undo restores the fields it changed that still hold its values")
  func updateUndo() throws {
    let url = folder.file("workouts.json")
    let store = try WorkoutsStore(contentsOf: url)
    store.send(.addWorkouts(list))
    store.update(workout("long run", 0, distance: 21))
    let other = try WorkoutsStore(contentsOf: url)
    other.update(workout("long run", 0, distance: 42))
    let outcome = store.undo()
    #expect(outcome?.skipped == ["\"long run\" (its distance changed meanwhile)"])
    #expect(store.state.workouts[0] == workout("run", 0, distance: 42))
  }

  @Test("a sort's undo restores the previous sort, unless another sort was chosen meanwhile")
  func sortUndo() throws {
    let url = folder.file("workouts.json")
    let store = try WorkoutsStore(contentsOf: url)
    store.send(.addWorkouts(list))
    store.sort(by: .distance)
    store.sort(by: .date)
    store.undo()
    #expect(store.state.sortType == .distance)
    try WorkoutsStore(contentsOf: url).trySend(.sort(by: .complexity))
    let outcome = store.undo()
    #expect(
      outcome
        == UndoOutcome(name: "Sort", skipped: ["the sort (changed meanwhile)"], changed: false))
    #expect(store.state.sortType == .complexity)
  }

  @Test("import progress records nothing")
  func importProgressRecordsNothing() {
    let store = WorkoutsStore(workouts: list)
    store.send(.importWorkouts(from: URL(fileURLWithPath: "/nonexistent.csv")))
    store.send(.cancelImport)
    #expect(!store.canUndo)
  }
}
