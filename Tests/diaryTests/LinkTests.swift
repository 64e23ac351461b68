import Foundation
import StoreTesting
import Stores
import Testing

/// Links where the stores read and write, through the library and the built `diary`: a
/// symbolic link to a data file is followed, a chain of too many is refused; a lock file that
/// is a link, symbolic or hard, and a data file with a second name are refused before a byte
/// is written; the data folder is pinned from the store's opening — swapped for a link it is
/// refused, removed and made anew by its owner it is written again.
@Suite("Links and the pinned data folder", .serialized)
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

  @Test("a chain of too many links is refused, and no link is replaced by a file")
  @MainActor
  func linkChain() throws {
    let target = folder.copy(
      fixturesFolder.appendingPathComponent("todos/sample.json"), as: "real.json")
    var previous = target.path
    for index in 0..<40 {
      let link = folder.file("link\(index)").path
      #expect(symlink(previous, link) == 0)
      previous = link
    }
    #expect(rename(previous, folder.file("todos.json").path) == 0)
    let before = folder.snapshot()
    let result = diary.run("todos", "add", "x")
    #expect(result.exitCode == 66, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("symbolic links"))
    #expect(folder.snapshot() == before)
    #expect(throws: StoreFileError.self) { try TodosStore(contentsOf: folder.file("todos.json")) }
    // 32 links are followed.
    let short = folder.file("short.json")
    #expect(symlink(folder.file("link30").path, short.path) == 0)
    let store = try TodosStore(contentsOf: short)
    try store.trySend(.addTodo(Todo(title: "through 32 links")))
    #expect(try TodosStore(contentsOf: target).todos.first?.title == "through 32 links")
    #expect(try linkTarget(folder.file("link0")) == target.path, "the links stay links")
  }

  @Test("a lock file that is a link is refused, and nothing is made where it points")
  @MainActor
  func lockFileLink() throws {
    let outside = TemporaryFolder()
    let elsewhere = outside.file("planted.lock")
    #expect(symlink(elsewhere.path, folder.file("todos.json.lock").path) == 0)
    let result = diary.run("todos", "add", "x")
    #expect(result.exitCode == 73, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("todos.json.lock is a symbolic link"))
    #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
    #expect(!FileManager.default.fileExists(atPath: folder.file("todos.json").path))
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

  @Test("a data folder removed and made anew by its owner is written again")
  @MainActor
  func remadeFolder() throws {
    let data = folder.file("data")
    let store = try TodosStore(contentsOf: data.appendingPathComponent("todos.json"))
    try store.trySend(.addTodo(Todo(title: "before")))
    try FileManager.default.removeItem(at: data)
    try store.trySend(.addTodo(Todo(title: "after")))
    #expect(try TodosStore(contentsOf: data.appendingPathComponent("todos.json")).todos.count == 1)
  }

  func linkTarget(_ url: URL) throws -> String {
    try FileManager.default.destinationOfSymbolicLink(atPath: url.path)
  }
}
