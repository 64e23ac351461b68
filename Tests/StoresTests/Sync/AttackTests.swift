import Foundation
import StoreTesting
import Testing

@testable import Stores

// ATTACK TESTS (adversarial round against issue 34, items 1–5). Each test here is expected to
// FAIL on the commit it was written against: it records a defect, not a fix.

@Suite("ATTACK: stamps, hand edits and merges (failing tests = defects)")
@MainActor
struct AttackTests {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  func phoneFolder() throws -> URL {
    let phone = folder.file("phone")
    try FileManager.default.createDirectory(at: phone, withIntermediateDirectories: true)
    return phone
  }

  func copyName(_ n: Int = 0) -> String {
    "todos.sync-conflict-20261201-1350\(10 + n)-PHONE12.json"
  }

  /// Rewrites `url` as a program that does not stamp would.
  func edit(_ url: URL, _ edit: (inout [String: Any]) -> Void) throws {
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    edit(&object)
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      .write(to: url)
  }

  // MARK: Stamps at the limit freeze a field

  /// The laptop with "Buy milk"; the phone's version adds "Call Ann" with every phone stamp
  /// in the last millisecond a file holds (a phone whose clock is past the year 9999 makes
  /// exactly such stamps: the clock clamps there).
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
    "ATTACK: an edit of a todo stamped in the last millisecond is undone by the next merge",
    arguments: [0, 5, Stamp.largestCounter])
  func limitStampFreezesEdit(counter: Int) throws {
    let (laptop, phoneFile) = try laptopWithLimitCopy(counter: counter)
    var ann = try #require(laptop.todos.first { $0.title == "Call Ann" })
    ann.title = "Call Bob"
    try laptop.trySend(.updateTodo(ann))
    #expect(laptop.todos.contains { $0.title == "Call Bob" })
    // The phone's version (it changed nothing of Ann since) arrives again.
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName(1)))
    try laptop.refresh()
    #expect(
      laptop.todos.contains { $0.title == "Call Bob" },
      "the laptop's later edit must win; got \(laptop.todos.map(\.title))")
  }

  @Test("ATTACK: a removal of a todo stamped in the last millisecond does not hold")
  func limitStampFreezesRemoval() throws {
    let (laptop, phoneFile) = try laptopWithLimitCopy(counter: 0)
    let ann = try #require(laptop.todos.first { $0.title == "Call Ann" })
    try laptop.trySend(.removeTodos(ids: [ann.id]))
    #expect(!laptop.todos.contains { $0.id == ann.id })
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName(1)))
    try laptop.refresh()
    #expect(
      !laptop.todos.contains { $0.id == ann.id },
      "removed after the phone's version: must stay removed; got \(laptop.todos.map(\.title))")
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

  @Test("ATTACK: a hand edit read by a fresh store (as every diary command is) loses a tie")
  func handEditSeenByFreshStoreLosesTie() throws {
    let (_, phoneFile) = try laptopAndPhone()
    try edit(file) { object in
      var todos = object["todos"] as! [[String: Any]]
      todos[1]["title"] = "aaaa"
      object["todos"] = todos
    }
    // `diary todos add x`: a new store, then the phone's conflicting version arrives.
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "x")))
    try FileManager.default.copyItem(at: phoneFile, to: folder.file(copyName()))
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.refresh()
    #expect(
      Set(laptop.todos.map(\.title)) == ["x", "p", "one", "aaaa", "three"],
      "the hand edit is the newest value; got \(laptop.todos.map(\.title))")
  }

  @Test("ATTACK: deleting the \"sync\" member by hand makes every hand edit the oldest value")
  func syncSectionDeletedByHand() throws {
    let (laptop, phoneFile) = try laptopAndPhone()
    try edit(file) { object in
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
