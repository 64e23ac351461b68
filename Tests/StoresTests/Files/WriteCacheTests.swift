import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A store opened to keep no write cache (as `diary` opens its files) writes what one that
/// keeps it writes.
@MainActor
@Suite("Stores without a write cache")
struct WriteCacheTests {
  let folder = TemporaryFolder()

  /// A todos store on `name` in the folder, stamping as one device at one time.
  func store(_ name: String, keepsWriteCache: Bool) throws -> TodosStore {
    TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: folder.file(name), clock: HybridClock(device: DeviceID("d")!) { 1_000 },
        keepsWriteCache: keepsWriteCache))
  }

  @Test("every write is the bytes a store with the cache writes")
  func sameBytes() throws {
    let cached = try store("cached.json", keepsWriteCache: true)
    let uncached = try store("uncached.json", keepsWriteCache: false)
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let todos = (0..<5).map { Todo(title: "Todo \($0)", date: start + Double($0)) }
    let actions: [TodosStore.Action] =
      todos.map { .addTodo($0) } + [
        .toggleTodo(id: todos[2].id),
        .updateTodo(Todo(id: todos[0].id, title: "Edited", date: start)),
        .removeTodos(ids: [todos[3].id]),
      ]
    for (step, action) in actions.enumerated() {
      try cached.trySend(action)
      try uncached.trySend(action)
      let written = contents(folder.file("uncached.json"))
      #expect(written == contents(folder.file("cached.json")), "step \(step)")
      #expect(written?.isEmpty == false)
    }
  }
}
