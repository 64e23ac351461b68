import Observation
import Stores
import Testing

@MainActor
@Suite("Store core")
struct StoreCoreTests {
  @Test("send runs the reducer on the state")
  func sendRunsTheReducer() {
    let store = ListStore(items: [1])
    store.send(.append(2))
    store.send(.append(3))
    #expect(store.state.items == [1, 2, 3])
    store.send(.removeAll)
    #expect(store.state.items == [])
  }

  @Test("the reducer is callable without a store")
  func reducerWithoutStore() {
    var state = ListStore.State(items: [1])
    #expect(ListStore.reduce(&state, .append(2)))
    #expect(!ListStore.reduce(&state, .nothing))
    #expect(state.items == [1, 2])
  }

  @Test("a callback runs once per real change, with the action and the new state")
  func callbackPerChange() {
    let store = ListStore()
    let log = ChangeLog()
    let token = store.onChange { change, state in log.entries.append((change, state.items)) }
    store.send(.append(1))
    store.send(.nothing)
    store.send(.append(2))
    store.send(.removeAll)
    store.send(.removeAll)
    #expect(log.actions == [.append(1), .append(2), .removeAll])
    #expect(log.entries.map(\.items) == [[1], [1, 2], []])
    token.cancel()
  }

  @Test("no-op actions notify nobody")
  func noOpNotifiesNobody() {
    let store = ListStore()
    var calls = 0
    let token = store.onChange { _, _ in calls += 1 }
    store.send(.nothing)
    store.send(.removeAll)
    #expect(calls == 0)
    _ = token
  }

  @Test("a cancelled token stops its callback, and only its callback")
  func cancelStopsCallback() {
    let store = ListStore()
    var first = 0
    var second = 0
    let firstToken = store.onChange { _, _ in first += 1 }
    let secondToken = store.onChange { _, _ in second += 1 }
    store.send(.append(1))
    firstToken.cancel()
    firstToken.cancel()
    store.send(.append(2))
    #expect(first == 1)
    #expect(second == 2)
    secondToken.cancel()
  }

  @Test("releasing the token unregisters the callback")
  func releasingTokenUnregisters() {
    let store = ListStore()
    var calls = 0
    var token: ObserverToken? = store.onChange { _, _ in calls += 1 }
    store.send(.append(1))
    #expect(token != nil)
    token = nil
    store.send(.append(2))
    #expect(calls == 1)
  }

  @Test("the store keeps neither its observers nor itself alive")
  func noRetainCycles() {
    final class Observer {
      var token: ObserverToken?
      var calls = 0
    }
    let store = ListStore()
    var observer: Observer? = Observer()
    weak let weakObserver = observer
    observer?.token = store.onChange { [weak observer] _, _ in observer?.calls += 1 }
    store.send(.append(1))
    #expect(observer?.calls == 1)
    observer = nil
    #expect(weakObserver == nil)
    store.send(.append(2))

    var other: ListStore? = ListStore()
    weak let weakStore = other
    let token = other?.onChange { _, _ in }
    other = nil
    #expect(weakStore == nil)
    token?.cancel()
  }

  @Test("a callback registered during delivery runs from the next change on")
  func registerDuringDelivery() {
    let store = ListStore()
    var late: [ListStore.Action?] = []
    var tokens: [ObserverToken] = []
    tokens.append(
      store.onChange { _, _ in
        guard tokens.count == 1 else { return }
        tokens.append(store.onChange { change, _ in late.append(change.action) })
      })
    store.send(.append(1))
    store.send(.append(2))
    #expect(late == [.append(2)])
  }

  @Test("a callback cancelled during delivery is not called, even for that change")
  func cancelDuringDelivery() {
    let store = ListStore()
    var secondCalls = 0
    var second: ObserverToken?
    let first = store.onChange { _, _ in second?.cancel() }
    second = store.onChange { _, _ in secondCalls += 1 }
    store.send(.append(1))
    store.send(.append(2))
    #expect(secondCalls == 0)
    first.cancel()
  }

  @Test("many callbacks cancelled and registered during delivery: each runs for its changes")
  func churnDuringDelivery() {
    let store = ListStore()
    // Callback k counts the changes it saw; registering 30 more crosses the size at which
    // cancelled callbacks are dropped, which must wait until the delivery is over.
    var calls: [Int: [Int]] = [:]
    var tokens: [Int: ObserverToken] = [:]
    func register(_ k: Int) {
      tokens[k] = store.onChange { _, state in
        calls[k, default: []].append(state.items.count)
        guard k == 0, state.items.count == 1 else { return }
        for cancelled in 2...10 { tokens[cancelled]?.cancel() }
        for late in 20..<50 { register(late) }
      }
    }
    for k in 0..<20 { register(k) }
    store.send(.append(1))
    store.send(.append(2))
    let old = [0, 1] + Array(11..<20)
    #expect(calls.keys.sorted() == old + Array(20..<50))
    for k in old { #expect(calls[k] == [1, 2], "callback \(k)") }
    for k in 20..<50 { #expect(calls[k] == [2], "callback \(k)") }
  }

  @Test("an action sent by a callback is applied at once and delivered after the round")
  func sendDuringDelivery() {
    let store = ListStore()
    var seen: [(String, ListStore.Action?, [Int])] = []
    let first = store.onChange { change, state in
      seen.append(("first", change.action, state.items))
      if change.action == .append(1) { store.send(.append(2)) }
    }
    let second = store.onChange { change, state in
      seen.append(("second", change.action, state.items))
    }
    store.send(.append(1))
    #expect(store.state.items == [1, 2])
    #expect(seen.map(\.0) == ["first", "second", "first", "second"])
    #expect(seen.map(\.1) == [.append(1), .append(1), .append(2), .append(2)])
    #expect(seen.map(\.2) == [[1], [1, 2], [1, 2], [1, 2]])
    first.cancel()
    second.cancel()
  }

  @Test("the state is mutated in place, never copied per action")
  func noCopyPerAction() {
    var items: [Int] = []
    items.reserveCapacity(1000)
    items.append(0)
    let store = ListStore(items: items)
    items = []
    let token = store.onChange { _, _ in }
    let before = store.state.items.withUnsafeBufferPointer { $0.baseAddress }
    for item in 1..<1000 { store.send(.append(item)) }
    let after = store.state.items.withUnsafeBufferPointer { $0.baseAddress }
    #expect(before == after)
    #expect(store.state.items.count == 1000)
    token.cancel()
  }

  @Test("Observation tracks the state and fires only for real changes")
  func observationTracking() {
    let store = ListStore()
    let fired = SendableCounter()
    func track() {
      withObservationTracking {
        _ = store.state.items
      } onChange: {
        fired.increment()
      }
    }
    track()
    store.send(.nothing)
    store.send(.removeAll)
    #expect(fired.value == 0)
    store.send(.append(1))
    #expect(fired.value == 1)
    store.send(.append(2))
    #expect(fired.value == 1)
    track()
    store.send(.append(3))
    #expect(fired.value == 2)
  }

  @Test("the change stream yields every change and ends with the store")
  func changeStream() async {
    var store: ListStore? = ListStore()
    let changes = store!.changes
    store?.send(.append(1))
    store?.send(.nothing)
    store?.send(.removeAll)
    store = nil
    var received: [StoreChange<ListStore.Action>] = []
    for await change in changes { received.append(change) }
    #expect(received == [.action(.append(1)), .action(.removeAll)])
  }
}
