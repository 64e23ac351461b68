import Foundation
import Observation
import Stores

// 1. Actions on a store against the seed-style copying reducer and a bare array.

/// The original article's store: a reducer that copies the state and returns it, and a store
/// that replaces its state with the result. While the store holds the old state, the copy
/// `var state = state` shares its arrays, so the first mutation copies them: every action
/// copies every workout, and adding N workouts is quadratic.
struct SeedState {
  var workouts: [Workout] = []
}

enum SeedAction {
  case addWorkout(Workout)
}

func seedReducer(state: SeedState, action: SeedAction) -> SeedState {
  var state = state
  switch action {
  case .addWorkout(let workout): state.workouts.append(workout)
  }
  return state
}

final class SeedStore {
  var state = SeedState()

  func dispatch(_ action: SeedAction) {
    state = seedReducer(state: state, action: action)
  }
}

@inline(never)
func bareAppend(_ array: inout [Workout], _ workouts: [Workout]) {
  for workout in workouts { array.append(workout) }
}

@inline(never)
func seedAdd(_ store: SeedStore, _ workouts: [Workout]) {
  for workout in workouts { store.dispatch(.addWorkout(workout)) }
}

/// `count` valid workouts, ready to add.
func sampleWorkouts(_ count: Int) -> [Workout] {
  let base = (0..<1000).map {
    try! Workout(
      name: "Run \($0)", distance: Double($0 % 42), complexity: Workout.Complexity.allCases[$0 % 3])
  }
  return (0..<count).map { base[$0 % base.count] }
}

/// Adding workouts one action at a time through `WorkoutsStore.send`, with a change callback
/// registered and Observation tracking the state; recording undo steps unless `undo` is
/// false.
func storeSide(_ workouts: [Workout], undo: Bool = true) -> Side {
  Side(
    "",
    prepare: {
      MainActor.assumeIsolated {
        let store = WorkoutsStore()
        if !undo { store.undoHistory.limit = 0 }
        let counter = ChangeCounter()
        let token = store.onChange { _, _ in counter.changes += 1 }
        withObservationTracking {
          _ = store.state
        } onChange: {
        }
        return (store, token, counter)
      }
    },
    run: { prepared in
      MainActor.assumeIsolated {
        for workout in workouts { prepared.0.send(.addWorkout(workout)) }
      }
    })
}

/// What the change callback of the benchmark counts.
@MainActor
final class ChangeCounter {
  var changes = 0
}

func actionBenchmarks(_ report: Report, quick: Bool) {
  for n in quick ? [1000] : [1000, 10_000, 50_000, 100_000] {
    let workouts = sampleWorkouts(n)
    // At 1k a bare append works in the cache (≈ 6 ns): the goals hold from 10k on.
    let inCache = n < 10_000
    report.compare(
      "add workouts: WorkoutsStore.send vs bare append", size: count(n),
      goal: inCache ? "(in the cache)" : "≤ 4.5× (with undo)", ours: storeSide(workouts),
      baseline: Side("(bare array append)", prepare: { [Workout]() }) { bareAppend(&$0, workouts) })
    report.compare(
      "add workouts, undo off: WorkoutsStore.send vs bare append", size: count(n),
      goal: inCache ? "(in the cache)" : "≤ 3×", ours: storeSide(workouts, undo: false),
      baseline: Side("(bare array append)", prepare: { [Workout]() }) { bareAppend(&$0, workouts) })
    report.compare(
      "straightforward store vs bare append", size: count(n), goal: "(calibration)",
      ours: straightforwardSide(workouts),
      baseline: Side("(bare array append)", prepare: { [Workout]() }) { bareAppend(&$0, workouts) })
    // The seed's copying reducer is quadratic: 100k would take a minute.
    guard n <= 50_000 else { continue }
    report.compare(
      "add workouts: WorkoutsStore.send vs seed-style reducer", size: count(n),
      goal: "far below 1×, shrinking with N", times: n > 10_000 ? 1 : nil,
      ours: storeSide(workouts),
      baseline: Side("(copying reducer)", prepare: { SeedStore() }) { seedAdd($0, workouts) })
  }
  let small = sampleWorkouts(quick ? 1000 : 10_000)
  let large = sampleWorkouts(quick ? 10_000 : 100_000)
  report.compare(
    "linearity: send × 10N vs send × N", size: "\(count(large.count)) / \(count(small.count))",
    goal: "≤ 12×", ours: storeSide(large),
    baseline: storeSide(small).relabeled("(\(count(small.count)) sends)"))
}

extension Side {
  func relabeled(_ label: String) -> Side {
    Side(label: label, measure: measure)
  }

  init(label: String, measure: @escaping () -> Double) {
    self.label = label
    self.measure = measure
  }
}

@MainActor @Observable
final class StraightforwardStore {
  var workouts: [Workout] = []
  @ObservationIgnored var callbacks: [(Workout) -> Void] = []

  func add(_ workout: Workout) {
    workouts.append(workout)
    for callback in callbacks { callback(workout) }
  }
}

func straightforwardSide(_ workouts: [Workout]) -> Side {
  Side(
    "(straightforward @Observable store)",
    prepare: {
      MainActor.assumeIsolated {
        let store = StraightforwardStore()
        let counter = ChangeCounter()
        store.callbacks.append { _ in counter.changes += 1 }
        withObservationTracking {
          _ = store.workouts
        } onChange: {
        }
        return store
      }
    },
    run: { store in
      MainActor.assumeIsolated {
        for workout in workouts { store.add(workout) }
      }
    })
}
