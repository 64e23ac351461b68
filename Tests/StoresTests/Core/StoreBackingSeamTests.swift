import Stores
import Testing

/// A backing that keeps its "stored" state in memory, can be changed behind the store's
/// back, and can be told to fail: enough to pin what the core does with any backing.
final class MemoryBacking: StoreBacking, @unchecked Sendable {
  struct Failure: Error, Equatable {}

  var stored: ListStore.State
  var storeSeen: ListStore.State
  var failSaves = false
  var saves = 0
  var onExternalChange: (@MainActor () -> Void)?

  init(_ state: ListStore.State) {
    stored = state
    storeSeen = state
  }

  /// Changes the stored state as another process would.
  @MainActor func changeExternally(_ state: ListStore.State) {
    stored = state
    onExternalChange?()
  }

  func transaction(
    from current: ListStore.State, _ update: (inout ListStore.State) throws -> Bool
  ) throws -> BackingTransaction<ListStore.State>? {
    let reloaded = stored != storeSeen
    var state = reloaded ? stored : current
    let changed = try update(&state)
    if changed {
      if failSaves { throw Failure() }
      stored = state
      saves += 1
    }
    storeSeen = stored
    return reloaded || changed
      ? BackingTransaction(state: state, reloaded: reloaded, changed: changed) : nil
  }

  func reloadIfChanged(from current: ListStore.State) throws -> ListStore.State? {
    guard stored != storeSeen else { return nil }
    storeSeen = stored
    return stored
  }

  func keepMemoryOnlyState(_ state: inout ListStore.State, from memory: ListStore.State) {}

  @MainActor func watch(onChange: @escaping @MainActor () -> Void) throws {
    onExternalChange = onChange
  }
  @MainActor func stopWatching() { onExternalChange = nil }
}

@MainActor
@Suite("Store core with a backing")
struct StoreBackingSeamTests {
  @Test("each changing action is saved once; no-ops are not saved")
  func savesChanges() throws {
    let backing = MemoryBacking(.init(items: []))
    let store = ListStore(items: [], backing: backing)
    try store.trySend(.append(1))
    store.send(.nothing)
    store.send(.removeAll)
    store.send(.removeAll)
    #expect(backing.saves == 2)
    #expect(backing.stored == store.state)
  }

  @Test("a failed save throws and leaves the state and callbacks untouched")
  func failedSave() {
    let backing = MemoryBacking(.init(items: [1]))
    let store = ListStore(items: [1], backing: backing)
    var calls = 0
    let token = store.onChange { _, _ in calls += 1 }
    backing.failSaves = true
    #expect(throws: MemoryBacking.Failure.self) { try store.trySend(.append(2)) }
    #expect(store.state.items == [1])
    #expect(store.lastError == nil)
    store.send(.append(3))
    #expect(store.state.items == [1])
    #expect(store.lastError is MemoryBacking.Failure)
    #expect(calls == 0)
    backing.failSaves = false
    store.send(.append(4))
    #expect(store.state.items == [1, 4])
    #expect(store.lastError == nil)
    #expect(calls == 1)
    token.cancel()
  }

  @Test("an action on a stale state applies to the stored one, reported as reload then action")
  func actionOnStaleState() throws {
    let backing = MemoryBacking(.init(items: [1]))
    let store = ListStore(items: [1], backing: backing)
    var changes: [StoreChange<ListStore.Action>] = []
    let token = store.onChange { change, _ in changes.append(change) }
    backing.stored = .init(items: [1, 9])
    try store.trySend(.append(2))
    #expect(store.state.items == [1, 9, 2])
    #expect(backing.stored.items == [1, 9, 2])
    #expect(changes == [.reload, .action(.append(2))])
    token.cancel()
  }

  @Test("refresh and the watch deliver external changes as reloads, once each")
  func refreshAndWatch() throws {
    let backing = MemoryBacking(.init(items: []))
    let store = ListStore(items: [], backing: backing)
    var changes: [StoreChange<ListStore.Action>] = []
    let token = store.onChange { change, _ in changes.append(change) }
    try store.refresh()
    #expect(changes.isEmpty)
    backing.stored = .init(items: [5])
    try store.refresh()
    try store.refresh()
    #expect(store.state.items == [5])
    try store.watch()
    backing.changeExternally(.init(items: [5, 6]))
    #expect(store.state.items == [5, 6])
    store.stopWatching()
    backing.changeExternally(.init(items: [7]))
    #expect(store.state.items == [5, 6])
    #expect(changes == [.reload, .reload])
    token.cancel()
  }
}
