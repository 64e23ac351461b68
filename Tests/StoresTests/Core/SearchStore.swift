import Foundation
import Observation
import Stores

/// A store with effects, for the effect tests: a debounced search, a failing effect, a timer
/// that ticks until cancelled, and an effect that sends a burst of actions.
@MainActor @Observable
final class SearchStore: Store {
  struct State: Equatable, Sendable {
    var query = ""
    var results: [String] = []
    var ticks = 0
  }

  enum Action: Equatable, Sendable {
    case search(String)
    case showResults([String])
    case startTimer
    case stopTimer
    case tick
    case fail
    case burst(Int)
    /// Changes nothing, and starts no effect.
    case nothing
  }

  struct Failure: Error, Equatable {}

  static let debounce = Duration.milliseconds(300)

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .search(let query):
      defer { state.query = query }
      return state.query != query
    case .showResults(let results):
      defer { state.results = results }
      return state.results != results
    case .tick:
      state.ticks += 1
      return true
    case .startTimer, .stopTimer, .fail, .burst, .nothing:
      return false
    }
  }

  nonisolated static func effect(
    for action: Action, state: State, environment: StoreEnvironment
  ) -> Effect<Action> {
    switch action {
    case .search:
      // The state after the reducer: the query just set.
      let query = state.query
      return .run(id: "search", cancelInFlight: true) { send in
        try await environment.sleep(debounce)
        await send(.showResults([query.uppercased(), "\(query)!"]))
      }
    case .startTimer:
      return .run(id: "timer") { send in
        while true {
          try await environment.sleep(.seconds(1))
          await send(.tick)
        }
      }
    case .stopTimer:
      return .cancel(id: "timer")
    case .fail:
      return .run { _ in throw Failure() }
    case .burst(let count):
      return .merge(
        (0..<count).map { index in .run { send in await send(.showResults(["\(index)"])) } })
    case .showResults, .tick, .nothing:
      return .none
    }
  }

  @ObservationIgnored let core: StoreCore<SearchStore>

  init(environment: StoreEnvironment) {
    core = StoreCore(state: State(), environment: environment)
  }
}
