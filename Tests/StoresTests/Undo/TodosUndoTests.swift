import Foundation
import Observation
import StoreTesting
import Stores
import Testing

@MainActor
@Suite("TodosStore undo")
struct TodosUndoTests {
  let folder = TemporaryFolder()

  func todo(_ title: String, _ index: Int, done: Bool = false, priority: Int = 0) -> Todo {
    Todo(
      id: Gen<UUID>.testID(index), title: title,
      date: Date(timeIntervalSinceReferenceDate: Double(index)), isDone: done, priority: priority)
  }

  var list: [Todo] {
    [todo("a", 0), todo("b", 1, done: true), todo("c", 2), todo("d", 3, done: true)]
  }

  @Test("undo after each action brings back the state before it; redo the state after it")
  func undoRedoInMemory() {
    check(TodosStoreTests.listsAndActions) { todos, actions in
      try requireUndoRedo(TodosStore(todos: todos), after: actions)
    }
  }

  /// The undo actions, on lists of up to 8 todos with ids `testID(0)`…: some ids unknown.
  static let undoActions = Gen<TodosStore.Action>.oneOf(
    Gen<[Todo]>.todos(maxCount: 4).map { .discardTodos($0) },
    Gen<Todo>.todo(id: .id(among: 6)).map { .discardTodo($0) },
    Gen<[Todo]>.todos(maxCount: 4).map {
      .restoreTodos([TodoRun($0, before: Gen<UUID>.testID(5), offset: 1)])
    },
    Gen<[Todo]>.todos(maxCount: 4).map {
      .restoreTodos([TodoRun($0, before: nil, offset: 0)])
    },
    Gen<(Todo, Todo)>.zip(.todo(id: .id(among: 6)), .todo(id: .id(among: 6))).map {
      var to = $1
      to.id = $0.id
      return .editTodos([TodoEdit(from: $0, to: to)])
    },
    Gen<UUID>.id(among: 8).array(maxCount: 6).map { .reorderTodos(ids: $0) },
    Gen<([UUID], [UUID])>.zip(
      Gen<UUID>.id(among: 8).array(maxCount: 8), Gen<UUID>.id(among: 8).array(maxCount: 8)
    ).map { .restoreOrder($0, replacing: $1) },
    Gen<([UUID], UUID?)>.zip(
      Gen<UUID>.id(among: 8).array(maxCount: 3), Gen<UUID>.id(among: 8).optional
    )
    .map { ids, before in
      .returnTodos([
        TodoRun(ids.map { Todo(id: $0, title: "x") }, before: before, offset: 0)
      ])
    }
  )

  static let listsAndUndoActions = Gen<([Todo], [TodosStore.Action])>.zip(
    .todos(maxCount: 8), undoActions.array(maxCount: 6))

  @Test("the undo actions agree with the model, and notify once per change")
  func undoActionsModel() {
    check(Self.listsAndUndoActions) { todos, actions in
      try requireAgreement(
        of: TodosStore(todos: todos), with: todos, after: actions, apply: TodosModel.apply,
        observe: \.todos)
    }
  }

  @Test("the undo actions are undone and redone like any other")
  func undoActionsUndo() {
    check(Self.listsAndUndoActions) { todos, actions in
      try requireUndoRedo(TodosStore(todos: todos), after: actions)
    }
  }

  @Test("the inverse recorded while reducing is the one inverse(of:in:) gives")
  func inverseWhileReducing() {
    check(TodosStoreTests.listsAndActions) { todos, actions in
      try requireInverseWhileReducing(TodosStore.self, from: .init(todos: todos), after: actions)
    }
    check(Self.listsAndUndoActions) { todos, actions in
      try requireInverseWhileReducing(TodosStore.self, from: .init(todos: todos), after: actions)
    }
  }

  @Test("with another writer between an action and its undo, every change of theirs stays")
  func otherWriterSurvives() throws {
    let lists = Gen<([Todo], TodosStore.Action, [TodosStore.Action])>.zip(
      .todos(maxCount: 8), .todoAction(maxCount: 8),
      Gen<TodosStore.Action>.todoAction(maxCount: 8).array(maxCount: 5))
    var caseNumber = 0
    check(lists, iterations: 60) { todos, action, interleaved in
      caseNumber += 1
      let url = folder.file("todos-\(caseNumber).json")
      let seed = try TodosStore(contentsOf: url)
      for todo in todos.reversed() { try seed.trySend(.addTodo(todo)) }
      let store = try TodosStore(contentsOf: url)
      let other = try TodosStore(contentsOf: url)
      guard
        let (acted, written, undone, _) = try undoAfterOtherWriter(
          store, other, action: action, interleaved: interleaved)
      else { return }
      try requireEqual(undone, try TodosStore(contentsOf: url).state, "the undo is on the file")
      try requireTheirChangesStay(acted: acted.todos, written: written.todos, undone: undone.todos)
    }
  }

  /// Every todo the other writer added, removed or changed a field of between `acted` and
  /// `written` is so after the undo.
  func requireTheirChangesStay(acted: [Todo], written: [Todo], undone: [Todo]) throws {
    let before = Dictionary(uniqueKeysWithValues: acted.map { ($0.id, $0) })
    let after = Dictionary(uniqueKeysWithValues: undone.map { ($0.id, $0) })
    for todo in written where before[todo.id] != todo {
      guard let now = after[todo.id] else {
        try require(false, "\(todo.title), which they wrote, is gone")
        continue
      }
      guard let old = before[todo.id] else {
        try requireEqual(now, todo, "a todo they added stays as they added it")
        continue
      }
      if old.title != todo.title { try requireEqual(now.title, todo.title, "their title stays") }
      if old.date != todo.date { try requireEqual(now.date, todo.date, "their date stays") }
      if old.isDone != todo.isDone { try requireEqual(now.isDone, todo.isDone, "done stays") }
      if old.priority != todo.priority {
        try requireEqual(now.priority, todo.priority, "their priority stays")
      }
    }
    let kept = Set(written.map(\.id))
    for todo in acted where !kept.contains(todo.id) {
      try require(after[todo.id] == nil, "a todo they removed stays removed")
    }
  }

  // MARK: Examples

  @Test("a removal's undo puts the todos back at their places, with their ids and fields")
  func removeUndo() {
    let store = TodosStore(todos: list)
    store.delete(atOffsets: [1, 3])
    #expect(store.todos.map(\.title) == ["a", "c"])
    #expect(store.undoHistory.undoSteps.last?.name == "Remove Todos")
    let outcome = store.undo()
    #expect(outcome == UndoOutcome(name: "Remove Todos", skipped: [], changed: true))
    #expect(store.todos == list)
  }

  @Test("a removal undone after another removed the next todo goes after the previous one")
  func removeUndoNeighbourGone() throws {
    let url = folder.file("todos.json")
    let store = try TodosStore(contentsOf: url)
    for todo in list.reversed() { store.add(todo) }
    store.remove(ids: [todo("b", 1).id])
    let other = try TodosStore(contentsOf: url)
    other.remove(ids: [todo("c", 2).id])
    other.add(todo("new", 9))
    let outcome = store.undo()
    #expect(outcome?.skipped == [])
    #expect(store.todos.map(\.title) == ["new", "a", "b", "d"])
    #expect(try TodosStore(contentsOf: url).todos.map(\.title) == ["new", "a", "b", "d"])
  }

  @Test("removeCompleted is one step")
  func removeCompletedUndo() {
    let store = TodosStore(todos: list)
    store.removeCompleted()
    #expect(store.undoHistory.undoSteps.count == 1)
    store.undo()
    #expect(store.todos == list)
    #expect(!store.canUndo && store.canRedo)
    store.redo()
    #expect(store.todos.map(\.title) == ["a", "c"])
  }

  @Test("a removal's runs share one copy of the removed todos, and mean what runs of their own do")
  func removalRuns() throws {
    let todos = (0..<10).map { todo("t\($0)", $0, done: $0 % 3 != 1) }
    var state = TodosStore.State(todos: todos)
    var inverse: TodosStore.Action?
    #expect(TodosStore.reduce(&state, .removeCompleted, inverse: &inverse))
    #expect(state.todos.map(\.title) == ["t1", "t4", "t7"])
    let runs = [
      TodoRun([todos[0]], before: todos[1].id, offset: 0),
      TodoRun([todos[2], todos[3]], before: todos[4].id, after: todos[1].id, offset: 1),
      TodoRun([todos[5], todos[6]], before: todos[7].id, after: todos[4].id, offset: 2),
      TodoRun([todos[8], todos[9]], before: nil, after: todos[7].id, offset: 3),
    ]
    #expect(inverse == .restoreTodos(runs))
    guard case .restoreTodos(let recorded) = inverse else { return }
    #expect(recorded.map(\.elements) == runs.map(\.elements))
    let coded = try JSONDecoder().decode(
      TodosStore.Action.self, from: try JSONEncoder().encode(inverse))
    #expect(coded == inverse)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      try encoder.encode(runs) == encoder.encode(recorded), "the same form as runs of their own")
    var restored = state
    #expect(TodosStore.reduce(&restored, .restoreTodos(recorded)))
    #expect(restored.todos == todos)
    // A run changed after it was recorded changes alone: the others keep the shared todos.
    var changed = recorded
    changed[1].elements = [todo("new", 20)]
    #expect(changed[1].elements.map(\.title) == ["new"])
    #expect(changed[2].elements == [todos[5], todos[6]])
    #expect(recorded[1].elements == runs[1].elements)
  }

  @Test("an addition's undo removes the todo, unless someone changed it meanwhile")
  func addUndo() throws {
    let url = folder.file("todos.json")
    let store = try TodosStore(contentsOf: url)
    store.add(todo("milk", 1))
    store.add(todo("eggs", 2))
    let other = try TodosStore(contentsOf: url)
    var edited = todo("eggs", 2)
    edited.priority = 3
    other.update(edited)
    let skipped = store.undo()
    #expect(
      skipped
        == UndoOutcome(name: "Add Todo", skipped: ["\"eggs\" (changed meanwhile)"], changed: false))
    #expect(store.todos == [edited, todo("milk", 1)])
    store.undo()
    #expect(store.todos == [edited])
  }

  @Test("an edit's undo restores the fields it changed that still hold its values")
  func editUndo() throws {
    let url = folder.file("todos.json")
    let store = try TodosStore(contentsOf: url)
    store.add(todo("milk", 1))
    var edit = todo("oat milk", 1)
    edit.priority = 2
    store.update(edit)
    let other = try TodosStore(contentsOf: url)
    var theirs = edit
    theirs.priority = 5
    theirs.isDone = true
    other.update(theirs)
    let outcome = store.undo()
    #expect(outcome?.skipped == ["\"oat milk\" (its priority changed meanwhile)"])
    var expected = todo("milk", 1)
    expected.priority = 5
    expected.isDone = true
    #expect(store.todos == [expected])
  }

  @Test("a step kept outside the store (another process's) is undone as the store's own")
  func undoOfAStepKeptElsewhere() throws {
    let url = folder.file("todos.json")
    let writer = try TodosStore(contentsOf: url)
    writer.add(todo("milk", 1))
    var edit = todo("oat milk", 1)
    edit.priority = 2
    writer.update(edit)
    let kept = try #require(writer.undoHistory.undoSteps.last)
    var theirs = edit
    theirs.isDone = true
    try TodosStore(contentsOf: url).update(theirs)
    // A later process: its history is empty; the step comes from elsewhere.
    let store = try TodosStore(contentsOf: url)
    let outcome = try store.tryUndo(kept)
    #expect(outcome == UndoOutcome(name: "Edit Todo", skipped: [], changed: true))
    var expected = todo("milk", 1)
    expected.isDone = true
    #expect(store.todos == [expected])
    #expect(!store.canUndo)
    #expect(store.redo()?.changed == true)
    #expect(store.todos == [theirs])
    #expect(try TodosStore(contentsOf: url).todos == [theirs])
  }

  @Test("a toggle's undo toggles back; a mark's unmarks only what it marked")
  func toggleAndMarkUndo() {
    let store = TodosStore(todos: list)
    store.toggle(id: list[0].id)
    #expect(store.todos[0].isDone)
    store.undo()
    #expect(store.todos == list)
    store.send(.markTodos(ids: Set(list.map(\.id)), done: true))
    #expect(store.undoHistory.undoSteps.last?.name == "Mark Done")
    store.undo()
    #expect(store.todos == list)
  }

  @Test("a move's undo moves the todos back; an ordering's puts back the order")
  func moveAndOrderUndo() {
    let store = TodosStore(todos: list)
    store.move(fromOffsets: [0, 2], toOffset: 4)
    #expect(store.todos.map(\.title) == ["b", "d", "a", "c"])
    store.undo()
    #expect(store.todos == list)
    store.orderByPriority()
    store.send(.updateTodo(todo("z", 3, done: true, priority: 9)))
    store.orderByPriority()
    #expect(store.todos.map(\.title) == ["z", "a", "b", "c"])
    store.undo()
    store.undo()
    #expect(store.todos.map(\.title) == ["a", "b", "c", "d"])
  }

  @Test("an ordering undone after another added a todo keeps theirs in its place")
  func orderUndoKeepsAdditions() throws {
    let url = folder.file("todos.json")
    let store = try TodosStore(contentsOf: url)
    for todo in list { store.add(todo) }
    store.orderByDate()
    let other = try TodosStore(contentsOf: url)
    other.add(todo("new", 9))
    store.undo()
    #expect(store.todos.map(\.title) == ["new", "d", "c", "b", "a"])
  }

  @Test("an ordering undone after another moved a todo keeps the move; the rest go back")
  func orderUndoKeepsMoves() throws {
    let url = folder.file("todos.json")
    let store = try TodosStore(contentsOf: url)
    for todo in list { store.add(todo) }
    #expect(store.todos.map(\.title) == ["d", "c", "b", "a"])
    store.orderByDate()
    #expect(store.todos.map(\.title) == ["a", "b", "c", "d"])
    let other = try TodosStore(contentsOf: url)
    other.move(ids: [list[2].id], before: list[0].id)  // "c" to the top
    #expect(other.todos.map(\.title) == ["c", "a", "b", "d"])
    let outcome = try store.tryUndo()
    #expect(outcome?.skipped == ["\"c\" (moved meanwhile)"])
    #expect(store.todos.map(\.title) == ["c", "d", "b", "a"])
    #expect(try TodosStore(contentsOf: url).todos == store.todos, "on the file")
    store.redo()
    #expect(store.todos.map(\.title) == ["c", "a", "b", "d"])
  }

  /// Todos whose dates and priorities are often equal, and an ordering.
  static let listsAndOrderings = Gen<([Todo], TodosStore.Action)>.zip(
    .todos(maxCount: 30), .oneOf(.constant(.orderByDate), .constant(.orderByPriority)))

  @Test("an ordering undone right after puts back exactly the order before it; redo reorders")
  func orderUndoneRightAfter() throws {
    var caseNumber = 0
    check(Self.listsAndOrderings, iterations: 60) { todos, ordering in
      caseNumber += 1
      let url = folder.file("todos-\(caseNumber).json")
      let seed = try TodosStore(contentsOf: url)
      for todo in todos.reversed() { try seed.trySend(.addTodo(todo)) }
      let store = try TodosStore(contentsOf: url)
      let before = store.todos
      try store.trySend(ordering)
      let ordered = store.todos
      let outcome = try store.tryUndo()
      try requireEqual(store.todos, before, "the order before \(ordering)")
      try requireEqual(outcome?.skipped ?? [], [], "nothing skipped")
      try requireEqual(try TodosStore(contentsOf: url).todos, before, "on the file")
      _ = try store.tryRedo()
      try requireEqual(store.todos, ordered, "redo orders again")
    }
  }

  @Test("a todo another store moved up after an ordering keeps its place through the undo")
  func orderUndoKeepsMoveUp() throws {
    let cases = Gen<([Todo], TodosStore.Action, Int, Int)>.zip(
      .todos(maxCount: 12), .oneOf(.constant(.orderByDate), .constant(.orderByPriority)),
      .integer(in: 0...11), .integer(in: 0...11))
    var caseNumber = 0
    check(cases, iterations: 60) { todos, ordering, from, to in
      caseNumber += 1
      let url = folder.file("moved-\(caseNumber).json")
      let seed = try TodosStore(contentsOf: url)
      for todo in todos.reversed() { try seed.trySend(.addTodo(todo)) }
      let store = try TodosStore(contentsOf: url)
      let before = store.todos
      try store.trySend(ordering)
      let ordered = store.todos
      guard ordered != before, from < ordered.count, to < from else { return }
      let other = try TodosStore(contentsOf: url)
      let moved = ordered[from]
      try other.trySend(.moveTodos(ids: [moved.id], before: ordered[to].id))
      _ = try store.tryUndo()
      var expected = before.filter { $0.id != moved.id }
      expected.insert(moved, at: to)
      try requireEqual(
        store.todos.map(\.title), expected.map(\.title),
        "\(moved.title) stays at \(to), the others as before the ordering")
      try requireEqual(store.todos, expected)
    }
  }

  @Test("an action that changes nothing records nothing and keeps the steps to redo")
  func noOpRecordsNothing() {
    let store = TodosStore(todos: list)
    store.remove(ids: [list[0].id])
    store.undo()
    store.remove(ids: [Gen<UUID>.testID(40)])
    store.orderByDate()
    #expect(!store.canUndo && store.canRedo)
  }

  @Test("the history keeps at most its limit, 100 by default")
  func limit() {
    let store = TodosStore()
    #expect(store.undoHistory.limit == 100)
    for index in 0..<105 { store.add(todo("t\(index)", index)) }
    #expect(store.undoHistory.undoSteps.count == 100)
    store.undoHistory.limit = 3
    #expect(store.undoHistory.undoSteps.count == 3)
    while store.undo() != nil {}
    #expect(store.todos.count == 102)
    store.undoHistory.limit = 0
    store.add(todo("more", 200))
    #expect(!store.canUndo)
  }

  /// A step of the bounded-history property: add a todo, undo, redo, or set the limit.
  enum HistoryStep: Equatable, Sendable {
    case add, undo, redo
    case limit(Int)
  }

  @Test("the history keeps the newest steps within its limit, whatever the order of steps")
  func boundedHistory() {
    let steps = Gen<HistoryStep>.oneOf(
      .constant(.add), .constant(.undo), .constant(.redo),
      Gen<Int>.integer(in: 0...4).map { .limit($0) }
    ).array(maxCount: 40)
    check(steps) { steps in
      let store = TodosStore()
      // The model: the titles on each side, oldest first, and the list (newest first).
      var undo: [String] = []
      var redo: [String] = []
      var titles: [String] = []
      var limit = 100
      for (index, step) in steps.enumerated() {
        switch step {
        case .add:
          store.add(todo("t\(index)", index))
          titles.insert("t\(index)", at: 0)
          if limit > 0 { undo = Array((undo + ["t\(index)"]).suffix(limit)) }
          redo = []
        case .undo:
          store.undo()
          if let title = undo.popLast() {
            titles.removeFirst()
            redo = Array((redo + [title]).suffix(limit))
          }
        case .redo:
          store.redo()
          if let title = redo.popLast() {
            titles.insert(title, at: 0)
            undo = Array((undo + [title]).suffix(limit))
          }
        case .limit(let newLimit):
          store.undoHistory.limit = newLimit
          limit = newLimit
          undo = Array(undo.suffix(limit))
          redo = Array(redo.suffix(limit))
        }
        let undone = store.undoHistory.undoSteps.map { step -> String in
          switch step.action {
          case .discardTodo(let todo): todo.title
          case .discardTodos(let todos): todos.map(\.title).joined()
          default: "?"
          }
        }
        let redone = store.undoHistory.redoSteps.map { step -> String in
          guard case .restoreTodos(let runs) = step.action else { return "?" }
          return runs.flatMap(\.elements).map(\.title).joined()
        }
        try #require(store.todos.map(\.title) == titles, "after step \(index)")
        try #require(undone == undo && redone == redo, "after step \(index)")
      }
    }
  }

  @Test("canUndo and canRedo are observed")
  func observed() async {
    let store = TodosStore(todos: list)
    let counter = SendableCounter()
    withObservationTracking {
      _ = store.canUndo
    } onChange: {
      counter.increment()
    }
    store.toggle(id: list[0].id)
    #expect(counter.value == 1)
    withObservationTracking {
      _ = store.canRedo
    } onChange: {
      counter.increment()
    }
    store.undo()
    #expect(counter.value == 2)
  }

  @Test("an undo that cannot be saved keeps its step and the error")
  func failedUndo() throws {
    let url = folder.file("todos.json")
    let store = try TodosStore(contentsOf: url)
    store.add(todo("milk", 1))
    try Data("not json".utf8).write(to: url)
    #expect(store.undo() == nil)
    #expect(store.lastError != nil)
    #expect(store.canUndo && !store.canRedo)
    #expect(throws: StoreFileError.self) { try store.tryUndo() }
  }
}
