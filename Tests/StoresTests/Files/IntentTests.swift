import Foundation
import StoreTesting
import Stores
import Testing

/// An action that names items by position means the items its sender saw: two stores on one
/// file, one of them stale, never remove or move the wrong item.
@MainActor
@Suite("Actions keep their intent across processes")
struct IntentTests {
  let folder = TemporaryFolder()

  func todo(_ title: String, _ index: Int) -> Todo {
    Todo(id: Gen<UUID>.testID(index), title: title, date: Date(timeIntervalSinceReferenceDate: 0))
  }

  @Test("a stale view deletes the todo it showed, not the one another process added on top")
  func staleDelete() throws {
    let url = folder.file("todos.json")
    let app = try TodosStore(contentsOf: url)
    for (index, title) in ["z", "y", "x"].enumerated() {
      try app.trySend(.addTodo(todo(title, index)))
    }
    #expect(app.todos.map(\.title) == ["x", "y", "z"])
    let tool = try TodosStore(contentsOf: url)
    try tool.trySend(.addTodo(todo("w", 9)))
    var changes: [StoreChange<TodosStore.Action>] = []
    let token = app.onChange { change, _ in changes.append(change) }
    app.delete(atOffsets: [0])  // the user swiped away "x", the first row they saw
    #expect(app.todos.map(\.title) == ["w", "y", "z"])
    #expect(try TodosStore(contentsOf: url).todos.map(\.title) == ["w", "y", "z"])
    #expect(changes == [.reload, .action(.removeTodos(ids: [Gen<UUID>.testID(2)]))])
    token.cancel()
  }

  @Test("a stale move moves the todos it showed, to the place it showed")
  func staleMove() throws {
    let url = folder.file("todos.json")
    let app = try TodosStore(contentsOf: url)
    for (index, title) in ["c", "b", "a"].enumerated() {
      try app.trySend(.addTodo(todo(title, index)))
    }
    let tool = try TodosStore(contentsOf: url)
    try tool.trySend(.addTodo(todo("new", 9)))
    app.move(fromOffsets: [2], toOffset: 0)  // "c" to the top of a, b, c: before "a"
    #expect(app.todos.map(\.title) == ["new", "c", "a", "b"])
    try tool.trySend(.addTodo(todo("newer", 8)))
    app.move(fromOffsets: [1], toOffset: 4)  // the user saw new, c, a, b: "c" to the end
    #expect(app.todos.map(\.title) == ["newer", "new", "a", "b", "c"])
  }

  @Test("removing an item another process removed already changes nothing else")
  func removedMeanwhile() throws {
    let url = folder.file("todos.json")
    let app = try TodosStore(contentsOf: url)
    for (index, title) in ["c", "b", "a"].enumerated() {
      try app.trySend(.addTodo(todo(title, index)))
    }
    let tool = try TodosStore(contentsOf: url)
    tool.delete(atOffsets: [0])
    app.delete(atOffsets: [0])  // "a" again, from the stale view: gone already
    #expect(app.todos.map(\.title) == ["b", "c"])
    tool.delete(atOffsets: [0])
    app.move(fromOffsets: [0], toOffset: 2)  // "b", from the stale view: nothing to move
    #expect(app.todos.map(\.title) == ["c"])
    try tool.trySend(.addTodo(todo("e", 4)))
    try tool.trySend(.addTodo(todo("d", 3)))
    try app.refresh()
    tool.delete(atOffsets: [2])
    app.move(fromOffsets: [0], toOffset: 2)  // "d" before "c", which is gone: nothing moves
    #expect(app.todos.map(\.title) == ["d", "e"])
  }

  @Test("a stale view of a sorted diary removes the workout it showed")
  func staleWorkoutRemoval() throws {
    let url = folder.file("workouts.json")
    let app = try WorkoutsStore(contentsOf: url)
    try app.trySend(.sort(by: .distance))
    for (index, distance) in [5.0, 10, 3].enumerated() {
      try app.trySend(
        .addWorkout(
          try Workout(id: Gen<UUID>.testID(index), name: "\(distance)", distance: distance)))
    }
    #expect(app.state.workouts.map(\.distance) == [10, 5, 3])
    let tool = try WorkoutsStore(contentsOf: url)
    try tool.trySend(.addWorkout(try Workout(name: "Marathon", distance: 42.195)))
    app.send(.removeWorkoutsAtOffsets([1]))  // the 5 km the user saw second
    #expect(app.state.workouts.map(\.distance) == [42.195, 10, 3])
    #expect(try WorkoutsStore(contentsOf: url).state == app.state)
  }

  @Test("a condition refuses an action whose premise another process broke; nothing changes")
  func requiring() throws {
    let url = folder.file("todos.json")
    let app = try TodosStore(contentsOf: url)
    try app.trySend(.addTodo(todo("a", 0)))
    let tool = try TodosStore(contentsOf: url)
    try tool.trySend(.removeTodos(ids: [Gen<UUID>.testID(0)]))
    struct Gone: Error {}
    #expect(throws: Gone.self) {
      try app.trySend(.toggleTodo(id: Gen<UUID>.testID(0))) { state in
        guard state.todos.contains(where: { $0.id == Gen<UUID>.testID(0) }) else { throw Gone() }
      }
    }
    #expect(app.todos.count == 1, "a refused action changes nothing, in memory either")
    try app.refresh()
    #expect(app.todos.isEmpty)
    let memory = TodosStore(todos: [todo("b", 1)])
    #expect(throws: Gone.self) { try memory.trySend(.removeCompleted) { _ in throw Gone() } }
    try memory.trySend(.toggleTodo(id: Gen<UUID>.testID(1))) { _ in }
    #expect(memory.todos.first?.isDone == true)
  }

  /// One step of two stores on one file: which store acts, and the action.
  static let todoSteps = Gen<(Bool, TodosStore.Action)>.zip(.bool, .todoAction(maxCount: 8))
    .array(maxCount: 24)

  @Test("two stores on one file, interleaving any actions: each honours its own view's intent")
  func twoTodosStores() {
    let url = folder.file("two-todos.json")
    check(Self.todoSteps, iterations: 60) { steps in
      try? FileManager.default.removeItem(at: url)
      let stores = [try TodosStore(contentsOf: url), try TodosStore(contentsOf: url)]
      var truth: [Todo] = []
      for (second, action) in steps {
        let store = stores[second ? 1 : 0]
        truth = TodosModel.apply(Self.intent(of: action, seeing: store.todos), to: truth)
        try store.trySend(action)
        try requireEqual(store.todos, truth, "the acting store after \(action)")
      }
      for store in stores { try store.refresh() }
      try requireEqual(stores[0].todos, truth, "no acknowledged change lost")
      try requireEqual(stores[1].todos, truth)
      try requireEqual(try TodosStore(contentsOf: url).todos, truth, "the file")
    }
  }

  /// What `action` means to someone who sees `todos`: offsets become the todos at them.
  static func intent(of action: TodosStore.Action, seeing todos: [Todo]) -> TodosStore.Action {
    switch action {
    case .removeTodosAtOffsets(let offsets):
      return .removeTodos(ids: Set(offsets.filter { $0 < todos.count }.map { todos[$0].id }))
    case .moveTodosAtOffsets(let offsets, let destination):
      let valid = offsets.filter { $0 < todos.count }
      let target = min(max(destination, 0), todos.count)
      let anchor = todos.indices.first { $0 >= target && !valid.contains($0) }
      return .moveTodos(ids: valid.map { todos[$0].id }, before: anchor.map { todos[$0].id })
    default:
      return action
    }
  }

  static let workoutSteps = Gen<(Bool, WorkoutsStore.Action)>.zip(
    .bool, .workoutAction(maxCount: 8)
  ).array(maxCount: 24)

  @Test("two workouts stores on one file, interleaving any actions: each honours its own view")
  func twoWorkoutsStores() {
    let url = folder.file("two-workouts.json")
    check(Self.workoutSteps, iterations: 60) { steps in
      try? FileManager.default.removeItem(at: url)
      let stores = [try WorkoutsStore(contentsOf: url), try WorkoutsStore(contentsOf: url)]
      var truth = WorkoutsModel(added: [], sortType: nil)
      for (second, action) in steps {
        let store = stores[second ? 1 : 0]
        var intent = action
        if case .removeWorkoutsAtOffsets(let offsets) = action {
          let shown = store.state.workouts
          intent = .removeWorkouts(
            ids: Set(offsets.filter { $0 < shown.count }.map { shown[$0].id }))
        }
        truth = WorkoutsModel.apply(intent, to: truth)
        try store.trySend(action)
        try requireEqual(WorkoutsModel(store.state), truth, "the acting store after \(action)")
        try requireEqual(store.state.workouts, truth.shown)
      }
      for store in stores { try store.refresh() }
      try requireEqual(WorkoutsModel(stores[0].state), truth, "no acknowledged change lost")
      try requireEqual(WorkoutsModel(stores[1].state), truth)
      try requireEqual(try WorkoutsStore(contentsOf: url).state, stores[0].state, "the file")
    }
  }
}
