import Foundation
import StoreTesting
import Stores
import Testing

/// How many times a store's change callbacks ran.
@MainActor
final class ChangeCount {
  private(set) var value = 0
  private var token: ObserverToken?

  init(of store: some Store) {
    token = store.onChange { [unowned self] _, _ in value += 1 }
  }
}

/// A todos store against the plain model `TodosModel`, with actions picked from the state:
/// todos that exist, ids that are there or not, offsets in and out of range.
@MainActor
struct TodosMachine: StateMachine {
  let store = TodosStore()
  let changes: ChangeCount
  var model: [Todo] = []
  var expectedChanges = 0
  /// The number of the next fresh id, `Gen.testID(nextID)`.
  var nextID = 0

  init() {
    changes = ChangeCount(of: store)
  }

  var rules: [Rule<TodosStore.Action>] {
    let todos = store.todos
    let ids = todos.map(\.id)
    let existing = ids.isEmpty ? Gen.constant(Gen<UUID>.testID(0)) : Gen.element(of: ids)
    return [
      Rule(
        "add a new todo",
        Gen<Todo>.todo(id: .constant(Gen<UUID>.testID(nextID))).map { .addTodo($0) }),
      Rule(
        "add a todo whose id is taken", when: !ids.isEmpty,
        Gen<Todo>.todo(id: existing).map { .addTodo($0) }),
      Rule("toggle a todo", when: !ids.isEmpty, existing.map { .toggleTodo(id: $0) }),
      Rule("toggle an unknown id", .constant(.toggleTodo(id: Gen<UUID>.testID(1_000)))),
      Rule(
        "update a todo", when: !ids.isEmpty, Gen<Todo>.todo(id: existing).map { .updateTodo($0) }),
      Rule(
        "mark todos done or not", when: !ids.isEmpty,
        Gen.zip(Gen<Set<UUID>>.set(of: existing, maxCount: 3), Gen<Bool>.bool).map {
          .markTodos(ids: $0, done: $1)
        }),
      Rule(
        "delete at offsets", when: !todos.isEmpty,
        Gen<IndexSet>.offsets(in: todos.count, includingOutOfRange: true).map {
          .removeTodosAtOffsets($0)
        }),
      Rule(
        "move offsets", when: !todos.isEmpty,
        Gen.zip(Gen<IndexSet>.offsets(in: todos.count), Gen<Int>.integer(in: 0...todos.count)).map {
          .moveTodosAtOffsets($0, to: $1)
        }),
      Rule(
        "move todos before one", when: !ids.isEmpty,
        Gen.zip(existing.array(maxCount: 3), existing.optional).map {
          .moveTodos(ids: $0, before: $1)
        }),
      Rule("order by date", .constant(.orderByDate)),
      Rule("order by priority", .constant(.orderByPriority)),
      Rule("remove completed", .constant(.removeCompleted)),
      Rule(
        "remove todos by id", when: !ids.isEmpty,
        Gen<Set<UUID>>.set(of: existing, maxCount: 3).map { .removeTodos(ids: $0) }),
    ]
  }

  mutating func perform(_ action: TodosStore.Action) throws {
    if case .addTodo(let todo) = action, todo.id == Gen<UUID>.testID(nextID) { nextID += 1 }
    let next = TodosModel.apply(action, to: model)
    if next != model { expectedChanges += 1 }
    model = next
    store.send(action)
  }

  func checkInvariants() throws {
    try requireEqual(store.todos, model, "the todos")
    try requireEqual(changes.value, expectedChanges, "the change callbacks")
    try require(Set(store.todos.map(\.id)).count == store.todos.count, "ids are unique")
    try require(store.todos.allSatisfy(\.isValid), "every title is valid")
  }
}

/// A todos store on a file: after every step a store opened on the file sees what it holds,
/// and a step can reopen the store itself.
@MainActor
struct TodosFileMachine: StateMachine {
  enum Command {
    case send(TodosStore.Action)
    case reopen
  }

  let folder = TemporaryFolder()
  var store: TodosStore

  init() throws {
    store = try TodosStore(contentsOf: folder.file("todos.json"))
  }

  var rules: [Rule<Command>] {
    let ids = store.todos.map(\.id)
    return [
      Rule("add", Gen<Todo>.todo(id: .id(among: 8)).map { .send(.addTodo($0)) }),
      Rule("toggle", when: !ids.isEmpty, Gen.element(of: ids).map { .send(.toggleTodo(id: $0)) }),
      Rule(
        "remove", when: !ids.isEmpty, Gen.element(of: ids).map { .send(.removeTodos(ids: [$0])) }),
      Rule("order by priority", .constant(.send(.orderByPriority))),
      Rule("reopen the store", .constant(.reopen)),
    ]
  }

  mutating func perform(_ command: Command) throws {
    switch command {
    case .send(let action): try store.trySend(action)
    case .reopen: store = try TodosStore(contentsOf: folder.file("todos.json"))
    }
  }

  func checkInvariants() throws {
    try requireEqual(
      try TodosStore(contentsOf: folder.file("todos.json")).state, store.state, "the file")
  }
}

@MainActor
@Suite("TodosStore, stateful")
struct TodosStateMachineTests {
  @Test("every action picked from the state agrees with the model, and notifies once per change")
  func agreesWithTheModel() async {
    await check(TodosMachine.self)
  }

  @Test("the file holds what the store shows, through every action and reopening")
  func fileHoldsTheState() async {
    await check(TodosFileMachine.self, steps: 20, iterations: 30)
  }
}
