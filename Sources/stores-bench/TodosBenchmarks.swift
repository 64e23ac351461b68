import Foundation
import Stores

// 4. TodosStore at scale against the same work on a bare array.

/// `count` todos with distinct ids and mixed-up priorities and dates (the same on every
/// run), a third of them done.
func sampleTodos(_ count: Int) -> [Todo] {
  let titles = (0..<100).map { "Todo number \($0)" }
  return (0..<count).map { index in
    let bytes = withUnsafeBytes(of: UInt64(index).bigEndian, Array.init)
    let id = UUID(
      uuid: (
        0, 0, 0, 0, 0, 0, 0, 0, bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5],
        bytes[6], bytes[7]
      ))
    // Multiplying by a large odd constant scatters the indexes over the range.
    let scattered = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
    return Todo(
      id: id, title: titles[index % titles.count],
      date: Date(timeIntervalSinceReferenceDate: Double(scattered >> 37)),
      isDone: index % 3 == 0, priority: Int(scattered >> 60))
  }
}

// Baselines are compiled once, not inlined into each benchmark, so that they run the same
// code wherever they are measured from.
@inline(never)
func bareSortByPriority(_ todos: inout [Todo]) { todos.sort { $0.priority > $1.priority } }
@inline(never)
func bareSortByDate(_ todos: inout [Todo]) { todos.sort { $0.date < $1.date } }
@inline(never)
func bareRemoveCompleted(_ todos: inout [Todo]) { todos.removeAll { $0.isDone } }
/// The least an undoable removal does: keep the removed todos, then remove them.
@inline(never)
func bareRemoveCompletedKeeping(_ todos: inout [Todo]) -> [Todo] {
  let removed = todos.filter { $0.isDone }
  todos.removeAll { $0.isDone }
  return removed
}
@inline(never)
func bareFilter(_ todos: [Todo], _ filter: TodoFilter) -> [Todo] { todos.filter(filter.matches) }

/// A copy of `todos` with a buffer of its own, as a store's is, so that the timed work
/// does not start by copying it.
func uniqueCopy(_ todos: [Todo]) -> [Todo] {
  var copy = todos
  copy.withUnsafeMutableBufferPointer { _ in }
  return copy
}

/// What `TodosStore` does to add a todo, on a bare array: check that its id is new, then
/// insert it at the top. O(*n*).
@inline(never)
func bareAddAtTop(_ array: inout [Todo], _ todos: [Todo]) {
  for todo in todos where !array.contains(where: { $0.id == todo.id }) {
    array.insert(todo, at: 0)
  }
}

func todosBenchmarks(_ report: Report, quick: Bool) {
  // A todo goes to the top of the list, after a check that its id is new: O(n) however it
  // is done, so adding is measured against the same work on a bare array.
  let added = sampleTodos(quick ? 1000 : 10_000)
  report.compare(
    "add todos: TodosStore.send vs the same on a bare array", size: count(added.count),
    goal: "≤ 1.1× (with undo)",
    ours: Side("", prepare: { MainActor.assumeIsolated { TodosStore() } }) { store in
      MainActor.assumeIsolated { for todo in added { store.send(.addTodo(todo)) } }
    },
    baseline: Side("(id check, insert at the top)", prepare: { [Todo]() }) {
      bareAddAtTop(&$0, added)
    })
  let n = quick ? 10_000 : 1_000_000
  let todos = sampleTodos(n)
  let store = { MainActor.assumeIsolated { TodosStore(todos: todos) } }
  func ours(_ action: TodosStore.Action, undo: Bool = true) -> Side {
    let prepare = {
      MainActor.assumeIsolated {
        // A buffer of its own, as the baselines' `uniqueCopy`: neither side pays a copy the
        // other does not (the initialiser filters into a new array too).
        let store = TodosStore(todos: uniqueCopy(todos))
        if !undo { store.undoHistory.limit = 0 }
        return store
      }
    }
    return Side("", prepare: prepare) { store in MainActor.assumeIsolated { store.send(action) } }
  }
  report.compare(
    "TodosStore.orderByPriority vs sorting an array", size: count(n), goal: "≤ 1.1×",
    ours: ours(.orderByPriority),
    baseline: Side("(Array.sort)", prepare: { uniqueCopy(todos) }) { bareSortByPriority(&$0) })
  report.compare(
    "TodosStore.orderByDate vs sorting an array", size: count(n), goal: "≤ 1.1×",
    ours: ours(.orderByDate),
    baseline: Side("(Array.sort)", prepare: { uniqueCopy(todos) }) { bareSortByDate(&$0) })
  report.compare(
    "TodosStore.removeCompleted vs removeAll(where:)", size: count(n),
    goal: "(what undo adds: see the line keeping the removed)", ours: ours(.removeCompleted),
    baseline: Side("(Array.removeAll(where:))", prepare: { uniqueCopy(todos) }) {
      bareRemoveCompleted(&$0)
    })
  report.compare(
    "TodosStore.removeCompleted, undo off vs removeAll(where:)", size: count(n), goal: "≤ 1.1×",
    ours: ours(.removeCompleted, undo: false),
    baseline: Side("(Array.removeAll(where:))", prepare: { uniqueCopy(todos) }) {
      bareRemoveCompleted(&$0)
    })
  report.compare(
    "TodosStore.removeCompleted vs removeAll(where:) keeping the removed", size: count(n),
    goal: "≤ 1.5×", ours: ours(.removeCompleted),
    baseline: Side("(filter, then removeAll(where:))", prepare: { uniqueCopy(todos) }) {
      blackHole(bareRemoveCompletedKeeping(&$0))
    })
  let filter = TodoFilter(status: .active, minimumPriority: 5)
  precondition(
    MainActor.assumeIsolated { TodosStore(todos: todos).todos(matching: filter).map(\.element) }
      == bareFilter(todos, filter))
  report.compare(
    "TodosStore.todos(matching:) vs filter", size: count(n), goal: "≤ 1.2×",
    ours: Side("", prepare: store) { store in
      MainActor.assumeIsolated { blackHole(store.todos(matching: filter)) }
    },
    baseline: Side("(Array.filter, same predicate)", prepare: { todos }) {
      blackHole(bareFilter($0, filter))
    })
}
