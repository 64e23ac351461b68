import Foundation
import Stores

/// An undo action of one of the three stores, as the command history keeps it: the inverse
/// of what a command did, or of what an undo did.
enum RecordedAction: Codable, Equatable {
  case todos(TodosStore.Action)
  case settings(SettingsStore.Action)
  case restoreWorkouts([WorkoutRun])
  case discardWorkouts([Workout])
  case discardWorkout(Workout)
  case editWorkout(WorkoutEdit)
  case restoreSort(WorkoutsStore.SortType?, replacing: WorkoutsStore.SortType?)

  /// The action of one of the three stores, as kept; `nil` for another.
  init?(any action: Any) {
    switch action {
    case let action as TodosStore.Action: self = .todos(action)
    case let action as SettingsStore.Action: self = .settings(action)
    case let action as WorkoutsStore.Action: self.init(action)
    default: return nil
    }
  }

  /// The workouts action, as kept; `nil` for an action no undo sends (those of an import's
  /// progress, which change nothing on disk).
  init?(_ action: WorkoutsStore.Action) {
    switch action {
    case .restoreWorkouts(let runs): self = .restoreWorkouts(runs)
    case .discardWorkouts(let workouts): self = .discardWorkouts(workouts)
    case .discardWorkout(let workout): self = .discardWorkout(workout)
    case .editWorkout(let edit): self = .editWorkout(edit)
    case .restoreSort(let sortType, let replacing):
      self = .restoreSort(sortType, replacing: replacing)
    default: return nil
    }
  }

  /// The workouts action kept, or `nil` for another store's.
  var workoutsAction: WorkoutsStore.Action? {
    switch self {
    case .restoreWorkouts(let runs): .restoreWorkouts(runs)
    case .discardWorkouts(let workouts): .discardWorkouts(workouts)
    case .discardWorkout(let workout): .discardWorkout(workout)
    case .editWorkout(let edit): .editWorkout(edit)
    case .restoreSort(let sortType, let replacing): .restoreSort(sortType, replacing: replacing)
    case .todos, .settings: nil
    }
  }

  /// The titles or names of the todos or workouts the action puts back, removes or changes
  /// back, as the command left them: what `diary undo` names.
  var names: [String] {
    switch self {
    case .todos(.restoreTodos(let runs)), .todos(.returnTodos(let runs)):
      runs.flatMap(\.elements).map(\.title)
    case .todos(.discardTodos(let todos)): todos.map(\.title)
    case .todos(.discardTodo(let todo)): [todo.title]
    case .todos(.editTodos(let edits)): edits.map(\.from.title)
    case .restoreWorkouts(let runs): runs.flatMap(\.elements).map(\.name)
    case .discardWorkouts(let workouts): workouts.map(\.name)
    case .discardWorkout(let workout): [workout.name]
    case .editWorkout(let edit): [edit.from.name]
    default: []
    }
  }
}

/// One step of the command history: the command that changed the data folder, and the
/// actions that undo it (or, on the redo side, redo it), in the order they are applied. Kept
/// in a file of its own (see ``CommandHistory``).
struct RecordedStep: Codable, Equatable {
  /// The command line, without the global options, and what it changed: `todos remove 2
  /// (“Buy milk”)`.
  var description: String
  var actions: [RecordedAction]
  /// When the step was too large to keep (more than ``CommandHistory/byteBudget``), its size
  /// in bytes: `actions` is empty then, and `diary undo` says it cannot undo the command.
  var tooLarge: Int?

  /// At least how many bytes ``encoded()`` makes, counted without encoding: the ids and the
  /// titles or names of the todos and workouts the actions hold. A step an import of 300,000
  /// workouts makes is told too large for the history so, in microseconds, rather than by
  /// encoding its 50 MB. O(number of todos and workouts held).
  var leastEncodedSize: Int {
    func least(_ todos: [Todo]) -> Int { todos.reduce(0) { $0 + 36 + $1.title.utf8.count } }
    func least(_ workouts: [Workout]) -> Int {
      workouts.reduce(0) { $0 + 36 + $1.name.utf8.count }
    }
    return actions.reduce(0) { total, action in
      switch action {
      case .todos(.restoreTodos(let runs)), .todos(.returnTodos(let runs)):
        total + runs.reduce(0) { $0 + least($1.elements) }
      case .todos(.discardTodos(let todos)): total + least(todos)
      case .restoreWorkouts(let runs): total + runs.reduce(0) { $0 + least($1.elements) }
      case .discardWorkouts(let workouts): total + least(workouts)
      default: total
      }
    }
  }

  /// The step as its file holds it: compact JSON, keys sorted. O(size of the step).
  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}
