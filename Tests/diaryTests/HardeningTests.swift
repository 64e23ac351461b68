import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// The defects an adversarial run found, each reproduced with real processes and files — a
/// deleted lock file, an in-place edit within a clock tick, a FIFO, a stopped lock holder,
/// root and other owners, a hostile umask, links, temporaries — through the library and the
/// built `diary`.
@MainActor
@Suite("Reliability: hardening", .serialized)
struct HardeningTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }
  static let writer = BuildProducts.executable("stores-writer")

  // MARK: No write lost

  @Test("a lock file deleted while writers run never lets two of them in at once")
  func deletedLockFile() throws {
    let file = folder.file("todos.json")
    let writers = try (0..<4).map { index in
      try WriterProcess(
        Self.writer, ["todos", file.path, "100", "w\(index)"], environment: diary.environment)
    }
    var deletions = 0
    while writers.contains(where: { $0.process.isRunning }) {
      if unlink(file.path + ".lock") == 0 { deletions += 1 }
      usleep(200)
    }
    for writer in writers { _ = writer.kill() }
    #expect(
      writers.allSatisfy { $0.process.terminationStatus == 0 },
      "\(writers.map(\.errorOutput).joined())")
    let titles = try TodosStore(contentsOf: file).todos.map(\.title)
    #expect(titles.count == 400, "lost \(400 - titles.count) acknowledged adds")
    #expect(deletions > 0, "the lock file was deleted under the writers")
  }

  @Test(
    "a same-size edit in place within one clock tick is noticed, not overwritten",
    .enabled(if: TestPlatform.canMountRamfs, "mounts a ramfs (Linux, root): coarse timestamps"))
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

  @Test("a write that fails part way through a large file replaces nothing and leaves nothing")
  func writeFailingPartWay() throws {
    // 20,000 todos, about 4 MB: written in many parts, of which the first fit under the
    // file size limit (1 or 2 MB, as the shell counts its blocks) and a later one does not.
    let original = todosFile(count: 20_000)
    let url = folder.write(original, to: "todos.json")
    var limited = diary
    limited.launcher = ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f 2048; exec \"$0\" \"$@\""]
    let result = limited.run("todos", "add", "one too many")
    #expect(result.exitCode == 74)
    #expect(
      result.errorOutput
        == "diary: error: cannot write \(url.path): File too large\n", "\(result.errorOutput)")
    #expect(try String(contentsOf: url, encoding: .utf8) == original)
    // Beside the data, only the machine's home (its local state: the device id).
    #expect(folder.names == ["home", "todos.json", "todos.json.lock"])
    // Without the limit, the same command writes the whole file.
    #expect(diary.run("todos", "add", "one too many").exitCode == 0)
    #expect(try TodosStore(contentsOf: url).todos.count == 20_001)
  }

  // MARK: No hang

  @Test(
    "a FIFO as a data file is refused at once (66), reading or writing",
    arguments: [
      ["todos", "list"], ["todos", "add", "x"], ["settings", "list"],
      ["workouts", "add", "Run", "--distance", "5"],
    ])
  func fifo(arguments: [String]) throws {
    let name = arguments[0] == "settings" ? "settings.json" : "\(arguments[0]).json"
    #expect(mkfifo(folder.file(name).path, 0o600) == 0)
    let result = try runWithin(seconds: 10, arguments)
    #expect(result.exitCode == 66, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("is not a regular file"))
    #expect(folder.names == [name], "nothing else was created")
    #expect(throws: StoreFileError(path: folder.file(name).path, problem: .notARegularFile)) {
      if name == "todos.json" { _ = try TodosStore(contentsOf: folder.file(name)) }
      if name == "settings.json" { _ = try SettingsStore(contentsOf: folder.file(name)) }
      if name == "workouts.json" { _ = try WorkoutsStore(contentsOf: folder.file(name)) }
    }
  }

  @Test("a stopped lock holder makes writers fail after the timeout (75), naming it")
  func stoppedHolder() throws {
    let file = folder.file("todos.json")
    let holder = try WriterProcess(
      Self.writer, ["hold", file.path, "60", "held"], environment: diary.environment,
      waitingFor: "locked")
    kill(holder.process.processIdentifier, SIGSTOP)
    defer {
      kill(holder.process.processIdentifier, SIGCONT)
      _ = holder.kill()
    }
    let before = folder.snapshot()
    let started = ContinuousClock.now
    let result = try runWithin(seconds: 30, ["todos", "add", "x"])
    #expect(ContinuousClock.now - started < .seconds(20))
    #expect(result.exitCode == 75, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("\(file.path).lock"))
    #expect(result.errorOutput.contains("try again"))
    #expect(folder.snapshot() == before, "nothing changed")

    let store = try TodosStore(contentsOf: file, lockTimeout: .milliseconds(200))
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.addTodo(Todo(title: "y")))
    }
    guard case .lockTimedOut(let lock, _, _) = error?.problem else {
      Issue.record("expected a lock timeout, got \(String(describing: error))")
      return
    }
    #expect(lock == file.path + ".lock")
    #expect(store.todos.map(\.title) == ["held first"], "the write it saw, not its own")

    // The abandoned waits let go of the lock they get once the holder is gone.
    kill(holder.process.processIdentifier, SIGCONT)
    _ = holder.kill()
    try store.trySend(.addTodo(Todo(title: "y")))
    #expect(store.todos.map(\.title) == ["y", "held first"])
    #expect(try runWithin(seconds: 30, ["todos", "add", "z"]).exitCode == 0)
  }

  @Test(
    "a lock that timed out names the process holding it",
    .enabled(
      if: TestPlatform.namesLockHolders,
      "only Linux tells who holds a flock (/proc/locks); Apple platforms have no public table"))
  func holderNamed() throws {
    let file = folder.file("todos.json")
    let holder = try WriterProcess(
      Self.writer, ["hold", file.path, "60", "held"], environment: diary.environment,
      waitingFor: "locked")
    kill(holder.process.processIdentifier, SIGSTOP)
    defer {
      kill(holder.process.processIdentifier, SIGCONT)
      _ = holder.kill()
    }
    let result = try runWithin(seconds: 30, ["todos", "add", "x"])
    #expect(result.exitCode == 75, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("process \(holder.process.processIdentifier)"))
    let store = try TodosStore(contentsOf: file, lockTimeout: .milliseconds(200))
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.addTodo(Todo(title: "y")))
    }
    guard case .lockTimedOut(_, let pid, _) = error?.problem else {
      Issue.record("expected a lock timeout, got \(String(describing: error))")
      return
    }
    #expect(pid == holder.process.processIdentifier)
  }

  // MARK: Owner, mode, umask

  @Test(
    "root writing a user's file keeps its owner, group and mode; new files get the folder's",
    .enabled(if: TestPlatform.isRoot, "needs root to give files to another user"))
  func keepsTheOwner() throws {
    let (uid, gid): (uid_t, gid_t) = (54_321, 54_322)
    let data = folder.file("user")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    #expect(chown(data.path, uid, gid) == 0)
    let user = DiaryProcess(folder: data)
    #expect(user.run("todos", "add", "first").exitCode == 0)
    for name in ["todos.json", "todos.json.lock"] {
      let info = try fileInfo(data.appendingPathComponent(name))
      #expect((info.st_uid, info.st_gid) == (uid, gid), "\(name) belongs to the folder's owner")
      #expect(info.st_mode & 0o777 == 0o600, "\(name)")
    }
    chmod(data.appendingPathComponent("todos.json").path, 0o640)
    #expect(user.run("todos", "add", "second").exitCode == 0)
    let info = try fileInfo(data.appendingPathComponent("todos.json"))
    #expect((info.st_uid, info.st_gid) == (uid, gid))
    #expect(info.st_mode & 0o777 == 0o640)
    let nested = DiaryProcess(folder: data.appendingPathComponent("sub/folder"))
    #expect(nested.run("settings", "set", "sleepGoal", "7").exitCode == 0)
    let created = try fileInfo(data.appendingPathComponent("sub"))
    #expect((created.st_uid, created.st_gid) == (uid, gid))
    #expect(created.st_mode & 0o777 == 0o700)
  }

  @Test(
    "a restrictive umask still makes files the next write can replace",
    arguments: [
      "0277", "0377", "0777",
    ])
  func umask(mask: String) throws {
    var masked = DiaryProcess(folder: folder.file("data"))
    masked.launcher = ["/bin/sh", "-c", "umask \(mask); exec \"$0\" \"$@\""]
    for title in ["one", "two", "three"] {
      let result = masked.run("todos", "add", title)
      #expect(result.exitCode == 0, "\(result.errorOutput)")
    }
    #expect(masked.run("settings", "set", "sleepGoal", "6").exitCode == 0)
    #expect(masked.run("settings", "set", "sleepGoal", "7").exitCode == 0)
    #expect(try fileInfo(folder.file("data")).st_mode & 0o777 == 0o700)
    for name in ["todos.json", "todos.json.lock", "settings.json"] {
      #expect(try fileInfo(folder.file("data/\(name)")).st_mode & 0o777 == 0o600, "\(name)")
    }
    #expect(try TodosStore(contentsOf: folder.file("data/todos.json")).todos.count == 3)
  }

  // MARK: Links

  @Test("a chain of too many links is refused, and no link is replaced by a file")
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

  @Test("a data folder removed and made anew by its owner is written again")
  func remadeFolder() throws {
    let data = folder.file("data")
    let store = try TodosStore(contentsOf: data.appendingPathComponent("todos.json"))
    try store.trySend(.addTodo(Todo(title: "before")))
    try FileManager.default.removeItem(at: data)
    try store.trySend(.addTodo(Todo(title: "after")))
    #expect(try TodosStore(contentsOf: data.appendingPathComponent("todos.json")).todos.count == 1)
  }

  // MARK: Temporaries

  @Test("a store on 'todos' leaves diary's in-flight temporaries of 'todos.json' alone")
  func temporariesOfAnotherFile() throws {
    let inFlight = folder.write("{}", to: ".todos.json.1x2y3z.tmp")
    let stale = folder.write("{}", to: ".todos.k9z.tmp")
    let notOurs = folder.write("{}", to: ".todos.has.dots.tmp")
    let store = try TodosStore(contentsOf: folder.file("todos"))
    try store.trySend(.addTodo(Todo(title: "x")))
    #expect(FileManager.default.fileExists(atPath: inFlight.path))
    #expect(FileManager.default.fileExists(atPath: notOurs.path))
    #expect(!FileManager.default.fileExists(atPath: stale.path), "a crashed writer's own is gone")
  }

  @Test(
    "a writer clears the litter of crashed writers and of old lock files' conflict copies, and nothing else"
  )
  func litter() throws {
    let stale = folder.write("{}", to: ".syncthing.todos.json.0000000000k9z.tmp")
    let copies = [
      "todos.json.sync-conflict-20261201-135016-E7BDN4G.lock",
      "todos.json (Ann's conflicted copy 2026-12-01).lock",
      "todos.json (conflicted copy 2026-12-01 135016).lock",
    ]
    for (index, copy) in copies.enumerated() {
      _ = folder.write(index == 0 ? "" : "4242\n", to: copy)
    }
    // Syncthing's own in-flight files, of this file and of one named like it; a copy that
    // holds something else; a copy with another name (a hard link); a folder named like one.
    let kept = [
      ".syncthing.todos.json.tmp", ".syncthing.todos.json.bak.tmp",
      "todos.json.sync-conflict-20261201-135016-AAAAAAA.lock",
      "todos.json.sync-conflict-20261201-135016-BBBBBBB.lock",
    ]
    _ = folder.write("{}", to: kept[0])
    _ = folder.write("{}", to: kept[1])
    _ = folder.write("notes", to: kept[2])
    #expect(link(folder.write("1\n", to: "other").path, folder.file(kept[3]).path) == 0)
    let directory = folder.file("todos.json.sync-conflict-20261201-135016-CCCCCCC.lock")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    let store = try TodosStore(contentsOf: folder.file("todos.json"))
    try store.trySend(.addTodo(Todo(title: "x")))
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    for copy in copies {
      #expect(!FileManager.default.fileExists(atPath: folder.file(copy).path), "\(copy)")
    }
    for name in kept + [directory.lastPathComponent] {
      #expect(FileManager.default.fileExists(atPath: folder.file(name).path), "\(name)")
    }
  }

  // MARK: The watch

  @Test("the watch goes on after its folder is renamed away or removed and made anew")
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

  // MARK: Helpers

  /// Runs `diary` with `arguments`, killing it after `seconds` (a hang fails the test).
  func runWithin(seconds: Int, _ arguments: [String]) throws -> DiaryProcess.Result {
    let process = try BackgroundDiary(arguments, environment: diary.environment)
    let deadline = ContinuousClock.now + .seconds(seconds)
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    let hung = process.isRunning
    if hung { process.kill() }
    let result = process.wait()
    try #require(!hung, "diary \(arguments) hung")
    return result
  }

  func fileInfo(_ url: URL) throws -> stat {
    var info = stat()
    try #require(lstat(url.path, &info) == 0, "\(url.path)")
    return info
  }

  func linkTarget(_ url: URL) throws -> String {
    try FileManager.default.destinationOfSymbolicLink(atPath: url.path)
  }
}
