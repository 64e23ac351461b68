import Dispatch
import Foundation
import StoreTesting
import TestSupport
import Testing

@testable import Stores

/// Attacks on saving in the background (``SaveMode/inBackground``): each a way it once went
/// wrong (the comment above the test says how, as it was found), or an attack that held.
@Suite("Saving in the background: attacks")
@MainActor
struct BackgroundSavingAttackTests {
  let folder = TemporaryFolder()
  let utc = TimeZone(identifier: "UTC")!

  /// A store on `name` in the folder, saving in the background.
  func backgroundStore(_ name: String = "todos.json") throws -> TodosStore {
    try folder.backgroundTodosStore(name)
  }

  /// The todos in the file `name`, read by a new store.
  func fileTodos(_ name: String = "todos.json") throws -> [Todo] {
    try folder.todos(in: name)
  }

  /// Another writer of the file `name` (a second store in this process, saving before
  /// returning, as another process would).
  func other(_ name: String = "todos.json") throws -> TodosStore {
    try TodosStore(contentsOf: folder.file(name))
  }

  func csvFixture(_ name: String) -> URL {
    fixturesFolder.appendingPathComponent("csv/\(name)")
  }

  // MARK: - trySend resolves offsets after the queued batch caught up

  // Found: `StoreCore.sendThroughBacking` (StoreCore.swift: `try saveInBackground()` comes
  // before `Owner.resolve(action, in: storedState)`) resolves the positions of a trySend's
  // action against the state in memory *after* draining the background writer, whose
  // catch-up with another writer's change moved the rows: the offset the user tapped is
  // resolved against a list they never saw, and another item is removed.
  @Test("trySend with offsets after queued actions removes the row the user saw")
  func trySendOffsetsAfterQueuedCatchUp() throws {
    let a = Todo(title: "a")
    try other().trySend(.addTodo(a))
    let store = try backgroundStore()
    let mine = Todo(title: "mine")
    store.send(.addTodo(mine))
    let theirs = Todo(title: "theirs")
    try other().trySend(.addTodo(theirs))
    // What the user sees: mine, a. They swipe to delete row 1, "a".
    #expect(store.todos == [mine, a])
    try store.trySend(.removeTodosAtOffsets(IndexSet(integer: 1)))
    #expect(store.todos.contains(theirs), "another process's todo was removed instead")
    #expect(!store.todos.contains(a), "the todo the user removed is still there")
    #expect(try fileTodos() == [mine, theirs])
  }

  // Found (same cause): a reload asked for by `refresh()` (or by the watch) is still
  // pending; `trySend` performs it first, then resolves the offset against the reloaded list.
  @Test("trySend with offsets after a pending reload removes the row the user saw")
  func trySendOffsetsAfterPendingReload() throws {
    let a = Todo(title: "a")
    try other().trySend(.addTodo(a))
    let store = try backgroundStore()
    let theirs = Todo(title: "theirs")
    try other().trySend(.addTodo(theirs))
    try store.refresh()  // the watch would do this: in the background mode it only asks
    #expect(store.todos == [a])
    try store.trySend(.removeTodosAtOffsets(IndexSet(integer: 0)))
    #expect(store.todos == [theirs], "the wrong todo was removed")
    #expect(try fileTodos() == [theirs])
  }

  // MARK: - an import whose background save fails ends as "finished"

  // Found: in the background mode `.finishImport` is applied in memory first, which sets the
  // memory-only `importStatus` to `.finished`. When its write fails, `writeEnded`
  // (StoreCore+BackgroundSaving.swift, `Owner.failedSave … send(failure)`) sends
  // `.failImport`, which the reducer ignores because the status is no longer `.importing`
  // (WorkoutsStore.swift `case .failImport: return state.isImporting && …`); then
  // `catchUpWithFile` keeps that memory-only `.finished` status. The workouts are gone but the
  // status says the import added them. Saving before returning, the status ends as `.failed`
  // (WorkoutsImportTests.saveFails).
  @Test("an import whose background save fails ends as failed")
  func importSaveFailsInBackground() async throws {
    let data = folder.file("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let store = try WorkoutsStore(
      contentsOf: data.appendingPathComponent("workouts.json"), environment: .test())
    store.saveMode = .inBackground
    makeReadOnly(data)
    defer { TemporaryFolder.makeWritable(data) }
    store.send(
      .importWorkouts(
        from: csvFixture("workouts.csv"), options: WorkoutsImportOptions(timeZone: utc))
    )
    await store.settle()
    await store.saved
    #expect(store.lastError is StoreFileError)
    #expect(store.state.workouts.isEmpty)
    guard case .failed(let error) = store.state.importStatus, case .notSaved = error.problem else {
      Issue.record("the import's status is \(store.state.importStatus), not failed: not saved")
      return
    }
  }

  // MARK: - catch-up replays a queued action over a later memory-only action

  // Found: `catchUpWithFile` (StoreCore+BackgroundSaving.swift) keeps the memory-only state
  // of memory, then applies the queued actions again on top. A queued `.finishImport` (import
  // A) also writes the memory-only `importStatus`; an import B started after it (memory-only
  // `.importWorkouts`, applied at once, never queued) had set it to `.importing`. Replayed, the
  // older `.finishImport` puts back `.finished(A)` over B's `.importing`: B's progress and
  // B's failure (`.failImport` needs `.importing`) are then ignored.
  @Test("a catch-up keeps the status of an import started after a queued finishImport")
  func catchUpReplaysOverMemoryOnly() async throws {
    let url = folder.file("workouts.json")
    let store = try WorkoutsStore(contentsOf: url, environment: .test())
    store.saveMode = .inBackground
    // A batch is written while another process changes the file: its result is a reload.
    store.send(.addWorkout(try Workout(name: "Mine", distance: 1)))
    try WorkoutsStore(contentsOf: url).trySend(
      .addWorkout(try Workout(name: "Theirs", distance: 2)))
    store.core.startWrite()
    store.core.background?.writer.waitUntilIdle()
    // Meanwhile, on the main actor: import A finishes (queued), import B starts (memory-only).
    let csv = try Data(contentsOf: csvFixture("workouts.csv"))
    let importA = try WorkoutsCSV.read(
      csv, path: "a.csv", options: WorkoutsImportOptions(timeZone: utc), now: Date()
    ) { UUID() }
    store.send(.finishImport(importA))
    let importB = csvFixture("workouts.csv")
    store.send(.importWorkouts(from: importB, options: WorkoutsImportOptions(timeZone: utc)))
    guard case .importing = store.state.importStatus else {
      Issue.record("B did not start: \(store.state.importStatus)")
      return
    }
    try store.save()  // the batch's result arrives: memory catches up with the file
    if case .importing = store.state.importStatus {
    } else {
      Issue.record("import B runs, but the status says \(store.state.importStatus)")
    }
    store.send(.cancelImport)
    await store.settle()
    await store.saved
  }

  // MARK: - an undo step is kept for an action whose save failed

  // Found: `sendInBackground` records the inverse at once (`sendInMemory`), and
  // `writeEnded`'s failure path (StoreCore+BackgroundSaving.swift, `.failure`) rolls memory
  // back with `catchUpWithFile` but leaves the step in the history. So Undo names and
  // "undoes" an action that never happened, and the user's real last action needs a second
  // Undo. Saving before returning, a failed action records no step.
  @Test("a failed background save leaves no undo step for the lost action")
  func failedSaveLeavesUndoStep() async throws {
    let (store, data) = try folder.backgroundTodosStoreInFolderOfItsOwn()
    let todo = Todo(title: "kept")
    store.send(.addTodo(todo))
    store.send(.toggleTodo(id: todo.id))
    try store.save()
    makeReadOnly(data)
    store.send(.addTodo(Todo(title: "lost")))
    await store.saved
    TemporaryFolder.makeWritable(data)
    #expect(store.lastError is StoreFileError)
    #expect(store.todos.map(\.title) == ["kept"])
    #expect(store.undoHistory.undoSteps.last?.name == "Toggle Todo", "a step for the lost add")
    #expect(throws: StoreFileError.self) { try store.save() }  // the lost add, reported once
    let outcome = store.undo()
    #expect(outcome?.name == "Toggle Todo")
    try store.save()
    #expect(try fileTodos("data/todos.json").first?.isDone == false)
  }

  // Found (same cause, worse): `undo()` in the background mode pops the step and pushes a
  // redo step at once (StoreCore.swift `undo(durably: false)` → `apply` → `sendInBackground`);
  // when that write fails, `catchUpWithFile` puts the undone action back in memory (the file
  // still has it) but the history keeps the undo popped: the action is there and can no
  // longer be undone, while Redo is offered for it. Saving before returning, a failed undo
  // pushes its step back (`history.pushUndo(step)`).
  @Test("a background undo whose save fails keeps its step to undo")
  func failedUndoLosesStep() async throws {
    let (store, data) = try folder.backgroundTodosStoreInFolderOfItsOwn()
    let todo = Todo(title: "kept")
    store.send(.addTodo(todo))
    try store.save()
    makeReadOnly(data)
    #expect(store.undo()?.name == "Add Todo")
    #expect(store.todos.isEmpty)
    await store.saved
    TemporaryFolder.makeWritable(data)
    #expect(store.lastError is StoreFileError)
    #expect(store.todos == [todo], "the undo was not saved: the todo is back")
    #expect(store.canUndo, "the todo is there, but its addition can no longer be undone")
    #expect(!store.canRedo, "Redo offered for an undo that did not happen")
  }

  // MARK: - save() returns normally though an action sent before it was lost

  // Found: `saveInBackground` (StoreCore+BackgroundSaving.swift, `background.failure = nil`
  // on entry) throws only the failures of writes that end while it blocks. A write that
  // failed a moment before — its actions rolled back, reported only in `lastError` — is
  // forgotten: `try store.save()`, documented as "blocks until every action sent before is
  // saved … and throws the error of a write that failed", returns normally, and a caller
  // that saves before the app goes to the background believes the lost action is on disk.
  @Test("save() throws when an action sent before it failed to save")
  func saveAfterAsyncFailure() async throws {
    let (store, data) = try folder.backgroundTodosStoreInFolderOfItsOwn()
    makeReadOnly(data)
    defer { TemporaryFolder.makeWritable(data) }
    store.send(.addTodo(Todo(title: "lost")))
    // The end of the turn: the writer runs, fails, and the main actor hears of it.
    for _ in 0..<500 where store.hasUnsavedChanges { try await Task.sleep(for: .milliseconds(2)) }
    #expect(!store.hasUnsavedChanges)
    #expect(throws: StoreFileError.self, "save() acknowledged a lost action") {
      try store.save()
    }
    #expect(try fileTodos("data/todos.json").isEmpty)
  }

  // MARK: - save() does not throw when an observer re-enters during the catch-up

  // Found: `saveInBackground` keeps the error to throw in the shared `background.failure`,
  // and sets it to nil on entry. A callback told of the catch-up's `.reload` (sent from
  // `writeEnded` inside the outer `save()`) that calls `trySend` — say, to re-sort after a
  // reload — re-enters `saveInBackground`, which clears the outer call's failure: the outer
  // `save()` returns normally though the write it waited for failed.
  @Test("save() throws a failed write even when a callback sends during catch-up")
  func saveSwallowsFailureOnReentry() throws {
    let (store, data) = try folder.backgroundTodosStoreInFolderOfItsOwn()
    makeReadOnly(data)
    defer { TemporaryFolder.makeWritable(data) }
    let token = store.onChange { change, _ in
      if case .reload = change { try? store.trySend(.orderByDate) }
    }
    defer { token.cancel() }
    store.send(.addTodo(Todo(title: "lost")))
    #expect(throws: StoreFileError.self) { try store.save() }
    #expect(store.todos.isEmpty)
  }

  // MARK: - Thread Sanitizer: the main actor touching the backing while a batch runs

  // Found (found under `--sanitize=thread`; passes without it): `StoreCore.mergeReport`
  // (StoreCore.swift, `(backing as? any MergeReporting)?.mergeReport`) reads the backing's
  // `mergeReport` on the main actor with no regard for a running batch, while the writer's
  // transaction sets it (JSONFileBacking.swift, `mergeReport = MergeReport()`): a data race
  // on a non-Sendable struct holding arrays, against StoreBacking's "one thread at a time".
  @Test("TSAN mergeReport read while the writer writes")
  func mergeReportWhileWriting() throws {
    let store = try backgroundStore()
    for index in 0..<50 {
      store.send(.addTodo(Todo(title: "t\(index)")))
      store.core.startWrite()
      for _ in 0..<20 {
        _ = store.core.mergeReport.notMerged.count
        usleep(50)
      }
      store.core.background?.writer.waitUntilIdle()
    }
    try store.save()
    #expect(try fileTodos().count == 50)
  }

  // The main actor's other uses of the store while batches run: refresh, undo, trySend,
  // watch and stop, the mode set back and forth, another writer, the watch's own callbacks.
  @Test("TSAN the main actor's uses of the store while batches run")
  func mainActorWhileWriting() async throws {
    let store = try backgroundStore()
    try store.watch()
    let writer = try other()
    for index in 0..<200 {
      store.send(.addTodo(Todo(title: "mine \(index)")))
      if index % 3 == 0 { store.core.startWrite() }
      switch index % 7 {
      case 0: try store.refresh()
      case 1: _ = store.undo()
      case 2: try store.trySend(.addTodo(Todo(title: "durable \(index)")))
      case 3:
        store.stopWatching()
        try store.watch()
      case 4:
        store.saveMode = .beforeReturning
        store.saveMode = .inBackground
      case 5: try writer.trySend(.addTodo(Todo(title: "theirs \(index)")))
      default: _ = store.hasUnsavedChanges
      }
      if index % 5 == 0 { await Task.yield() }
      if index % 11 == 0 { try await Task.sleep(for: .milliseconds(2)) }
    }
    await store.saved
    try store.refresh()
    try store.save()
    store.stopWatching()
    #expect(try fileTodos() == store.todos)
    #expect(store.lastError == nil)
  }

  // MARK: - SIGKILL mid-batch

  @Test("held: SIGKILL of a process saving in the background loses only what was not acked")
  func killedMidBatch() throws {
    let url = folder.file("todos.json")
    var acknowledged = Set<String>()
    var total = 0
    for round in 0..<30 {
      let process = Process()
      let output = Pipe()
      process.executableURL = BuildProducts.executable("stores-writer")
      process.arguments = ["background", url.path, "1000000", "r\(round)"]
      process.environment = ProcessInfo.processInfo.environment.merging([
        "STORES_STATE_HOME": folder.file("state-\(round)").path
      ]) { $1 }
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(UInt32.random(in: 30_000...150_000))
      kill(process.processIdentifier, SIGKILL)
      let printed = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let acks = printed.split(separator: "\n").compactMap { line in
        line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
      }
      total += acks.count
      acknowledged.formUnion(acks.map { "r\(round) \($0)" })
      let found = Set(try fileTodos().map(\.title))
      let missing = acknowledged.subtracting(found)
      try #require(missing.isEmpty, "round \(round): acknowledged, not in the file: \(missing)")
    }
    #expect(total > 0, "no process acknowledged anything: the attack did not run")
    print("background kill test: \(total) acknowledged, all found")
  }

  // MARK: - Attacks that held

  @Test("held: setting the mode back while someone awaits saved resumes them")
  func modeBackResumesWaiters() async throws {
    let store = try backgroundStore()
    store.send(.addTodo(Todo(title: "one")))
    let waiter = Task { @MainActor in await store.saved }
    await Task.yield()
    store.saveMode = .beforeReturning
    await waiter.value
    #expect(try fileTodos().count == 1)
  }

  @Test("held: a failed write then a good one; saved resumes after each")
  func failThenSucceed() async throws {
    let (store, data) = try folder.backgroundTodosStoreInFolderOfItsOwn()
    makeReadOnly(data)
    store.send(.addTodo(Todo(title: "lost")))
    await store.saved
    #expect(store.lastError != nil)
    TemporaryFolder.makeWritable(data)
    let kept = Todo(title: "kept")
    store.send(.addTodo(kept))
    await store.saved
    #expect(store.lastError == nil)
    #expect(try fileTodos("data/todos.json") == [kept])
    #expect(store.todos == [kept])
  }

  @Test("held: the store released while its writer writes: the batch reaches the file")
  func releasedMidWrite() async throws {
    let todo = Todo(title: "written")
    do {
      let store = try backgroundStore()
      store.send(.addTodo(todo))
      store.core.startWrite()
    }
    // The writer keeps the backing: wait for its queue by a store on the same file.
    for _ in 0..<200 where try fileTodos().isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    #expect(try fileTodos() == [todo])
  }

  @Test("held: a watched store hears its own writes as no change, and others' as reloads")
  func watchedOwnWrites() async throws {
    let store = try backgroundStore()
    try store.watch()
    defer { store.stopWatching() }
    var reloads = 0
    let token = store.onChange { change, _ in if case .reload = change { reloads += 1 } }
    defer { token.cancel() }
    for index in 0..<20 {
      store.send(.addTodo(Todo(title: "mine \(index)")))
      await store.saved
      try await Task.sleep(for: .milliseconds(5))
    }
    try await Task.sleep(for: .milliseconds(200))
    try store.save()
    #expect(reloads == 0)
    let theirs = Todo(title: "theirs")
    try other().trySend(.addTodo(theirs))
    for _ in 0..<200 where !store.todos.contains(theirs) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(store.todos.first == theirs)
    #expect(reloads == 1)
    #expect(try fileTodos() == store.todos)
  }

  @Test("held: a reload result then a later batch; memory ends equal to the file")
  func reloadThenBatch() throws {
    let store = try backgroundStore()
    try other().trySend(.addTodo(Todo(title: "theirs")))
    try store.refresh()
    store.core.startWrite()  // the reload runs
    let mine = Todo(title: "mine")
    store.send(.addTodo(mine))  // queued meanwhile
    try store.save()
    #expect(store.todos.map(\.title) == ["mine", "theirs"])
    #expect(try fileTodos() == store.todos)
  }

  @Test("held: 10,000 todos, 1,000 sends with refreshes and another writer in between")
  func bigFile() async throws {
    let seed = try other()
    let many = (0..<10_000).map { Todo(title: "todo \($0)") }
    try seed.trySend(.restoreTodos([TodoRun(many, before: nil, offset: 0)]))
    #expect(seed.todos.count == 10_000)
    let store = try backgroundStore()
    let writer = try other()
    for index in 0..<1_000 {
      switch index % 4 {
      case 0: store.send(.addTodo(Todo(title: "new \(index)")))
      case 1: store.send(.toggleTodo(id: store.todos[index % store.todos.count].id))
      case 2: store.send(.removeTodosAtOffsets(IndexSet(integer: index % store.todos.count)))
      default: store.send(.moveTodosAtOffsets(IndexSet(integer: 3), to: 0))
      }
      if index % 100 == 50 { try store.refresh() }
      if index % 250 == 0 { try writer.trySend(.addTodo(Todo(title: "theirs \(index)"))) }
      if index % 10 == 0 { await Task.yield() }
    }
    await store.saved
    try store.refresh()
    try store.save()
    #expect(try fileTodos() == store.todos)
    #expect(store.todos.contains { $0.title == "theirs 750" })
    // A send never waits on the disk: while another process holds the file's lock, 100 more
    // apply in memory at once (a send that wrote before returning could not), and reach the
    // file once the lock is let go.
    let lock = open(folder.file("todos.json.lock").path, O_RDWR)
    defer { close(lock) }
    try #require(flock(lock, LOCK_EX) == 0)
    for index in 0..<100 { store.send(.addTodo(Todo(title: "held \(index)"))) }
    #expect(store.todos.prefix(100).allSatisfy { $0.title.hasPrefix("held ") })
    #expect(try !fileTodos().contains { $0.title.hasPrefix("held ") })
    #expect(flock(lock, LOCK_UN) == 0)
    await store.saved
    #expect(try fileTodos() == store.todos)
    #expect(store.lastError == nil)
  }
}
