import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("Conflict copies a sync engine leaves beside a file")
@MainActor
struct ConflictCopyTests {
  let folder = TemporaryFolder()

  /// The file of a phone that synced the test folder's `todos.json`, then added `title`.
  func phoneVersion(adding title: String) throws -> URL {
    let phoneFolder = folder.file("phone")
    try FileManager.default.createDirectory(at: phoneFolder, withIntermediateDirectories: true)
    let file = phoneFolder.appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: folder.file("todos.json"), to: file)
    try deviceStore("phone", in: phoneFolder).trySend(.addTodo(Todo(title: title)))
    return file
  }

  @Test(
    "each engine's name of a copy is known; other names are not",
    arguments: [
      ("todos.sync-conflict-20261201-135016-E7BDN4G.json", true),
      ("todos (Anna's conflicted copy 2026-12-01).json", true),
      ("todos (Anna's conflicted copy 2026-12-01) (1).json", true),
      ("todos (conflicted copy 2026-12-01 135016).json", true),
      ("todos_conflict-20261201-135016.json", true),
      ("todos.json", false), ("todos.json.lock", false),
      ("workouts.sync-conflict-20261201-135016-E7BDN4G.json", false),
      ("todos.sync-conflict-2026120-135016-E7BDN4G.json", false), ("todos (1).json", false),
      ("todos.sync-conflict-20261201-135016-E7BDN4G.json.lock", false),
      // Numbered, copies of copies, older and other spellings.
      ("todos.sync-conflict-20261201-135016-E7BDN4G (1).json", true),
      (
        "todos.sync-conflict-20261201-135016-E7BDN4G.sync-conflict-20261202-101010-ABCDEFG.json",
        true
      ),
      (
        "todos.sync-conflict-20261201-135016-E7BDN4G (Anna's conflicted copy 2026-12-02).json",
        true
      ),
      ("todos (Anna's conflicted copy 2026-12-01) (Ben's conflicted copy 2026-12-02).json", true),
      ("todos (conflicted copy 2026-12-01 135016) (2).json", true),
      ("todos (conflicted copy anna 2026-12-01 135016).json", true),
      ("todos (Anna (work)'s Conflicted Copy 2026-12-01).json", true),
      ("todos_conflict-20261201-135016 (1).json", true),
      ("todos.sync-conflict-20261201-135016.json", true),
      ("todos (1).sync-conflict-20261201-135016-E7BDN4G.json", false),
      ("todos (1) (2).json", false), ("todos (copy).json", false),
      ("todos.sync-conflict-20261201-135016-E7BDN4GX.json", false),
      ("todos.sync-conflict-20261201-135016-E7BDN4G (1.json", false),
      ("todos.sync-conflict-20261201-135016-E7BDN4G ().json", false),
      ("todos.backup.sync-conflict-20261201-135016-E7BDN4G.json", false),
      ("TODOS.sync-conflict-20261201-135016-E7BDN4G.json", false),
    ])
  func names(name: String, isCopy: Bool) {
    #expect(ConflictCopies.isCopy(name, of: "todos.json") == isCopy)
  }

  @Test("a file without an extension: its copies end with the engine's marker")
  func withoutExtension() {
    #expect(ConflictCopies.isCopy("todos.sync-conflict-20261201-135016-E7BDN4G", of: "todos"))
    #expect(ConflictCopies.isCopy("todos (Anna's conflicted copy 2026-12-01)", of: "todos"))
    #expect(ConflictCopies.isCopy("todos_conflict-20261201-135016 (1)", of: "todos"))
    #expect(!ConflictCopies.isCopy("todos.lock", of: "todos"))
    #expect(!ConflictCopies.isCopy("todos", of: "todos"))
  }

  @Test("a copy spelled in another case is a copy of the name so spelled")
  func otherCase() {
    let copy = "TODOS.sync-conflict-20261201-135016-E7BDN4G.JSON"
    #expect(ConflictCopies.original(ofCopy: copy, of: "todos.json") == "TODOS.JSON")
    #expect(ConflictCopies.original(ofCopy: "todos (1).json", of: "todos.json") == nil)
    #expect(
      ConflictCopies.original(ofCopy: "todos_conflict-20261201-135016.json", of: "todos.json")
        == "todos.json")
  }

  @Test("a copy spelled in another case is listed only where that spelling names the file")
  func otherCaseInAFolder() throws {
    let store = try deviceStore("laptop", in: folder.url)
    try store.trySend(.addTodo(Todo(title: "Buy milk")))
    let copy = "TODOS.sync-conflict-20261201-135016-E7BDN4G.json"
    _ = folder.write("{}", to: copy)
    let exact = "todos.sync-conflict-20261201-135016-E7BDN4G.json"
    _ = folder.write("{}", to: exact)
    // Case matters here (ext4): `TODOS.json` would be another file.
    #expect(ConflictCopies.copies(of: "todos.json", inFolder: folder.url.path) == [exact])
    // Where `TODOS.json` names the file itself, as a file system that ignores case does (here
    // a second name of it stands in for that).
    #expect(link(folder.file("todos.json").path, folder.file("TODOS.json").path) == 0)
    #expect(ConflictCopies.copies(of: "todos.json", inFolder: folder.url.path) == [copy, exact])
    // Another file of that name: not this one's copy.
    #expect(unlink(folder.file("TODOS.json").path) == 0)
    _ = folder.write("{}", to: "TODOS.json")
    #expect(ConflictCopies.copies(of: "todos.json", inFolder: folder.url.path) == [exact])
  }

  @Test("numbered copies and copies of copies are merged, then removed")
  func mergesNumberedCopiesAndCopiesOfCopies() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    let copies = [
      "todos.sync-conflict-20261201-135016-E7BDN4G (1).json",
      "todos.sync-conflict-20261201-135016-E7BDN4G.sync-conflict-20261202-101010-ABCDEFG.json",
      "todos (Anna's conflicted copy 2026-12-01) (1).json",
    ]
    for (index, copy) in copies.enumerated() {
      let phoneFile = try phoneVersion(adding: "from copy \(index)")
      #expect(rename(phoneFile.path, folder.file(copy).path) == 0)
    }
    try laptop.refresh()
    #expect(
      Set(laptop.todos.map(\.title))
        == ["Buy milk", "from copy 0", "from copy 1", "from copy 2"])
    #expect(Set(laptop.core.mergeReport.merged) == Set(copies))
    for copy in copies { #expect(!FileManager.default.fileExists(atPath: folder.file(copy).path)) }
  }

  @Test("another device's version renamed over the file just after a write keeps that write")
  func engineRenamesOverAWrite() throws {
    let laptopFolder = folder.file("laptop")
    let phoneFolder = folder.file("phone")
    let laptop = try divergedVersions(laptop: laptopFolder, phone: phoneFolder) { phone in
      try phone.trySend(.addTodo(Todo(title: "Call Ann")))
    }
    // The laptop's write lands after the engine checked the file, before it renames the
    // phone's version over it (as Syncthing does, from a temporary file): the engine thinks
    // the file held nothing new.
    try laptop.trySend(.addTodo(Todo(title: "Water plants")))
    let incoming = laptopFolder.appendingPathComponent(".syncthing.todos.json.tmp")
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("todos.json"), to: incoming)
    #expect(rename(incoming.path, laptopFolder.appendingPathComponent("todos.json").path) == 0)

    try laptop.trySend(.addTodo(Todo(title: "Pay rent")))
    let titles: Set = ["Buy milk", "Call Ann", "Water plants", "Pay rent"]
    #expect(Set(laptop.todos.map(\.title)) == titles)
    #expect(Set(try deviceStore("laptop", in: laptopFolder).todos.map(\.title)) == titles)
  }

  @Test("a copy of another device's version is merged in, written, then removed")
  func mergesACopy() throws {
    let phoneFolder = folder.file("phone")
    let laptopFolder = folder.file("laptop")
    let phone = try deviceStore("phone", in: phoneFolder)
    try phone.trySend(.addTodo(Todo(title: "Buy milk")))
    try FileManager.default.createDirectory(at: laptopFolder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("todos.json"),
      to: laptopFolder.appendingPathComponent("todos.json"))
    let laptop = try deviceStore("laptop", in: laptopFolder)
    let milk = phone.todos[0].id
    try phone.trySend(.toggleTodo(id: milk))
    try phone.trySend(.addTodo(Todo(title: "Call Ann")))
    try laptop.trySend(.addTodo(Todo(title: "Write report")))
    // The engine leaves the phone's version beside the laptop's.
    let copy = laptopFolder.appendingPathComponent(
      "todos.sync-conflict-20261201-135016-E7BDN4G.json")
    try FileManager.default.copyItem(at: phoneFolder.appendingPathComponent("todos.json"), to: copy)
    try laptop.refresh()
    #expect(Set(laptop.todos.map(\.title)) == ["Buy milk", "Call Ann", "Write report"])
    // ("Pay rent" was in the version the engine replaced: the laptop's engine would have
    // made a conflict copy of it; here it is gone with that version.)
    #expect(laptop.todos.first { $0.id == milk }?.isDone == true)
    #expect(!FileManager.default.fileExists(atPath: copy.path), "the merged copy is removed")
    #expect(laptop.core.mergeReport.merged == [copy.lastPathComponent])
    let reopened = try deviceStore("laptop", in: laptopFolder)
    #expect(reopened.todos == laptop.todos, "the merge is on disk")
  }

  @Test("a version a sync engine renames over the file during a transaction is not overwritten")
  func engineReplacesTheFileMidTransaction() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    // The phone's version, which the engine will put in place while the laptop writes.
    let phoneFile = try phoneVersion(adding: "Call Ann")
    // Another store on the laptop writes first, so that the action runs after a reload, under
    // the lock — where the engine's rename then comes.
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Pay rent")))
    var replaced = false
    try laptop.trySend(.addTodo(Todo(title: "Write report"))) { _ in
      guard !replaced else { return }
      replaced = true
      #expect(
        rename(
          phoneFile.path, folder.file("todos.json").path)
          == 0)
    }
    // "Pay rent" was in the version the engine replaced, written by another store of the
    // laptop: it comes back from the laptop's outbox, in the transaction started again.
    #expect(
      Set(laptop.todos.map(\.title)) == ["Buy milk", "Call Ann", "Write report", "Pay rent"])
    #expect(
      try Set(deviceStore("laptop", in: folder.url).todos.map(\.title))
        == Set(laptop.todos.map(\.title)))
  }

  @Test(
    "a copy that arrives after the store last read the file is merged before the action, which then runs once on the merge",
    arguments: ["add", "toggle", "remove"])
  func copyArrivesBeforeAnAction(action: String) throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    // The phone's version, made before the laptop's next three adds.
    let phoneFile = try phoneVersion(adding: "from the phone")
    for title in ["three", "two", "one"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    // The engine leaves the phone's version beside the file; the laptop's store has not
    // looked since (the file itself did not change).
    let copy = folder.file("todos.sync-conflict-20261201-135016-PHONE12.json")
    #expect(rename(phoneFile.path, copy.path) == 0)
    let two = laptop.todos[1]
    var expected = ["one", "two", "three", "Buy milk", "from the phone"]
    switch action {
    case "add":
      try laptop.trySend(.addTodo(Todo(title: "four")))
      expected.append("four")
    case "toggle": try laptop.trySend(.toggleTodo(id: two.id))
    default:
      try laptop.trySend(.removeTodos(ids: [two.id]))
      expected.removeAll { $0 == "two" }
    }
    #expect(Set(laptop.todos.map(\.title)) == Set(expected))
    #expect(laptop.todos.count == expected.count, "no todo twice")
    if action == "toggle" {
      #expect(laptop.todos.first { $0.id == two.id }?.isDone == true, "toggled once")
    }
    let reopened = try deviceStore("laptop", in: folder.url)
    #expect(reopened.todos == laptop.todos, "the merge and the action are on disk")
    #expect(!FileManager.default.fileExists(atPath: copy.path))
  }

  @Test("watch() merges a copy that appears beside the file")
  func watchMergesACopy() async throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    try laptop.watch()
    let phoneFile = try phoneVersion(adding: "Call Ann")
    let copy = folder.file("todos.sync-conflict-20261201-135016-E7BDN4G.json")
    #expect(rename(phoneFile.path, copy.path) == 0)
    #expect(await eventually { laptop.todos.count == 2 }, "the copy is merged")
    #expect(await eventually { !FileManager.default.fileExists(atPath: copy.path) })
  }

  @Test("a version 1 file is read, and written as version 2 from its first change")
  func migration() throws {
    let url = folder.copy(fixture: "todos/sample.json", as: "todos.json")
    let original = try TodosStore(contentsOf: url).todos
    let store = try deviceStore("laptop", in: folder.url)
    #expect(store.todos == original)
    try store.trySend(.toggleTodo(id: original[0].id))
    let file = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    #expect(file["version"] as? Int == 2)
    #expect(((file["sync"] as? [String: Any])?["items"] as? [String])?.count == original.count)
    #expect(try TodosStore(contentsOf: url).todos.map(\.id) == original.map(\.id))
  }
}

/// Conflict copies that are not valid versions of the file — cut short, of a newer version or
/// another store, a link, a folder, far larger than the file — stay where they are and are
/// reported; an unchanged one is not read again, and none is read past its limit.
@Suite("Conflict copies that cannot be merged cost little")
@MainActor
struct UnmergeableCopyTests {
  let folder = TemporaryFolder()
  let copy = "todos.sync-conflict-20261201-135016-E7BDN4G.json"

  /// The laptop's store on the folder's `todos.json`, waiting at most `lockTimeout` for a lock.
  func laptop(lockTimeout: Duration = .defaultLockTimeout) throws -> TodosStore {
    TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: folder.file("todos.json"), lockTimeout: lockTimeout,
        clock: HybridClock(device: DeviceID("laptop")!)))
  }

  @Test(
    "a copy that is not a valid file of the store stays where it is, and is reported",
    arguments: [
      "{\"todos\" : [", "{\"todos\" : [], \"version\" : 9}", "{\"version\" : 2, \"workouts\" : []}",
      "link", "folder", "huge",
    ])
  func hostileCopies(content: String) throws {
    let store = try deviceStore("laptop", in: folder.url)
    try store.trySend(.addTodo(Todo(title: "Buy milk")))
    let name = "todos (Anna's conflicted copy 2026-12-01).json"
    let copy = folder.file(name)
    switch content {
    case "link": #expect(symlink(folder.file("todos.json").path, copy.path) == 0)
    case "folder":
      try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    default: try Data(content.utf8).write(to: copy)
    }
    let before = folder.snapshot()
    try store.trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(store.todos.count == 2, "the action is saved all the same")
    #expect(
      (store.lastError as? StoreFileError)?.path == copy.path,
      "\(String(describing: store.lastError))")
    if content == "link" {
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: copy.path))
          == folder.file("todos.json").path, "the link is left as it was")
    } else {
      #expect(folder.snapshot()[name] == before[name], "the copy is left as it was")
    }
    #expect(store.core.mergeReport.merged.isEmpty)
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
