import Foundation
import Observation
import Stores

/// The smallest store with a list: exercises every part of the core in the core's tests.
@MainActor @Observable
final class ListStore: Store {
  struct State: Equatable, Sendable {
    var items: [Int] = []
  }

  enum Action: Equatable, Sendable {
    case append(Int)
    case removeAll
    /// Changes nothing, ever: the no-op case.
    case nothing
  }

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .append(let item):
      state.items.append(item)
      return true
    case .removeAll:
      guard !state.items.isEmpty else { return false }
      state.items.removeAll()
      return true
    case .nothing:
      return false
    }
  }

  @ObservationIgnored let core: StoreCore<ListStore>

  init(items: [Int] = []) {
    core = StoreCore(state: State(items: items))
  }

  init(items: [Int], backing: any StoreBacking<State>) {
    core = StoreCore(state: State(items: items), backing: backing)
  }
}

/// Records every change a callback saw.
@MainActor
final class ChangeLog {
  var entries: [(change: StoreChange<ListStore.Action>, items: [Int])] = []
  var actions: [ListStore.Action?] { entries.map(\.change.action) }
}

/// A counter that `@Sendable` closures (Observation's `onChange`) can bump.
final class SendableCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}
