import Foundation
import Observation
import StoreTesting
import Testing

@testable import Stores

/// ``Store/syncStatus``: what a store merged, left, and read of the other devices, published
/// through Observation.
@Suite("Sync status: merges, copies left, old copies and clocks ahead, observable")
@MainActor
struct SyncStatusTests {
  let folder = TemporaryFolder()
  let copy = "todos.sync-conflict-20261201-135016-PHONE01.json"
  static let hour: Int64 = 3_600_000

  /// Calls `body`, and returns whether Observation told a view that read the store's sync
  /// status of a change.
  func changesSyncStatus(of store: TodosStore, _ body: () throws -> Void) rethrows -> Bool {
    let told = Flag()
    withObservationTracking {
      _ = store.syncStatus
    } onChange: {
      told.set()
    }
    try body()
    return told.isSet
  }

  @Test("a store in memory, and a store on a file that merged nothing, keep the empty status")
  func empty() throws {
    let memory = TodosStore()
    memory.send(.addTodo(Todo(title: "Buy milk")))
    #expect(memory.syncStatus == SyncStatus())
    #expect(memory.syncStatus == SyncStatus(lastMerge: nil), "the memberwise form, at its defaults")
    let laptop = try deviceStore("laptop", in: folder.url)
    let told = try changesSyncStatus(of: laptop) {
      try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
      try laptop.refresh()
    }
    #expect(laptop.syncStatus == SyncStatus())
    #expect(!told, "no change, no redraw")
  }

  @Test("a merged copy is the latest merge, with its name and time; a view is told once")
  func lastMerge() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    let phone = TemporaryFolder()
    let phoneFile = phone.copy(folder.file("todos.json"))
    try deviceStore("phone", in: phone.url).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(rename(phoneFile.path, folder.file(copy).path) == 0)
    let before = Date()
    let told = try changesSyncStatus(of: laptop) { try laptop.refresh() }
    #expect(told)
    let merge = try #require(laptop.syncStatus.lastMerge)
    #expect(merge.copies == [copy])
    #expect(merge.date >= before && merge.date <= Date())
    // Later actions that merge nothing keep it, and tell no view.
    let quiet = try changesSyncStatus(of: laptop) {
      try laptop.trySend(.addTodo(Todo(title: "Water plants")))
    }
    #expect(laptop.syncStatus.lastMerge == merge)
    #expect(!quiet)
  }

  @Test(
    "a version an engine is bringing is listed as arriving — by a reload and by an action — until it is in place"
  )
  func copiesArriving() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    // Syncthing pulls the phone's version into its temporary file; this package's own
    // temporary file, and a folder of that name, are no such version.
    let phone = TemporaryFolder()
    let phoneFile = phone.copy(folder.file("todos.json"))
    try deviceStore("phone", in: phone.url).trySend(.addTodo(Todo(title: "Call Ann")))
    let pulling = ".syncthing.todos.json.tmp"
    _ = folder.write("", to: ".syncthing.todos.json.0mmn9o4w599xe.tmp")
    try FileManager.default.createDirectory(
      at: folder.file(pulling), withIntermediateDirectories: false)
    try laptop.refresh()
    #expect(laptop.syncStatus.copiesArriving.isEmpty)
    try FileManager.default.removeItem(at: folder.file(pulling))
    #expect(rename(phoneFile.path, folder.file(pulling).path) == 0)
    let told = try changesSyncStatus(of: laptop) { try laptop.refresh() }
    #expect(told)
    #expect(laptop.syncStatus.copiesArriving == [pulling])
    try laptop.trySend(.addTodo(Todo(title: "Water plants")))
    #expect(laptop.syncStatus.copiesArriving == [pulling])
    // In place: the phone's version is read, and nothing is on its way.
    #expect(rename(folder.file(pulling).path, folder.file("todos.json").path) == 0)
    try laptop.refresh()
    #expect(laptop.syncStatus.copiesArriving.isEmpty)
    #expect(laptop.todos.map(\.title).contains("Call Ann"))
  }

  @Test("a store watching the file sees a version start and finish arriving")
  func copiesArrivingWatched() async throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    try laptop.watch()
    defer { laptop.stopWatching() }
    let pulling = ".syncthing.todos.json.tmp"
    _ = folder.write("{", to: pulling)
    #expect(await eventually { laptop.syncStatus.copiesArriving == [pulling] })
    try FileManager.default.removeItem(at: folder.file(pulling))
    #expect(await eventually { laptop.syncStatus.copiesArriving.isEmpty })
  }

  @Test("a copy that is not a valid file is left and listed with why, until it is gone")
  func copyNotMerged() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    _ = folder.write("{\"todos\" : [", to: copy)
    try laptop.refresh()
    #expect(laptop.syncStatus.copiesNotMerged.map(\.path) == [folder.file(copy).path])
    #expect(laptop.syncStatus.copiesNotMerged == laptop.core.mergeReport.notMerged)
    #expect(laptop.syncStatus.lastMerge == nil)
    try FileManager.default.removeItem(at: folder.file(copy))
    try laptop.trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(laptop.syncStatus.copiesNotMerged.isEmpty)
  }

  @Test("changes stamped by a device an hour ahead: the skew seen is an hour, and stays")
  func clockAhead() throws {
    // Every clock stands still, the phone's an hour or two ahead of the laptop's: the skew
    // seen is exact, whatever time the test takes.
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    func store(_ device: String, in folder: URL, ahead: Int64 = 0) throws -> TodosStore {
      TodosStore(
        core: try TodosStore.fileCore(
          contentsOf: folder.appendingPathComponent("todos.json"),
          clock: HybridClock(device: DeviceID(Substring(device))!) { now + ahead }))
    }
    let laptop = try store("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    #expect(laptop.syncStatus.largestClockSkew == .zero)
    // The phone, an hour ahead, edits the file (the engine renames its version over it).
    let phone = TemporaryFolder()
    let phoneFile = phone.copy(folder.file("todos.json"))
    try store("phone", in: phone.url, ahead: Self.hour).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(rename(phoneFile.path, folder.file("todos.json").path) == 0)
    try laptop.refresh()
    #expect(laptop.syncStatus.largestClockSkew == .milliseconds(Self.hour))
    // As a copy, two hours ahead: the largest is kept.
    let later = TemporaryFolder()
    let laterFile = later.copy(folder.file("todos.json"))
    try store("phone", in: later.url, ahead: 2 * Self.hour)
      .trySend(.addTodo(Todo(title: "Water plants")))
    #expect(rename(laterFile.path, folder.file(copy).path) == 0)
    try laptop.trySend(.addTodo(Todo(title: "Pay rent")))
    #expect(laptop.syncStatus.largestClockSkew == .milliseconds(2 * Self.hour))
    #expect(laptop.syncStatus.lastMerge?.copies == [copy])
  }

  @Test("a copy older than the tombstones' lifetime that brings a removal back is listed")
  func oldCopy() throws {
    let milk = Todo(title: "Buy milk")
    try deviceStore("laptop", in: folder.url, ahead: -100 * 24 * Self.hour).trySend(
      .addTodo(milk))
    let old = try Data(contentsOf: folder.file("todos.json"))
    try deviceStore("laptop", in: folder.url, ahead: -95 * 24 * Self.hour)
      .trySend(.removeTodos(ids: [milk.id]))
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.trySend(.addTodo(Todo(title: "Call Ann")))
    try old.write(to: folder.file(copy))
    try laptop.refresh()
    #expect(laptop.syncStatus.oldCopies == [SyncStatus.OldCopy(name: copy, count: 1)])
    // Kept through later actions, as a list of the store's life (bounded).
    try laptop.trySend(.addTodo(Todo(title: "Water plants")))
    #expect(laptop.syncStatus.oldCopies.map(\.name) == [copy])
  }

  @Test("the old copies kept are the latest 100")
  func oldCopiesBounded() {
    var status = SyncStatus()
    for round in 0..<150 {
      var report = MergeReport()
      report.forgottenRemovals = [("copy\(round)", 1)]
      status = status.updated(with: report, skew: 0, conflicts: nil)
    }
    #expect(status.oldCopies.count == 100)
    #expect(status.oldCopies.first?.name == "copy50")
    #expect(status.oldCopies.last?.name == "copy149")
  }
}
