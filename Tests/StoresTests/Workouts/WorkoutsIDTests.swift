import Foundation
import StoreTesting
import Stores
import Testing

/// One rule for ids in both list stores: no two workouts have one id, as no two todos do.
@MainActor
@Suite("WorkoutsStore ids")
struct WorkoutsIDTests {
  /// Workouts whose ids are among 6, so that many lists hold two of one id; a sort; actions
  /// whose ids collide with them.
  static let collidingStatesAndActions = Gen<
    ([Workout], WorkoutsStore.SortType?, [WorkoutsStore.Action])
  >.zip(
    Gen<Workout>.workout(id: .id(among: 6)).array(maxCount: 8),
    Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional,
    Gen<WorkoutsStore.Action>.workoutAction(maxCount: 3).array(maxCount: 12))

  let folder = TemporaryFolder()

  @Test("no two workouts share an id after any actions; an addition of a taken id changes nothing")
  func uniqueIDs() {
    check(Self.collidingStatesAndActions) { workouts, sortType, actions in
      let store = WorkoutsStore(workouts: workouts)
      var firsts: [UUID: Workout] = [:]
      for workout in workouts where firsts[workout.id] == nil { firsts[workout.id] = workout }
      try requireEqual(
        store.state.workouts, workouts.filter { firsts[$0.id] == $0 }, "the first of each id")
      if let sortType { store.send(.sort(by: sortType)) }
      for action in actions {
        let before = store.state
        let taken = Set(before.workouts.map(\.id))
        var state = before
        let changed = WorkoutsStore.reduce(&state, action)
        store.send(action)
        try requireEqual(store.state, state, "the store is the reducer")
        try require(
          Set(state.workouts.map(\.id)).count == state.workouts.count, "two of one id: \(action)")
        switch action {
        case .addWorkout(let workout) where taken.contains(workout.id):
          try require(!changed, "an addition of a taken id changed the state")
          try requireEqual(state, before)
        case .addWorkouts(let added) where added.allSatisfy({ taken.contains($0.id) }):
          try require(!changed, "an addition of taken ids changed the state")
        default:
          break
        }
      }
    }
  }

  @Test("add with a taken id is ignored, and notifies nobody")
  func addTakenID() throws {
    let run = try Workout(name: "Run", distance: 5)
    let other = try Workout(id: run.id, name: "Swim", distance: 1)
    let store = WorkoutsStore(workouts: [run])
    var changes = 0
    let token = store.onChange { _, _ in changes += 1 }
    store.add(other)
    store.send(.addWorkouts([other]))
    store.sort(by: .distance)
    store.add(other)
    #expect(store.state.workouts == [run])
    #expect(changes == 1, "the sort only")
    #expect(store.undoHistory.undoSteps.count == 1, "the sort only")
    token.cancel()
  }

  @Test("a batch with two of one id adds the first; the diary's ids are skipped")
  func addBatch() throws {
    let run = try Workout(name: "Run", distance: 5)
    let a = try Workout(name: "A", distance: 1)
    let aAgain = try Workout(id: a.id, name: "A again", distance: 2)
    let runAgain = try Workout(id: run.id, name: "Run again", distance: 3)
    var state = WorkoutsStore.State(workouts: [run])
    #expect(WorkoutsStore.reduce(&state, .addWorkouts([a, runAgain, aAgain])))
    #expect(state.workouts == [run, a])
  }

  @Test("restore skips a workout whose id is taken, and a second of one id")
  func restoreTakenID() throws {
    let run = try Workout(name: "Run", distance: 5)
    let swim = try Workout(name: "Swim", distance: 1)
    let runAgain = try Workout(id: run.id, name: "Run again", distance: 3)
    let swimAgain = try Workout(id: swim.id, name: "Swim again", distance: 2)
    var state = WorkoutsStore.State(workouts: [run])
    let action = WorkoutsStore.Action.restoreWorkouts([
      WorkoutRun([runAgain, swim, swimAgain], before: nil, offset: 1)
    ])
    #expect(
      WorkoutsStore.inverse(of: action, in: state) == .discardWorkouts([swim]),
      "the undo removes what is put back")
    #expect(WorkoutsStore.reduce(&state, action))
    #expect(state.workouts == [run, swim])
    #expect(!WorkoutsStore.reduce(&state, action), "all ids taken: nothing changes")
  }

  @Test("the in-memory initialiser keeps the first workout of each id")
  func initialiserKeepsFirst() throws {
    let run = try Workout(name: "Run", distance: 5)
    let runAgain = try Workout(id: run.id, name: "Run again", distance: 3)
    let swim = try Workout(name: "Swim", distance: 1)
    #expect(WorkoutsStore(workouts: [run, swim, runAgain]).state.workouts == [run, swim])
    #expect(
      WorkoutsStore.State(workouts: [run, swim, runAgain], sortType: .distance).workouts == [
        run, swim,
      ])
  }

  @Test(
    "a file with two workouts of one id is refused, with the place, and left as it is",
    arguments: [
      ("duplicate-ids.json", "workouts: two workouts have the same id"),
      ("duplicate-ids-version-0.json", "two workouts have the same id"),
    ])
  func duplicateIDsInFile(name: String, expected: String) throws {
    let url = folder.copy(fixture: "workouts/\(name)")
    let before = contents(url)
    let error = #expect(throws: StoreFileError.self) { try WorkoutsStore(contentsOf: url) }
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    #expect(contents(url) == before)
  }

  @Test("Codable refuses two workouts of one id, as the file format does")
  func duplicateIDsDecoded() throws {
    let run = try Workout(name: "Run", distance: 5)
    let runAgain = try Workout(id: run.id, name: "Run again", distance: 3)
    let swim = try Workout(name: "Swim", distance: 1)
    let decoder = JSONDecoder()
    let valid = try JSONEncoder().encode(["workouts": [run, swim]])
    #expect(try decoder.decode(WorkoutsStore.State.self, from: valid).workouts == [run, swim])
    let data = try JSONEncoder().encode(["workouts": [run, swim, runAgain]])
    let error = #expect(throws: DecodingError.self) {
      try decoder.decode(WorkoutsStore.State.self, from: data)
    }
    #expect("\(String(describing: error))".contains("two workouts have the same id"))
  }
}
