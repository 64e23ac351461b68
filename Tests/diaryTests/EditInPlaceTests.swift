import Foundation
import StoreTesting
import Stores
import Testing

/// Hand edits in place — the same inode, the same size, as an editor or `cp` writes — within
/// one tick of a coarse clock (a ramfs, where root can mount one): noticed, not overwritten,
/// even when the modification time is put back.
@Suite("Hand edits in place within one clock tick", .serialized)
struct EditInPlaceTests {
  @Test(
    "a same-size edit in place within one clock tick is noticed, not overwritten",
    .enabled(if: TestPlatform.canMountRamfs, "mounts a ramfs (Linux, root): coarse timestamps"))
  @MainActor
  func racilyClean() throws {
    let mount = try #require(CoarseClockFolder())
    let url = mount.url.appendingPathComponent("todos.json")
    for round in 0..<300 {
      try? FileManager.default.removeItem(at: url)
      // The store's own write, then another process's edit in place, at once.
      let store = try TodosStore(contentsOf: url)
      try store.trySend(.addTodo(Todo(id: Gen<UUID>.testID(0), title: "aaaa")))
      try editInPlace(url, replacing: "aaaa", with: "bbbb")
      try store.refresh()
      try #require(store.todos.map(\.title) == ["bbbb"], "round \(round): the edit was missed")
      // A file someone else wrote just now, read, then edited in place again.
      try editInPlace(url, replacing: "bbbb", with: "cccc")
      let reader = try TodosStore(contentsOf: url)
      try editInPlace(url, replacing: "cccc", with: "dddd")
      try reader.trySend(.toggleTodo(id: Gen<UUID>.testID(0)))
      try #require(reader.todos.map(\.title) == ["dddd"], "round \(round): overwritten")
      try #require(try TodosStore(contentsOf: url).todos.first?.title == "dddd")
    }
  }

  @Test(
    "a same-size edit in place whose modification time is put back is noticed too",
    .enabled(if: TestPlatform.canMountRamfs, "mounts a ramfs (Linux, root): coarse timestamps"))
  @MainActor
  func racilyCleanWithTheTimePutBack() throws {
    let mount = try #require(CoarseClockFolder())
    let url = mount.url.appendingPathComponent("todos.json")
    for round in 0..<300 {
      try? FileManager.default.removeItem(at: url)
      // The store's own write, then at once another process's edit in place that puts the
      // modification time back: only the change time, of the same tick, could tell.
      let store = try TodosStore(contentsOf: url)
      try store.trySend(.addTodo(Todo(id: Gen<UUID>.testID(0), title: "aaaa")))
      try editInPlace(url, replacing: "aaaa", with: "bbbb", keepingTheTime: true)
      try store.trySend(.addTodo(Todo(id: Gen<UUID>.testID(1), title: "cccc")))
      try #require(
        try TodosStore(contentsOf: url).todos.map(\.title) == ["cccc", "bbbb"],
        "round \(round): the edit was overwritten")
    }
  }

  /// Rewrites the file in place (same inode, same size), as an editor or `cp` does; with
  /// `keepingTheTime`, then sets its modification time back to what it was.
  func editInPlace(
    _ url: URL, replacing old: String, with new: String, keepingTheTime: Bool = false
  ) throws {
    let text = try String(contentsOf: url, encoding: .utf8)
    var before = stat()
    try #require(stat(url.path, &before) == 0)
    let descriptor = open(url.path, O_WRONLY | O_TRUNC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let bytes = Array(text.replacingOccurrences(of: old, with: new).utf8)
    #expect(write(descriptor, bytes, bytes.count) == bytes.count)
    if keepingTheTime {
      #expect(TestPlatform.setTimes(of: descriptor, to: before))
    }
  }
}
