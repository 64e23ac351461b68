import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A store opened to keep no write cache (as `diary` opens its files) writes what one that
/// keeps it writes — also after a write that failed or raced, whose stamps, changed in place,
/// were put back.
@MainActor
@Suite("Stores with and without a write cache")
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

  @Test("a write that fails leaves no trace, though it stamped the stamps in place")
  func failedWrite() throws {
    // Flushed, so that a flush can be made to fail through the writes' seam.
    let durable = TemporaryFolder(durability: .flushed)
    func store(_ name: String, keepsWriteCache: Bool) throws -> (TodosStore, HybridClock) {
      let clock = HybridClock(device: DeviceID("d")!) { 1_000 }
      let store = TodosStore(
        core: try TodosStore.fileCore(
          contentsOf: durable.file(name), clock: clock, keepsWriteCache: keepsWriteCache))
      return (store, clock)
    }
    // Two stores try every action, and one makes only those that succeed — its clock moved on
    // by the stamp each failed action took, so that its stamps are theirs.
    let (cached, _) = try store("cached.json", keepsWriteCache: true)
    let (uncached, _) = try store("uncached.json", keepsWriteCache: false)
    let (unfailed, clock) = try store("unfailed.json", keepsWriteCache: true)
    let todos = (0..<4).map { Todo(title: "Todo \($0)", date: Date(timeIntervalSince1970: 0)) }
    let failing = FileSystem.Flushes(beforeRename: { _ in EIO }, afterRename: { _, _ in })
    let steps: [(action: TodosStore.Action, fails: Bool)] =
      todos.map { (.addTodo($0), false) } + [
        (.toggleTodo(id: todos[1].id), false),
        // In place: the stamps the cache wrote are lent to the stamping, then put back.
        (.toggleTodo(id: todos[2].id), true),
        (.toggleTodo(id: todos[3].id), false),
        (.updateTodo(Todo(id: todos[2].id, title: "Edited", date: .now)), true),
        (.toggleTodo(id: todos[3].id), true),
        (.removeTodos(ids: [todos[0].id]), true),
        (.toggleTodo(id: todos[2].id), false),
        (.removeTodos(ids: [todos[0].id]), false),
      ]
    for (step, (action, fails)) in steps.enumerated() {
      for store in [cached, uncached] {
        let before = store.todos
        if fails {
          #expect(throws: StoreFileError.self, "step \(step)") {
            try FileSystem.Flushes.$durable.withValue(failing) { try store.trySend(action) }
          }
          #expect(store.todos == before, "step \(step)")
        } else {
          try store.trySend(action)
        }
      }
      if fails { _ = clock.stamp() } else { try unfailed.trySend(action) }
      let written = contents(durable.file("unfailed.json"))
      #expect(written == contents(durable.file("cached.json")), "step \(step)")
      #expect(written == contents(durable.file("uncached.json")), "step \(step)")
    }
    #expect(cached.todos.map(\.isDone) == [true, true, true])
  }

  @Test("a write that fails after a copy beside the file was merged leaves the store its stamps")
  func failedWriteAfterMergingACopy() throws {
    let durable = TemporaryFolder(durability: .flushed)
    let elsewhere = TemporaryFolder()
    func store(_ url: URL, _ device: Substring) throws -> TodosStore {
      TodosStore(
        core: try TodosStore.fileCore(
          contentsOf: url, clock: HybridClock(device: DeviceID(device)!) { 1_000 }))
    }
    let phone = try store(durable.file("todos.json"), "phone")
    let (a, b) = (Todo(title: "A"), Todo(title: "B"))
    try phone.trySend(.addTodo(a))
    try phone.trySend(.addTodo(b))
    // The laptop adds C; its file arrives beside the phone's as a conflict copy.
    let laptop = try store(elsewhere.copy(durable.file("todos.json")), "laptop")
    try laptop.trySend(.addTodo(Todo(title: "C")))
    _ = durable.copy(
      elsewhere.file("todos.json"), as: "todos.sync-conflict-20261204-100000-ABCDEFG.json")
    let failing = FileSystem.Flushes(beforeRename: { _ in EIO }, afterRename: { _, _ in })
    #expect(throws: StoreFileError.self) {
      try FileSystem.Flushes.$durable.withValue(failing) {
        try phone.trySend(.toggleTodo(id: b.id))
      }
    }
    #expect(phone.todos.map(\.title) == ["B", "A"])
    // The copy is still there: merged again by the next action, which is written.
    try phone.trySend(.toggleTodo(id: a.id))
    let expected = laptop.todos.map { ($0.title, $0.id == a.id) }
    #expect(phone.todos.map { ($0.title, $0.isDone) }.elementsEqual(expected, by: ==))
    let reread = try TodosStore(contentsOf: durable.file("todos.json"))
    #expect(reread.todos == phone.todos)
    #expect(!durable.names.contains { $0.contains("sync-conflict") }, "the copy, merged, is gone")
  }
}
