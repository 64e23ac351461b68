import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("Locking the data file: every loop over an identity ends at the deadline")
@MainActor
struct FileLockTests {
  let folder = TemporaryFolder()

  @Test("a file whose identity never agrees with its path's ends at the lock's deadline")
  func identityThatNeverAgrees() throws {
    let url = folder.file("todos.json")
    try TodosStore(contentsOf: url).trySend(.addTodo(Todo(title: "x")))
    let dataFolder = try DataFolder(opening: folder.url.path, for: url.path)
    var checks = 0
    // The deadline is reached: one check of the path, then the error.
    let deadline = ContinuousClock.now
    let error = #expect(throws: StoreFileError.self) {
      _ = try FileSystem.openLocked(
        "todos.json", in: dataFolder, until: deadline, timeout: .seconds(3), path: url.path
      ) { name, folder, path throws(StoreFileError) in
        checks += 1
        // A tool that fakes `stat`: the path never names the file just opened. (Truthful
        // after 1,000 checks, so that a loop that ignores the deadline fails this test
        // rather than hanging it.)
        guard var identity = try FileSystem.identity(of: name, in: folder, path: path),
          checks <= 1_000
        else { return try FileSystem.identity(of: name, in: folder, path: path) }
        identity.key.inode &+= 1
        return identity
      }
    }
    #expect(error?.problem == .lockTimedOut(lock: url.path, holder: nil, waited: .seconds(3)))
    #expect(checks == 1)
    #expect(error?.description.contains("for more than 3 s") == true)
  }

  @Test("a file replaced between its opening and its lock is opened again, within the deadline")
  func replacedOnce() throws {
    let url = folder.file("todos.json")
    try TodosStore(contentsOf: url).trySend(.addTodo(Todo(title: "x")))
    let dataFolder = try DataFolder(opening: folder.url.path, for: url.path)
    var checks = 0
    let file = try FileSystem.openLocked(
      "todos.json", in: dataFolder, until: .now + .seconds(60), timeout: .seconds(60),
      path: url.path
    ) { name, folder, path throws(StoreFileError) in
      checks += 1
      guard var identity = try FileSystem.identity(of: name, in: folder, path: path), checks == 1
      else { return try FileSystem.identity(of: name, in: folder, path: path) }
      identity.key.inode &+= 1
      return identity
    }
    #expect(file != nil)
    #expect(checks == 2)
  }

  @Test("a lock file that is never the one at its path after locking ends at the deadline")
  func lockFileThatNeverAgrees() throws {
    let url = folder.file("todos.json")
    let dataFolder = try DataFolder(opening: folder.url.path, for: url.path)
    var checks = 0
    var ran = false
    let error = #expect(throws: StoreFileError.self) {
      try FileLock.withLock(
        of: "todos.json", in: dataFolder, timeout: .zero, path: url.path,
        isAtItsPath: { descriptor, name, folder in
          checks += 1
          // A faked `stat`: never the file at the path (truthful after 1,000 checks, so that
          // a loop that ignores the deadline fails this test rather than hanging it).
          return checks > 1_000 && FileLock.isStillAtItsPath(descriptor, name, folder)
        },
        { _ in ran = true })
    }
    #expect(
      error?.problem
        == .lockTimedOut(lock: folder.file("todos.json.lock").path, holder: nil, waited: .zero))
    #expect(checks == 1)
    #expect(!ran)
  }
}
