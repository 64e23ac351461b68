import Foundation

/// Which todos to show: a query, not a mutation. The matches come with their index in the
/// full list, so offsets picked among them act on exactly the todos that were picked.
public struct TodoFilter: Equatable, Sendable {
  /// Which todos by whether they are done.
  public enum Status: String, CaseIterable, Sendable {
    case all, active, completed
  }

  /// Whether done todos, todos not done, or both match.
  public var status: Status
  /// Text the title must contain, ignoring case and diacritics ("cafe" finds "Café"); an
  /// empty text matches every title.
  public var text: String
  /// The lowest priority that matches, or `nil` for any.
  public var minimumPriority: Int?

  public init(status: Status = .all, text: String = "", minimumPriority: Int? = nil) {
    self.status = status
    self.text = text
    self.minimumPriority = minimumPriority
  }

  /// Whether `todo` matches.
  public func matches(_ todo: Todo) -> Bool {
    switch status {
    case .all: break
    case .active: guard !todo.isDone else { return false }
    case .completed: guard todo.isDone else { return false }
    }
    if let minimumPriority, todo.priority < minimumPriority { return false }
    return text.isEmpty
      || todo.title.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
  }

  /// The todos among `todos` that match, in order, each with its index in `todos`.
  ///
  /// - Complexity: O(*n*) for *n* todos.
  public func apply(to todos: [Todo]) -> [(index: Int, element: Todo)] {
    // Through the buffer: each todo is tested in place, and only the matches are copied.
    todos.withUnsafeBufferPointer { todos in
      var matching: [(index: Int, element: Todo)] = []
      if text.isEmpty {
        // Without text to search the test is cheap: count the matches first, so that the
        // result is allocated once rather than grown (and copied) a dozen times.
        var count = 0
        for index in todos.indices where matches(todos[index]) { count += 1 }
        matching.reserveCapacity(count)
      }
      for index in todos.indices where matches(todos[index]) {
        matching.append((index, todos[index]))
      }
      return matching
    }
  }
}

extension TodosStore {
  /// The todos that match `filter`, in order, each with its index in ``todos``.
  ///
  /// ```swift
  /// for (index, todo) in store.todos(matching: TodoFilter(status: .active)) {
  ///   print(index + 1, todo.title)   // the number the full list shows
  /// }
  /// ```
  ///
  /// - Complexity: O(*n*) for *n* todos.
  public func todos(matching filter: TodoFilter) -> [(index: Int, element: Todo)] {
    filter.apply(to: todos)
  }

  /// Deletes the todos at `offsets` of the list that `filter` shows, and only those —
  /// whatever the todos hidden by the filter. Offsets past that list are ignored.
  ///
  /// Use it for `onDelete` of a SwiftUI `ForEach` over ``todos(matching:)``: passing
  /// the filtered offsets to ``delete(atOffsets:)`` would delete other todos.
  public func delete(atOffsets offsets: IndexSet, matching filter: TodoFilter) {
    let shown = filter.apply(to: todos)
    let ids = offsets.valid(forCount: shown.count).map { shown[$0].element.id }
    send(.removeTodos(ids: Set(ids)))
  }

  /// Moves the todos at `offsets` of the list that `filter` shows to just before the todo
  /// that list shows at `destination` — the first one at or after it that is not moved — or,
  /// when `destination` is past the last one, right after the last todo shown, in the full
  /// list, where the todos the filter hides stay where they are. Offsets past that list are
  /// ignored.
  ///
  /// Use it for `onMove` of a SwiftUI `ForEach` over ``todos(matching:)``.
  public func move(
    fromOffsets offsets: IndexSet, toOffset destination: Int, matching filter: TodoFilter
  ) {
    let todos = self.todos
    let shown = filter.apply(to: todos)
    let valid = offsets.valid(forCount: shown.count)
    var anchor = max(destination, 0)
    while anchor < shown.count && valid.contains(anchor) { anchor += 1 }
    let before: UUID?
    if anchor < shown.count {
      before = shown[anchor].element.id
    } else {
      let next = (shown.last?.index ?? todos.count) + 1
      before = next < todos.count ? todos[next].id : nil
    }
    send(.moveTodos(ids: valid.map { shown[$0].element.id }, before: before))
  }
}
