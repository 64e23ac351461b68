import Foundation
import Stores

/// Two devices' versions of one todos file: the stamps cost in size and the merge in time.
@MainActor
func syncBenchmarks(_ report: Report, quick: Bool) {
  let n = quick ? 1_000 : 10_000
  typealias Sync = ListSync<TodosStore.State>
  var wall: Int64 = 1_764_600_000_000
  func device(_ name: String) -> HybridClock {
    HybridClock(device: DeviceID(Substring(name))!) { MainActor.assumeIsolated { wall } }
  }
  /// Applies `action`, stamped by `clock`, as a store on the file does.
  func apply(
    _ action: TodosStore.Action, to version: inout (TodosStore.State, Sync), _ clock: HybridClock
  ) {
    let before = version.0
    wall += 1_000
    if TodosStore.reduce(&version.0, action) {
      version.1 = version.1.stamped(before: before, after: version.0, stamp: clock.stamp())
    }
  }
  // Every todo added by an action of its own, as people add them (each stamped apart);
  // then each device edits a tenth of them, adds and removes a hundred.
  let phone = device("phone")
  let todos = sampleTodos(n)
  let positions = Position.keys(n, between: nil, and: nil)
  let stamps = (0..<n).map { index in
    let stamp = Stamp(milliseconds: wall - Int64(n - index) * 60_000, device: phone.device)
    return ItemStamps(
      fields: FieldStamps(repeating: stamp, count: 4), position: positions[index], positioned: stamp
    )
  }
  let base = (TodosStore.State(todos: todos), Sync(items: stamps, removed: [:], state: []))
  var a = base
  var b = base
  let laptop = device("laptop")
  for index in stride(from: 0, to: n, by: 10) {
    apply(.toggleTodo(id: base.0.todos[index].id), to: &a, phone)
    var todo = base.0.todos[index + 5]
    todo.title += " (edited)"
    apply(.updateTodo(todo), to: &b, laptop)
  }
  for index in 0..<100 {
    apply(.addTodo(Todo(title: "phone \(index)")), to: &a, phone)
    apply(.addTodo(Todo(title: "laptop \(index)")), to: &b, laptop)
    apply(.removeTodos(ids: [base.0.todos[n - 1 - index].id]), to: &a, phone)
    apply(.removeTodos(ids: [base.0.todos[n / 2 + index].id]), to: &b, laptop)
  }
  let fileA = try! StateFileCoding.encode(a.0, sync: a.1, path: "a.json")
  let fileB = try! StateFileCoding.encode(b.0, sync: b.1, path: "b.json")
  let versionOne = try! StateFileCoding.encode(a.0, sync: NoSync(unstamped: a.0), path: "a.json")
  let growth = Double(fileA.count) / Double(versionOne.count)
  print(
    "| stamps, digests and tombstones: the file's size | \(count(n)) todos, 100 removed | "
      + "\(fileA.count) B | \(versionOne.count) B (version 1) | \(format2(growth))× | ≤ 1.3× |")

  func decodeBoth() -> ((TodosStore.State, Sync), (TodosStore.State, Sync)) {
    (
      try! StateFileCoding.decode(fileA, path: "a.json", sync: Sync.self),
      try! StateFileCoding.decode(fileB, path: "b.json", sync: Sync.self)
    )
  }
  report.compare(
    "merge two versions of a todos file vs decoding both", size: "\(count(n)) todos",
    goal: "≤ 2×",
    ours: Side("", prepare: { () }) { _ in
      let (a, b) = decodeBoth()
      blackHole(Sync.merge(a, b))
    },
    baseline: Side("(decode both)", prepare: { () }) { _ in blackHole(decodeBoth()) })

  var toggled = a.0
  _ = TodosStore.reduce(&toggled, .toggleTodo(id: a.0.todos[n / 2].id))
  let stamp = phone.stamp()
  report.compare(
    "stamp a toggle vs encode the file it is written to", size: "\(count(n)) todos",
    goal: "(the stamps' share of an action)",
    ours: Side("", prepare: { () }) { _ in
      blackHole(a.1.stamped(before: a.0, after: toggled, stamp: stamp))
    },
    baseline: Side("(encode, with stamps)", prepare: { () }) { _ in
      blackHole(try! StateFileCoding.encode(a.0, sync: a.1, path: "a.json"))
    })
  report.compare(
    "encode a file with stamps vs without", size: "\(count(n)) todos", goal: "(≈ its size)",
    ours: Side("", prepare: { () }) { _ in
      blackHole(try! StateFileCoding.encode(a.0, sync: a.1, path: "a.json"))
    },
    baseline: Side("(version 1)", prepare: { () }) { _ in
      blackHole(try! StateFileCoding.encode(a.0, sync: NoSync(unstamped: a.0), path: "a.json"))
    })
}
