import Foundation
import StoreTesting
import Stores
import Testing

@MainActor
@Suite("TodosStore")
struct TodosStoreTests {
  static let listsAndActions = Gen<([Todo], [TodosStore.Action])>.zip(
    .todos(maxCount: 10), Gen<TodosStore.Action>.todoAction().array(maxCount: 12))

  let folder = TemporaryFolder()

  @Test("the store agrees with the model after every action, and notifies once per change")
  func modelBased() {
    check(Self.listsAndActions) { todos, actions in
      try requireAgreement(
        of: TodosStore(todos: todos), with: todos, after: actions, apply: TodosModel.apply,
        observe: \.todos)
    }
  }

  @Test("the store's state is the reducer folded over the actions")
  func storeIsFoldedReducer() {
    check(Self.listsAndActions) { todos, actions in
      let store = TodosStore(todos: todos)
      var state = TodosStore.State(todos: todos)
      for action in actions {
        store.send(action)
        TodosStore.reduce(&state, action)
      }
      return store.state == state
    }
  }

  @Test("orderings are sorted, stable permutations, and idempotent")
  func orderings() {
    check(Gen<[Todo]>.todos(maxCount: 12)) { todos in
      for (action, before) in [
        (TodosStore.Action.orderByDate, { (a: Todo, b: Todo) in a.date < b.date }),
        (.orderByPriority, { (a: Todo, b: Todo) in a.priority > b.priority }),
      ] {
        var state = TodosStore.State(todos: todos)
        TodosStore.reduce(&state, action)
        let sorted = state.todos
        try require(zip(sorted, sorted.dropFirst()).allSatisfy { !before($1, $0) }, "sorted")
        try requireEqual(Set(sorted.map(\.id)), Set(todos.map(\.id)), "a permutation")
        for (first, second) in zip(sorted, sorted.dropFirst()) where !before(first, second) {
          let firstIndex = todos.firstIndex { $0.id == first.id }!
          let secondIndex = todos.firstIndex { $0.id == second.id }!
          try require(firstIndex < secondIndex, "equal keys keep their order")
        }
        try require(!TodosStore.reduce(&state, action), "a second ordering changes nothing")
        try requireEqual(state.todos, sorted)
      }
    }
  }

  @Test("removeCompleted leaves exactly the active todos, in order")
  func removeCompleted() {
    check(Gen<[Todo]>.todos(maxCount: 12)) { todos in
      var state = TodosStore.State(todos: todos)
      let changed = TodosStore.reduce(&state, .removeCompleted)
      try requireEqual(state.todos, todos.filter { !$0.isDone })
      try requireEqual(changed, todos.contains { $0.isDone })
    }
  }

  @Test("toggling twice is the identity")
  func toggleTwice() {
    check(Gen<([Todo], UUID)>.zip(.todos(maxCount: 10), .id(among: 14))) { todos, id in
      var state = TodosStore.State(todos: todos)
      TodosStore.reduce(&state, .toggleTodo(id: id))
      TodosStore.reduce(&state, .toggleTodo(id: id))
      return state.todos == todos
    }
  }

  /// Filters by each status, with and without text (ASCII and accented) and a priority.
  static let filters = Gen<(TodoFilter.Status, String, Int?)>.zip(
    .element(of: TodoFilter.Status.allCases), .element(of: ["", "a", "É"]),
    Gen<Int>.integer(in: -2...5).optional
  ).map { TodoFilter(status: $0, text: $1, minimumPriority: $2) }

  @Test("a filter gives exactly the todos that match, in order, with their indices")
  func filterMatches() {
    check(Gen<([Todo], TodoFilter)>.zip(.todos(maxCount: 30), Self.filters)) { todos, filter in
      let shown = filter.apply(to: todos)
      let expected = todos.indices.filter { filter.matches(todos[$0]) }
      try requireEqual(shown.map(\.index), expected)
      try requireEqual(shown.map(\.element), expected.map { todos[$0] })
    }
  }

  @Test("deleting and moving offsets picked in a filtered list act on exactly those todos")
  func filteredOffsets() {
    let cases = Gen<([Todo], TodoFilter, IndexSet, Int)>.zip(
      .todos(maxCount: 10), Self.filters, .offsets(in: 10), .integer(in: 0...10))
    check(cases) { todos, filter, offsets, destination in
      let shown = filter.apply(to: todos).map(\.element)
      let picked = offsets.filter { $0 < shown.count }.map { shown[$0].id }

      let deleting = TodosStore(todos: todos)
      deleting.delete(atOffsets: offsets, matching: filter)
      try requireEqual(deleting.todos, todos.filter { !picked.contains($0.id) })

      let moving = TodosStore(todos: todos)
      let target = min(destination, shown.count)
      moving.move(fromOffsets: offsets, toOffset: target, matching: filter)
      let validOffsets = IndexSet(offsets.filter { $0 < shown.count })
      try requireEqual(
        filter.apply(to: moving.todos).map(\.element),
        OffsetReference.move(shown, fromOffsets: validOffsets, toOffset: target),
        "the shown list moves as a plain list")
      let hidden = { (list: [Todo]) in list.filter { !filter.matches($0) } }
      try requireEqual(hidden(moving.todos), hidden(todos), "hidden todos keep their order")
      try requireEqual(Set(moving.todos.map(\.id)), Set(todos.map(\.id)))
    }
  }

  @Test("a fresh store on the file equals the store after any actions")
  func fileRoundTrip() throws {
    let url = folder.file("todos.json")
    check(Self.listsAndActions, iterations: 30) { todos, actions in
      try? FileManager.default.removeItem(at: url)
      let store = try TodosStore(contentsOf: url)
      for todo in todos.reversed() { try store.trySend(.addTodo(todo)) }
      for action in actions { try store.trySend(action) }
      return try TodosStore(contentsOf: url).state == store.state
    }
  }

  @Test("two stores on one file see each other's actions")
  func twoStores() throws {
    let url = folder.file("todos.json")
    let first = try TodosStore(contentsOf: url)
    let second = try TodosStore(contentsOf: url)
    let milk = Todo(title: "Buy milk", priority: 1)
    first.add(milk)
    second.add(Todo(title: "Call mum"))
    second.toggle(id: milk.id)
    first.add(Todo(title: "Write", priority: 3))
    try first.refresh()
    #expect(first.todos == second.todos || first.todos.count == 3)
    try second.refresh()
    #expect(first.todos == second.todos)
    #expect(first.todos.map(\.title) == ["Write", "Call mum", "Buy milk"])
    #expect(first.todos.last?.isDone == true)
  }

  @Test("titles are one line: line breaks become spaces, and empty titles are ignored")
  func titles() {
    #expect(Todo(title: "  Buy\nmilk\r\nand eggs \n").title == "Buy milk and eggs")
    #expect(!Todo(title: " \n\t ").isValid)
    let store = TodosStore(todos: [Todo(title: "")])
    #expect(store.todos.isEmpty)
    store.add(Todo(title: "\n"))
    var edited = Todo(title: "Valid")
    store.add(edited)
    edited.title = ""
    store.update(edited)
    #expect(store.todos.map(\.title) == ["Valid"])
  }

  @Test("add inserts at the top and ignores a taken id; conveniences send their action")
  func conveniences() {
    let date = Date(timeIntervalSinceReferenceDate: 0)
    let a = Todo(id: Gen<UUID>.testID(1), title: "A", date: date.addingTimeInterval(1), priority: 1)
    let b = Todo(id: Gen<UUID>.testID(2), title: "B", date: date.addingTimeInterval(2), priority: 3)
    let store = TodosStore()
    var actions: [TodosStore.Action] = []
    let token = store.onChange { change, _ in change.action.map { actions.append($0) } }
    store.add(a)
    store.add(b)
    store.add(a)
    #expect(store.todos.map(\.title) == ["B", "A"])
    store.orderByDate()
    store.orderByPriority()
    store.toggle(id: a.id)
    store.move(fromOffsets: [1], toOffset: 0)
    store.delete(atOffsets: [5])
    store.removeCompleted()
    store.remove(ids: [b.id])
    #expect(store.todos.isEmpty)
    #expect(
      actions == [
        .addTodo(a), .addTodo(b), .orderByDate, .orderByPriority, .toggleTodo(id: a.id),
        .moveTodosAtOffsets([1], to: 0),
        .removeCompleted, .removeTodos(ids: [b.id]),
      ])
    token.cancel()
  }

  @Test("filters match status, priority, and text without regard to case or diacritics")
  func filters() {
    let todos = [
      Todo(title: "Café with Zoë", isDone: false, priority: 1),
      Todo(title: "CAFE run", isDone: true, priority: 3),
      Todo(title: "Tea", isDone: false, priority: 0),
    ]
    let titles = { (filter: TodoFilter) in filter.apply(to: todos).map(\.element.title) }
    #expect(titles(TodoFilter(text: "cafe")) == ["Café with Zoë", "CAFE run"])
    #expect(titles(TodoFilter(text: "ZOE")) == ["Café with Zoë"])
    #expect(titles(TodoFilter(status: .active)) == ["Café with Zoë", "Tea"])
    #expect(titles(TodoFilter(status: .completed)) == ["CAFE run"])
    #expect(titles(TodoFilter(minimumPriority: 1)) == ["Café with Zoë", "CAFE run"])
    #expect(TodoFilter(status: .active, text: "tea").apply(to: todos).map(\.index) == [2])
  }

  @Test(
    "fixtures: each reads as stated",
    arguments: [
      ("sample.json", 4), ("empty.json", 0), ("version-0.json", 2),
    ])
  func fixtures(name: String, count: Int) throws {
    let url = folder.copy(fixture: "todos/\(name)")
    let before = contents(url)
    #expect(try TodosStore(contentsOf: url).todos.count == count)
    #expect(contents(url) == before)
  }

  @Test(
    "broken fixtures are refused with the place, and left as they are",
    arguments: [
      ("truncated.json", "line "),
      ("wrong-type.json", "todos[0].priority: expected a whole number, found a string"),
      ("empty-title.json", "todos[0].title: a title cannot be empty"),
      ("duplicate-ids.json", "todos: two todos have the same id"),
      ("bad-date.json", "todos[0].date: expected a date"),
    ])
  func brokenFixtures(name: String, expected: String) throws {
    let url = folder.copy(fixture: "todos/\(name)")
    let before = contents(url)
    let error = #expect(throws: StoreFileError.self) { try TodosStore(contentsOf: url) }
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    #expect(contents(url) == before)
  }

  @Test("the sample fixture reads as written")
  func sampleFixture() throws {
    let store = try TodosStore(
      contentsOf: fixturesFolder.appendingPathComponent("todos/sample.json"))
    #expect(
      store.todos.map(\.title) == [
        "Buy milk", "Call the plumber", "Renew passport", "Café with Zoë",
      ])
    #expect(store.todos.map(\.priority) == [2, 1, 3, 0])
    #expect(store.todos.map(\.isDone) == [false, true, false, false])
    #expect(store.todos[2].date == Date(timeIntervalSinceReferenceDate: 817_804_800.5))
  }
}
