import Foundation
import StoreTesting
import Synchronization
import TestSupport
import Testing

@testable import Stores

/// Problems found by attacking the outbox written in place with a checksum (commit b30e5fb).
/// Each test failed on the code it was written against.
@Suite("Attack on the outbox written in place")
@MainActor
struct OutboxInPlaceAttackTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  typealias TodosBacking = JSONFileBacking<TodosStore.State, ListSync<TodosStore.State>>

  /// The laptop's store on `file`, with its outbox in `outboxes` (the default local state
  /// folder when `nil`), and its backing.
  func laptop(_ file: URL, outboxes: URL? = nil) throws -> (TodosStore, TodosBacking) {
    let clock = HybridClock(device: DeviceID("laptop")!) {
      Int64(Date().timeIntervalSince1970 * 1000)
    }
    let (backing, state) = try TodosBacking.open(
      file, lockTimeout: .seconds(5), clock: clock, versions: nil,
      coordination: Platform.fileCoordination(for:timeout:),
      outbox: { target, device in
        outboxes.map { Outbox(of: target, in: $0, device: device) }
          ?? Outbox.local(of: target, device: device)
      })
    return (TodosStore(core: StoreCore(state: state, backing: backing)), backing)
  }

  /// The laptop's outbox for the suite's file in the default local state folder.
  var outbox: Outbox {
    let target = (try? FileSystem.resolvingLinks(file.standardizedFileURL.path)) ?? file.path
    return Outbox.local(of: target, device: { DeviceID("laptop")! })!
  }

  /// The phone's version of the suite's file as it is now, with `title` added by the phone.
  func phoneVersion(adding title: String) throws -> URL {
    let phoneFile = try phoneFolder().appendingPathComponent("todos.json")
    try? FileManager.default.removeItem(at: phoneFile)
    try FileManager.default.copyItem(at: file, to: phoneFile)
    try deviceStore("phone", in: phoneFile.deletingLastPathComponent())
      .trySend(.addTodo(Todo(title: title)))
    return phoneFile
  }

  // MARK: - A file system whose clock ticks once a second

  /// Where times have whole seconds (ext3, ext4 with 128-byte inodes, HFS+, FAT, some NFS
  /// servers), a modification time moved 1 ns past the last is the last: two writes of one
  /// size in one second left the outbox with one identity (in place: the same inode), and a
  /// store that wrote the first took the second — another process's — for its own.
  @Test(
    "two writes of the outbox in one second, on a file system of whole seconds, differ",
    .enabled(if: CoarseClockFolder.isPossible))
  func wholeSecondsOutboxIdentity() throws {
    let mount = try #require(CoarseClockFolder())
    let outbox = Outbox(of: file.path, in: mount.url, device: { DeviceID("laptop")! })
    CoarseClockFolder.waitForNextSecond()
    let first = try #require(outbox.write(Data(#"{"a": 1}"#.utf8)))
    let second = try #require(outbox.write(Data(#"{"a": 2}"#.utf8)))
    #expect(second != first, "another process's write must be new to a store that saw the first")
    #expect(outbox.read()?.data == Data(#"{"a": 2}"#.utf8))
  }

  /// The same, end to end: the app's store writes, a `diary` of the same device writes
  /// within the same second (as many bytes), exits, and the engine renames the phone's older
  /// version over the file — the app's refresh must merge `diary`'s write back.
  @Test(
    "another process's write in the same second is merged back on a file system of whole seconds",
    .enabled(if: CoarseClockFolder.isPossible))
  func wholeSecondsLostWrite() throws {
    let mount = try #require(CoarseClockFolder())
    let (app, _) = try laptop(file, outboxes: mount.url)
    try app.trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneVersion(adding: "Call Ann")
    let outbox = Outbox(
      of: try FileSystem.resolvingLinks(file.path), in: mount.url, device: { DeviceID("laptop")! })
    CoarseClockFolder.waitForNextSecond()
    var todo = try #require(app.todos.first)
    // Each write's record of what its change saw holds the device's latest stamp, as long:
    // titles of one length make files of one length.
    todo.title = "Buy milk 1"
    try app.trySend(.updateTodo(todo))
    let sizeSeen = try #require(outbox.identity).size
    let (diary, _) = try laptop(file, outboxes: mount.url)
    todo.title = "Buy milk 2"
    try diary.trySend(.updateTodo(todo))
    try #require(outbox.identity?.size == sizeSeen, "as many bytes: only the time tells them")
    try engineRenames(phone)
    try app.refresh()
    #expect(Set(app.todos.map(\.title)) == ["Buy milk 2", "Call Ann"])
  }

  // MARK: - A reader holding the outbox

  /// A store opening compares the outbox with its file holding the outbox's shared lock; a
  /// writer waited for it with no bound — holding the data file's lock all along, so that a
  /// reader stopped mid-compare (SIGSTOP, a debugger) stopped every writer of the file.
  @Test("a writer never waits for a reader of the outbox: every wait is bounded")
  func writerDoesNotWaitForAReader() throws {
    let outbox = Outbox(of: file.path, in: folder.file("state"), device: { DeviceID("laptop")! })
    try #require(outbox.write(Data("{}".utf8)) != nil)
    let reader = open(outbox.path, O_RDONLY)
    defer { close(reader) }
    try #require(flock(reader, LOCK_SH) == 0)
    let writing = Writing(outbox)
    Thread.detachNewThread { writing.run(Data("[]".utf8)) }
    let finished = writing.done.wait(timeout: .now() + 5) == .success
    flock(reader, LOCK_UN)
    if !finished { writing.done.wait() }
    #expect(finished, "the write waited for the reader")
    #expect(outbox.read()?.data == Data("[]".utf8))
    // The reader still reads the old copy, whole.
    var info = stat()
    #expect(fstat(reader, &info) == 0 && info.st_size == 2 + 25)
  }

  /// An outbox written on a thread of its own.
  final class Writing: @unchecked Sendable {
    let outbox: Outbox
    let done = DispatchSemaphore(value: 0)
    init(_ outbox: Outbox) { self.outbox = outbox }
    func run(_ data: Data) {
      outbox.write(data)
      done.signal()
    }
  }

  // MARK: - An outbox that fails its checksum

  /// An outbox that is not a valid file is "passed over, seen now"; one that fails its
  /// checksum (a crash cut it short) was passed over and never seen: every refresh of every
  /// store took the data file's lock and read both files again, until the next write.
  @Test("an outbox that fails its checksum is passed over once, not at every refresh")
  func tornOutboxSeenOnce() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let path = outbox.path
    var torn = try Data(contentsOf: URL(fileURLWithPath: path))
    torn[torn.count / 2] ^= 0x01
    try torn.write(to: URL(fileURLWithPath: path))
    let (store, backing) = try laptop(file)
    #expect(backing.isOutboxNew)
    try store.refresh()
    #expect(store.todos.map(\.title) == ["Buy milk"])
    #expect(!backing.isOutboxNew, "weighed once: the next refresh needs no lock")
  }

  // MARK: - What the outbox's place may hold

  /// A rename replaced whatever was at the outbox's path; written in place, a FIFO or a link
  /// there stopped the outbox for good — and, being there, it stayed new to every store.
  @Test("a FIFO or a link at the outbox's path is replaced by the next write", arguments: [0, 1])
  func notARegularFileReplaced(kind: Int) throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let path = outbox.path
    #expect(unlink(path) == 0)
    let elsewhere = folder.file("elsewhere")
    try Data("keep".utf8).write(to: elsewhere)
    if kind == 0 {
      #expect(mkfifo(path, 0o600) == 0)
    } else {
      #expect(symlink(elsewhere.path, path) == 0)
    }
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(outbox.read()?.data == (try Data(contentsOf: file)))
    #expect(text(elsewhere) == "keep", "a link's target is never written")
  }

  /// Writers of the outbox before b30e5fb wrote a temporary file and renamed it; the tidying
  /// of the outbox folder no longer removed those that writers killed mid-copy left.
  @Test("a process's first write still removes the temporaries that older writers left")
  func oldTemporariesRemoved() throws {
    let state = folder.file("state")
    let outboxFolder = state.appendingPathComponent("stores/outbox")
    try FileManager.default.createDirectory(at: outboxFolder, withIntermediateDirectories: true)
    let temporary = outboxFolder.appendingPathComponent(
      FileSystem.temporaryName(of: "todos.json-00000000000000aa", 42))
    try Data("{".utf8).write(to: temporary)
    let outbox = Outbox(of: file.path, in: state, device: { DeviceID("laptop")! })
    #expect(outbox.write(Data("{}".utf8)) != nil)
    #expect(!FileManager.default.fileExists(atPath: temporary.path))
  }

  // MARK: - Processes of one device

  /// `stores-writer todos FILE COUNT TAG` started with its local state in `state` (shared:
  /// one device).
  func writer(_ tag: String, count: Int, state: URL) throws -> Process {
    let process = Process()
    process.environment = ProcessInfo.processInfo.environment.merging([
      "STORES_STATE_HOME": state.path
    ]) { $1 }
    process.executableURL = BuildProducts.executable("stores-writer")
    process.arguments = ["todos", file.path, "\(count)", tag]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// The one outbox in `state`, split into its copy and whether its checksum holds.
  func outboxCopy(in state: URL) throws -> (data: Data, isWhole: Bool) {
    let outboxes = state.appendingPathComponent("stores/outbox")
    let names = try FileManager.default.contentsOfDirectory(atPath: outboxes.path)
      .filter { !$0.hasPrefix(".") }
    try #require(names.count == 1, "one outbox: \(names)")
    let bytes = try Data(contentsOf: outboxes.appendingPathComponent(names[0]))
    let size = bytes.count - 25
    guard size >= 0 else { return (bytes, false) }
    var checksum = Outbox.Checksum()
    bytes.prefix(size).withUnsafeBytes { checksum.combine($0) }
    let hex = String(checksum.finalize(), radix: 16)
    let trailer = "\noutbox \(String(repeating: "0", count: 16 - hex.count) + hex)\n"
    return (bytes.prefix(size), bytes.suffix(25) == Data(trailer.utf8))
  }

  /// Two processes of one device writing at once leave the outbox whole, holding the file.
  @Test("two processes writing at once leave the outbox whole and equal to the file")
  func twoProcesses() throws {
    let state = folder.file("state-shared")
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Start")))
    let writers = try ["A", "B"].map { try writer($0, count: 40, state: state) }
    for process in writers { process.waitUntilExit() }
    #expect(writers.allSatisfy { $0.terminationStatus == 0 })
    let (data, isWhole) = try outboxCopy(in: state)
    #expect(isWhole)
    #expect(data == (try Data(contentsOf: file)))
    #expect(try deviceStore("laptop", in: folder.url).todos.count == 81)
  }

  /// A writer killed at any moment leaves a whole outbox that is a version of the file, or
  /// one that fails its checksum — never a mix that passes; the next write makes it whole.
  @Test("a writer killed mid-write leaves no outbox that passes for a mix", arguments: 0..<6)
  func killedWriter(round: Int) throws {
    let state = folder.file("state-killed")
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Start")))
    let process = try writer("K", count: 100_000, state: state)
    // Killed once it writes (its outbox is there, however long a loaded machine took to start
    // it), at a moment that differs from round to round.
    let outboxes = state.appendingPathComponent("stores/outbox").path
    while process.isRunning,
      ((try? FileManager.default.contentsOfDirectory(atPath: outboxes)) ?? [])
        .allSatisfy({ $0.hasPrefix(".") })
    {
      usleep(1_000)
    }
    Thread.sleep(forTimeInterval: 0.05 + Double(round) * 0.07)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let file = try Data(contentsOf: file)
    let (data, isWhole) = try outboxCopy(in: state)
    if isWhole {
      // The file's version, or the one before (killed between the file's rename and the
      // outbox's write): a valid file either way.
      let isValid = (try? JSONSerialization.jsonObject(with: data)) != nil
      #expect(data == file || isValid)
    }
    let again = try writer("L", count: 1, state: state)
    again.waitUntilExit()
    let after = try outboxCopy(in: state)
    let written = try Data(contentsOf: self.file)
    #expect(after.isWhole && after.data == written)
  }

  // MARK: - An outbox written before b30e5fb

  /// An outbox without a trailer — as builds before the checksum wrote it, the file's bytes
  /// alone — is passed over as torn, the write it held with it: it cannot be told from a
  /// longer copy cut short, which can be a valid file mixing two versions. (No release wrote
  /// one.)
  @Test("an outbox without a checksum is passed over, not taken for a version")
  func outboxWithoutChecksum() throws {
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = try phoneVersion(adding: "Call Ann")
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Water plants")))
    try Data(contentsOf: file).write(to: URL(fileURLWithPath: outbox.path))
    try engineRenames(phone)
    let next = try deviceStore("laptop", in: folder.url)
    try next.refresh()
    #expect(Set(next.todos.map(\.title)) == ["Buy milk", "Call Ann"])
  }
}

/// A folder on a file system whose times have whole seconds (ext4 with 128-byte inodes, in a
/// loop device), mounted for one test and unmounted with it. Needs root and `mkfs.ext4`.
final class CoarseClockFolder {
  let url: URL
  private let image: URL

  /// Whether one can be made here.
  static let isPossible =
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/mkfs.ext4")
    && FileManager.default.fileExists(atPath: "/dev/loop-control")

  init?() {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "coarse-\(UUID().uuidString)")
    image = base.appendingPathExtension("img")
    url = base
    guard
      (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true))
        != nil,
      FileManager.default.createFile(atPath: image.path, contents: nil),
      truncate(image.path, 16 << 20) == 0,
      Self.run("/usr/sbin/mkfs.ext4", ["-q", "-F", "-I", "128", image.path]),
      Self.run("/bin/mount", ["-o", "loop", image.path, url.path])
    else {
      try? FileManager.default.removeItem(at: image)
      return nil
    }
  }

  deinit {
    _ = Self.run("/bin/umount", [url.path])
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.removeItem(at: image)
  }

  /// Waits until the next second begins (and a little more).
  static func waitForNextSecond() {
    let now = Date().timeIntervalSince1970
    Thread.sleep(forTimeInterval: now.rounded(.down) + 1.02 - now)
  }

  private static func run(_ tool: String, _ arguments: [String]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
