import Foundation

/// The cases of ``TodosStore/Action`` as properties, one per case, named as the case: the case's
/// payload for an action of that case, `nil` for any other (`()` for a case without payload;
/// a tuple for a case with several values). So `action.addTodo` reads the payload without
/// a `switch`, and `\.addTodo` is a case path: `StoreTester.receive(\.addTodo)` receives
/// an action of that case, whatever its payload. O(1) each (a payload is copied, not
/// computed).
extension TodosStore.Action {
  /// The payload of ``addTodo(_:)``; `nil` for any other action.
  public var addTodo: Todo? {
    guard case .addTodo(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``updateTodo(_:)``; `nil` for any other action.
  public var updateTodo: Todo? {
    guard case .updateTodo(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``toggleTodo(id:)``; `nil` for any other action.
  public var toggleTodo: UUID? {
    guard case .toggleTodo(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``markTodos(ids:done:)``; `nil` for any other action.
  public var markTodos: (ids: Set<UUID>, done: Bool)? {
    guard case .markTodos(let ids, let done) = self else { return nil }
    return (ids: ids, done: done)
  }

  /// The payload of ``removeTodos(ids:)``; `nil` for any other action.
  public var removeTodos: Set<UUID>? {
    guard case .removeTodos(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``removeTodosAtOffsets(_:)``; `nil` for any other action.
  public var removeTodosAtOffsets: IndexSet? {
    guard case .removeTodosAtOffsets(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``moveTodos(ids:before:)``; `nil` for any other action.
  public var moveTodos: (ids: [UUID], before: UUID?)? {
    guard case .moveTodos(let ids, let before) = self else { return nil }
    return (ids: ids, before: before)
  }

  /// The payload of ``moveTodosAtOffsets(_:to:)``; `nil` for any other action.
  public var moveTodosAtOffsets: (offsets: IndexSet, to: Int)? {
    guard case .moveTodosAtOffsets(let offsets, let to) = self else { return nil }
    return (offsets: offsets, to: to)
  }

  /// `()` for ``orderByDate-swift.enum.case``; `nil` for any other action.
  public var orderByDate: Void? {
    guard case .orderByDate = self else { return nil }
    return ()
  }

  /// `()` for ``orderByPriority-swift.enum.case``; `nil` for any other action.
  public var orderByPriority: Void? {
    guard case .orderByPriority = self else { return nil }
    return ()
  }

  /// `()` for ``removeCompleted-swift.enum.case``; `nil` for any other action.
  public var removeCompleted: Void? {
    guard case .removeCompleted = self else { return nil }
    return ()
  }

  /// The payload of ``restoreTodos(_:)``; `nil` for any other action.
  public var restoreTodos: [TodoRun]? {
    guard case .restoreTodos(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``discardTodos(_:)``; `nil` for any other action.
  public var discardTodos: [Todo]? {
    guard case .discardTodos(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``discardTodo(_:)``; `nil` for any other action.
  public var discardTodo: Todo? {
    guard case .discardTodo(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``editTodos(_:)``; `nil` for any other action.
  public var editTodos: [TodoEdit]? {
    guard case .editTodos(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``returnTodos(_:)``; `nil` for any other action.
  public var returnTodos: [TodoRun]? {
    guard case .returnTodos(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``reorderTodos(ids:)``; `nil` for any other action.
  public var reorderTodos: [UUID]? {
    guard case .reorderTodos(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``restoreOrder(_:replacing:)``; `nil` for any other action.
  public var restoreOrder: (order: [UUID], replacing: [UUID])? {
    guard case .restoreOrder(let order, let replacing) = self else { return nil }
    return (order: order, replacing: replacing)
  }
}
