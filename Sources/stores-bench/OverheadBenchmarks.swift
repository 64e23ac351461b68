import Observation
import Stores

// 8. What the machinery adds to an action: effects when a store has none, per-key
// observation of settings.

/// A store without effects: a counter, its reducer and nothing else.
@MainActor @Observable
final class CounterStore: Store {
  enum Action: Sendable { case increment }

  nonisolated static func reduce(_ count: inout Int, _ action: Action) -> Bool {
    count += 1
    return true
  }

  @ObservationIgnored let core = StoreCore<CounterStore>(state: 0)
}

/// The same reducer, called directly on a count, with a callback as the store calls one.
@inline(never)
func reduceDirectly(_ count: inout Int, _ actions: Int, callback: (Int) -> Void) {
  for _ in 0..<actions where CounterStore.reduce(&count, .increment) { callback(count) }
}

/// The settings actions on a store of the same state without per-key observation: the
/// baseline of what `KeyObservation` adds.
@MainActor @Observable
final class PlainSettingsStore: Store {
  nonisolated static func reduce(
    _ state: inout SettingsStore.State, _ action: SettingsStore.Action
  ) -> Bool {
    SettingsStore.reduce(&state, action)
  }

  @ObservationIgnored let core = StoreCore<PlainSettingsStore>(state: SettingsStore.State())
}

/// `actions` changes of one setting's value, alternating, sent to `store`.
@MainActor
func changeSetting<S: Store>(_ store: S, _ actions: Int) where S.Action == SettingsStore.Action {
  for index in 0..<actions {
    store.send(.set(key: "sleepGoal", value: .number(index.isMultiple(of: 2) ? 7 : 8)))
  }
}

func overheadBenchmarks(_ report: Report, quick: Bool) {
  let actions = quick ? 1_000 : 100_000
  report.compare(
    "an action on a store without effects vs its reducer called directly", size: count(actions),
    goal: "(the store's cost)",
    ours: Side(
      "",
      prepare: {
        MainActor.assumeIsolated {
          let store = CounterStore()
          let counter = ChangeCounter()
          let token = store.onChange { _, _ in counter.changes += 1 }
          return (store, token, counter)
        }
      },
      run: { prepared in
        MainActor.assumeIsolated {
          for _ in 0..<actions { prepared.0.send(.increment) }
        }
      }),
    baseline: Side("(reduce and a callback)", prepare: { (0, 0) }) { state in
      var changes = 0
      reduceDirectly(&state.0, actions) { _ in changes += 1 }
      state.1 = changes
    })
  /// A settings store with a view observing another key than the one changed.
  func settingsSide(undo: Bool) -> Side {
    Side(
      "",
      prepare: {
        MainActor.assumeIsolated {
          let settings = SettingsStore()
          if !undo { settings.undoHistory.limit = 0 }
          withObservationTracking {
            _ = settings.distanceUnit
          } onChange: {
          }
          return settings
        }
      },
      run: { settings in MainActor.assumeIsolated { changeSetting(settings, actions) } })
  }
  report.compare(
    "a setting changed on a SettingsStore with undo vs without", size: count(actions),
    goal: "≤ 1.5×", ours: settingsSide(undo: true),
    baseline: settingsSide(undo: false).relabeled("(undo off)"))
  report.compare(
    "a setting changed on a SettingsStore, observed per key, vs a store without",
    size: count(actions),
    goal: "(what observing per key adds)",
    ours: settingsSide(undo: false),
    baseline: Side(
      "(the same actions, whole-state observation only)",
      prepare: {
        MainActor.assumeIsolated {
          let store = PlainSettingsStore()
          withObservationTracking {
            _ = store.state
          } onChange: {
          }
          return store
        }
      },
      run: { store in MainActor.assumeIsolated { changeSetting(store, actions) } }))
}
