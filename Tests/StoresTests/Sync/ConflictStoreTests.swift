import Foundation
import Observation
import StoreTesting
import Testing

@testable import Stores

/// ``SyncStatus/conflicts`` and ``Store/resolve(_:choosing:)``: a synced store lists the values
/// that lost to a concurrent change, and settles them on every device.
@Suite("Conflicts kept by a store on a synced file, and resolved")
@MainActor
struct ConflictStoreTests {
  let laptopFolder = TemporaryFolder()
  let phoneFolder = TemporaryFolder()
  let copy = "todos.sync-conflict-20261204-101500-PHONE01.json"

  /// The laptop's and the phone's stores on one list, after each renamed its first todo
  /// concurrently (the phone first), and the laptop removed the second and then the phone
  /// ticked it; the phone's version is beside the laptop's file as a conflict copy.
  func concurrentEdits() throws -> (laptop: TodosStore, phone: TodosStore, ids: [UUID]) {
    let laptop = try deviceStore("laptop", in: laptopFolder.url)
    let todos = [Todo(title: "Buy milk"), Todo(title: "Call Ann")]
    for todo in todos.reversed() { try laptop.trySend(.addTodo(todo)) }
    _ = phoneFolder.copy(laptopFolder.file("todos.json"))
    let phone = try deviceStore("phone", in: phoneFolder.url)
    var renamed = todos[0]
    renamed.title = "Buy oat milk"
    try phone.trySend(.updateTodo(renamed))
    // The laptop's rename a millisecond later at least: of one millisecond, the phone's stamp
    // would be the later (stamps of one time are ordered by device).
    Thread.sleep(forTimeInterval: 0.005)
    renamed.title = "Buy soy milk"
    try laptop.trySend(.updateTodo(renamed))
    try laptop.trySend(.removeTodos(ids: [todos[1].id]))
    // The phone's tick a millisecond later at least: in the millisecond of the laptop's
    // rename and removal, the removal's stamp (that millisecond's second) would be the later.
    Thread.sleep(forTimeInterval: 0.005)
    try phone.trySend(.toggleTodo(id: todos[1].id))
    _ = laptopFolder.write(
      try Data(contentsOf: phoneFolder.file("todos.json")), to: copy)
    return (laptop, phone, todos.map(\.id))
  }

  @Test("the value that lost and the removal an edit undid are listed, and a view is told")
  func listed() throws {
    let (laptop, _, ids) = try concurrentEdits()
    let told = Flag()
    withObservationTracking {
      _ = laptop.syncStatus.conflicts
    } onChange: {
      told.set()
    }
    try laptop.refresh()
    #expect(told.isSet)
    #expect(laptop.todos.map(\.title) == ["Buy soy milk", "Call Ann"])
    let conflicts = laptop.syncStatus.conflicts
    try #require(conflicts.count == 2)
    #expect(conflicts[0].item == ids[0] && conflicts[0].field == "title")
    #expect(conflicts[0].value == "\"Buy oat milk\"" && conflicts[0].device == "phone")
    #expect(conflicts[1].item == ids[1] && conflicts[1].field == nil && conflicts[1].value == nil)
    #expect(conflicts[1].device == "laptop")
    // A store opened on the file lists them at once.
    let reopened = try deviceStore("laptop", in: laptopFolder.url)
    #expect(reopened.syncStatus.conflicts == conflicts)
  }

  @Test("choosing the kept value sets it; the other device drops the conflict on reading it")
  func choosingTheConflict() throws {
    let (laptop, phone, ids) = try concurrentEdits()
    try laptop.refresh()
    let title = try #require(laptop.syncStatus.conflicts.first { $0.field == "title" })
    #expect(try laptop.resolve(title, choosing: .conflict))
    #expect(laptop.todos.first { $0.id == ids[0] }?.title == "Buy oat milk")
    #expect(!laptop.syncStatus.conflicts.contains(title))
    #expect(try !laptop.resolve(title, choosing: .conflict), "not open any more")
    // The removal the phone's tick undid: the laptop removes the todo after all.
    let removal = try #require(laptop.syncStatus.conflicts.first { $0.field == nil })
    #expect(try laptop.resolve(removal, choosing: .conflict))
    #expect(laptop.todos.map(\.id) == [ids[0]])
    #expect(laptop.syncStatus.conflicts.isEmpty)
    // The phone reads the laptop's file (its engine left it as a copy).
    _ = phoneFolder.write(
      try Data(contentsOf: laptopFolder.file("todos.json")), to: copy)
    try phone.refresh()
    #expect(phone.todos.map(\.title) == ["Buy oat milk"])
    #expect(phone.syncStatus.conflicts.isEmpty)
    #expect(
      try Data(contentsOf: phoneFolder.file("todos.json"))
        == Data(contentsOf: laptopFolder.file("todos.json")), "the devices agree")
  }

  @Test("keeping the current value leaves the state as it is and drops the conflict everywhere")
  func keepingTheCurrentValue() throws {
    let (laptop, phone, ids) = try concurrentEdits()
    try laptop.refresh()
    let state = laptop.state
    for conflict in laptop.syncStatus.conflicts {
      #expect(try laptop.resolve(conflict, choosing: .current))
    }
    #expect(laptop.state == state)
    #expect(laptop.syncStatus.conflicts.isEmpty)
    _ = phoneFolder.write(
      try Data(contentsOf: laptopFolder.file("todos.json")), to: copy)
    try phone.refresh()
    #expect(phone.todos.map(\.id) == ids)
    #expect(phone.syncStatus.conflicts.isEmpty)
  }

  @Test("a store in memory has no conflicts to resolve")
  func inMemory() throws {
    let store = TodosStore()
    let conflict = SyncConflict(
      item: UUID(), field: "title", value: "\"x\"", device: "phone", date: Date(), stamp: "1.0.a")
    #expect(try !store.resolve(conflict, choosing: .conflict))
    #expect(store.syncStatus.conflicts.isEmpty)
  }

  @Test("workouts keep and resolve conflicts too")
  func workouts() throws {
    func store(_ device: String, _ folder: TemporaryFolder) throws -> WorkoutsStore {
      WorkoutsStore(
        core: try WorkoutsStore.fileCore(
          contentsOf: folder.file("workouts.json"),
          clock: HybridClock(device: DeviceID(Substring(device))!) {
            Int64(Date().timeIntervalSince1970 * 1000)
          }))
    }
    let laptop = try store("laptop", laptopFolder)
    let date = Date(timeIntervalSince1970: 1_764_680_000)
    let run = try Workout(name: "Run", distance: 5, date: date)
    func renamed(_ name: String) throws -> Workout {
      try Workout(id: run.id, name: name, distance: 5, date: date)
    }
    try laptop.trySend(.addWorkout(run))
    _ = phoneFolder.copy(laptopFolder.file("workouts.json"))
    let phone = try store("phone", phoneFolder)
    try phone.trySend(.updateWorkout(renamed("Morning run")))
    Thread.sleep(forTimeInterval: 0.005)  // the laptop's rename is the later
    try laptop.trySend(.updateWorkout(renamed("Evening run")))
    _ = laptopFolder.write(
      try Data(contentsOf: phoneFolder.file("workouts.json")),
      to: "workouts.sync-conflict-20261204-101500-PHONE01.json")
    try laptop.refresh()
    let conflict = try #require(laptop.syncStatus.conflicts.first)
    #expect(conflict.field == "name" && conflict.value == "\"Morning run\"")
    #expect(try laptop.resolve(conflict, choosing: .conflict))
    #expect(laptop.state.workouts.map(\.name) == ["Morning run"])
    #expect(laptop.syncStatus.conflicts.isEmpty)
  }
}
