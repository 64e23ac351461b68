import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A store opened on a file reads its stamps only when it needs them — its first action, or a
/// reload of the file changed since — not when it opens: a file only read costs what its state
/// costs. What it writes then is what a store that read them on opening wrote; a stamp that is
/// not valid is reported by the action, which writes nothing, rather than by the opening.
@Suite("Stamps read when first needed")
@MainActor
struct StampsWhenNeededTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }
  /// Every clock of the suite reads this time: the stamps a store makes are known.
  let wall: Int64 = 1_764_600_000_000

  /// A store on the suite's file, stamping as device `name`, its clock at ``wall``.
  func store(_ name: String) throws -> TodosStore {
    TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: file, clock: HybridClock(device: DeviceID(Substring(name))!) { [wall] in wall }
      ))
  }

  /// A file written by the phone: three todos, one of them done since, then the first one's
  /// title changed by hand under its old stamp.
  func handEditedFile() throws -> [Todo] {
    let phone = try store("phone")
    for title in ["Buy milk", "Call Ann", "Pay rent"] {
      try phone.trySend(.addTodo(Todo(title: title)))
    }
    try phone.trySend(.toggleTodo(id: phone.todos[1].id))
    try editByHand(file) { object in
      var todos = object["todos"] as! [[String: Any]]
      todos[0]["title"] = "Pay the rent"
      object["todos"] = todos
    }
    return phone.todos
  }

  @Test("the first action writes the bytes a store that read the stamps on opening wrote")
  func firstWriteAsBefore() throws {
    let todos = try handEditedFile()
    // What a store that read the stamps on opening did: move its clock past them, stamp the
    // hand edit as its change, then apply the action and stamp it.
    let clock = HybridClock(device: DeviceID("laptop")!) { [wall] in wall }
    var (state, sync) = try StateFileCoding.decode(
      try Data(contentsOf: file), path: file.path, sync: ListSync<TodosStore.State>.self)
    clock.observe(try #require(sync.latest))
    #expect(sync.hasUnstamped, "the title edited by hand")
    sync.stampUnstamped(clock.stamp())
    sync.noteWrite(by: clock.device, at: clock.now)
    let before = state
    #expect(TodosStore.reduce(&state, .toggleTodo(id: todos[2].id)))
    sync = sync.stamped(before: before, after: state, stamp: clock.stamp())
    sync.noteWrite(by: clock.device, at: clock.now)
    let expected = try StateFileCoding.encode(state, sync: sync, path: file.path)

    let laptop = try store("laptop")
    #expect(laptop.todos.map(\.title) == ["Pay the rent", "Call Ann", "Buy milk"])
    try laptop.trySend(.toggleTodo(id: todos[2].id))
    #expect(contents(file) == expected)
  }

  /// A file of the suite's todos whose first entry of stamps is `entry`, and its todos.
  func fileWithFirstEntry(_ entry: String) throws -> (todos: [Todo], bytes: Data) {
    let todos = try handEditedFile()
    try editByHand(file) { object in
      var sync = object["sync"] as! [String: Any]
      var items = sync["items"] as! [String]
      items[0] = entry
      sync["items"] = items
      object["sync"] = sync
    }
    return (todos, try Data(contentsOf: file))
  }

  @Test(
    "a stamp that is not valid: the file opens and lists; each action fails naming the file and the place, and writes nothing",
    arguments: [
      ("not-a-stamp", "expected a position and a stamp, not \"not-a-stamp\""),
      ("V zzzzzzzzzzzzz.0.phone", "expected a position and a stamp"),
      ("V mip1k3c0.0.phone title=0.0.phone", "expected name=stamp after the first stamp"),
      ("V mip1k3c0.0.phone colour=mip1k3c1.0.phone", "\"colour\" is not a field of todos"),
    ])
  func malformedStamp(entry: String, detail: String) throws {
    let (todos, bytes) = try fileWithFirstEntry(entry)
    // Reading the stamps with the state, as a conflict copy is read, refuses the file as ever.
    let refusal = #expect(throws: StoreFileError.self) {
      try StateFileCoding.decode(bytes, path: file.path, sync: ListSync<TodosStore.State>.self)
    }
    let laptop = try store("laptop")
    #expect(laptop.todos.map(\.title) == ["Pay the rent", "Call Ann", "Buy milk"])
    for _ in 0..<2 {
      let error = #expect(throws: StoreFileError.self) {
        try laptop.trySend(.toggleTodo(id: todos[2].id))
      }
      #expect(error == refusal)
      #expect(error?.path == file.path)
      guard case .invalidContent(let keyPath, let found)? = error?.problem else {
        Issue.record("\(String(describing: error))")
        return
      }
      #expect(keyPath == "sync.items[0]")
      #expect(found.hasPrefix(detail), "\(found)")
      #expect(contents(file) == bytes, "left as it is")
      #expect(laptop.todos.map(\.isDone) == [false, true, false], "the action undone in memory")
    }
  }

  @Test("a stamp that is not valid, fixed in the file since: the next action reads the fix")
  func malformedStampFixed() throws {
    let (todos, _) = try fileWithFirstEntry("not-a-stamp")
    let laptop = try store("laptop")
    // Fixed by hand: the stamps gone, the todos as they were.
    try editByHand(file) { object in object["sync"] = nil }
    try laptop.trySend(.toggleTodo(id: todos[2].id))
    #expect(laptop.todos.map(\.isDone) == [false, true, true])
    #expect(try store("phone").todos == laptop.todos, "the file reads")
  }

  @Test("a stamp that is not valid, replaced since by another writer: a refresh reads the file")
  func malformedStampReplaced() throws {
    let (todos, _) = try fileWithFirstEntry("not-a-stamp")
    let laptop = try store("laptop")
    try editByHand(file) { object in
      var sync = object["sync"] as! [String: Any]
      sync["items"] = nil
      object["sync"] = sync
    }
    let phone = try store("phone")
    try phone.trySend(.removeTodos(ids: [todos[0].id]))
    try laptop.refresh()
    #expect(laptop.todos == phone.todos)
    try laptop.trySend(.toggleTodo(id: todos[2].id))
    #expect(laptop.todos.map(\.title) == ["Call Ann", "Buy milk"])
    #expect(try store("phone").todos == laptop.todos)
  }

  @Test("a setting's stamp that is not valid: the file opens; a change fails and writes nothing")
  func malformedSettingStamp() throws {
    let url = folder.file("settings.json")
    try SettingsStore(contentsOf: url).set(\.sleepGoal, to: 7)
    try editByHand(url) { object in
      var sync = object["sync"] as! [String: Any]
      var set = sync["set"] as! [String: Any]
      set["sleepGoal"] = "not-a-stamp"
      sync["set"] = set
      object["sync"] = sync
    }
    let bytes = try Data(contentsOf: url)
    let settings = try SettingsStore(contentsOf: url)
    #expect(settings.sleepGoal == 7)
    let error = #expect(throws: StoreFileError.self) { try settings.set(\.sleepGoal, to: 6) }
    #expect(
      error?.problem
        == .invalidContent(
          keyPath: "sync.set.sleepGoal", detail: "expected a stamp, not \"not-a-stamp\""))
    #expect(contents(url) == bytes)
    #expect(settings.sleepGoal == 7)
  }
}
