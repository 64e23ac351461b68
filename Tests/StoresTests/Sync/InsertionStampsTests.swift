import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("Stamping items inserted in one place, in place")
struct InsertionStampsTests {
  typealias Sync = ListSync<TodosStore.State>

  /// A device's copy of a list after a history, todos to insert and where, and whether the
  /// todos after them are edited in the same change.
  static let insertions = Gen<([Todo], [TodosStore.Action], [Todo], Int, Bool)>.zip(
    .todos(maxCount: 8), Gen<TodosStore.Action>.todoAction(maxCount: 8).array(maxCount: 8),
    .todos(maxCount: 3), .integer(in: 0...10), .bool)

  @Test(
    "inserted todos are stamped and keyed between their neighbours; the others keep their stamps and keys, changed fields stamped"
  )
  func insertion() {
    check(Self.insertions, iterations: 500) { base, history, inserted, place, edits in
      var replica = MergeTests.replicas(base, [history])[0]
      let old = replica.state.todos
      let ids = Set(old.map(\.id))
      let added = inserted.filter { !ids.contains($0.id) }
      guard !added.isEmpty else { return }
      let start = min(place, old.count)
      var after = old
      if edits { for offset in after.indices.dropFirst(start) { after[offset].title += "!" } }
      after.insert(contentsOf: added, at: start)
      let before = replica.sync
      let stamp = replica.clock.stamp()
      let stamped = before.stamped(
        before: replica.state, after: TodosStore.State(todos: after), stamp: stamp)
      (replica.state, replica.sync) = (TodosStore.State(todos: after), stamped)
      try requireEqual(stamped.items.count, after.count, "one item of stamps per todo")
      let title = Todo.fieldTable.fields.firstIndex { $0.name == "title" }!
      let rekeyed = stamped.items.allSatisfy { $0.positioned == stamp }
      for offset in after.indices {
        let stamps = stamped.items[offset]
        if offset >= start && offset < start + added.count {
          try requireEqual(
            Array(stamps.fields), Array(repeating: stamp, count: stamps.fields.count),
            "new todo's fields")
          try requireEqual(stamps.positioned, stamp, "new todo's place")
        } else {
          let previous = before.items[offset < start ? offset : offset - added.count]
          var expected = Array(previous.fields)
          if edits && offset >= start { expected[title] = stamp }
          try requireEqual(Array(stamps.fields), expected, "kept todo's fields")
          if !rekeyed { try requireEqual(stamps.position, previous.position, "kept todo's key") }
        }
      }
      let keys = zip(stamped.items, after).map { ($0.position, $1.id) }
      try requireEqual(
        zip(keys, keys.dropFirst()).allSatisfy { Sync.precedes($0, $1) }, true, "in order")
      for todo in added { try requireEqual(stamped.removed[todo.id] == nil, true, "not removed") }
      // Read back from the file, the stamps are the same.
      let (_, read) = try StateFileCoding.decode(replica.bytes, path: "f.json", sync: Sync.self)
      try requireEqual(read.items, stamped.items, "stamps written")
    }
  }
}
