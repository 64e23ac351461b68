import Foundation
import StoreTesting
import Stores
import Testing

/// A workouts store against the plain model `WorkoutsModel`, with actions picked from the
/// state: workouts that exist, offsets in and out of range, every sort.
@MainActor
struct WorkoutsMachine: StateMachine {
  let store = WorkoutsStore()
  var model = WorkoutsModel(added: [], sortType: nil)
  /// The number of the next fresh id, `Gen.testID(nextID)`.
  var nextID = 0

  var rules: [Rule<WorkoutsStore.Action>] {
    let workouts = store.state.workouts
    let ids = workouts.map(\.id)
    let fresh = Gen<UUID>.testID(nextID)
    return [
      Rule("add a workout", Gen<Workout>.workout(id: .constant(fresh)).map { .addWorkout($0) }),
      Rule(
        "remove at offsets", when: !workouts.isEmpty,
        Gen<IndexSet>.offsets(in: workouts.count, includingOutOfRange: true).map {
          .removeWorkoutsAtOffsets($0)
        }),
      Rule(
        "sort, or clear the sort",
        Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional.map {
          .sort(by: $0)
        }),
      Rule(
        "remove workouts by id", when: !ids.isEmpty,
        Gen<Set<UUID>>.set(of: .element(of: ids), maxCount: 3).map { .removeWorkouts(ids: $0) }),
      Rule(
        "add workouts at once, some already there",
        Gen<Workout>.workout(id: .id(among: nextID + 2)).array(maxCount: 3).map {
          .addWorkouts($0)
        }),
      Rule(
        "update a workout", when: !ids.isEmpty,
        Gen<Workout>.workout(id: .element(of: ids)).map { .updateWorkout($0) }),
      Rule(
        "update an unknown workout",
        Gen<Workout>.workout(id: .constant(Gen<UUID>.testID(1_000))).map { .updateWorkout($0) }),
    ]
  }

  mutating func perform(_ action: WorkoutsStore.Action) throws {
    if case .addWorkout(let workout) = action, workout.id == Gen<UUID>.testID(nextID) {
      nextID += 1
    }
    model = WorkoutsModel.apply(action, to: model)
    store.send(action)
  }

  func checkInvariants() throws {
    try requireEqual(WorkoutsModel(store.state), model, "the state")
    try requireEqual(store.state.workouts, model.shown, "the list shown")
    if let sortType = store.state.sortType {
      let keys = store.state.workouts.map { WorkoutsModel.key($0, sortType) }
      try require(zip(keys, keys.dropFirst()).allSatisfy(>=), "sorted by \(sortType)")
    }
  }
}

@MainActor
@Suite("WorkoutsStore, stateful")
struct WorkoutsStateMachineTests {
  @Test("every action picked from the state agrees with the model and keeps the sort")
  func agreesWithTheModel() async {
    await check(WorkoutsMachine.self)
  }
}
