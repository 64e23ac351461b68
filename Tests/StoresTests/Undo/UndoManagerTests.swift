import Foundation
import Observation
import StoreTesting
import Stores
import Testing
import UndoManagerClient
import UndoManagerStandIn

/// `UndoManager` — Foundation's on Apple platforms, a stand-in with its declarations and
/// behaviour elsewhere — and the store's bridge to it, compiled against the stand-in.
private typealias Manager = UndoManagerStandIn.UndoManager

@MainActor
@Suite("Undo through an UndoManager")
struct UndoManagerTests {
  let todos = (0..<3).map {
    Todo(id: Gen<UUID>.testID($0), title: "t\($0)", date: Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test("each step is registered with its name; the manager's undo and redo run the store's")
  func menuAndStacks() {
    let store = TodosStore(todos: todos)
    let manager = Manager()
    store.undoManager = manager
    store.delete(atOffsets: [1])
    store.toggle(id: todos[0].id)
    #expect(manager.undoMenuItemTitle == "Undo Toggle Todo")
    manager.undo()
    #expect(store.todos == [todos[0], todos[2]])
    #expect(manager.undoMenuItemTitle == "Undo Remove Todo")
    #expect(manager.redoMenuItemTitle == "Redo Toggle Todo")
    manager.undo()
    #expect(store.todos == todos)
    #expect(!manager.canUndo && !store.canUndo)
    manager.redo()
    manager.redo()
    #expect(store.todos.map(\.title) == ["t0", "t2"] && store.todos[0].isDone)
    #expect(!manager.canRedo && !store.canRedo)
    manager.undo()
    #expect(!store.todos[0].isDone)
    store.add(Todo(title: "new"))
    #expect(!manager.canRedo && !store.canRedo)
    #expect(manager.undoMenuItemTitle == "Undo Add Todo")
  }

  @Test("the store holds the manager weakly")
  func weak() {
    let store = TodosStore(todos: todos)
    // Typed: on Apple platforms Stores' own `undoManager`, of Foundation's type, is there too.
    var registered: Manager? { store.undoManager }
    do {
      let manager = Manager()
      store.undoManager = manager
      #expect(registered === manager)
    }
    #expect(registered == nil)
    store.delete(atOffsets: [0])
    #expect(store.canUndo)
  }

  @Test("a user-defined store gets undo by declaring its inverses")
  func counter() {
    let counter = CounterStore()
    let manager = Manager()
    counter.undoManager = manager
    counter.send(.increment)
    counter.send(.increment)
    counter.send(.reset)
    #expect(manager.undoMenuItemTitle == "Undo Reset")
    manager.undo()
    #expect(counter.state == 2)
    counter.undo()
    #expect(counter.state == 1)
    counter.redo()
    #expect(counter.state == 2)
  }
}

/// The README's counter, with undo.
@MainActor @Observable
final class CounterStore: Store {
  enum Action: Sendable {
    case increment, decrement
    case set(Int)
    case reset
  }

  nonisolated static func reduce(_ count: inout Int, _ action: Action) -> Bool {
    switch action {
    case .increment: count += 1
    case .decrement: count -= 1
    case .set(let value):
      defer { count = value }
      return count != value
    case .reset:
      defer { count = 0 }
      return count != 0
    }
    return true
  }

  nonisolated static func inverse(of action: Action, in count: Int) -> Action? {
    switch action {
    case .increment: .decrement
    case .decrement: .increment
    case .set, .reset: .set(count)
    }
  }

  nonisolated static func actionName(of action: Action) -> String {
    switch action {
    case .increment: "Increment"
    case .decrement: "Decrement"
    case .set: "Set"
    case .reset: "Reset"
    }
  }

  @ObservationIgnored let core = StoreCore<CounterStore>(state: 0)
}
