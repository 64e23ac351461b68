import Foundation
import Observation

/// A list of todos with ordering, filtering and removal.
///
/// ```swift
/// let todos = try TodosStore(contentsOf: url)      // or TodosStore(todos: [...])
/// todos.add(Todo(title: "Buy milk", priority: 2))  // inserted at index 0
/// todos.orderByPriority()
/// let active = todos.todos(matching: TodoFilter(status: .active))
/// ```
///
/// Every method is one ``Action`` run by the pure reducer ``reduce(_:_:)``; an action that
/// would change nothing (an unknown id, an offset out of range, ordering a list already in
/// order) changes nothing and notifies nobody. None of them can trap.
@MainActor @Observable
public final class TodosStore: Store {
  /// The todos, in the order shown.
  public struct State: PersistentState {
    public var todos: [Todo]

    public init() {
      todos = []
    }

    public init(todos: [Todo]) {
      self.todos = todos
    }

    private enum CodingKeys: String, CodingKey {
      case todos
    }

    /// Reads the state, refusing two todos with one id.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      todos = try container.decode([Todo].self, forKey: .todos)
      guard hasUniqueIDs else {
        throw DecodingError.dataCorruptedError(
          forKey: .todos, in: container, debugDescription: "two todos have the same id")
      }
    }

    var hasUniqueIDs: Bool { Set(todos.lazy.map(\.id)).count == todos.count }
  }

  /// Every change to the list.
  ///
  /// Todos are named by id; the offset forms (SwiftUI's `onDelete` and `onMove` give offsets)
  /// are resolved to ids against the list the caller saw before a store on a file applies
  /// them (see ``resolve(_:in:)``), so they act on the todos that were shown even when another
  /// process changed the file meanwhile.
  ///
  /// Every action has an inverse, by identity (see ``inverse(of:in:)``): the last seven cases
  /// are what undo sends, and are ordinary actions too.
  public enum Action: Equatable, Sendable, Codable {
    /// Inserts the todo at the top, unless its title is empty or its id is taken.
    case addTodo(Todo)
    /// Replaces the todo with the same id, if any (and if the new title is not empty).
    case updateTodo(Todo)
    /// Marks the todo done, or not done.
    case toggleTodo(id: UUID)
    /// Marks the todos with these ids done (`true`) or not done (`false`).
    case markTodos(ids: Set<UUID>, done: Bool)
    /// Removes the todos with these ids; unknown ids are ignored.
    case removeTodos(ids: Set<UUID>)
    /// Removes the todos at these offsets; offsets out of range are ignored.
    case removeTodosAtOffsets(IndexSet)
    /// Moves the todos with these ids, in this order, to just before the todo with id
    /// `before` — or, when that todo is among the moved ones, before the first todo after it
    /// that is not — or to the end when `before` is `nil`. Unknown ids are ignored; an
    /// unknown `before` (a todo removed meanwhile) moves nothing.
    case moveTodos(ids: [UUID], before: UUID?)
    /// Moves the todos at these offsets before the todo at offset `to`, counted before the
    /// move, as `MutableCollection.move(fromOffsets:toOffset:)` does; offsets out of range
    /// are ignored and the destination is clamped to the list.
    case moveTodosAtOffsets(IndexSet, to: Int)
    /// Sorts by date, earliest first; todos with the same date keep their order.
    case orderByDate
    /// Sorts by priority, highest first; todos with the same priority keep their order.
    case orderByPriority
    /// Removes every todo that is done.
    case removeCompleted
    /// Puts back todos that were removed: the todos of each run whose ids are not in the list
    /// (todos with an empty title are left out), in order, just before the todo
    /// ``ListRun/before`` (at the end when it is `nil`) — or, when that todo was removed
    /// meanwhile, just after ``ListRun/after``, or when both were, at ``ListRun/offset``
    /// (clamped). Todos whose ids are in the list are skipped.
    case restoreTodos([TodoRun])
    /// Removes each of these todos that is still exactly as given; a todo changed since, or
    /// gone, is skipped.
    case discardTodos([Todo])
    /// ``discardTodos(_:)`` of one todo: what undoing ``addTodo(_:)`` sends.
    case discardTodo(Todo)
    /// Changes back the todos these edits name by id: each field (title, date, done,
    /// priority) that still holds the edit's ``ItemEdit/from`` value gets its
    /// ``ItemEdit/to`` value; a field changed since, or a todo gone, is skipped.
    case editTodos([TodoEdit])
    /// Moves todos back: the todos of each run that are in the list go, in order, just
    /// before the todo ``ListRun/before`` (at the end when it is `nil`). A run whose `before`
    /// was removed or is itself among the moved todos stays where it is.
    case returnTodos([TodoRun])
    /// Puts the todos with these ids in this order, in the places they hold now: the other
    /// todos keep their places; unknown ids are ignored.
    case reorderTodos(ids: [UUID])
    /// Puts back the order `ids` among the todos that are still in the order `replacing`
    /// left them — what undoing an ordering sends, `replacing` being the order it made — and
    /// leaves in their places the todos moved since (by another process or device) and the
    /// todos added since.
    ///
    /// The rule: of the todos in the list that both name, the most that still follow
    /// `replacing`'s order stay as it left them (a longest such subsequence; of equally long
    /// ones, the one that keeps the todos later in `replacing` nearer its end, so that a
    /// todo moved up — to the top, say — counts as moved, not every todo it passed). Those
    /// take the places they hold now, in `ids`'s order. Every other todo — one out of that
    /// order, so moved since, or one not named in both, so added since — keeps its place, its
    /// offset in the list. With nothing changed since the ordering, that is exactly the order
    /// before it.
    case restoreOrder([UUID], replacing: [UUID])
  }

  @ObservationIgnored public let core: StoreCore<TodosStore>

  /// A store of `todos` in memory. Todos with an empty title are left out, and so are todos
  /// whose id an earlier one has.
  public init(todos: [Todo] = []) {
    var seen: Set<UUID> = []
    core = StoreCore(
      state: State(todos: todos.filter { $0.isValid && seen.insert($0.id).inserted }))
  }

  /// The todos kept in the JSON file at `url`; a missing file is an empty list.
  ///
  /// An action waits at most `lockTimeout` for another process that holds the file's lock,
  /// then fails with ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)``.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public init(contentsOf url: URL, lockTimeout: Duration = .defaultLockTimeout) throws {
    core = try TodosStore.fileCore(contentsOf: url, lockTimeout: lockTimeout)
  }

  /// A store on `core` (such as a file core stamping as another device, for tests).
  package init(core: StoreCore<TodosStore>) {
    self.core = core
  }

  /// The todos, in order. Read-only: change them with actions.
  public var todos: [Todo] { state.todos }

  /// Applies `action` to `state`; returns whether it changed anything.
  ///
  /// - Complexity: O(*n*) for a list of *n* todos, O(*n* log *n*) for the orderings — and
  ///   O(*n*) for an ordering of a list already in order, which changes nothing. The undo
  ///   actions are O(*n* + *k*) for *k* todos in the action, ``Action/restoreOrder(_:replacing:)``
  ///   O(*n* log *n* + *k*).
  @discardableResult
  public nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .addTodo(let todo):
      guard todo.isValid, !state.todos.contains(where: { $0.id == todo.id }) else { return false }
      state.todos.insert(todo, at: 0)
      return true
    case .updateTodo(let todo):
      guard todo.isValid, let index = state.todos.firstIndex(where: { $0.id == todo.id }),
        state.todos[index] != todo
      else { return false }
      state.todos[index] = todo
      return true
    case .toggleTodo(let id):
      guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return false }
      state.todos[index].isDone.toggle()
      return true
    case .markTodos(let ids, let isDone):
      var changed = false
      for index in state.todos.indices
      where state.todos[index].isDone != isDone && ids.contains(state.todos[index].id) {
        state.todos[index].isDone = isDone
        changed = true
      }
      return changed
    case .removeTodos(let ids):
      guard !ids.isEmpty else { return false }
      let count = state.todos.count
      state.todos.removeAll { ids.contains($0.id) }
      return state.todos.count != count
    case .removeTodosAtOffsets(let offsets):
      let valid = offsets.valid(forCount: state.todos.count)
      guard !valid.isEmpty else { return false }
      state.todos.remove(atOffsets: valid)
      return true
    case .moveTodos(let ids, let before):
      return moveTodos(ids, before: before, in: &state.todos)
    case .moveTodosAtOffsets(let offsets, let destination):
      let valid = offsets.valid(forCount: state.todos.count)
      let clamped = min(max(destination, 0), state.todos.count)
      guard !isNoOpMove(valid, to: clamped) else { return false }
      state.todos.move(fromOffsets: valid, toOffset: clamped)
      return true
    case .orderByDate:
      return sortIfNeeded(&state.todos) { $0.date < $1.date }
    case .orderByPriority:
      return sortIfNeeded(&state.todos) { $0.priority > $1.priority }
    case .removeCompleted:
      let count = state.todos.count
      state.todos.removeAll { $0.isDone }
      return state.todos.count != count
    case .restoreTodos(let runs):
      return restore(runs, in: &state.todos)
    case .discardTodos(let todos):
      return discard(todos, from: &state.todos)
    case .discardTodo(let todo):
      return discard([todo], from: &state.todos)
    case .editTodos(let edits):
      return apply(edits, to: &state.todos)
    case .returnTodos(let runs):
      return putBack(runs, in: &state.todos)
    case .reorderTodos(let ids):
      return reorder(ids, in: &state.todos)
    case .restoreOrder(let ids, let replacing):
      return restoreOrder(ids, replacing: replacing, in: &state.todos)
    }
  }

  /// The id forms of the offset actions, against `state`, the list the caller saw: the todos
  /// at the offsets (out of range ones ignored), and for a move the todo that the moved ones
  /// land before. Other actions are returned as they are.
  ///
  /// - Complexity: O(*n*) for the offset actions, O(1) for the others.
  public nonisolated static func resolve(_ action: Action, in state: State) -> Action {
    switch action {
    case .removeTodosAtOffsets(let offsets):
      let valid = offsets.valid(forCount: state.todos.count)
      return .removeTodos(ids: Set(valid.map { state.todos[$0].id }))
    case .moveTodosAtOffsets(let offsets, let destination):
      let todos = state.todos
      let valid = offsets.valid(forCount: todos.count)
      // The moved todos land before the first todo at or after the destination that stays.
      var anchor = min(max(destination, 0), todos.count)
      while anchor < todos.count && valid.contains(anchor) { anchor += 1 }
      return .moveTodos(
        ids: valid.map { todos[$0].id }, before: anchor < todos.count ? todos[anchor].id : nil)
    default:
      return action
    }
  }

  /// Moves the todos with `ids` before the todo with id `before` (see
  /// ``Action/moveTodos(ids:before:)``); returns whether the order changed.
  ///
  /// - Complexity: O(*n* + *m*) for *n* todos and *m* ids.
  private nonisolated static func moveTodos(
    _ ids: [UUID], before: UUID?, in todos: inout [Todo]
  ) -> Bool {
    var position: [UUID: Int] = [:]
    for id in ids where position[id] == nil { position[id] = position.count }
    var moved: [Todo?] = Array(repeating: nil, count: position.count)
    var staying: [Todo] = []
    staying.reserveCapacity(todos.count)
    // How many staying todos come before `before`; all of them when it is nil.
    var insertion: Int?
    for todo in todos {
      if todo.id == before { insertion = staying.count }
      if let index = position[todo.id] {
        moved[index] = todo
      } else {
        staying.append(todo)
      }
    }
    guard before == nil || insertion != nil else { return false }
    let movedTodos = moved.compactMap { $0 }
    guard !movedTodos.isEmpty else { return false }
    let split = insertion ?? staying.count
    var result = Array(staying[..<split])
    result.reserveCapacity(todos.count)
    result += movedTodos
    result += staying[split...]
    guard !result.elementsEqual(todos, by: { $0.id == $1.id }) else { return false }
    todos = result
    return true
  }

  /// Whether moving `offsets` to `destination` leaves the list as it is: when they are one
  /// run and the destination is inside it or at either end of it.
  private nonisolated static func isNoOpMove(_ offsets: IndexSet, to destination: Int) -> Bool {
    guard let first = offsets.first, let last = offsets.last else { return true }
    return offsets.count == last - first + 1 && (first...last + 1).contains(destination)
  }

  /// Sorts `todos` stably by `areInIncreasingOrder` unless they are in order already.
  private nonisolated static func sortIfNeeded(
    _ todos: inout [Todo], by areInIncreasingOrder: (Todo, Todo) -> Bool
  ) -> Bool {
    let isSorted = zip(todos, todos.dropFirst()).allSatisfy { !areInIncreasingOrder($1, $0) }
    guard !isSorted else { return false }
    todos.sort(by: areInIncreasingOrder)
    return true
  }
}

extension TodosStore {
  /// Inserts `todo` at the top. Ignored when its title is empty or its id is taken.
  public func add(_ todo: Todo) { send(.addTodo(todo)) }
  /// Replaces the todo with the same id as `todo`, if any.
  public func update(_ todo: Todo) { send(.updateTodo(todo)) }
  /// Marks the todo with `id` done, or not done.
  public func toggle(id: UUID) { send(.toggleTodo(id: id)) }
  /// Removes the todos with `ids`; unknown ids are ignored.
  public func remove(ids: Set<UUID>) { send(.removeTodos(ids: ids)) }
  /// Removes the todos at `offsets` — for SwiftUI's `onDelete`; offsets out of range are
  /// ignored.
  public func delete(atOffsets offsets: IndexSet) { send(.removeTodosAtOffsets(offsets)) }
  /// Moves the todos with `ids`, in this order, before the todo with id `before`, or to the
  /// end when it is `nil`.
  public func move(ids: [UUID], before: UUID?) { send(.moveTodos(ids: ids, before: before)) }
  /// Moves the todos at `offsets` before the todo at `destination` (a position before
  /// the move) — for SwiftUI's `onMove`; offsets out of range are ignored and the
  /// destination is clamped.
  public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
    send(.moveTodosAtOffsets(offsets, to: destination))
  }
  /// Sorts the todos by date, earliest first, keeping the order of equal dates.
  public func orderByDate() { send(.orderByDate) }
  /// Sorts the todos by priority, highest first, keeping the order of equal priorities.
  public func orderByPriority() { send(.orderByPriority) }
  /// Removes every todo that is done.
  public func removeCompleted() { send(.removeCompleted) }
}
