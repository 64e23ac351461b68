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

  /// Puts `version` in place of the suite's file as Syncthing does: a new file renamed over it.
  func engineRenames(_ version: URL) throws {
    let incoming = folder.file(".syncthing.todos.json.incoming.tmp")
    try FileManager.default.copyItem(at: version, to: incoming)
    #expect(rename(incoming.path, file.path) == 0)
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
}
