import Foundation
import Observation
import StoreTesting
import Testing

@testable import Stores

/// A store saving in the background (``SaveMode/inBackground``): actions apply in memory at
/// once and reach the file together, off the main actor; other writers' changes, failed
/// writes and crashes leave the state in memory equal to the file plus what is not saved yet.
@Suite("Saving in the background")
@MainActor
struct BackgroundSavingTests {
  let folder = TemporaryFolder()

  /// A store on `name` in the folder, saving in the background.
  func backgroundStore(_ name: String = "todos.json") throws -> TodosStore {
    try folder.backgroundTodosStore(name)
  }

  /// The todos in the file `name`, read by a new store.
  func fileTodos(_ name: String = "todos.json") throws -> [Todo] {
    try folder.todos(in: name)
  }

  @Test("an action is in memory when send returns, and in the file once saved")
  func savedLater() async throws {
    let store = try backgroundStore()
    let todo = Todo(title: "Buy milk")
    store.send(.addTodo(todo))
    #expect(store.todos == [todo])
    #expect(store.hasUnsavedChanges)
    #expect(try fileTodos().isEmpty)
    await store.saved
    #expect(!store.hasUnsavedChanges)
    #expect(try fileTodos() == [todo])
    #expect(store.lastError == nil)
  }

  @Test("Observation hears when there are unsaved changes, and when they are saved")
  func unsavedObserved() async throws {
    let store = try backgroundStore()
    let told = Counter()
    func track() {
      withObservationTracking {
        _ = store.hasUnsavedChanges
      } onChange: {
        told.count += 1
      }
    }
    track()
    store.send(.addTodo(Todo(title: "one")))
    #expect(told.count == 1)
    track()
    store.send(.addTodo(Todo(title: "two")))
    #expect(told.count == 1)
    await store.saved
    #expect(told.count == 2)
    #expect(!store.hasUnsavedChanges)
  }

  @Test("the actions of one turn reach the file in one write, equal to saving each at once")
  func groupCommit() async throws {
    let todos = (0..<100).map { Todo(title: "t\($0)") }
    let synchronous = try TodosStore(contentsOf: folder.file("reference.json"))
    try synchronous.trySend(.addTodo(todos[0]))
    let store = try backgroundStore()
    store.send(.addTodo(todos[0]))
    await store.saved
    let writes = store.core.background?.writes
    for todo in todos.dropFirst() {
      store.send(.addTodo(todo))
      synchronous.send(.addTodo(todo))
    }
    for todo in todos where todo.title.hasSuffix("7") {
      store.send(.toggleTodo(id: todo.id))
      synchronous.send(.toggleTodo(id: todo.id))
    }
    await store.saved
    #expect(store.core.background?.writes == writes.map { $0 + 1 })
    #expect(try fileTodos() == synchronous.todos)
    #expect(store.todos == synchronous.todos)
  }

  @Test("another process's write meanwhile: both kept, memory catches up with a reload")
  func otherWriter() async throws {
    let store = try backgroundStore()
    var reloads = 0
    let token = store.onChange { change, _ in if case .reload = change { reloads += 1 } }
    let mine = Todo(title: "mine")
    let theirs = Todo(title: "theirs")
    store.send(.addTodo(mine))
    try TodosStore(contentsOf: folder.file("todos.json")).trySend(.addTodo(theirs))
    await store.saved
    #expect(try fileTodos() == [mine, theirs])
    #expect(store.todos == [mine, theirs])
    #expect(reloads == 1)
    token.cancel()
  }

  @Test("actions sent while the writer writes apply again on the file it found changed")
  func sentWhileWriting() throws {
    let store = try backgroundStore()
    let first = Todo(title: "first")
    let theirs = Todo(title: "theirs")
    let second = Todo(title: "second")
    store.send(.addTodo(first))
    try TodosStore(contentsOf: folder.file("todos.json")).trySend(.addTodo(theirs))
    store.core.startWrite()
    store.core.background?.writer.waitUntilIdle()
    store.send(.addTodo(second))
    #expect(store.todos == [second, first])
    try store.save()
    #expect(store.todos == [second, first, theirs])
    #expect(try fileTodos() == [second, first, theirs])
  }

  @Test("a write that fails is reported, and the state in memory returns to the file's")
  func failedWrite() async throws {
    let (store, data) = try folder.backgroundTodosStoreInFolderOfItsOwn()
    makeReadOnly(data)
    defer { TemporaryFolder.makeWritable(data) }
    store.send(.addTodo(Todo(title: "lost")))
    #expect(store.todos.count == 1)
    await store.saved
    #expect(store.lastError is StoreFileError)
    #expect(store.todos.isEmpty)
    #expect(!store.hasUnsavedChanges)
    store.send(.addTodo(Todo(title: "also lost")))
    #expect(throws: StoreFileError.self) { try store.save() }
  }

  @Test("trySend saves what was queued before it, then itself, before returning")
  func trySendIsDurable() throws {
    let store = try backgroundStore()
    let first = Todo(title: "first")
    let second = Todo(title: "second")
    store.send(.addTodo(first))
    try store.trySend(.addTodo(second))
    #expect(!store.hasUnsavedChanges)
    #expect(try fileTodos() == [second, first])
  }

  @Test("a crash loses only what was not saved")
  func crash() throws {
    let saved = Todo(title: "saved")
    do {
      let store = try backgroundStore()
      store.send(.addTodo(saved))
      try store.save()
      store.send(.addTodo(Todo(title: "not saved")))
    }
    #expect(try fileTodos() == [saved])
  }

  @Test("undo in the background; setting the mode back saves first")
  func undoAndModeBack() throws {
    let store = try backgroundStore()
    let todo = Todo(title: "undone")
    store.send(.addTodo(todo))
    #expect(store.undo()?.name == "Add Todo")
    #expect(store.todos.isEmpty)
    #expect(store.redo() != nil)
    store.saveMode = .beforeReturning
    #expect(!store.hasUnsavedChanges)
    #expect(try fileTodos() == [todo])
  }

  @Test("a reload asked for in the background reads the file off the main actor")
  func refresh() async throws {
    let store = try backgroundStore()
    let theirs = Todo(title: "theirs")
    try TodosStore(contentsOf: folder.file("todos.json")).trySend(.addTodo(theirs))
    try store.refresh()
    #expect(store.todos.isEmpty)
    try store.save()
    #expect(store.todos == [theirs])
  }

  /// How many times Observation told of a change.
  final class Counter: @unchecked Sendable {
    var count = 0
  }

  /// One step of a history of a store saving in the background beside another process.
  enum Step: Sendable, CustomStringConvertible {
    /// The store adds a todo, ticks or retitles the todo at `offset % count`, or removes it.
    case add
    case toggle(Int)
    case retitle(Int)
    case remove(Int)
    /// Another process adds a todo, ticks or removes the todo at `offset % count`.
    case otherAdd
    case otherToggle(Int)
    case otherRemove(Int)
    /// The store's writer writes what is queued; the store hears of it at the next save,
    /// after the actions sent meanwhile.
    case writerRuns
    /// The store saves (waits for its writer).
    case save
    /// The store asks for a reload.
    case reload
    /// The process crashes before the writer starts, or once it has written but before the
    /// store heard of it; a new process opens the store again.
    case crash(afterWriting: Bool)

    var description: String {
      switch self {
      case .add: "add"
      case .toggle(let offset): "toggle(\(offset))"
      case .retitle(let offset): "retitle(\(offset))"
      case .remove(let offset): "remove(\(offset))"
      case .otherAdd: "otherAdd"
      case .otherToggle(let offset): "otherToggle(\(offset))"
      case .otherRemove(let offset): "otherRemove(\(offset))"
      case .writerRuns: "writerRuns"
      case .save: "save"
      case .reload: "reload"
      case .crash(let afterWriting): "crash(afterWriting: \(afterWriting))"
      }
    }
  }

  static let steps = Gen<Step>.oneOf(
    .constant(.add), Gen<Int>.integer(in: 0...9).map(Step.toggle),
    Gen<Int>.integer(in: 0...9).map(Step.retitle), Gen<Int>.integer(in: 0...9).map(Step.remove),
    .constant(.otherAdd), Gen<Int>.integer(in: 0...9).map(Step.otherToggle),
    Gen<Int>.integer(in: 0...9).map(Step.otherRemove), .constant(.writerRuns), .constant(.save),
    .constant(.reload),
    Gen<Bool>.bool.map { Step.crash(afterWriting: $0) }
  ).array(maxCount: 25)

  /// The reference: the same history with every store saving before returning, the store's
  /// actions sent when its writer would write them. The file then holds the same todos; the
  /// store's memory holds the file's todos once saved; a crash loses only what was not saved.
  @Test("random histories against saving before returning: the same file, nothing saved lost")
  func histories() throws {
    var round = 0
    check(Self.steps, iterations: 200) { steps in
      round += 1
      let name = "todos\(round).json"
      let referenceName = "reference\(round).json"
      var store = try backgroundStore(name)
      let other = try TodosStore(contentsOf: folder.file(name))
      let reference = try TodosStore(contentsOf: folder.file(referenceName))
      let referenceOther = try TodosStore(contentsOf: folder.file(referenceName))
      // The store's actions not saved yet, to send to the reference when they are.
      var unsaved: [TodosStore.Action] = []
      @MainActor func send(_ action: TodosStore.Action) {
        store.send(action)
        unsaved.append(action)
      }
      @MainActor func mine(_ offset: Int) -> Todo? {
        store.todos.isEmpty ? nil : store.todos[offset % store.todos.count]
      }
      @MainActor func theirs(_ offset: Int) -> Todo? {
        let todos = other.todos
        return todos.isEmpty ? nil : todos[offset % todos.count]
      }
      // The writer writes what is queued, unless it is writing already.
      @MainActor func writerRuns() throws {
        guard let background = store.core.background, background.running == nil else { return }
        store.core.startWrite()
        background.writer.waitUntilIdle()
        for action in unsaved { try reference.trySend(action) }
        unsaved = []
      }
      @MainActor func saved() throws {
        let writes = !unsaved.isEmpty
        try store.save()
        // A write caught up with the file: memory holds it, with the actions applied again.
        try require(!writes || store.todos == fileTodos(name), "memory differs from the file")
        for action in unsaved { try reference.trySend(action) }
        unsaved = []
        try require(try fileTodos(name) == fileTodos(referenceName), "the files differ")
        try store.refresh()
        try store.save()
        try require(store.todos == fileTodos(name), "memory differs from the file once read")
      }
      for (number, step) in steps.enumerated() {
        switch step {
        case .add:
          send(.addTodo(Todo(title: "mine \(number)")))
        case .toggle(let offset):
          if let todo = mine(offset) { send(.toggleTodo(id: todo.id)) }
        case .retitle(let offset):
          if var todo = mine(offset) {
            todo.title = "retitled \(number)"
            send(.updateTodo(todo))
          }
        case .remove(let offset):
          if let todo = mine(offset) { send(.removeTodos(ids: [todo.id])) }
        case .otherAdd:
          let todo = Todo(title: "theirs \(number)")
          try other.trySend(.addTodo(todo))
          try referenceOther.trySend(.addTodo(todo))
        case .otherToggle(let offset):
          try other.refresh()
          if let todo = theirs(offset) {
            try other.trySend(.toggleTodo(id: todo.id))
            try referenceOther.trySend(.toggleTodo(id: todo.id))
          }
        case .otherRemove(let offset):
          try other.refresh()
          if let todo = theirs(offset) {
            try other.trySend(.removeTodos(ids: [todo.id]))
            try referenceOther.trySend(.removeTodos(ids: [todo.id]))
          }
        case .writerRuns:
          try writerRuns()
        case .save:
          try saved()
        case .reload:
          try store.refresh()
        case .crash(let afterWriting):
          // The writer wrote (or not) what was queued; the process died before the store heard
          // of it.
          if afterWriting { try writerRuns() }
          unsaved = []
          store = try backgroundStore(name)
        }
        try require(try fileTodos(name) == fileTodos(referenceName), "the files differ")
      }
      try saved()
      // A round's files go with it: the folder, which every transaction lists for conflict
      // copies, stays small however many rounds run (`STORES_PROPERTY_ITERATIONS=10000`).
      for file in [name, referenceName] {
        for path in [file, file + ".lock"] {
          try? FileManager.default.removeItem(at: folder.file(path))
        }
      }
    }
  }
}
