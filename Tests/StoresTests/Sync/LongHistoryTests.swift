import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Lists whose items were added and moved into one place thousands of times: their keys stay
/// short, and every file written is read back.
@Suite("Long histories: keys stay short, files stay readable")
struct LongHistoryTests {
  typealias TodoReplica = Replica<TodosStore.State, ListSync<TodosStore.State>>
  typealias WorkoutReplica = Replica<WorkoutsStore.State, ListSync<WorkoutsStore.State>>

  /// The longest key of `sync`.
  static func longestKey<State>(_ sync: ListSync<State>) -> Int {
    sync.items.map(\.position.utf8.count).max() ?? 0
  }

  /// Writes `replica`'s file and reads it back: the same state and stamps.
  static func roundTrip<State, Sync>(_ replica: Replica<State, Sync>) throws {
    let (state, sync) = try StateFileCoding.decode(replica.bytes, path: "f.json", sync: Sync.self)
    try requireEqual(state, replica.state, "the state read back")
    try requireEqual(sync, replica.sync, "the stamps read back")
  }

  static func todos(_ count: Int) -> TodoReplica {
    var replica = TodoReplica(
      state: TodosStore.State(), sync: ListSync(unstamped: TodosStore.State()),
      clock: Devices(steps: 1...1).clock("d"))
    for index in 0..<count {
      replica.apply { TodosStore.reduce(&$0, .addTodo(Todo(title: "t\(index)"))) }
    }
    return replica
  }

  @Test(
    "10,000 steps at the top or in one gap of a list of 20 todos, each file read back",
    arguments: ["add at the top", "move to the top", "add below the first"])
  func todosAtTheTop(kind: String) throws {
    var replica = Self.todos(20)
    var longest = 0
    for step in 1...10_000 {
      replica.apply { state in
        let todo = Todo(title: "s\(step)")
        switch kind {
        case "add at the top":
          TodosStore.reduce(&state, .addTodo(todo))
          return TodosStore.reduce(&state, .removeTodos(ids: [state.todos.last!.id])) || true
        case "move to the top":
          return TodosStore.reduce(
            &state, .moveTodos(ids: [state.todos.last!.id], before: state.todos[0].id))
        default:
          TodosStore.reduce(&state, .addTodo(todo))
          TodosStore.reduce(&state, .moveTodos(ids: [todo.id], before: state.todos[2].id))
          return TodosStore.reduce(&state, .removeTodos(ids: [state.todos.last!.id])) || true
        }
      }
      longest = max(longest, Self.longestKey(replica.sync))
      if step.isMultiple(of: 1_000) { try Self.roundTrip(replica) }
    }
    #expect(replica.state.todos.count == 20)
    #expect(longest <= Position.longestMade, "the longest key made: \(longest)")
  }

  @Test("6,000 workouts added newest first, in date order, each 1,000th file read back")
  func workoutsInDateOrder() throws {
    var replica = WorkoutReplica(
      state: WorkoutsStore.State(), sync: ListSync(unstamped: WorkoutsStore.State()),
      clock: Devices(steps: 1...1).clock("d"))
    replica.apply { WorkoutsStore.reduce(&$0, .sort(by: .date)) }
    var longest = 0
    for step in 1...6_000 {
      let workout = try Workout(
        name: "w\(step)", distance: 5, date: Date(timeIntervalSince1970: Double(step) * 86_400))
      replica.apply { state in
        WorkoutsStore.reduce(&state, .addWorkout(workout))
        if state.workouts.count > 20 {
          WorkoutsStore.reduce(&state, .removeWorkouts(ids: [state.workouts.last!.id]))
        }
        return true
      }
      longest = max(longest, Self.longestKey(replica.sync))
      if step.isMultiple(of: 1_000) { try Self.roundTrip(replica) }
    }
    #expect(replica.state.workouts.first?.name == "w6000")
    #expect(longest <= Position.longestMade, "the longest key made: \(longest)")
  }

  @Test(
    "random histories of 10,000 steps, mostly at the top: keys stay short, every 500th file read back"
  )
  func randomTodosHistories() {
    check(Gen<UInt64>.integer(), iterations: 1) { seed in
      var random = SeededRandom(seed: seed)
      var replica = Self.todos(20)
      for step in 1...10_000 {
        replica.apply { state in
          let todos = state.todos
          let todo = Todo(title: "s\(step)")
          switch Int.random(in: 0..<10, using: &random) {
          case 0..<3: TodosStore.reduce(&state, .addTodo(todo))
          case 3..<6:
            return TodosStore.reduce(
              &state,
              .moveTodos(ids: [todos.randomElement(using: &random)!.id], before: todos[0].id))
          case 6..<8:
            let gap = Int.random(in: 0..<min(3, todos.count), using: &random)
            TodosStore.reduce(&state, .addTodo(todo))
            TodosStore.reduce(&state, .moveTodos(ids: [todo.id], before: state.todos[gap + 1].id))
          case 8:
            TodosStore.reduce(&state, .toggleTodo(id: todos.randomElement(using: &random)!.id))
          default:
            return TodosStore.reduce(
              &state, .removeTodos(ids: [todos.randomElement(using: &random)!.id]))
          }
          while state.todos.count > 30 {
            TodosStore.reduce(&state, .removeTodos(ids: [state.todos.last!.id]))
          }
          return true
        }
        try requireEqual(
          Self.longestKey(replica.sync) <= Position.longestMade, true, "keys stay short")
        if step.isMultiple(of: 500) { try Self.roundTrip(replica) }
      }
    }
  }

  @Test("random histories of 10,000 workouts, mostly newest first: every 500th file read back")
  func randomWorkoutsHistories() {
    check(Gen<UInt64>.integer(), iterations: 1) { seed in
      var random = SeededRandom(seed: seed)
      var replica = WorkoutReplica(
        state: WorkoutsStore.State(), sync: ListSync(unstamped: WorkoutsStore.State()),
        clock: Devices(steps: 1...1).clock("d"))
      replica.apply { WorkoutsStore.reduce(&$0, .sort(by: .date)) }
      for step in 1...10_000 {
        // Mostly newest first (the top), at times anywhere.
        let day =
          Int.random(in: 0..<10, using: &random) < 8
          ? step : Int.random(in: 0...step, using: &random)
        let workout = try Workout(
          name: "w\(step)", distance: 5, date: Date(timeIntervalSince1970: Double(day) * 86_400))
        replica.apply { state in
          WorkoutsStore.reduce(&state, .addWorkout(workout))
          while state.workouts.count > 30 {
            WorkoutsStore.reduce(&state, .removeWorkouts(ids: [state.workouts.last!.id]))
          }
          return true
        }
        try requireEqual(
          Self.longestKey(replica.sync) <= Position.longestMade, true, "keys stay short")
        if step.isMultiple(of: 500) { try Self.roundTrip(replica) }
      }
    }
  }

  @Test("200,000 keys made one above another stay within 8 digits, in order")
  func keysAtTheEnds() {
    var (top, bottom) = ("V", "V")
    for _ in 0..<200_000 {
      let (above, below) = (
        Position.keys(1, between: top, and: nil)[0], Position.keys(1, between: nil, and: bottom)[0]
      )
      #expect(above > top && below < bottom)
      (top, bottom) = (above, below)
      if above.utf8.count > 8 || below.utf8.count > 8 { break }
    }
    #expect(top.utf8.count <= 8 && bottom.utf8.count <= 8, "\(top), \(bottom)")
    #expect(Position.isValid(Substring(top)) && Position.isValid(Substring(bottom)))
  }

  /// A valid key: 1 to 12 base-62 digits, not ending in `0`.
  static let key = Gen<Int>.integer(in: 0...61).array(count: 1...12).map { digits -> String in
    var digits = digits
    if digits.last == 0 { digits[digits.count - 1] = 1 }
    let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    return String(digits.map { alphabet[$0] })
  }

  @Test("keys made between two keys, or beyond one, are valid, ascending and between them")
  func keysBetween() {
    let bounds = Gen.zip(Self.key.optional, Self.key.optional, Gen<Int>.integer(in: 1...70))
    check(bounds, iterations: 500) { first, second, count in
      var (low, high) = (first, second)
      if let a = low, let b = high {
        guard a != b else { return }
        (low, high) = (min(a, b), max(a, b))
      }
      let keys = Position.keys(count, between: low, and: high)
      try requireEqual(keys.count, count, "count")
      for key in keys { try requireEqual(Position.isValid(Substring(key)), true, "valid \(key)") }
      try requireEqual(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, true, "ascending")
      if let low { try requireEqual(keys[0] > low, true, "above \(low)") }
      if let high { try requireEqual(keys[count - 1] < high, true, "below \(high)") }
    }
  }
}
