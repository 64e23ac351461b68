import Foundation
import Stores

// 11. Saving in the background: what an action on a file costs the main actor, against the
// same action in memory, and how many writes group commit saves.

/// A folder of its own for one run, removed by the caller.
func benchFolder() -> URL {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}

func backgroundBenchmarks(_ report: Report, quick: Bool) {
  let folder = benchFolder()
  defer { try? FileManager.default.removeItem(at: folder) }
  for n in quick ? [1000] : [1000, 10_000] {
    let todos = sampleTodos(n)
    let url = folder.appendingPathComponent("todos-\(n).json")
    try! StateFileCoding.encode(TodosStore.State(todos: todos), path: url.path).write(to: url)
    let toggles = (0..<1000).map { TodosStore.Action.toggleTodo(id: todos[$0 * 7 % n].id) }
    // Each side sends 1,000 toggles in one turn of the main actor: what `send` costs it.
    report.compare(
      "1,000 toggles on a store saving in the background vs in memory (main-actor time)",
      size: "\(count(n)) todos", goal: "≤ 2×",
      ours: Side(
        "",
        prepare: {
          MainActor.assumeIsolated {
            let store = try! TodosStore(contentsOf: url)
            store.saveMode = .inBackground
            store.send(toggles[0])
            try! store.save()
            return store
          }
        },
        run: { store in
          MainActor.assumeIsolated { for toggle in toggles { store.send(toggle) } }
        }),
      baseline: Side(
        "(TodosStore in memory)",
        prepare: {
          MainActor.assumeIsolated {
            let store = TodosStore(todos: todos)
            store.send(toggles[0])
            return store
          }
        },
        run: { store in
          MainActor.assumeIsolated { for toggle in toggles { store.send(toggle) } }
        }))
  }
  let n = quick ? 1000 : 10_000
  let writes = MainActor.assumeIsolated {
    let store = try! TodosStore(contentsOf: folder.appendingPathComponent("todos-\(n).json"))
    store.saveMode = .inBackground
    let ids = store.todos.map(\.id)
    // A toggle per turn of the main actor, as taps come: the writer takes what came meanwhile.
    for index in 0..<1000 {
      store.send(.toggleTodo(id: ids[index * 7 % ids.count]))
      RunLoop.main.run(until: Date())
    }
    while store.hasUnsavedChanges { RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.001)) }
    return store.core.backgroundWrites
  }
  report.note(
    "1,000 toggles, one per turn: writes in the background vs saving before returning",
    size: "\(count(n)) todos", ours: Double(writes), baseline: 1000,
    baselineLabel: "(a write per toggle)", goal: "≤ 0.05×", unit: "writes")
}
