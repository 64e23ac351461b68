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

    var hasUniqueIDs: Bool { Set(todos.map(\.id)).count == todos.count }
  }

  /// Every change to the list.
  public enum Action: Equatable, Sendable {
    /// Inserts the todo at the top, unless its title is empty or its id is taken.
    case add(Todo)
    /// Replaces the todo with the same id, if any (and if the new title is not empty).
    case update(Todo)
    /// Marks the todo done, or not done.
    case toggle(id: UUID)
    /// Marks the todos with these ids done (`true`) or not done (`false`).
    case setDone(Bool, ids: Set<UUID>)
    /// Removes the todos at these offsets; offsets out of range are ignored.
    case delete(atOffsets: IndexSet)
    /// Moves the todos at these offsets before the todo at `toOffset` (see
    /// `MutableCollection.move(fromOffsets:toOffset:)`); offsets out of range are ignored
    /// and the destination is clamped to the list.
    case move(fromOffsets: IndexSet, toOffset: Int)
    /// Sorts by date, earliest first; todos with the same date keep their order.
    case orderByDate
    /// Sorts by priority, highest first; todos with the same priority keep their order.
    case orderByPriority
    /// Removes every todo that is done.
    case removeCompleted
    /// Removes the todos with these ids. Unlike offsets, ids stay right when the list
    /// changes meanwhile (in another process, say).
    case remove(ids: Set<UUID>)
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
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public init(contentsOf url: URL) throws {
    core = try TodosStore.fileCore(contentsOf: url)
  }

  /// The todos, in order. Read-only: change them with actions.
  public var todos: [Todo] { state.todos }

  /// Applies `action` to `state`; returns whether it changed anything.
  ///
  /// - Complexity: O(*n*) for a list of *n* todos, O(*n* log *n*) for the orderings — and
  ///   O(*n*) for an ordering of a list already in order, which changes nothing.
  @discardableResult
  public nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .add(let todo):
      guard todo.isValid, !state.todos.contains(where: { $0.id == todo.id }) else { return false }
      state.todos.insert(todo, at: 0)
      return true
    case .update(let todo):
      guard todo.isValid, let index = state.todos.firstIndex(where: { $0.id == todo.id }),
        state.todos[index] != todo
      else { return false }
      state.todos[index] = todo
      return true
    case .toggle(let id):
      guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return false }
      state.todos[index].isDone.toggle()
      return true
    case .setDone(let isDone, let ids):
      var changed = false
      for index in state.todos.indices
      where state.todos[index].isDone != isDone && ids.contains(state.todos[index].id) {
        state.todos[index].isDone = isDone
        changed = true
      }
      return changed
    case .delete(let offsets):
      let valid = offsets.valid(forCount: state.todos.count)
      guard !valid.isEmpty else { return false }
      state.todos.remove(atOffsets: valid)
      return true
    case .move(let offsets, let destination):
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
    case .remove(let ids):
      guard !ids.isEmpty else { return false }
      let count = state.todos.count
      state.todos.removeAll { ids.contains($0.id) }
      return state.todos.count != count
    }
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
  public func add(_ todo: Todo) { send(.add(todo)) }
  /// Replaces the todo with the same id as `todo`, if any.
  public func update(_ todo: Todo) { send(.update(todo)) }
  /// Marks the todo with `id` done, or not done.
  public func toggle(id: UUID) { send(.toggle(id: id)) }
  /// Removes the todos at `offsets`; offsets out of range are ignored.
  public func delete(atOffsets offsets: IndexSet) { send(.delete(atOffsets: offsets)) }
  /// Moves the todos at `offsets` before the todo at `destination` (a position before
  /// the move); offsets out of range are ignored and the destination is clamped.
  public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
    send(.move(fromOffsets: offsets, toOffset: destination))
  }
  /// Sorts the todos by date, earliest first, keeping the order of equal dates.
  public func orderByDate() { send(.orderByDate) }
  /// Sorts the todos by priority, highest first, keeping the order of equal priorities.
  public func orderByPriority() { send(.orderByPriority) }
  /// Removes every todo that is done.
  public func removeCompleted() { send(.removeCompleted) }
  /// Removes the todos with `ids`; unknown ids are ignored.
  public func remove(ids: Set<UUID>) { send(.remove(ids: ids)) }
}
