import Foundation
import StoreTesting
import Stores
import Testing

/// Hard links planted where the stores write, and folders swapped before a store's first
/// write: each refused before a byte is written, through the library and the built `diary`.
@Suite("Reliability: hard links and pinned folders", .serialized)
struct LinkTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("a symbolic link to a data file is followed: the target changes, the link stays")
  func symbolicLink() throws {
    let target = folder.copy(
      fixturesFolder.appendingPathComponent("todos/sample.json"), as: "real/todos.json")
    try FileManager.default.createSymbolicLink(
      at: folder.file("todos.json"), withDestinationURL: target)
    #expect(diary.run("todos", "add", "via the link").exitCode == 0)
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("todos.json").path)
        == target.path)
    #expect(try String(contentsOf: target, encoding: .utf8).contains("via the link"))
  }

  @Test("a lock file hard-linked to someone's file is refused; that file is not written")
  func lockFileLinkedToAnotherFile() throws {
    let outside = TemporaryFolder()
    let victim = outside.write("private notes\n", to: "notes.txt")
    #expect(chmod(victim.path, 0o644) == 0)
    #expect(link(victim.path, folder.file("todos.json.lock").path) == 0)
    expectFailure(["todos", "add", "x"], exitCode: 73, message: "a hard link to another file")
    #expect(try String(contentsOf: victim, encoding: .utf8) == "private notes\n")
    var info = stat()
    #expect(stat(victim.path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o644, "its mode is kept")
    #expect(!FileManager.default.fileExists(atPath: folder.file("todos.json").path))
  }

  @Test("a lock file hard-linked to the data file is refused; every todo stays")
  @MainActor
  func lockFileLinkedToTheDataFile() throws {
    for title in ["t1", "t2", "t3"] { #expect(diary.run("todos", "add", title).exitCode == 0) }
    #expect(unlink(folder.file("todos.json.lock").path) == 0)
    #expect(link(folder.file("todos.json").path, folder.file("todos.json.lock").path) == 0)
    expectFailure(["todos", "add", "t4"], exitCode: 73, message: "todos.json.lock")
    let store = try TodosStore(contentsOf: folder.file("todos.json"))
    #expect(store.todos.map(\.title) == ["t3", "t2", "t1"])
    #expect(throws: StoreFileError.self) { try store.trySend(.addTodo(Todo(title: "t4"))) }
    #expect(store.todos.count == 3)
  }

  @Test("a data file with a second name is not replaced: both names keep what they hold")
  func hardLinkedDataFile() throws {
    #expect(diary.run("todos", "add", "t1").exitCode == 0)
    let other = folder.file("backup.json")
    #expect(link(folder.file("todos.json").path, other.path) == 0)
    expectFailure(["todos", "add", "t2"], exitCode: 73, message: "has 2 names (hard links)")
    #expect(diary.run("todos", "list").exitCode == 0, "reading it is fine")
    #expect(unlink(other.path) == 0)
    #expect(diary.run("todos", "add", "t2").exitCode == 0, "with one name again, it is written")
  }

  @Test(
    "root refuses a lock or data file of a third user planted in another user's folder",
    .enabled(if: TestPlatform.isRoot, "needs root to give files to other users"))
  @MainActor func filesOfAThirdUser() throws {
    let data = folder.file("user")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    #expect(chown(data.path, 54_321, 54_321) == 0)
    let user = DiaryProcess(folder: data)
    #expect(user.run("todos", "add", "first").exitCode == 0)
    #expect(chown(data.appendingPathComponent("todos.json.lock").path, 12_345, 12_345) == 0)
    #expect(user.run("todos", "add", "second").exitCode == 73)
    #expect(chown(data.appendingPathComponent("todos.json.lock").path, 54_321, 54_321) == 0)
    #expect(chown(data.appendingPathComponent("todos.json").path, 12_345, 12_345) == 0)
    let result = user.run("todos", "add", "second")
    #expect(result.exitCode == 73)
    #expect(result.errorOutput.contains("belongs to user 12345"), "\(result.errorOutput)")
    #expect(try TodosStore(contentsOf: data.appendingPathComponent("todos.json")).todos.count == 1)
  }

  @Test(
    "a data folder swapped for a link while a store is open is refused, before its first write too",
    arguments: [false, true])
  @MainActor
  func folderSwappedForALink(writesFirst: Bool) throws {
    let data = folder.file("data")
    let diary = DiaryProcess(folder: data)
    for title in ["t1", "t2"] { #expect(diary.run("todos", "add", title).exitCode == 0) }
    let file = data.appendingPathComponent("todos.json")
    let store = try TodosStore(contentsOf: file)
    if writesFirst { try store.trySend(.addTodo(Todo(title: "t3"))) }
    let before = store.todos
    let other = TemporaryFolder()
    #expect(rename(data.path, folder.file("moved").path) == 0)
    #expect(symlink(other.url.path, data.path) == 0)
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.addTodo(Todo(title: "after")))
    }
    #expect(error?.problem == .folderReplaced(folder: data.path))
    #expect(throws: StoreFileError(path: file.path, problem: .folderReplaced(folder: data.path))) {
      try store.refresh()
    }
    #expect(other.names.isEmpty, "nothing was written into the other folder")
    #expect(store.todos == before, "the todos stay in the app")
  }
}
