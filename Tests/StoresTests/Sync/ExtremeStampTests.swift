import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Stamps at the edges of what a file can hold: a copy stamped past the year 9999, or in the
/// last millisecond a file holds, is refused, reported and freezes nothing; a clock at its
/// end still makes stamps a file can hold; edits stamped as late as a clock follows still win.
@Suite("Stamps at and beyond what a file can hold")
@MainActor
struct ExtremeStampTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  /// A copy of another device's version whose stamps all read `stamp`, beside the file.
  func copy(stampedAt stamp: String) throws -> URL {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    let phoneFolder = folder.file("phone")
    try FileManager.default.createDirectory(at: phoneFolder, withIntermediateDirectories: true)
    let phoneFile = phoneFolder.appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: folder.file("todos.json"), to: phoneFile)
    try deviceStore("phone", in: phoneFolder).trySend(.addTodo(Todo(title: "Call Ann")))
    let stamped = try #require(text(phoneFile)).replacing(
      /[0-9a-z]+\.[0-9a-z]+\.phone/, with: stamp + ".phone")
    let copy = folder.file("todos.sync-conflict-20261201-135016-PHONE12.json")
    try Data(stamped.utf8).write(to: copy)
    return copy
  }

  @Test("a copy stamped past the year 9999 is not merged, is reported, and harms nothing")
  func beyondTheLatest() throws {
    let copy = try copy(stampedAt: "zzzzzzzzzzzz.zzzzzzzzzzzz")
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Pay rent")))
    #expect(laptop.todos.map(\.title) == ["Pay rent", "Buy milk"])
    #expect((laptop.lastError as? StoreFileError)?.path == copy.path)
    #expect(FileManager.default.fileExists(atPath: copy.path), "left where it is")
    try laptop.trySend(.addTodo(Todo(title: "Water plants")))
    #expect(try deviceStore("laptop", in: folder.url).todos.count == 3, "the file reads")
  }

  @Test("a clock past the year 9999, or out of counters, still makes stamps a file can hold")
  func clockAtTheEnd() throws {
    let clock = HybridClock(device: DeviceID("d")!) { .max }
    var previous = clock.stamp()
    for _ in 0..<3 {
      let next = clock.stamp()
      #expect(next >= previous)
      #expect(Stamp(Substring(next.description)) == next, "readable: \(next)")
      previous = next
    }
    let counting = HybridClock(device: DeviceID("d")!) { 1_000 }
    counting.observe(
      Stamp(milliseconds: 1_000, counter: Stamp.largestCounter, device: previous.device))
    let next = counting.stamp()
    #expect(next == Stamp(milliseconds: 1_001, counter: 0, device: previous.device))
    #expect(Stamp(Substring(next.description)) == next)
  }

  // MARK: Stamps where no clock follows

  /// The laptop with "Buy milk"; the phone's version adds "Call Ann" with every phone stamp
  /// in the last millisecond a file holds, arrived as a conflict copy.
  func laptopWithLimitCopy(counter: Int64) throws -> (TodosStore, URL) {
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
    arguments: [0, 5, Stamp.largestCounter] as [Int64])
  func limitStampRefused(counter: Int64) throws {
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
}
