import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("A list file written from the text of its last write")
struct EncodedListTests {
  /// What follows a step of a history: its version written, maybe read back (as after
  /// another process's write: values equal to the ones written, not the same), or its write
  /// failing — as a transaction's does, or races, after its encoding or before it.
  enum Then: CaseIterable, Sendable {
    case written, reloaded, failedAfterEncoding, failedBeforeEncoding
  }

  /// Stamps each version that `steps` make of `base` in place and writes it through one
  /// cache, as a backing does, and requires the bytes a fresh encoding writes; a step whose
  /// write fails puts the stamps back, which must then be those before it, and the history
  /// goes on from there.
  static func requireFreshBytes<State: SyncedList>(
    _ base: State, _ steps: [(reduce: (inout State) -> Bool, then: Then)]
  ) throws {
    let clock = Devices().clock("d")
    var state = base
    var sync = ListSync(unstamped: base)
    let cache = EncodedList<State>()
    func fresh() throws -> String {
      String(decoding: try StateFileCoding.encode(state, sync: sync, path: "f.json"), as: UTF8.self)
    }
    for (step, (reduce, then)) in steps.enumerated() {
      let before = state
      let bytesBefore = then == .written || then == .reloaded ? "" : try fresh()
      guard reduce(&state) else { continue }
      let prior = sync.stamp(before: before, after: state, stamp: clock.stamp(), cache: cache)
      sync.noteWrite(by: clock.device, at: clock.now)
      var written = Data()
      if then != .failedBeforeEncoding {
        written = try StateFileCoding.encode(state, sync: sync, path: "f.json", cache: cache)
        try requireEqual(String(decoding: written, as: UTF8.self), try fresh(), "step \(step)")
      }
      switch then {
      case .written: continue
      case .reloaded:
        (state, sync) = try StateFileCoding.decode(
          written, path: "f.json", sync: ListSync<State>.self)
      case .failedAfterEncoding, .failedBeforeEncoding:
        sync.restore(prior, cache: cache)
        state = before
        try requireEqual(try fresh(), bytesBefore, "step \(step): the stamps put back")
      }
    }
  }

  @Test("todos: every write is the bytes of a fresh encoding, through any history")
  func todos() {
    let history = Gen.zip(
      Gen<[Todo]>.todos(maxCount: 8),
      Gen.zip(Gen<TodosStore.Action>.todoAction(maxCount: 8), Gen.element(of: Then.allCases))
        .array(maxCount: 12))
    check(history, iterations: 300) { todos, steps in
      try Self.requireFreshBytes(
        TodosStore.State(todos: todos),
        steps.map { action, then in
          ({ TodosStore.reduce(&$0, TodosStore.resolve(action, in: $0)) }, then)
        })
    }
  }

  @Test("workouts: every write is the bytes of a fresh encoding, through any history")
  func workouts() {
    let history = Gen.zip(
      Gen<[Workout]>.workouts(maxCount: 8),
      Gen.zip(Gen<WorkoutsStore.Action>.workoutAction(maxCount: 8), Gen.element(of: Then.allCases))
        .array(maxCount: 12))
    check(history, iterations: 300) { workouts, steps in
      try Self.requireFreshBytes(
        WorkoutsStore.State(workouts: workouts),
        steps.map { action, then in
          ({ WorkoutsStore.reduce(&$0, WorkoutsStore.resolve(action, in: $0)) }, then)
        })
    }
  }

  @Test("a list whose items come before their stamps in its file: the bytes of a fresh encoding")
  func itemsBeforeStamps() {
    // "cards" sorts before "sync": the items are written first, then their stamps.
    let ids = Gen<UUID>.id(among: 6)
    let action = Gen<CardsStore.Action>.oneOf(
      ids.map { .add(Card(id: $0)) },
      ids.map { .view($0) },
      Gen.zip(ids, Gen<Int>.integer(in: -3...3)).map { .score($0, $1) },
      Gen.zip(ids, Gen<String>.string(maxCount: 3)).map { .rename($0, $1) },
      Gen.zip(ids, Gen<String>.string(maxCount: 2)).map { .tag($0, $1) },
      ids.map { .remove($0) })
    let history = Gen.zip(action, Gen.element(of: Then.allCases)).array(maxCount: 16)
    check(history, iterations: 300) { steps in
      try Self.requireFreshBytes(
        Cards(cards: []), steps.map { action, then in ({ CardsStore.reduce(&$0, action) }, then) })
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
    // Stamped in place, as a backing stamps: the stamps the cache wrote are lent to it.
    func write(_ action: TodosStore.Action) throws -> (items: Int, stamps: Int) {
      let before = state
      TodosStore.reduce(&state, action)
      _ = sync.stamp(before: before, after: state, stamp: clock.stamp(), cache: cache)
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

  @Test("stamps are lent only by the cache that wrote them, the same buffer, and only once")
  func lending() throws {
    let todos = (0..<3).map { Todo(id: Gen<UUID>.testID($0), title: "todo \($0)") }
    let state = TodosStore.State(todos: todos)
    let sync = ListSync<TodosStore.State>(unstamped: state).stamped(
      before: TodosStore.State(), after: state, stamp: Devices().clock("d").stamp())
    let cache = EncodedList<TodosStore.State>()
    #expect(!cache.lendStamps(sync.items), "nothing written yet")
    _ = try StateFileCoding.encode(state, sync: sync, path: "f.json", cache: cache)
    let equal = sync.items.map { $0 }
    #expect(!cache.lendStamps(equal), "equal stamps in another buffer")
    #expect(cache.lendStamps(sync.items))
    #expect(!cache.lendStamps(sync.items), "lent already")
    cache.lentStampsChanged(at: [], in: sync.items)
    // Forgotten when the write does not come: the next one encodes every item's stamps.
    cache.forgetLentStamps()
    _ = try StateFileCoding.encode(state, sync: sync, path: "f.json", cache: cache)
    #expect(cache.reused == (3, 0))
    // Lent, said changed in place, and written: taken as they were, their items unchanged.
    #expect(cache.lendStamps(sync.items))
    cache.lentStampsChanged(at: [], in: sync.items)
    _ = try StateFileCoding.encode(state, sync: sync, path: "f.json", cache: cache)
    #expect(cache.reused == (3, 3))
    // Lent and never said changed: the next write encodes every item's stamps.
    #expect(cache.lendStamps(sync.items))
    _ = try StateFileCoding.encode(state, sync: sync, path: "f.json", cache: cache)
    #expect(cache.reused == (3, 0))
  }
}
