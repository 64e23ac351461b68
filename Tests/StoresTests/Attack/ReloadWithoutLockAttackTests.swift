import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Attacks on the reload that reads the file without the lock (commit 760cb07): it takes the
/// lock only to merge, and notes the device's outbox as seen when it holds the file's bytes.
@Suite("Attack on the reload without the lock")
@MainActor
struct ReloadWithoutLockAttackTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  typealias TodosBacking = JSONFileBacking<TodosStore.State, ListSync<TodosStore.State>>

  /// A store of the laptop on the suite's file, waiting at most 100 ms for the lock, and its
  /// backing.
  func laptop() throws -> (TodosStore, TodosBacking) {
    let clock = HybridClock(device: DeviceID("laptop")!) {
      Int64(Date().timeIntervalSince1970 * 1000)
    }
    let (backing, state) = try TodosBacking.open(
      file, lockTimeout: .milliseconds(100), clock: clock, versions: nil,
      coordination: Platform.fileCoordination(for:timeout:))
    return (TodosStore(core: StoreCore(state: state, backing: backing)), backing)
  }

  /// `device`'s version of the suite's file as it is now, with `title` added by `device`,
  /// kept as `name` in `device`'s folder.
  func version(by device: String = "phone", adding title: String, as name: String) throws -> URL {
    let place = try subfolder(device)
    let work = place.appendingPathComponent("todos.json")
    try? FileManager.default.removeItem(at: work)
    try FileManager.default.copyItem(at: file, to: work)
    try deviceStore(device, in: place).trySend(.addTodo(Todo(title: title)))
    let kept = place.appendingPathComponent(name)
    try FileManager.default.moveItem(at: work, to: kept)
    return kept
  }

  // MARK: - A writer renaming its version over the file as a reload reads it

  /// Something to do once, from any thread.
  final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    /// Whether this is the first call.
    func first() -> Bool {
      lock.withLock {
        defer { done = true }
        return !done
      }
    }
  }

  /// Failed on 760cb07. The app's refresh found the file unchanged (a `stat`), then read it to
  /// compare it with the outbox, new to it: a `diary` of the laptop wrote in between — the
  /// file, and the outbox its bytes. The refresh noted that outbox as seen though the app never
  /// read the write, kept its state, and the engine then renamed the phone's version, made
  /// before the write, over the file (`diary` writing no more, as when it exited): the next
  /// refresh took the file as it is, and the app's next write replaced the outbox — `diary`'s
  /// write was lost, though `trySend` returned.
  @Test("a write landing as a refresh reads the file is never taken as seen unread")
  func writeLandingAsTheFileIsRead() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    try engineRenames(try version(adding: "Call Ann", as: "first.json"))
    // The app opens the phone's version: the outbox, holding the laptop's write before it, is
    // new to it.
    let (app, backing) = try laptop()
    try #require(backing.isOutboxNew)
    let later = try version(adding: "Pay rent", as: "later.json")
    let diary = try deviceStore("laptop", in: folder.url)
    let target = try #require(backing.versionTarget)
    let once = Once()
    let write: @Sendable () -> Void = {
      MainActor.assumeIsolated {
        do {
          try diary.trySend(.addTodo(Todo(title: "Water plants")))
        } catch {
          Issue.record(error, "the diary's write")
        }
      }
    }
    let landing: @Sendable (String) -> Void = { name in
      if name == target, once.first() { write() }
    }
    try FileSystem.$beforeRead.withValue(landing) { try app.refresh() }
    // Where the refresh read nothing without the lock, the write lands just after it.
    if once.first() { write() }
    // The phone's later version, made before that write, renamed over the file after it.
    try engineRenames(later)
    try app.refresh()
    #expect(Set(app.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants", "Pay rent"])
    try app.trySend(.addTodo(Todo(title: "Pay bills")))
    #expect(
      Set(try deviceStore("laptop", in: folder.url).todos.map(\.title))
        == ["Buy milk", "Call Ann", "Water plants", "Pay rent", "Pay bills"])
  }

  // MARK: - What the file lost of the store's, found without the lock

  /// The laptop removed "Buy milk"; the phone's version, made before, still holds it and all
  /// the laptop still has: a file that holds every live item of the store's version lacks its
  /// tombstone, and must not be read as it is.
  @Test("a removal an older version took from the file takes the lock, and stays removed")
  func lostRemovalTakesTheLock() throws {
    let (laptop, _) = try laptop()
    for title in ["Buy milk", "Call Ann"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    let older = try version(adding: "Pay rent", as: "older.json")
    let removed = try #require(laptop.todos.first { $0.title == "Buy milk" }).id
    try laptop.trySend(.removeTodos(ids: [removed]))
    try engineRenames(older)
    try whileLocked {
      let error = #expect(throws: StoreFileError.self) { try laptop.refresh() }
      #expect(error?.isLockTimeout == true, "\(String(describing: error))")
      #expect(Set(laptop.todos.map(\.title)) == ["Call Ann"], "unchanged meanwhile")
    }
    try laptop.refresh()
    #expect(Set(laptop.todos.map(\.title)) == ["Call Ann", "Pay rent"])
    #expect(
      Set(try deviceStore("laptop", in: folder.url).todos.map(\.title)) == ["Call Ann", "Pay rent"])
  }

  /// The app read the phone's version without the lock (the outbox, the laptop's write before
  /// it, seen). The tablet's version, made from that write, renamed over the file, is copied
  /// into the outbox by a `diary` that weighed the outbox against it and had nothing to write:
  /// the outbox, new to the app, holds the file's very bytes — yet the file lacks the phone's
  /// todo the app read, which the app must merge back.
  @Test("an outbox holding the file's bytes does not excuse what the file lacks of the store's")
  func outboxHoldingTheFileYetLost() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let tablet = try version(by: "tablet", adding: "Water plants", as: "tablet.json")
    let (app, backing) = try laptop()
    try engineRenames(try version(adding: "Call Ann", as: "phone.json"))
    try app.refresh()
    #expect(Set(app.todos.map(\.title)) == ["Buy milk", "Call Ann"])
    try engineRenames(tablet)
    try deviceStore("laptop", in: folder.url).refresh()
    try #require(backing.isOutboxNew)
    try #require(backing.outbox?.read()?.data == (try Data(contentsOf: file)))
    try whileLocked {
      let error = #expect(throws: StoreFileError.self) { try app.refresh() }
      #expect(error?.isLockTimeout == true, "\(String(describing: error))")
    }
    try app.refresh()
    #expect(Set(app.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
    #expect(
      Set(try deviceStore("laptop", in: folder.url).todos.map(\.title))
        == ["Buy milk", "Call Ann", "Water plants"])
  }
}
