import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("Conflict copies that cannot be merged cost little")
@MainActor
struct HostileCopyTests {
  let folder = TemporaryFolder()
  let copy = "todos.sync-conflict-20261201-135016-E7BDN4G.json"

  /// The laptop's store on the folder's `todos.json`, waiting at most `lockTimeout` for a lock.
  func laptop(lockTimeout: Duration = .defaultLockTimeout) throws -> TodosStore {
    TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: folder.file("todos.json"), lockTimeout: lockTimeout,
        clock: HybridClock(device: DeviceID("laptop")!)))
  }

  @Test("a copy refused once is reported, not read, while it is unchanged; changed, it is read")
  func refusedCopyIsReadOncePerChange() throws {
    let store = try laptop(lockTimeout: .milliseconds(100))
    try store.trySend(.addTodo(Todo(title: "Buy milk")))
    _ = folder.write("{\"todos\" : [", to: copy)
    try store.refresh()
    #expect(store.core.mergeReport.notMerged.map(\.path) == [folder.file(copy).path])
    // Another process holds the lock: a refresh that read the copy again would have to merge
    // it under the lock, and time out. Unchanged, it is only reported.
    let lock = open(folder.file("todos.json.lock").path, O_RDWR)
    defer { close(lock) }
    #expect(flock(lock, LOCK_EX) == 0)
    try store.refresh()
    #expect(store.core.mergeReport.notMerged.map(\.path) == [folder.file(copy).path])
    #expect(store.core.mergeReport.merged.isEmpty)
    // Changed (a valid version now), it is read again, and merged.
    let phone = TemporaryFolder()
    let phoneFile = phone.copy(folder.file("todos.json"))
    try TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: phoneFile, clock: HybridClock(device: DeviceID("phone")!))
    ).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(rename(phoneFile.path, folder.file(copy).path) == 0)
    #expect(throws: StoreFileError.self, "merged under the lock") { try store.refresh() }
    #expect(flock(lock, LOCK_UN) == 0)
    try store.refresh()
    #expect(store.core.mergeReport.merged == [copy])
    #expect(Set(store.todos.map(\.title)) == ["Buy milk", "Call Ann"])
  }

  @Test("a copy far larger than its file is refused without being read")
  func hugeCopy() throws {
    let store = try laptop()
    try store.trySend(.addTodo(Todo(title: "Buy milk")))
    let limit: Int64 = 64 << 20
    // Sparse: no disk is used, and reading it would cost its whole size in memory.
    _ = folder.write("", to: copy)
    #expect(truncate(folder.file(copy).path, off_t(limit + 1)) == 0)
    try store.trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(store.todos.count == 2, "the action is saved all the same")
    let error = try #require(store.lastError as? StoreFileError)
    #expect(error.path == folder.file(copy).path)
    #expect(error.problem == .tooLarge(size: limit + 1, limit: limit))
    #expect(error.description.contains("67108865 bytes, more than the 67108864 bytes read"))
    #expect(store.core.mergeReport.notMerged == [error])
    var info = stat()
    #expect(stat(folder.file(copy).path, &info) == 0 && Int64(info.st_size) == limit + 1)
  }

  @Test("a copy is read only up to its limit, even when it grows while it is read")
  func readUpToTheLimit() throws {
    let path = folder.write(String(repeating: "x", count: 100), to: "grown").path
    let file = try #require(try OpenFile(path, in: AT_FDCWD, path: path))
    // Grown past the limit after it was opened.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(repeating: 0x78, count: 900))
    try handle.close()
    #expect(throws: StoreFileError(path: path, problem: .tooLarge(size: 501, limit: 500))) {
      try file.contents(path: path, limit: 500)
    }
    #expect(try file.contents(path: path, limit: 1_000).count == 1_000)
    #expect(try file.contents(path: path).count == 1_000)
  }
}
