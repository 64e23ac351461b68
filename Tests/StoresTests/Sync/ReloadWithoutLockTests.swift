import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A reload reads the file with no lock, and takes the lock only when it must write: to merge
/// back what the file lost of this store's, a copy, or the device's outbox holding another
/// version. So a store that only reads never waits for a writer.
@Suite("A reload waits for no writer unless it must merge")
@MainActor
struct ReloadWithoutLockTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  /// A store of `device` on the suite's file that waits at most 100 ms for the lock.
  func store(_ device: String = "laptop", on url: URL? = nil) throws -> TodosStore {
    TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: url ?? file, lockTimeout: .milliseconds(100),
        clock: HybridClock(device: DeviceID(Substring(device))!)))
  }

  @Test("another store's write, and another device's version made from it, are read while locked")
  func readWhileLocked() throws {
    let writer = try store()
    try writer.trySend(.addTodo(Todo(title: "Buy milk")))
    let reader = try store()
    try writer.trySend(.addTodo(Todo(title: "Call Ann")))
    // The writer's write is in the device's outbox too: new to the reader, and the file's
    // very bytes, so nothing to weigh under the lock.
    try whileLocked {
      try reader.refresh()
      #expect(reader.todos.map(\.title) == ["Call Ann", "Buy milk"])
    }
    // The phone's version, made from the file as it is: it holds all the reader knew.
    let phone = TemporaryFolder()
    let phoneFile = phone.copy(file)
    try store("phone", on: phoneFile).trySend(.addTodo(Todo(title: "Water plants")))
    #expect(rename(phoneFile.path, file.path) == 0)
    try whileLocked {
      try reader.refresh()
      #expect(reader.todos.map(\.title) == ["Water plants", "Call Ann", "Buy milk"])
    }
    #expect(reader.lastError == nil)
  }

  @Test("a version that lost the store's write is merged with it under the lock, and written")
  func lostWriteTakesTheLock() throws {
    let laptop = try store()
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    // The phone's version, made before the laptop's next write, renamed over the file after it.
    let phone = TemporaryFolder()
    let phoneFile = phone.copy(file)
    try store("phone", on: phoneFile).trySend(.addTodo(Todo(title: "Call Ann")))
    try laptop.trySend(.addTodo(Todo(title: "Water plants")))
    #expect(rename(phoneFile.path, file.path) == 0)
    try whileLocked {
      let error = #expect(throws: StoreFileError.self) { try laptop.refresh() }
      #expect(error?.isLockTimeout == true, "\(String(describing: error))")
      #expect(laptop.todos.map(\.title) == ["Water plants", "Buy milk"], "unchanged meanwhile")
    }
    try laptop.refresh()
    #expect(Set(laptop.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
    #expect(Set(try store().todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
  }
}
