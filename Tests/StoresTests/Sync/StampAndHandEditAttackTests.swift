import Foundation
import StoreTesting
import Testing

@testable import Stores

/// What an adversarial round against the devices' hardening found (issue 34): a copy stamped
/// where no clock can follow froze the fields it touched; a `"sync"` member removed by hand
/// turned every hand edit into the oldest value.
@Suite("Attacks on stamps and hand edits")
@MainActor
struct AttackTests {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  func phoneFolder() throws -> URL {
    let phone = folder.file("phone")
    try FileManager.default.createDirectory(at: phone, withIntermediateDirectories: true)
    return phone
  }

  func copyName(_ number: Int = 0) -> String {
    "todos.sync-conflict-20261201-1350\(10 + number)-PHONE12.json"
  }

  // MARK: Stamps where no clock follows

  /// The laptop with "Buy milk"; the phone's version adds "Call Ann" with every phone stamp
  /// in the last millisecond a file holds, arrived as a conflict copy.
  func laptopWithLimitCopy(counter: Int) throws -> (TodosStore, URL) {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneFolder()
    let phoneFile = phone.appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: file, to: phoneFile)
    try deviceStore("phone", in: phone).trySend(.addTodo(Todo(title: "Call Ann")))
    let limit =
      String(Stamp.latestMilliseconds, radix: 36) + "." + String(counter, radix: 36)
    let stamped = try #require(text(phoneFile)).replacing(
      /[0-9a-z]+\.[0-9a-z]+\.phone/, with: limit + ".phone")
    try Data(stamped.utf8).write(to: phoneFile)
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName()))
    try laptop.refresh()
    return (laptop, phoneFile)
  }

  @Test(
    "a copy stamped in the last millisecond a file holds is refused, and freezes nothing",
    arguments: [0, 5, Stamp.largestCounter])
  func limitStampRefused(counter: Int) throws {
    let (laptop, phoneFile) = try laptopWithLimitCopy(counter: counter)
    #expect(!laptop.todos.contains { $0.title == "Call Ann" }, "not merged")
    #expect((laptop.lastError as? StoreFileError)?.path == folder.file(copyName()).path)
    var milk = try #require(laptop.todos.first)
    milk.title = "Buy oat milk"
    try laptop.trySend(.updateTodo(milk))
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName(1)))
    try laptop.refresh()
    #expect(laptop.todos.map(\.title) == ["Buy oat milk"])
  }

  @Test("an edit and a removal of a todo stamped as late as a clock follows still win")
  func latestFollowedStampLoses() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneFolder()
    let phoneFile = phone.appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: file, to: phoneFile)
    try deviceStore("phone", in: phone).trySend(.addTodo(Todo(title: "Call Ann")))
    try deviceStore("phone", in: phone).trySend(.addTodo(Todo(title: "Pay rent")))
    let latest =
      String(Stamp.latestFollowedMilliseconds, radix: 36) + "."
      + String(Stamp.largestCounter, radix: 36)
    let stamped = try #require(text(phoneFile)).replacing(
      /[0-9a-z]+\.[0-9a-z]+\.phone/, with: latest + ".phone")
    try Data(stamped.utf8).write(to: phoneFile)
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName()))
    try laptop.refresh()
    var ann = try #require(laptop.todos.first { $0.title == "Call Ann" })
    let rent = try #require(laptop.todos.first { $0.title == "Pay rent" })
    ann.title = "Call Bob"
    try laptop.trySend(.updateTodo(ann))
    try laptop.trySend(.removeTodos(ids: [rent.id]))
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName(1)))
    try laptop.refresh()
    #expect(Set(laptop.todos.map(\.title)) == ["Call Bob", "Buy milk"])
    #expect(try deviceStore("laptop", in: folder.url).todos == laptop.todos, "the file reads")
  }

  // MARK: Hand edits

  /// Laptop with three todos and a phone copy of its file; the phone then adds "p" (a
  /// concurrent change, so the two versions conflict).
  func laptopAndPhone() throws -> (laptop: TodosStore, phoneFile: URL) {
    let laptop = try deviceStore("laptop", in: folder.url)
    for title in ["three", "mmmm", "one"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    let phoneFile = try phoneFolder().appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: file, to: phoneFile)
    try deviceStore("phone", in: phoneFile.deletingLastPathComponent())
      .trySend(.addTodo(Todo(title: "p")))
    return (laptop, phoneFile)
  }

  @Test("a \"sync\" member removed by hand leaves every hand edit the newest value")
  func syncSectionDeletedByHand() throws {
    let (laptop, phoneFile) = try laptopAndPhone()
    try editByHand(file) { object in
      object["sync"] = nil
      var todos = object["todos"] as! [[String: Any]]
      todos[0]["title"] = "uno"
      todos.remove(at: 2)  // "three" removed by hand
      object["todos"] = todos
    }
    try laptop.trySend(.addTodo(Todo(title: "x")))
    #expect(laptop.todos.map(\.title) == ["x", "uno", "mmmm"])
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName()))
    try laptop.refresh()
    #expect(
      Set(laptop.todos.map(\.title)) == ["x", "p", "uno", "mmmm"],
      "hand edits are the newest values; got \(laptop.todos.map(\.title))")
  }
}
