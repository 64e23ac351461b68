import Observation
import Stores

// 6. Change callbacks: delivery linear in their number, nothing at all for a no-op.

/// An empty diary whose every `.sort(by:)` to the other type is a real change, with
/// `observers` callbacks registered.
@MainActor
func observedStore(_ observers: Int) -> (WorkoutsStore, [ObserverToken], ChangeCounter) {
  let store = WorkoutsStore()
  let counter = ChangeCounter()
  let tokens = (0..<observers).map { _ in store.onChange { _, _ in counter.changes += 1 } }
  return (store, tokens, counter)
}

@MainActor
func sendChanges(_ store: WorkoutsStore, _ actions: Int) {
  for index in 0..<actions {
    store.send(.sort(by: index.isMultiple(of: 2) ? .distance : .complexity))
  }
}

/// The least a store can do to notify: an `@Observable` class that runs the same reducer and
/// calls its closures with the same arguments — the change and the new state.
@MainActor @Observable
final class MinimalObservableStore {
  var state = WorkoutsStore.State()
  @ObservationIgnored var callbacks:
    [@MainActor (StoreChange<WorkoutsStore.Action>, WorkoutsStore.State) -> Void] = []

  func send(_ action: WorkoutsStore.Action) {
    guard WorkoutsStore.reduce(&state, action) else { return }
    let change = StoreChange.action(action)
    let state = self.state
    for callback in callbacks { callback(change, state) }
  }
}

@MainActor
func minimalStore(_ observers: Int) -> (MinimalObservableStore, ChangeCounter) {
  let store = MinimalObservableStore()
  let counter = ChangeCounter()
  store.callbacks = (0..<observers).map { _ in { _, _ in counter.changes += 1 } }
  return (store, counter)
}

@MainActor
func sendChanges(_ store: MinimalObservableStore, _ actions: Int) {
  for index in 0..<actions {
    store.send(.sort(by: index.isMultiple(of: 2) ? .distance : .complexity))
  }
}

/// The limit of notifying: a loop calling `closures` with one change and one state, `rounds`
/// times.
@inline(never)
func callClosures(
  _ closures: [(StoreChange<WorkoutsStore.Action>, WorkoutsStore.State) -> Void], _ rounds: Int
) {
  let state = WorkoutsStore.State()
  for index in 0..<rounds {
    let change = StoreChange.action(
      WorkoutsStore.Action.sort(by: index.isMultiple(of: 2) ? .distance : .complexity))
    for closure in closures { closure(change, state) }
  }
}

@inline(never)
func callClosures(_ closures: [() -> Void], _ rounds: Int) {
  for _ in 0..<rounds {
    for closure in closures { closure() }
  }
}

func observerBenchmarks(_ report: Report, quick: Bool) {
  let actions = quick ? 100 : 10_000
  let many = 1000
  report.compare(
    "an action notifying 1,000 callbacks vs calling 1,000 closures",
    size: "\(count(actions)) actions",
    goal: "≈ 1×",
    ours: Side("", prepare: { MainActor.assumeIsolated { observedStore(many) } }) { prepared in
      MainActor.assumeIsolated { sendChanges(prepared.0, actions) }
    },
    baseline: Side(
      "(a loop over closures)",
      prepare: { () -> ([() -> Void], Counter) in
        let counter = Counter()
        return ((0..<many).map { _ in { counter.value += 1 } }, counter)
      }
    ) { callClosures($0.0, actions) })
  report.compare(
    "an action notifying 100 callbacks vs a minimal @Observable store",
    size: "\(count(actions)) actions",
    goal: "≤ 1.2×",
    ours: Side("", prepare: { MainActor.assumeIsolated { observedStore(100) } }) { prepared in
      MainActor.assumeIsolated { sendChanges(prepared.0, actions) }
    },
    baseline: Side(
      "(same reducer, 100 closures)", prepare: { MainActor.assumeIsolated { minimalStore(100) } }
    ) { prepared in
      MainActor.assumeIsolated { sendChanges(prepared.0, actions) }
    })
  report.compare(
    "an action notifying 100 callbacks vs a loop over 100 closures, same arguments",
    size: "\(count(actions)) actions", goal: "(the limit)",
    ours: Side("", prepare: { MainActor.assumeIsolated { observedStore(100) } }) { prepared in
      MainActor.assumeIsolated { sendChanges(prepared.0, actions) }
    },
    baseline: Side(
      "(a loop over closures)",
      prepare: {
        () -> ([(StoreChange<WorkoutsStore.Action>, WorkoutsStore.State) -> Void], Counter) in
        let counter = Counter()
        return ((0..<100).map { _ in { _, _ in counter.value += 1 } }, counter)
      }
    ) { callClosures($0.0, actions) })
  report.compare(
    "notifying 1,000 callbacks vs 100", size: "\(count(actions)) actions", goal: "≈ 10× (linear)",
    ours: Side("", prepare: { MainActor.assumeIsolated { observedStore(many) } }) { prepared in
      MainActor.assumeIsolated { sendChanges(prepared.0, actions) }
    },
    baseline: Side("(100 callbacks)", prepare: { MainActor.assumeIsolated { observedStore(100) } })
    {
      prepared in MainActor.assumeIsolated { sendChanges(prepared.0, actions) }
    })
  report.compare(
    "a no-op action with 1,000 callbacks vs with none", size: "\(count(actions)) actions",
    goal: "≈ 1× (no notification)",
    ours: Side("", prepare: { MainActor.assumeIsolated { observedStore(many) } }) { prepared in
      MainActor.assumeIsolated {
        for _ in 0..<actions { prepared.0.send(.removeWorkoutsAtOffsets([])) }
        precondition(prepared.2.changes == 0)
      }
    },
    baseline: Side("(no callbacks)", prepare: { MainActor.assumeIsolated { observedStore(0) } }) {
      prepared in
      MainActor.assumeIsolated {
        for _ in 0..<actions { prepared.0.send(.removeWorkoutsAtOffsets([])) }
      }
    })
}

/// What the baseline closures count.
final class Counter {
  var value = 0
}
