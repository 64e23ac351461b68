import Foundation

/// Todos that stood together in the list, and where: for putting them back.
public typealias TodoRun = ListRun<Todo>

extension TodosStore {
  /// The action that reverses `action` on `state`, by identity: a removal's puts the same
  /// todos back next to the neighbours they had, an addition's removes the todo if it is
  /// still as added, an edit's (toggle, mark) changes back the fields it changed, a move's
  /// moves the todos back. An ordering's (and a ``Action/restoreOrder(_:replacing:)``'s) is
  /// ``Action/restoreOrder(_:replacing:)`` of the order it met, replacing the order it makes:
  /// it puts back the previous order among the todos still where the ordering left them, so
  /// a todo another process or device moved since keeps its place. `nil` when `action`
  /// changes nothing.
  ///
  /// - Complexity: O(*n* + *k*) for *n* todos and *k* in the action; O(1) for an addition;
  ///   O(*n* log *n* + *k*) for an ordering and ``Action/restoreOrder(_:replacing:)``, which
  ///   it applies to a copy of the list (of *n* references: the titles are shared). A store
  ///   recording history learns those two from its reducer instead, in O(*n*) more (see
  ///   ``reduce(_:_:inverse:)``).
  public nonisolated static func inverse(of action: Action, in state: State) -> Action? {
    let todos = state.todos
    switch action {
    case .addTodo(let todo):
      return .discardTodo(todo)
    case .updateTodo(let todo):
      guard let old = todos.first(where: { $0.id == todo.id }), old != todo else { return nil }
      return .editTodos([TodoEdit(from: todo, to: old)])
    case .toggleTodo(let id):
      guard var toggled = todos.first(where: { $0.id == id }) else { return nil }
      toggled.isDone.toggle()
      return .editTodos([TodoEdit(from: toggled, to: toggled.toggled)])
    case .markTodos(let ids, let isDone):
      let edits = todos.lazy.filter { $0.isDone != isDone && ids.contains($0.id) }.map {
        var marked = $0
        marked.isDone = isDone
        return TodoEdit(from: marked, to: $0)
      }
      return .editTodos(Array(edits))
    case .removeTodos(let ids):
      return .restoreTodos(runs(in: todos) { ids.contains($0.id) })
    case .removeTodosAtOffsets, .moveTodosAtOffsets:
      return inverse(of: resolve(action, in: state), in: state)
    case .removeCompleted:
      return .restoreTodos(runs(in: todos) { $0.isDone })
    case .moveTodos(let ids, _):
      let moved = Set(ids)
      return .returnTodos(runs(in: todos) { moved.contains($0.id) })
    case .orderByDate, .orderByPriority, .restoreOrder:
      var ordered = state
      guard reduce(&ordered, action) else { return nil }
      return .restoreOrder(todos.map(\.id), replacing: ordered.todos.map(\.id))
    case .restoreTodos(let runs):
      var taken = Set(todos.lazy.map(\.id))
      return .discardTodos(
        TodoRun.elements(of: runs).filter { $0.isValid && taken.insert($0.id).inserted })
    case .discardTodos(let discarded):
      let byID = Dictionary(discarded.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      return .restoreTodos(runs(in: todos) { byID[$0.id] == $0 })
    case .discardTodo(let discarded):
      return .restoreTodos(runs(in: todos) { $0 == discarded })
    case .editTodos(let edits):
      let byID = Dictionary(edits.map { ($0.to.id, $0) }, uniquingKeysWith: { first, _ in first })
      return .editTodos(
        todos.compactMap { todo in
          guard let edit = byID[todo.id] else { return nil }
          let edited = edit.applied(to: todo)
          return edited == todo ? nil : TodoEdit(from: edited, to: todo)
        })
    case .returnTodos(let runs):
      let moved = liveRuns(runs, in: todos).moved
      return .returnTodos(self.runs(in: todos) { moved.contains($0.id) })
    case .reorderTodos(let ids):
      let named = Set(ids)
      return .reorderTodos(ids: todos.lazy.map(\.id).filter { named.contains($0) })
    }
  }

  /// Applies `action` to `state` and puts its inverse in `inverse` (see
  /// ``Store/reduce(_:_:inverse:)``): an ordering's (and a
  /// ``Action/restoreOrder(_:replacing:)``'s) from the ids before and after the reducer,
  /// without ordering a copy; any other action's from ``inverse(of:in:)``.
  ///
  /// - Complexity: The reducer's, plus O(*n*) for an ordering, and the inverse's for the
  ///   others.
  public nonisolated static func reduce(
    _ state: inout State, _ action: Action, inverse: inout Action?
  ) -> Bool {
    switch action {
    case .orderByDate, .orderByPriority, .restoreOrder:
      let order = state.todos.map(\.id)
      guard reduce(&state, action) else { return false }
      inverse = .restoreOrder(order, replacing: state.todos.map(\.id))
      return true
    default:
      inverse = Self.inverse(of: action, in: state)
      return reduce(&state, action)
    }
  }

  /// What an undo action could not put back in `state`, one description per todo:
  /// a todo removed or changed meanwhile, or already back.
  ///
  /// - Complexity: O(*n* + *k*).
  public nonisolated static func skippedParts(of action: Action, in state: State) -> [String] {
    var byID: [UUID: Todo] { Dictionary(state.todos.map { ($0.id, $0) }) { first, _ in first } }
    switch action {
    case .restoreTodos(let runs):
      let todos = byID
      return TodoRun.elements(of: runs).filter { todos[$0.id] != nil }.map {
        "\(quoted($0.title)) (already in the list)"
      }
    case .discardTodos(let discarded):
      let todos = byID
      return discarded.compactMap { todo in
        guard let current = todos[todo.id] else {
          return "\(quoted(todo.title)) (removed meanwhile)"
        }
        return current == todo ? nil : "\(quoted(todo.title)) (changed meanwhile)"
      }
    case .discardTodo(let todo):
      return skippedParts(of: .discardTodos([todo]), in: state)
    case .editTodos(let edits):
      let todos = byID
      return edits.compactMap { edit in
        guard let current = todos[edit.to.id] else {
          return "\(quoted(edit.from.title)) (removed meanwhile)"
        }
        let fields = edit.conflicts(with: current)
        return fields.isEmpty
          ? nil
          : "\(quoted(current.title)) (its \(fields.joined(separator: ", ")) changed meanwhile)"
      }
    case .returnTodos(let runs):
      let todos = byID
      let moved = liveRuns(runs, in: state.todos).moved
      return TodoRun.elements(of: runs).compactMap { todo in
        if todos[todo.id] == nil { return "\(quoted(todo.title)) (removed meanwhile)" }
        return moved.contains(todo.id)
          ? nil : "\(quoted(todo.title)) (its neighbour was removed meanwhile)"
      }
    case .reorderTodos(let ids):
      let todos = byID
      let gone = ids.count { todos[$0] == nil }
      return gone == 0 ? [] : ["\(gone) \(gone == 1 ? "todo" : "todos") (removed meanwhile)"]
    case .restoreOrder(let ids, let replacing):
      let todos = byID
      let gone = ids.count { todos[$0] == nil }
      let removed =
        gone == 0 ? [] : ["\(gone) \(gone == 1 ? "todo" : "todos") (removed meanwhile)"]
      let order = OrderToRestore(ids, replacing: replacing, in: state.todos)
      let kept = Set(order.kept)
      let moved = order.named.filter { !kept.contains($0) }.map {
        "\(quoted(state.todos[$0].title)) (moved meanwhile)"
      }
      return removed + moved
    default:
      return []
    }
  }

  /// The action's name for an Undo menu: "Remove Todo", "Order by Date", ….
  public nonisolated static func actionName(of action: Action) -> String {
    switch action {
    case .addTodo: "Add Todo"
    case .updateTodo, .editTodos: "Edit Todo"
    case .toggleTodo: "Toggle Todo"
    case .markTodos(_, let done): done ? "Mark Done" : "Mark Not Done"
    case .removeTodos(let ids): ids.count == 1 ? "Remove Todo" : "Remove Todos"
    case .removeTodosAtOffsets(let offsets): offsets.count == 1 ? "Remove Todo" : "Remove Todos"
    case .discardTodos(let todos): todos.count == 1 ? "Remove Todo" : "Remove Todos"
    case .discardTodo: "Remove Todo"
    case .moveTodos, .moveTodosAtOffsets, .returnTodos, .reorderTodos: "Move Todos"
    case .restoreOrder: "Restore Order"
    case .orderByDate: "Order by Date"
    case .orderByPriority: "Order by Priority"
    case .removeCompleted: "Remove Completed"
    case .restoreTodos: "Restore Todos"
    }
  }

  /// The runs of consecutive todos of `todos` that `isPicked` picks. O(*n*).
  nonisolated static func runs(in todos: [Todo], where isPicked: (Todo) -> Bool) -> [TodoRun] {
    TodoRun.runs(in: todos) { isPicked($1) }
  }

  /// The runs that ``Action/returnTodos(_:)`` moves in `todos` — those whose `before` is at
  /// the end or a todo in the list that no run names — and the ids of their todos in the list.
  nonisolated static func liveRuns(_ runs: [TodoRun], in todos: [Todo])
    -> (runs: [TodoRun], moved: Set<UUID>)
  {
    let present = Set(todos.lazy.map(\.id))
    let named = Set(runs.lazy.flatMap(\.slice).map(\.id))
    let live = runs.filter { run in
      run.before.map { present.contains($0) && !named.contains($0) } ?? true
    }
    return (live, Set(live.lazy.flatMap(\.slice).map(\.id).filter { present.contains($0) }))
  }

  /// See ``Action/restoreTodos(_:)``. O(*n* + *k*).
  nonisolated static func restore(_ runs: [TodoRun], in todos: inout [Todo]) -> Bool {
    var taken = Set(todos.lazy.map(\.id))
    return TodoRun.restore(runs, in: &todos) { $0.isValid && taken.insert($0.id).inserted }
  }

  /// See ``Action/discardTodos(_:)``. O(*n* + *k*).
  nonisolated static func discard(_ discarded: [Todo], from todos: inout [Todo]) -> Bool {
    guard !discarded.isEmpty else { return false }
    let byID = Dictionary(discarded.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let count = todos.count
    todos.removeAll { byID[$0.id] == $0 }
    return todos.count != count
  }

  /// See ``Action/editTodos(_:)``. O(*n* + *k*).
  nonisolated static func apply(_ edits: [TodoEdit], to todos: inout [Todo]) -> Bool {
    guard !edits.isEmpty else { return false }
    let byID = Dictionary(edits.map { ($0.to.id, $0) }, uniquingKeysWith: { first, _ in first })
    var changed = false
    for index in todos.indices {
      guard let edit = byID[todos[index].id] else { continue }
      let edited = edit.applied(to: todos[index])
      if edited != todos[index] {
        todos[index] = edited
        changed = true
      }
    }
    return changed
  }

  /// See ``Action/returnTodos(_:)``. O(*n* + *k*).
  nonisolated static func putBack(_ runs: [TodoRun], in todos: inout [Todo]) -> Bool {
    let (runs, moved) = liveRuns(runs, in: todos)
    guard !moved.isEmpty else { return false }
    var byID: [UUID: Todo] = [:]
    var staying: [Todo] = []
    for todo in todos {
      if moved.contains(todo.id) { byID[todo.id] = todo } else { staying.append(todo) }
    }
    var beforeTodo: [UUID: [Todo]] = [:]
    var atEnd: [Todo] = []
    for run in runs {
      let group = run.slice.compactMap { byID.removeValue(forKey: $0.id) }
      if let before = run.before {
        beforeTodo[before, default: []] += group
      } else {
        atEnd += group
      }
    }
    var result: [Todo] = []
    result.reserveCapacity(todos.count)
    for todo in staying {
      if let group = beforeTodo[todo.id] { result += group }
      result.append(todo)
    }
    result += atEnd
    guard !result.elementsEqual(todos, by: { $0.id == $1.id }) else { return false }
    todos = result
    return true
  }

  /// See ``Action/restoreOrder(_:replacing:)``. O(*n* log *n* + *k*).
  nonisolated static func restoreOrder(
    _ ids: [UUID], replacing: [UUID], in todos: inout [Todo]
  ) -> Bool {
    let order = OrderToRestore(ids, replacing: replacing, in: todos)
    let ordered = order.kept.map { todos[$0] }.sorted { order.rank[$0.id]! < order.rank[$1.id]! }
    var changed = false
    for (slot, todo) in zip(order.kept, ordered) where todos[slot].id != todo.id {
      todos[slot] = todo
      changed = true
    }
    return changed
  }

  /// See ``Action/reorderTodos(ids:)``. O(*n* + *k*).
  nonisolated static func reorder(_ ids: [UUID], in todos: inout [Todo]) -> Bool {
    let named = Set(ids)
    let slots = todos.indices.filter { named.contains(todos[$0].id) }
    var byID = Dictionary(slots.map { (todos[$0].id, todos[$0]) }) { first, _ in first }
    let ordered = ids.compactMap { byID.removeValue(forKey: $0) }
    var changed = false
    for (slot, todo) in zip(slots, ordered) where todos[slot].id != todo.id {
      todos[slot] = todo
      changed = true
    }
    return changed
  }
}

/// What ``TodosStore/Action/restoreOrder(_:replacing:)`` does to a list: which todos it puts
/// back in order, and which keep their places.
struct OrderToRestore {
  /// The offsets of the todos in the list that both orders name, ascending.
  var named: [Int]
  /// The offsets, among ``named``, of a longest run of todos still in the order `replacing`
  /// left them (see the action): those put back in order. Ascending.
  var kept: [Int]
  /// Each id's rank in the order to put back.
  var rank: [UUID: Int]

  /// O(*n* log *n* + *k*) for *n* todos and *k* ids.
  init(_ ids: [UUID], replacing: [UUID], in todos: [Todo]) {
    rank = [:]
    rank.reserveCapacity(ids.count)
    for (offset, id) in ids.enumerated() where rank[id] == nil { rank[id] = offset }
    var made: [UUID: Int] = [:]
    made.reserveCapacity(replacing.count)
    for (offset, id) in replacing.enumerated() where made[id] == nil && rank[id] != nil {
      made[id] = offset
    }
    let named = todos.indices.filter { made[todos[$0].id] != nil }
    kept = longestAscendingOffsets(named.map { made[todos[$0].id]! }, by: <).map { named[$0] }
    self.named = named
  }

}

extension Todo {
  /// The todo with `isDone` toggled.
  fileprivate var toggled: Todo {
    var todo = self
    todo.isDone.toggle()
    return todo
  }
}
