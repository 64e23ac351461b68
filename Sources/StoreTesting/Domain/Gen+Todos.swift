import Foundation
import Stores

extension Gen where Value == Todo {
  /// A valid todo: a Unicode title (never empty), a date often equal to another's, done or
  /// not, a priority in -2...5 (so that many are equal). Its id comes from `id`.
  public static func todo(id: Gen<UUID> = .id()) -> Gen<Todo> {
    Gen<((UUID, String), Date, Bool, Int)>.zip(
      Gen<(UUID, String)>.zip(id, .string(maxCount: 12)),
      .sometimesEqualDate, .bool, .integer(in: -2...5)
    ).map { identity, date, isDone, priority in
      let todo = Todo(
        id: identity.0, title: identity.1, date: date, isDone: isDone, priority: priority)
      return todo.isValid
        ? todo : Todo(id: identity.0, title: "a", date: date, isDone: isDone, priority: priority)
    }
  }

}

extension Gen where Value == [Todo] {
  /// A list of up to `maxCount` valid todos with distinct ids, `Gen.testID(0)`, `(1)`, ….
  public static func todos(maxCount: Int = 10) -> Gen<[Todo]> {
    Gen<Todo>.todo(id: .constant(Gen<UUID>.testID(0))).array(maxCount: maxCount).map { todos in
      todos.enumerated().map { index, todo in
        var todo = todo
        todo.id = Gen<UUID>.testID(index)
        return todo
      }
    }
  }
}

extension Gen where Value == TodosStore.Action {
  /// Any todos action, on lists of up to about `maxCount` todos: offsets and ids are picked
  /// so that some are out of range or unknown, and destinations past either end occur.
  public static func todoAction(maxCount: Int = 12) -> Gen<TodosStore.Action> {
    let ids = Gen<UUID>.id(among: maxCount + 4)
    let offsets = Gen<IndexSet>.offsets(in: maxCount, includingOutOfRange: true)
    return .oneOf(
      Gen<Todo>.todo(id: Gen<UUID>.id(among: 2 * maxCount)).map { .addTodo($0) },
      Gen<Todo>.todo(id: ids).map { .updateTodo($0) },
      ids.map { .toggleTodo(id: $0) },
      Gen<(Set<UUID>, Bool)>.zip(.set(of: ids, maxCount: 4), .bool).map {
        .markTodos(ids: $0, done: $1)
      },
      Gen<Set<UUID>>.set(of: ids, maxCount: 4).map { .removeTodos(ids: $0) },
      offsets.map { .removeTodosAtOffsets($0) },
      Gen<([UUID], UUID?)>.zip(ids.array(maxCount: 4), ids.optional).map {
        .moveTodos(ids: $0, before: $1)
      },
      Gen<(IndexSet, Int)>.zip(offsets, .integer(in: -2...maxCount + 2)).map {
        .moveTodosAtOffsets($0, to: $1)
      },
      .constant(.orderByDate),
      .constant(.orderByPriority),
      .constant(.removeCompleted)
    )
  }
}
