import Foundation
import StoreTesting
import Stores
import Testing

/// The fields of a workouts state an expected state sets, from outside the module.
@Suite("Workouts state fields")
struct WorkoutsStateFieldTests {
  let date = Date(timeIntervalSinceReferenceDate: 817_600_000)

  func workout(_ index: Int, km: Double) throws -> Workout {
    try Workout(id: Gen<UUID>.testID(index), name: "W\(index)", distance: km, date: date)
  }

  @Test("setting the workouts keeps the ids: one removed can be added again, one kept cannot")
  func workoutsKeepTheirIDs() throws {
    let (a, b) = (try workout(0, km: 5), try workout(1, km: 10))
    var state = WorkoutsStore.State(workouts: [a, b])
    state.workouts = [a, a]
    #expect(state.workouts == [a])
    #expect(WorkoutsStore.reduce(&state, .addWorkout(b)))
    #expect(!WorkoutsStore.reduce(&state, .addWorkout(a)))
    #expect(state.workouts == [a, b])
  }

  @Test("setting the workouts while sorted keeps the list as given and the order added whole")
  func sortedWorkouts() throws {
    let (a, b, c) = (try workout(0, km: 5), try workout(1, km: 10), try workout(2, km: 7))
    var state = WorkoutsStore.State(workouts: [a, b], sortType: .distance)
    #expect(state.workouts == [b, a])
    state.workouts = [c, a]
    #expect(state.workouts == [c, a])
    #expect(state.workoutsInAddedOrder == [a, c])
    state.sortType = nil
    #expect(state.workouts == [a, c])
  }

  @Test("setting the sort sorts as the action does")
  func sortType() throws {
    let (a, b) = (try workout(0, km: 5), try workout(1, km: 10))
    var state = WorkoutsStore.State(workouts: [a, b])
    var sorted = state
    _ = WorkoutsStore.reduce(&sorted, .sort(by: .distance))
    state.sortType = .distance
    #expect(state == sorted)
    #expect(state.workouts == [b, a])
  }

  @Test("the import status is set as it is")
  func importStatus() {
    var state = WorkoutsStore.State()
    state.importStatus = .cancelled
    #expect(state.importStatus == .cancelled)
  }
}
