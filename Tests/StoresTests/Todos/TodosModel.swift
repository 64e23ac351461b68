import Foundation
import Stores

/// A plain, obviously correct model of the todos reducer, to test the store against.
enum TodosModel {
  static func apply(_ action: TodosStore.Action, to todos: [Todo]) -> [Todo] {
    let valid = { (offsets: IndexSet) in offsets.filter { $0 < todos.count } }
    switch action {
    case .addTodo(let todo):
      return todo.isValid && !todos.contains { $0.id == todo.id } ? [todo] + todos : todos
    case .updateTodo(let todo):
      return todo.isValid ? todos.map { $0.id == todo.id ? todo : $0 } : todos
    case .toggleTodo(let id):
      return todos.map { todo in
        var todo = todo
        if todo.id == id { todo.isDone = !todo.isDone }
        return todo
      }
    case .markTodos(let ids, let isDone):
      return todos.map { todo in
        var todo = todo
        if ids.contains(todo.id) { todo.isDone = isDone }
        return todo
      }
    case .removeTodo(let offsets):
      return OffsetReference.remove(todos, atOffsets: IndexSet(valid(offsets)))
    case .moveTodos(let ids, let before):
      var seen: Set<UUID> = []
      let moved = ids.filter { seen.insert($0).inserted }.compactMap { id in
        todos.first { $0.id == id }
      }
      let staying = todos.filter { !seen.contains($0.id) }
      guard let before else { return staying + moved }
      guard let anchor = todos.firstIndex(where: { $0.id == before }) else { return todos }
      let split = todos[..<anchor].filter { !seen.contains($0.id) }.count
      return Array(staying[..<split]) + moved + staying[split...]
    case .moveTodo(let offsets, let destination):
      return OffsetReference.move(
        todos, fromOffsets: IndexSet(valid(offsets)),
        toOffset: min(max(destination, 0), todos.count))
    case .orderByDate:
      return stableSorted(todos) { $0.date < $1.date }
    case .orderByPriority:
      return stableSorted(todos) { $0.priority > $1.priority }
    case .removeCompleted:
      return todos.filter { !$0.isDone }
    case .removeTodos(let ids):
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
