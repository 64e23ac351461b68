import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// Watching stores against other processes: a change `diary` makes is seen; the watch goes on
/// after its folder is renamed away or removed and made anew, follows a link to the data file
/// when it is retargeted, and 200 watching stores share one inotify instance.
@Suite("Watching across processes", .serialized)
struct WatchTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }
  static let writer = BuildProducts.executable("stores-writer")

  @Test("a running SettingsStore notices a diary settings set from another process")
  @MainActor
  func watchSeesTheCommandLine() async throws {
    let settings = try SettingsStore(contentsOf: folder.file("settings.json"))
    try settings.watch()
    var seen: [Double] = []
    let token = settings.onChange(of: \.sleepGoal) { seen.append($0) }
    #expect(
      DiaryProcess(folder: folder.url).run("settings", "set", "sleepGoal", "6.5").exitCode == 0)
    #expect(await eventually { settings.sleepGoal == 6.5 })
    #expect(seen == [6.5])
    token.cancel()
  }

  @Test("the watch goes on after its folder is renamed away or removed and made anew")
  @MainActor
  func watchSurvivesTheFolder() async throws {
    let data = folder.file("data")
    let url = data.appendingPathComponent("todos.json")
    let store = try TodosStore(contentsOf: url)
    try store.trySend(.addTodo(Todo(title: "first")))
    try store.watch()
    #expect(rename(data.path, folder.file("old").path) == 0)
    #expect(await eventually { store.todos.isEmpty }, "the file went away with its folder")
    let diary = DiaryProcess(folder: data)
    #expect(diary.run("todos", "add", "in a new folder").exitCode == 0)
    #expect(await eventually { store.todos.map(\.title) == ["in a new folder"] })
    try FileManager.default.removeItem(at: data)
    #expect(await eventually { store.todos.isEmpty })
    #expect(diary.run("todos", "add", "again").exitCode == 0)
    #expect(await eventually { store.todos.map(\.title) == ["again"] })
    #expect(diary.run("todos", "add", "and again").exitCode == 0)
    #expect(await eventually { store.todos.count == 2 }, "watching the new folder")
  }

  @Test("the watch follows a link to the data file when it is pointed elsewhere")
  @MainActor
  func watchFollowsARetargetedLink() async throws {
    let first = try TodosStore(contentsOf: folder.file("a/todos.json"))
    try first.trySend(.addTodo(Todo(title: "in a")))
    let second = try TodosStore(contentsOf: folder.file("b/todos.json"))
    try second.trySend(.addTodo(Todo(title: "in b")))
    let link = folder.file("data/todos.json")
    try FileManager.default.createDirectory(
      at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
    #expect(symlink(folder.file("a/todos.json").path, link.path) == 0)
    let store = try TodosStore(contentsOf: link)
    try store.watch()
    #expect(store.todos.map(\.title) == ["in a"])
    // Retarget the link atomically, as `ln -sfn` does.
    #expect(symlink(folder.file("b/todos.json").path, link.path + ".new") == 0)
    #expect(rename(link.path + ".new", link.path) == 0)
    #expect(await eventually { store.todos.map(\.title) == ["in b"] })
    try second.trySend(.addTodo(Todo(title: "b again")))
    #expect(await eventually { store.todos.count == 2 }, "watching the new target's folder")
    try store.trySend(.addTodo(Todo(title: "through the link")))
    try second.refresh()
    #expect(second.todos.first?.title == "through the link")
    try first.refresh()
    #expect(first.todos.map(\.title) == ["in a"])
  }

  @Test(
    "200 watching stores share one inotify instance; 60 renames of their folder leave one watch",
    .enabled(if: TestPlatform.hasProcessFiles, "counts inotify watches in /proc (Linux)"))
  func watchesAreSharedAndRemoved() throws {
    let data = folder.file("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let output = folder.file("inotify.txt")
    let result = try run(
      Self.writer, ["watch", data.path, "60", "200"], after: "true", output: output.path)
    #expect(result.status == 0, "\(result.errorOutput)")
    let printed = try String(contentsOf: output, encoding: .utf8)
    #expect(printed == "inotify 1 watches 1\n")
  }
}
