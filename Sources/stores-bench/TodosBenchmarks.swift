import Foundation
import Stores

// 4. TodosStore at scale against the same work on a bare array.

/// `count` todos with distinct ids, shuffled priorities and dates, a third of them done.
func sampleTodos(_ count: Int) -> [Todo] {
  let titles = (0..<100).map { "Todo number \($0)" }
  var generator = SplitMix64(seed: 42)
  return (0..<count).map { index in
    var bytes = [UInt8](repeating: 0, count: 16)
    withUnsafeBytes(of: UInt64(index).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
    let id = UUID(
      uuid: (
        bytes[0], 0, 0, 0, 0, 0, 0, 0, bytes[8], bytes[9], bytes[10], bytes[11], bytes[12],
        bytes[13], bytes[14], bytes[15]
      ))
    return Todo(
      id: id, title: titles[index % titles.count],
      date: Date(timeIntervalSinceReferenceDate: Double(generator.next() % 100_000_000)),
      isDone: generator.next() % 3 == 0, priority: Int(generator.next() % 10))
  }
}

/// A small, seeded generator, so that every run sorts the same data.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
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
@inline(never)
func bareFilter(_ todos: [Todo], _ filter: TodoFilter) -> [Todo] { todos.filter(filter.matches) }

/// A copy of `todos` with a buffer of its own, as a store's is, so that the timed work
/// does not start by copying it.
func uniqueCopy(_ todos: [Todo]) -> [Todo] {
  var copy = todos
  copy.withUnsafeMutableBufferPointer { _ in }
  return copy
}

func todosBenchmarks(_ report: Report, quick: Bool) {
  let n = quick ? 10_000 : 1_000_000
  let todos = sampleTodos(n)
  let store = { MainActor.assumeIsolated { TodosStore(todos: todos) } }
  func ours(_ action: TodosStore.Action) -> Side {
    Side("", prepare: store) { store in MainActor.assumeIsolated { store.send(action) } }
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
    "TodosStore.removeCompleted vs removeAll(where:)", size: count(n), goal: "≤ 1.1×",
    ours: ours(.removeCompleted),
    baseline: Side("(Array.removeAll(where:))", prepare: { uniqueCopy(todos) }) {
      bareRemoveCompleted(&$0)
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
