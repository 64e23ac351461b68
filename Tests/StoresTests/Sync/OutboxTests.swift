import Foundation
import StoreTesting
import Testing

@testable import Stores

/// The device's outbox (see ``Outbox``): a write that a sync engine's rename took from the
/// file after the process that made it exited is merged back by the device's next store.
@Suite("Outbox: no write lost after its process exited")
@MainActor
struct OutboxTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  /// The phone's version of the file, a copy of the laptop's as it is now with `title` added
  /// by the phone, made in `phone` beside the suite's file.
  func phoneVersion(adding title: String) throws -> URL {
    let phoneFile = try phoneFolder().appendingPathComponent("todos.json")
    try? FileManager.default.removeItem(at: phoneFile)
    if FileManager.default.fileExists(atPath: file.path) {
      try FileManager.default.copyItem(at: file, to: phoneFile)
    }
    try deviceStore("phone", in: phoneFile.deletingLastPathComponent())
      .trySend(.addTodo(Todo(title: title)))
    return phoneFile
  }

  /// The outbox of the laptop for the suite's file.
  var outbox: Outbox {
    let target = (try? FileSystem.resolvingLinks(file.standardizedFileURL.path)) ?? file.path
    return Outbox.local(of: target, device: { DeviceID("laptop")! })!
  }

  /// The laptop's write, by a store that is gone (a `diary` that exited), after which the
  /// engine renames the phone's version — made before that write — over the file.
  func writeLostToTheEngine() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneVersion(adding: "Call Ann")
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Water plants")))
    try engineRenames(phone)
    #expect(text(file)?.contains("Water plants") == false, "the engine took it from the file")
  }

  @Test("a write taken from the file after its process exited is merged back by the next refresh")
  func mergedBackOnRefresh() throws {
    try writeLostToTheEngine()
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
    #expect(text(file)?.contains("Water plants") == true, "written back")
    #expect(try deviceStore("phone", in: folder.url).todos.count == 3)
  }

  @Test("… and by the next action, which runs on the merge")
  func mergedBackByAnAction() throws {
    try writeLostToTheEngine()
    let next = try deviceStore("laptop", in: folder.url)
    try next.trySend(.addTodo(Todo(title: "Pay rent")))
    #expect(
      Set(try deviceStore("laptop", in: folder.url).todos.map(\.title))
        == ["Buy milk", "Call Ann", "Water plants", "Pay rent"])
  }

  @Test("… and by a store that was running all along, which never saw that write")
  func mergedBackByARunningStore() throws {
    let app = try deviceStore("laptop", in: folder.url)
    try app.trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneVersion(adding: "Call Ann")
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Water plants")))
    try engineRenames(phone)
    try app.refresh()
    #expect(Set(app.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
  }

  @Test(
    "another device's later version that holds the write is taken as it is, and written nowhere")
  func laterVersionHoldsTheWrite() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneVersion(adding: "Call Ann")
    try engineRenames(phone)
    let identity = try FileSystem.identity(of: file.path)
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann"])
    #expect(try FileSystem.identity(of: file.path) == identity, "nothing written")
    // The outbox now holds the file as it is: the next store need not weigh them.
    #expect(outbox.read()?.data == (try Data(contentsOf: file)))
  }

  @Test("a todo removed by hand after the write stays removed: the outbox is the version edited")
  func handRemovalAfterTheWrite() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    for title in ["Buy milk", "Call Ann"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    try editByHand(file) { object in
      object["todos"] = (object["todos"] as! [[String: Any]]).filter {
        $0["title"] as? String != "Buy milk"
      }
    }
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(next.todos.map(\.title) == ["Call Ann"])
    try next.trySend(.addTodo(Todo(title: "Pay rent")))
    #expect(
      Set(try deviceStore("laptop", in: folder.url).todos.map(\.title)) == ["Call Ann", "Pay rent"])
  }

  @Test("a data file removed is not made again from the outbox")
  func removedFileStaysRemoved() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    try FileManager.default.removeItem(at: file)
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(next.todos.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(outboxPath() == nil, "the outbox goes with the file")
    // A file made anew elsewhere (another device, after the removal) is taken as it is.
    let phone = try phoneVersion(adding: "Call Ann")
    try engineRenames(phone)
    let later = try deviceStore("laptop", in: folder.url)
    try later.refresh()
    #expect(later.todos.map(\.title) == ["Call Ann"])
  }

  @Test("an outbox older than the tombstones' lifetime is removed unread")
  func oldOutboxRemoved() throws {
    try writeLostToTheEngine()
    let old = Date().addingTimeInterval(-91 * 86_400).timeIntervalSince1970
    var times = [timeval](repeating: timeval(tv_sec: Int(old), tv_usec: 0), count: 2)
    let path = try #require(outboxPath())
    #expect(utimes(path, &times) == 0)
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann"])
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("an outbox that is not a valid file is passed over, and replaced by the next write")
  func invalidOutbox() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let path = try #require(outboxPath())
    try Data("{\"todos\": [".utf8).write(to: URL(fileURLWithPath: path))
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(next.todos.map(\.title) == ["Buy milk"])
    try next.trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(outbox.read()?.data == (try Data(contentsOf: file)))
  }

  @Test("where the outbox cannot be written, the write still succeeds")
  func outboxNotWritable() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let path = try #require(outboxPath())
    // A folder where the outbox goes: it cannot be replaced.
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let next = try deviceStore("laptop", in: folder.url)
    try next.trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(
      Set(try deviceStore("laptop", in: folder.url).todos.map(\.title)) == ["Buy milk", "Call Ann"])
  }

  @Test("every write leaves the file's bytes in the outbox")
  func outboxHoldsEachWrite() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    for title in ["Buy milk", "Call Ann"] {
      try laptop.trySend(.addTodo(Todo(title: title)))
      #expect(outbox.read()?.data == (try Data(contentsOf: file)))
    }
    try laptop.trySend(.removeTodos(ids: [laptop.todos[0].id]))
    #expect(outbox.read()?.data == (try Data(contentsOf: file)))
  }

  @Test("the outbox is found whichever way the file's folder is spelled (a link to it)")
  func folderSpelledTwoWays() throws {
    let link = folder.file("link")
    #expect(symlink(folder.url.path, link.path) == 0)
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneVersion(adding: "Call Ann")
    try deviceStore("laptop", in: link).trySend(.addTodo(Todo(title: "Water plants")))
    try engineRenames(phone)
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
  }

  @Test("a todo removed by hand from another device's later version stays removed")
  func handRemovalFromALaterVersion() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    for title in ["Buy milk", "Call Ann", "Old"] {
      try laptop.trySend(.addTodo(Todo(title: title)))
    }
    // A removal: the file's stamps are more than its items' (a tombstone).
    try laptop.trySend(.removeTodos(ids: Set(laptop.todos.filter { $0.title == "Old" }.map(\.id))))
    // The phone's version, made from the laptop's write, synced while no store of the laptop
    // ran: the outbox still holds the laptop's write.
    try engineRenames(try phoneVersion(adding: "Pay rent"))
    try editByHand(file) { object in
      object["todos"] = (object["todos"] as! [[String: Any]]).filter {
        $0["title"] as? String != "Buy milk"
      }
    }
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Call Ann", "Pay rent"])
    #expect(
      Set(try deviceStore("laptop", in: folder.url).todos.map(\.title)) == ["Call Ann", "Pay rent"])
  }

  @Test("a removal taken from the file by the engine is written back, not only kept in memory")
  func lostRemovalWrittenBack() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneVersion(adding: "Call Ann")
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Water plants")))
    // The tablet has synced the laptop's version with "Water plants".
    let tablet = try subfolder("tablet").appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: file, to: tablet)
    let removed = try #require(laptop.todos.first { $0.title == "Water plants" }).id
    try deviceStore("laptop", in: folder.url).trySend(.removeTodos(ids: [removed]))
    // The phone's version, made before "Water plants" was added, takes the removal away.
    try engineRenames(phone)
    try deviceStore("laptop", in: folder.url).refresh()
    // The tablet's version comes in as a conflict copy: the removal must still win.
    try FileManager.default.copyItem(at: tablet, to: folder.file(copyName()))
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann"])
  }

  @Test("a refresh that cannot write the merge back still reads the file; a later one merges")
  func readOnlyFileStillRead() throws {
    try writeLostToTheEngine()
    #expect(chmod(file.path, 0o444) == 0)
    let reader = try deviceStore("laptop", in: folder.url)
    try reader.refresh()
    #expect(Set(reader.todos.map(\.title)) == ["Buy milk", "Call Ann"])
    #expect(chmod(file.path, 0o644) == 0)
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
  }

  @Test("a temporary folder released takes the outboxes of its files with it")
  func temporaryFolderTakesItsOutboxes() throws {
    var outboxPath: String?
    do {
      let temporary = TemporaryFolder()
      let file = temporary.file("todos.json")
      try TodosStore(contentsOf: file).trySend(.addTodo(Todo(title: "Buy milk")))
      let target = try FileSystem.resolvingLinks(file.standardizedFileURL.path)
      outboxPath = Outbox.local(of: target, device: { HybridClock.local.device })?.path
      #expect(outboxPath.map { FileManager.default.fileExists(atPath: $0) } == true)
    }
    #expect(outboxPath.map { FileManager.default.fileExists(atPath: $0) } == false)
  }

  @Test("an outbox a crash left mixed or cut short fails its checksum and is passed over")
  func tornOutbox() throws {
    try writeLostToTheEngine()
    let path = try #require(outboxPath())
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    // Still a valid file, every stamp in place: only the checksum tells it from a version.
    let mixed = try #require(
      String(decoding: whole, as: UTF8.self).replacingOccurrences(
        of: "Water plants", with: "Water plantz"
      ).data(using: .utf8))
    for torn in [mixed, whole.dropLast(9)] {
      try torn.write(to: URL(fileURLWithPath: path))
      #expect(outbox.read() == nil)
    }
    try mixed.write(to: URL(fileURLWithPath: path))
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann"])
    try whole.write(to: URL(fileURLWithPath: path))
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann", "Water plants"])
  }

  @Test("an outbox's modification time only moves forward, so each write is new to every store")
  func outboxTimeMovesForward() throws {
    let target = (try? FileSystem.resolvingLinks(file.standardizedFileURL.path)) ?? file.path
    let outbox = Outbox(of: target, in: folder.file("state"), device: { DeviceID("laptop")! })
    try #require(outbox.write(Data("{}".utf8)) != nil)
    // Where the clock's tick is coarse, two writes in one tick get one time: as here, where
    // the last write's time is ahead of the clock.
    let ahead = Date().addingTimeInterval(3_600).timeIntervalSince1970
    var times = [timeval](repeating: timeval(tv_sec: Int(ahead), tv_usec: 0), count: 2)
    #expect(utimes(outbox.path, &times) == 0)
    let before = try #require(outbox.identity)
    let after = try #require(outbox.write(Data("[]".utf8)))
    #expect(after != before)
    #expect(after.modified.tv_sec == Int(ahead) && after.modified.tv_nsec == 1)
    #expect(outbox.read()?.data == Data("[]".utf8))
  }

  @Test("an outbox being written is never taken to hold the file as it is")
  func outboxBeingWritten() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let path = try #require(outboxPath())
    let data = try Data(contentsOf: file)
    #expect(outbox.identity(holding: data) != nil)
    let writer = open(path, O_RDONLY)
    defer { close(writer) }
    #expect(flock(writer, LOCK_EX) == 0)
    #expect(outbox.identity(holding: data) == nil, "a writer holds it: it may be half written")
    #expect(flock(writer, LOCK_UN) == 0)
    #expect(outbox.identity(holding: data) != nil)
  }

  @Test("the outbox's checksum is the same however its bytes are cut, and sees any byte changed")
  func checksum() {
    var random = SeededRandom(seed: 7)
    for size in [0, 1, 31, 32, 33, 100, 1_000] {
      let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
      let whole = Self.checksum(of: bytes, cutAt: [])
      for _ in 0..<20 {
        let cuts = (0..<3).map { _ in Int.random(in: 0...size, using: &random) }.sorted()
        #expect(Self.checksum(of: bytes, cutAt: cuts) == whole)
      }
      for index in bytes.indices {
        var changed = bytes
        changed[index] ^= 1 << UInt8(index % 8)
        #expect(Self.checksum(of: changed, cutAt: []) != whole)
      }
      #expect(Self.checksum(of: bytes + [0], cutAt: []) != whole)
    }
  }

  static func checksum(of bytes: [UInt8], cutAt cuts: [Int]) -> UInt64 {
    var checksum = Outbox.Checksum()
    bytes.withUnsafeBytes { all in
      var start = 0
      for end in cuts + [bytes.count] {
        checksum.combine(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        start = end
      }
    }
    return checksum.finalize()
  }

  @Test("a process's first write tidies the outbox folder: old outboxes go")
  func tidiedOnFirstWrite() throws {
    // A state folder this process has not written an outbox into yet (the test state folder
    // was tidied by the first test that wrote one).
    let state = folder.file("state")
    let outboxFolder = state.appendingPathComponent("stores/outbox")
    try FileManager.default.createDirectory(at: outboxFolder, withIntermediateDirectories: true)
    let orphan = outboxFolder.appendingPathComponent("todos.json-00000000000000aa")
    let recent = outboxFolder.appendingPathComponent("todos.json-00000000000000bb")
    for file in [orphan, recent] { try Data("{}".utf8).write(to: file) }
    let old = Date().addingTimeInterval(-91 * 86_400).timeIntervalSince1970
    var times = [timeval](repeating: timeval(tv_sec: Int(old), tv_usec: 0), count: 2)
    #expect(utimes(orphan.path, &times) == 0)
    let target = (try? FileSystem.resolvingLinks(file.standardizedFileURL.path)) ?? file.path
    let first = Outbox(of: target, in: state, device: { DeviceID("laptop")! })
    #expect(first.write(Data("{}".utf8)) != nil)
    #expect(!FileManager.default.fileExists(atPath: orphan.path))
    #expect(FileManager.default.fileExists(atPath: recent.path), "another file's, still young")
    // Once per process: a later store's first write reads the folder no more.
    #expect(utimes(recent.path, &times) == 0)
    let second = Outbox(of: target, in: state, device: { DeviceID("laptop")! })
    #expect(second.write(Data("{}".utf8)) != nil)
    #expect(FileManager.default.fileExists(atPath: recent.path))
  }

  /// The path of the laptop's outbox for the suite's file, when there is one.
  func outboxPath() -> String? {
    let path = outbox.path
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }
}
