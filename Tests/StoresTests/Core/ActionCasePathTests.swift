import Foundation
import StoreTesting
import Stores
import Testing

/// The built-in stores' actions as case paths: each case has a property named as the case that
/// holds its payload for an action of that case and `nil` for any other.
@Suite("Case paths of the built-in stores' actions")
struct ActionCasePathTests {
  /// Each case's property of `TodosStore.Action`, by the case's name: whether it holds a payload.
  static let todoCases: [String: @Sendable (TodosStore.Action) -> Bool] = [
    "addTodo": { $0.addTodo != nil },
    "updateTodo": { $0.updateTodo != nil },
    "toggleTodo": { $0.toggleTodo != nil },
    "markTodos": { $0.markTodos != nil },
    "removeTodos": { $0.removeTodos != nil },
    "removeTodosAtOffsets": { $0.removeTodosAtOffsets != nil },
    "moveTodos": { $0.moveTodos != nil },
    "moveTodosAtOffsets": { $0.moveTodosAtOffsets != nil },
    "orderByDate": { $0.orderByDate != nil },
    "orderByPriority": { $0.orderByPriority != nil },
    "removeCompleted": { $0.removeCompleted != nil },
    "restoreTodos": { $0.restoreTodos != nil },
    "discardTodos": { $0.discardTodos != nil },
    "discardTodo": { $0.discardTodo != nil },
    "editTodos": { $0.editTodos != nil },
    "returnTodos": { $0.returnTodos != nil },
    "reorderTodos": { $0.reorderTodos != nil },
    "restoreOrder": { $0.restoreOrder != nil },
  ]

  /// Each case's property of `WorkoutsStore.Action`, by the case's name: whether it holds a payload.
  static let workoutCases: [String: @Sendable (WorkoutsStore.Action) -> Bool] = [
    "addWorkout": { $0.addWorkout != nil },
    "addWorkouts": { $0.addWorkouts != nil },
    "updateWorkout": { $0.updateWorkout != nil },
    "removeWorkouts": { $0.removeWorkouts != nil },
    "removeWorkoutsAtOffsets": { $0.removeWorkoutsAtOffsets != nil },
    "sort": { $0.sort != nil },
    "importWorkouts": { $0.importWorkouts != nil },
    "finishImport": { $0.finishImport != nil },
    "cancelImport": { $0.cancelImport != nil },
    "importProgress": { $0.importProgress != nil },
    "failImport": { $0.failImport != nil },
    "restoreWorkouts": { $0.restoreWorkouts != nil },
    "discardWorkouts": { $0.discardWorkouts != nil },
    "discardWorkout": { $0.discardWorkout != nil },
    "editWorkout": { $0.editWorkout != nil },
    "restoreSort": { $0.restoreSort != nil },
  ]

  /// Each case's property of `SettingsStore.Action`, by the case's name: whether it holds a payload.
  static let settingsCases: [String: @Sendable (SettingsStore.Action) -> Bool] = [
    "set": { $0.set != nil },
    "remove": { $0.remove != nil },
    "restore": { $0.restore != nil },
  ]

  /// The name of `action`'s case.
  static func caseName<Action>(_ action: Action) -> String {
    Mirror(reflecting: action).children.first?.label ?? "\(action)"
  }

  /// Requires that for each of `actions`, the property of its own case, and no other, holds a
  /// payload; and that every case of `cases` was among them.
  static func requireEachCaseHasItsProperty<Action>(
    _ actions: [Action], _ cases: [String: @Sendable (Action) -> Bool]
  ) {
    var seen: Set<String> = []
    for action in actions {
      let name = caseName(action)
      seen.insert(name)
      let holding = cases.filter { $0.value(action) }.map(\.key)
      #expect(holding == [name], "\(action)")
    }
    #expect(seen == Set(cases.keys))
  }

  @Test("every case of TodosStore.Action has its property, which holds its payload")
  func todos() {
    let todo = Todo(title: "Buy milk", priority: 2)
    let actions: [TodosStore.Action] = [
      .addTodo(todo), .updateTodo(todo), .toggleTodo(id: todo.id),
      .markTodos(ids: [todo.id], done: true), .removeTodos(ids: [todo.id]),
      .removeTodosAtOffsets([0]), .moveTodos(ids: [todo.id], before: nil),
      .moveTodosAtOffsets([0], to: 2), .orderByDate, .orderByPriority, .removeCompleted,
      .restoreTodos([]), .discardTodos([todo]), .discardTodo(todo),
      .editTodos([TodoEdit(from: todo, to: todo)]), .returnTodos([]), .reorderTodos(ids: []),
      .restoreOrder([todo.id], replacing: []),
    ]
    Self.requireEachCaseHasItsProperty(actions, Self.todoCases)
    #expect(TodosStore.Action.addTodo(todo).addTodo == todo)
    #expect(TodosStore.Action.markTodos(ids: [todo.id], done: true).markTodos?.done == true)
    #expect(TodosStore.Action.moveTodosAtOffsets([1], to: 3).moveTodosAtOffsets?.to == 3)
  }

  @Test("every case of WorkoutsStore.Action has its property, which holds its payload")
  func workouts() throws {
    let workout = try Workout(name: "Run", distance: 5, date: Date(timeIntervalSince1970: 0))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("runs.csv")
    let imported = WorkoutsImport(file: file.path, rows: [])
    let actions: [WorkoutsStore.Action] = [
      .addWorkout(workout), .addWorkouts([workout]), .updateWorkout(workout),
      .removeWorkouts(ids: [workout.id]), .removeWorkoutsAtOffsets([0]), .sort(by: nil),
      .importWorkouts(from: file), .finishImport(imported), .cancelImport,
      .importProgress(
        WorkoutsImportProgress(file: file.path, bytesRead: 1, totalBytes: 2, rows: 1)),
      .failImport(WorkoutsImportError(file: file.path, problem: .tooLarge(limit: 1))),
      .restoreWorkouts([]), .discardWorkouts([workout]), .discardWorkout(workout),
      .editWorkout(WorkoutEdit(from: workout, to: workout)), .restoreSort(.date, replacing: nil),
    ]
    Self.requireEachCaseHasItsProperty(actions, Self.workoutCases)
    #expect(WorkoutsStore.Action.finishImport(imported).finishImport == imported)
    #expect(WorkoutsStore.Action.importWorkouts(from: file).importWorkouts?.from == file)
    // A case whose payload is optional: the property tells "this case, no sort" from "another case".
    #expect(WorkoutsStore.Action.sort(by: nil).sort == .some(nil))
    #expect(WorkoutsStore.Action.cancelImport.sort == nil)
  }

  @Test("every case of SettingsStore.Action has its property, which holds its payload")
  func settings() {
    let actions: [SettingsStore.Action] = [
      .set(key: "volume", value: 5.json), .remove(keys: ["volume"]),
      .restore([SettingsStore.ValueChange(key: "volume", from: nil, to: 5.json)]),
    ]
    Self.requireEachCaseHasItsProperty(actions, Self.settingsCases)
    #expect(SettingsStore.Action.set(key: "volume", value: 5.json).set?.key == "volume")
  }
}
