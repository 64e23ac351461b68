import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("A list file written from the text of its last write")
struct EncodedListTests {
  /// Writes each version that `actions` make of `base` through one cache, as a backing
  /// does, and requires the bytes a fresh encoding writes; after the steps marked, the file
  /// is read back and the history goes on from what was read (as after another process's
  /// write: values equal to the ones written, not the same).
  static func requireFreshBytes<State: SyncedList>(
    _ base: State, _ actions: [(reduce: (inout State) -> Bool, reload: Bool)]
  ) throws {
    let devices = Devices()
    var replica = Replica(state: base, sync: ListSync(unstamped: base), clock: devices.clock("d"))
    let cache = EncodedList<State>()
    for (step, action) in actions.enumerated() {
      replica.apply(action.reduce)
      let written = try StateFileCoding.encode(
        replica.state, sync: replica.sync, path: "f.json", cache: cache)
      try requireEqual(
        String(decoding: written, as: UTF8.self), String(decoding: replica.bytes, as: UTF8.self),
        "step \(step)")
      if action.reload {
        (replica.state, replica.sync) = try StateFileCoding.decode(
          written, path: "f.json", sync: ListSync<State>.self)
      }
    }
  }

  @Test("todos: every write is the bytes of a fresh encoding, through any history")
  func todos() {
    let history = Gen.zip(
      Gen<[Todo]>.todos(maxCount: 8),
      Gen.zip(Gen<TodosStore.Action>.todoAction(maxCount: 8), Gen<Bool>.bool).array(maxCount: 12))
    check(history, iterations: 300) { todos, actions in
      try Self.requireFreshBytes(
        TodosStore.State(todos: todos),
        actions.map { action, reload in
          ({ TodosStore.reduce(&$0, TodosStore.resolve(action, in: $0)) }, reload)
        })
    }
  }

  @Test("workouts: every write is the bytes of a fresh encoding, through any history")
  func workouts() {
    let history = Gen.zip(
      Gen<[Workout]>.workouts(maxCount: 8),
      Gen.zip(Gen<WorkoutsStore.Action>.workoutAction(maxCount: 8), Gen<Bool>.bool)
        .array(maxCount: 12))
    check(history, iterations: 300) { workouts, actions in
      try Self.requireFreshBytes(
        WorkoutsStore.State(workouts: workouts),
        actions.map { action, reload in
          ({ WorkoutsStore.reduce(&$0, WorkoutsStore.resolve(action, in: $0)) }, reload)
        })
    }
  }

  /// The size of `value`'s fields, one after another: the size of a value without padding.
  static func sizeOfFields(_ value: Any) -> Int {
    func size<Field>(_ field: Field) -> Int { MemoryLayout<Field>.size }
    return Mirror(reflecting: value).children.reduce(0) {
      $0 + _openExistential($1.value, do: size)
    }
  }

  @Test("stamps have no padding, so that the same bits are the same value")
  func noPadding() {
    let stamps = ItemStamps(fields: FieldStamps([]), position: "V", positioned: .origin)
    #expect(Self.sizeOfFields(stamps) == MemoryLayout<ItemStamps>.size)
    #expect(Self.sizeOfFields(Stamp.origin) == MemoryLayout<Stamp>.size)
  }

  @Test("the text of every todo an action did not change is copied, not encoded again")
  func reuse() throws {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let todos = (0..<100).map {
      Todo(
        id: Gen<UUID>.testID($0), title: "todo \($0)", date: start + Double($0),
        priority: $0 % 3)
    }
    var state = TodosStore.State(todos: todos)
    var sync = ListSync(unstamped: state)
    let clock = Devices().clock("d")
    let cache = EncodedList<TodosStore.State>()
    func write(_ action: TodosStore.Action) throws -> (items: Int, stamps: Int) {
      let before = state
      TodosStore.reduce(&state, action)
      sync = sync.stamped(before: before, after: state, stamp: clock.stamp())
      _ = try StateFileCoding.encode(state, sync: sync, path: "f.json", cache: cache)
      return cache.reused
    }
    #expect(try write(.toggleTodo(id: todos[0].id)) == (0, 0), "the first write encodes all")
    #expect(try write(.toggleTodo(id: todos[50].id)) == (99, 99))
    #expect(try write(.addTodo(Todo(title: "new", date: start))) == (100, 100))
    #expect(try write(.removeTodos(ids: [todos[7].id])) == (100, 100))
    #expect(try write(.removeCompleted) == (98, 98), "todos 0 and 50 removed")
    #expect(try write(.moveTodos(ids: [todos[1].id], before: nil)) == (98, 97), "one moved")
    // A sort moves most todos (looked up by id): their text is the same, the stamps of their
    // places are not.
    let sorted = try write(.orderByPriority)
    #expect(sorted.items == 98)
    #expect(sorted.stamps < 90)
  }
}
