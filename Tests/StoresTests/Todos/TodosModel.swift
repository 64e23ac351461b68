import Foundation
import Stores

/// A plain, obviously correct model of the todos reducer, to test the store against.
enum TodosModel {
  static func apply(_ action: TodosStore.Action, to todos: [Todo]) -> [Todo] {
    let valid = { (offsets: IndexSet) in offsets.filter { $0 < todos.count } }
    switch action {
    case .add(let todo):
      return todo.isValid && !todos.contains { $0.id == todo.id } ? [todo] + todos : todos
    case .update(let todo):
      return todo.isValid ? todos.map { $0.id == todo.id ? todo : $0 } : todos
    case .toggle(let id):
      return todos.map { todo in
        var todo = todo
        if todo.id == id { todo.isDone = !todo.isDone }
        return todo
      }
    case .setDone(let isDone, let ids):
      return todos.map { todo in
        var todo = todo
        if ids.contains(todo.id) { todo.isDone = isDone }
        return todo
      }
    case .delete(let offsets):
      return OffsetReference.remove(todos, atOffsets: IndexSet(valid(offsets)))
    case .move(let offsets, let destination):
      return OffsetReference.move(
        todos, fromOffsets: IndexSet(valid(offsets)),
        toOffset: min(max(destination, 0), todos.count))
    case .orderByDate:
      return stableSorted(todos) { $0.date < $1.date }
    case .orderByPriority:
      return stableSorted(todos) { $0.priority > $1.priority }
    case .removeCompleted:
      return todos.filter { !$0.isDone }
    case .remove(let ids):
      return todos.filter { !ids.contains($0.id) }
    }
  }

  /// Sorted by `before`, equal elements in their old order — by insertion, not `sort`.
  static func stableSorted(_ todos: [Todo], by before: (Todo, Todo) -> Bool) -> [Todo] {
    var sorted: [Todo] = []
    for todo in todos {
      let index = sorted.lastIndex { !before(todo, $0) }.map { $0 + 1 } ?? 0
      sorted.insert(todo, at: index)
    }
    return sorted
  }
}
