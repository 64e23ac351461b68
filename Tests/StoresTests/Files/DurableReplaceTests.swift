import Foundation
import StoreTesting
import Synchronization
import Testing

@testable import Stores

/// The order of a durable replace's two flushes, recorded through its seam: what each flush
/// finds on disk is what a crash at that moment would leave to the drive.
@Suite("Flushes of a durable replace")
struct DurableReplaceTests {
  let folder = TemporaryFolder()

  /// Replaces `notes.json` (holding "old") with "new" through `flushes`.
  func replace(_ flushes: FileSystem.Flushes) throws {
    let url = folder.write("old", to: "notes.json")
    let data = try DataFolder(opening: folder.url.path, for: url.path)
    _ = try FileSystem.replace(
      "notes.json", in: data, creating: false, path: url.path, flushes: flushes
    ) { output in
      Array("new".utf8).withUnsafeBytes { output.append($0) }
    }
  }

  @Test("the new file is flushed whole before the rename, the folder after it, once each")
  func order() throws {
    let url = folder.file("notes.json")
    let steps = Mutex<[String]>([])
    try replace(
      FileSystem.Flushes(
        beforeRename: { file in
          var info = stat()
          fstat(file, &info)
          // The new file holds all its bytes; its name is still the old file's.
          let step = "before: \(info.st_size) bytes, name \(text(url) ?? "none")"
          steps.withLock { $0.append(step) }
          return 0
        },
        afterRename: { folder, file in
          var opened = stat()
          var named = stat()
          fstat(file, &opened)
          fstatat(folder, "notes.json", &named, 0)
          // The folder's entry is now the new file.
          let step =
            "after: name \(text(url) ?? "none"), same file \(FileKey(opened) == FileKey(named))"
          steps.withLock { $0.append(step) }
        }))
    #expect(
      steps.withLock { $0 } == ["before: 3 bytes, name old", "after: name new, same file true"])
  }

  @Test("a failed flush before the rename replaces nothing and leaves no file behind")
  func failedFlush() {
    let flushedAfter = Atomic(false)
    #expect(throws: StoreFileError.self) {
      try replace(
        FileSystem.Flushes(
          beforeRename: { _ in EIO },
          afterRename: { _, _ in flushedAfter.store(true, ordering: .relaxed) })
      )
    }
    #expect(text(folder.file("notes.json")) == "old")
    #expect(folder.names == ["notes.json"])
    let flushed = flushedAfter.load(ordering: .relaxed)
    #expect(!flushed)
  }
}

/// Which writes flush: every store's, but those in a ``TemporaryFolder`` made unflushed (the
/// default in tests). The flushes of a durable write are watched through their task-local seam,
/// which passes each on to the platform's.
@MainActor
@Suite("Durability of the writes of file stores")
struct DurabilityTests {
  /// The flushes made by the writes `body` makes in this task, each still done.
  func flushes(during body: () throws -> Void) rethrows -> [String] {
    let made = Mutex<[String]>([])
    let watched = FileSystem.Flushes(
      beforeRename: { file in
        made.withLock { $0.append("before rename") }
        return Platform.orderBeforeRename(file)
      },
      afterRename: { folder, file in
        made.withLock { $0.append("after rename") }
        Platform.makeRenameDurable(folder: folder, file: file)
      })
    try FileSystem.Flushes.$durable.withValue(watched, operation: body)
    return made.withLock { $0 }
  }

  @Test("a store opened on a folder of its own flushes every write, file and folder")
  func normalFolderFlushes() throws {
    let plain = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-durability-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: plain) }
    // Even while an unflushed folder is registered in the process.
    let unflushed = TemporaryFolder(durability: .unflushed)
    let made = try flushes {
      let store = try TodosStore(contentsOf: plain.appendingPathComponent("todos.json"))
      store.add(Todo(title: "Buy milk"))
      store.add(Todo(title: "Call mum"))
    }
    #expect(made == ["before rename", "after rename", "before rename", "after rename"])
    _ = unflushed
  }

  @Test("a store in an unflushed temporary folder, or a folder below it, writes without flushes")
  func temporaryFolderSkipsFlushes() throws {
    let folder = TemporaryFolder(durability: .unflushed)
    let made = try flushes {
      let store = try TodosStore(contentsOf: folder.file("todos.json"))
      store.add(Todo(title: "Buy milk"))
      let below = try TodosStore(contentsOf: folder.file("deeper/todos.json"))
      below.add(Todo(title: "Call mum"))
    }
    #expect(made == [])
    // Every other promise holds: the file is whole, and a second store reads it.
    #expect(
      try TodosStore(contentsOf: folder.file("todos.json")).todos.map(\.title) == ["Buy milk"])
  }

  @Test("a temporary folder made flushed flushes every write")
  func flushedTemporaryFolder() throws {
    let folder = TemporaryFolder(durability: .flushed)
    let made = try flushes {
      let store = try TodosStore(contentsOf: folder.file("todos.json"))
      store.add(Todo(title: "Buy milk"))
    }
    #expect(made == ["before rename", "after rename"])
  }

  @Test("a folder is flushed again once the unflushed temporary folder is released")
  func releasedFolder() throws {
    var folder: TemporaryFolder? = TemporaryFolder(durability: .unflushed)
    let url = try #require(folder?.url)
    folder = nil
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    let made = try flushes {
      try TodosStore(contentsOf: url.appendingPathComponent("todos.json")).add(Todo(title: "a"))
    }
    #expect(made == ["before rename", "after rename"])
  }

  @Test(
    "STORES_DURABLE_TESTS=1 makes temporary folders flushed by default",
    arguments: [
      ([:], TemporaryFolder.Durability.unflushed),
      (["STORES_DURABLE_TESTS": "1"], .flushed),
      (["STORES_DURABLE_TESTS": "yes"], .flushed),
      (["STORES_DURABLE_TESTS": "0"], .unflushed),
    ])
  func environment(_ environment: [String: String], _ durability: TemporaryFolder.Durability) {
    #expect(TemporaryFolder.Durability.default(environment: environment) == durability)
  }
}
