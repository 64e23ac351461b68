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
    case .removeTodosAtOffsets(let offsets):
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
    case .moveTodosAtOffsets(let offsets, let destination):
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
    case .restoreTodos(let runs):
      return restore(runs, in: todos)
    case .discardTodos(let discarded):
      return todos.filter { todo in discarded.first { $0.id == todo.id } != todo }
    case .discardTodo(let discarded):
      return todos.filter { $0 != discarded }
    case .editTodos(let edits):
      return todos.map { todo in
        guard let edit = edits.first(where: { $0.to.id == todo.id }) else { return todo }
        var result = todo
        if todo.title == edit.from.title, edit.to.isValid { result.title = edit.to.title }
        if todo.date == edit.from.date { result.date = edit.to.date }
        if todo.isDone == edit.from.isDone { result.isDone = edit.to.isDone }
        if todo.priority == edit.from.priority { result.priority = edit.to.priority }
        return result
      }
    case .returnTodos(let runs):
      return putBack(runs, in: todos)
    case .reorderTodos(let ids):
      var result = todos
      let slots = todos.indices.filter { ids.contains(todos[$0].id) }
      var placed: Set<UUID> = []
      let ordered = ids.filter { id in todos.contains { $0.id == id } && placed.insert(id).inserted
      }
      for (slot, id) in zip(slots, ordered) { result[slot] = todos.first { $0.id == id }! }
      return result
    case .restoreOrder(let ids, let replacing):
      return restoreOrder(ids, replacing: replacing, in: todos)
    }
  }

  /// The todos both orders name that follow `replacing` in the most numbers — of equally
  /// many, the one whose ranks, read from the end, are least — by trying every subset, put
  /// in `ids`'s order in their places. For short lists only: O(2^*n*).
  static func restoreOrder(_ ids: [UUID], replacing: [UUID], in todos: [Todo]) -> [Todo] {
    let slots = todos.indices.filter {
      ids.contains(todos[$0].id) && replacing.contains(todos[$0].id)
    }
    let made = slots.map { slot in replacing.firstIndex(of: todos[slot].id)! }
    var best: [Int] = []
    for mask in 0..<(1 << slots.count) {
      let picked = slots.indices.filter { mask & (1 << $0) != 0 }
      let ranks = picked.map { made[$0] }
      guard zip(ranks, ranks.dropFirst()).allSatisfy({ $0 < $1 }) else { continue }
      let bestRanks = best.map { made[$0] }
      if picked.count > best.count
        || (picked.count == best.count
          && ranks.reversed().lexicographicallyPrecedes(bestRanks.reversed()))
      {
        best = picked
      }
    }
    let kept = best.map { slots[$0] }
    let ordered = kept.map { todos[$0] }.sorted {
      ids.firstIndex(of: $0.id)! < ids.firstIndex(of: $1.id)!
    }
    var result = todos
    for (slot, todo) in zip(kept, ordered) { result[slot] = todo }
    return result
  }

  /// Each run's new todos (valid, ids not taken) put back, as `RunsModel` does.
  static func restore(_ runs: [TodoRun], in todos: [Todo]) -> [Todo] {
    var taken = Set(todos.map(\.id))
    return RunsModel.restore(runs, in: todos) { $0.isValid && taken.insert($0.id).inserted }
  }

  /// Each run's todos that are in the list back before its `before` (the end when `nil`),
  /// unless `before` is gone or among the runs' todos.
  static func putBack(_ runs: [TodoRun], in todos: [Todo]) -> [Todo] {
    let named = runs.flatMap(\.elements).map(\.id)
    let live = runs.filter { run in
      run.before.map { before in
        todos.contains { $0.id == before } && !named.contains(before)
      } ?? true
    }
    let moved = live.flatMap(\.elements).map(\.id).filter { id in todos.contains { $0.id == id } }
    var result = todos.filter { !moved.contains($0.id) }
    var placed: Set<UUID> = []
    for run in live {
      let group = run.elements.filter { moved.contains($0.id) && placed.insert($0.id).inserted }
        .map { todo in todos.first { $0.id == todo.id }! }
      if let before = run.before {
        result.insert(contentsOf: group, at: result.firstIndex { $0.id == before }!)
      } else {
        result += group
      }
    }
    return result
  }

  /// Sorted by `before`, equal elements in their old order — by insertion, not `sort`.
  static func stableSorted<Element>(
    _ todos: [Element], by before: (Element, Element) -> Bool
  ) -> [Element] {
    var sorted: [Element] = []
    for todo in todos {
      let index = sorted.lastIndex { !before(todo, $0) }.map { $0 + 1 } ?? 0
      sorted.insert(todo, at: index)
    }
    return sorted
  }
}

/// A plain model of putting runs back (``ListRun``), one run at a time.
enum RunsModel {
  /// Each run's new elements before its `before`, at the end, or — its `before` gone — after
  /// its `after`, or at its offset, counted in the list with the earlier such runs in it.
  static func restore<Element>(
    _ runs: [ListRun<Element>], in list: [Element], isNew: (Element) -> Bool
  ) -> [Element] {
    var result = list
    var atOffset: [(Int, [Element])] = []
    var afterRuns: Set<UUID> = []
    let newByRun = runs.map { $0.elements.filter(isNew) }
    for (run, new) in zip(runs, newByRun) where !new.isEmpty {
      let isPresent = { (id: UUID?) in list.contains { $0.id == id } }
      if isPresent(run.before) {
        result.insert(contentsOf: new, at: result.firstIndex { $0.id == run.before }!)
      } else if isPresent(run.after) {
        // After the element and the runs put after it before this one.
        var index = result.firstIndex { $0.id == run.after }! + 1
        while index < result.count, afterRuns.contains(result[index].id) { index += 1 }
        result.insert(contentsOf: new, at: index)
        afterRuns.formUnion(new.map(\.id))
      } else if run.before == nil {
        result += new
      } else {
        atOffset.append((run.offset, new))
      }
    }
    var inserted = 0
    for (offset, new) in TodosModel.stableSorted(atOffset, by: { $0.0 < $1.0 }) {
      result.insert(contentsOf: new, at: min(offset + inserted, result.count))
      inserted += new.count
    }
    return result
  }
}
