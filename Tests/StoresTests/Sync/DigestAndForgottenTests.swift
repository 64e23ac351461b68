import Foundation
import StoreTesting
import Testing

@testable import Stores

/// The content digests and the reports of forgotten removals, under the attacks an
/// adversarial reading found (each failed before its fix).
@Suite("Content digests and forgotten removals, attacked")
@MainActor
struct DigestAndForgottenTests {
  let folder = TemporaryFolder()

  static let day: Int64 = 86_400_000

  /// A workouts store on `workouts.json` in `folder`, stamping as `name`.
  func workouts(_ name: String, in folder: URL) throws -> StoreCore<WorkoutsStore> {
    try WorkoutsStore.fileCore(
      contentsOf: folder.appendingPathComponent("workouts.json"),
      clock: HybridClock(device: DeviceID(Substring(name))!))
  }

  func subfolder(_ name: String) throws -> URL {
    let url = folder.file(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  // MARK: Digests

  /// The workouts' sort is a value like any field: its stamp in `"sync"."state"` carries a
  /// digest, so edited under its old stamp and read by a new process (`diary`) it is the
  /// newest change — without one the old value elsewhere won the tie when its text sorted
  /// later ("distance" > "date").
  @Test(
    "the workouts' sort edited by hand, read by a new process, wins over the old value elsewhere")
  func sortTypeEditedByHand() throws {
    let laptopFolder = try subfolder("laptop")
    let phoneFolder = try subfolder("phone")
    let laptop = try workouts("laptop", in: laptopFolder)
    try laptop.trySend(.addWorkout(Workout(name: "Run", distance: 5)))
    try laptop.trySend(.addWorkout(Workout(name: "Walk", distance: 2)))
    try laptop.trySend(.sort(by: .distance))
    let file = laptopFolder.appendingPathComponent("workouts.json")
    try FileManager.default.copyItem(
      at: file, to: phoneFolder.appendingPathComponent("workouts.json"))
    // On the laptop, by hand (jq): the sort is now by date.
    try editByHand(file) { $0["sortType"] = "date" }
    // `diary` on the laptop (a new process) adds a workout.
    try workouts("laptop", in: laptopFolder).trySend(
      .addWorkout(Workout(name: "Swim", distance: 1)))
    #expect(try workouts("laptop", in: laptopFolder).state.sortType == .date)
    // The phone's version, the sort by distance under the stamp the edit kept, arrives.
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("workouts.json"),
      to: laptopFolder.appendingPathComponent("workouts.sync-conflict-20261201-135016-PHONE12.json")
    )
    let reader = try workouts("laptop", in: laptopFolder)
    try reader.refresh()
    #expect(reader.mergeReport.merged.count == 1)
    #expect(reader.state.sortType == .date, "the hand edit is the newest value")
  }

  /// Every date a todo can hold is written with a digest its reading matches: nothing is
  /// restamped by reading a file this code wrote.
  @Test("dates at any fractional second keep their digests through a write and a read")
  func datesKeepTheirDigests() throws {
    var generator = SystemRandomNumberGenerator()
    var state = TodosStore.State(todos: [])
    var dates: [Date] = [
      Date(), Date(timeIntervalSince1970: 0.1), Date(timeIntervalSince1970: -0.000_000_1),
      Date(timeIntervalSinceReferenceDate: 0.000_000_000_1),
      Date(timeIntervalSince1970: 1_764_680_000.999_999_9),
      Date(timeIntervalSince1970: 253_402_300_799.999),
    ]
    for _ in 0..<2_000 {
      dates.append(
        Date(timeIntervalSinceReferenceDate: Double.random(in: -6e10...2.4e11, using: &generator)))
      dates.append(
        Date(timeIntervalSinceReferenceDate: Double.random(in: 8e8...9e8, using: &generator)))
    }
    state = TodosStore.State(todos: dates.map { Todo(title: "t", date: $0) })
    let sync = ListSync<TodosStore.State>(unstamped: state).stamped(
      before: TodosStore.State(todos: []), after: state,
      stamp: Stamp(milliseconds: 1_764_680_000_000, counter: 0, device: DeviceID("laptop")!))
    let data = try StateFileCoding.encode(state, sync: sync, path: "todos.json")
    let (read, readSync) = try StateFileCoding.decode(
      data, path: "todos.json", sync: ListSync<TodosStore.State>.self)
    #expect(read.todos.count == dates.count)
    #expect(readSync.editedFields.isEmpty, "\(readSync.editedFields.count) items restamped")
    #expect(readSync.unstamped.isEmpty)
  }

  /// A settings value's digest is made of its numbers as their `Double`s are spelled, not of
  /// their literal text (``JSONNumber`` keeps it): a file laid out again by a program that
  /// spells numbers its own way (jq 1.6 and JavaScript write `7.0` as `7`, `1E5` as
  /// `100000`) holds the same values and keeps every stamp — else this device would win
  /// concurrent edits it never made. `7.0` is what a Python script writes for a float.
  @Test(
    "a settings file laid out again with numbers spelled otherwise, equal values, keeps every stamp",
    arguments: [("7.0", "7"), ("1E5", "100000"), ("7.50", "7.5")])
  func settingsNumberSpelling(written: String, reformatted: String) throws {
    let stamp = Stamp(milliseconds: 1_764_680_000_000, counter: 0, device: DeviceID("laptop")!)
    let values = KeyValues(["sleepGoal": .number(JSONNumber(written)!)])
    let sync = KeyValuesSync(unstamped: KeyValues()).stamped(
      before: KeyValues(), after: values, stamp: stamp)
    let data = try StateFileCoding.encode(values, sync: sync, path: "settings.json")
    let text = String(decoding: data, as: UTF8.self)
    try #require(text.contains(": \(written)\n"))
    // The same file as jq 1.6 or JSON.stringify writes it: the same values.
    let relaid = Data(
      text.replacingOccurrences(of: ": \(written)\n", with: ": \(reformatted)\n").utf8)
    let (read, readSync) = try StateFileCoding.decode(
      relaid, path: "settings.json", sync: KeyValuesSync.self)
    guard case .number(let number)? = read.values["sleepGoal"] else {
      Issue.record("no number read")
      return
    }
    #expect(number.double == JSONNumber(written)!.double, "an equal value")
    #expect(readSync.unstamped.isEmpty, "restamped as a hand edit: \(readSync.unstamped)")
  }

  /// Two versions of a todo with one stamp whose titles differ only in Unicode normalization
  /// (`Café` composed and decomposed; Swift's `==` holds them equal, their bytes and digests
  /// differ) — two version 1 files, stamped ``Stamp/origin``, or a hand edit whose digest
  /// collides: the merge writes the same bytes whichever side comes first, or two devices
  /// would never settle.
  @Test("a merge of titles equal but for Unicode normalization writes the same bytes either way")
  func mergeOfCanonicallyEqualTitles() throws {
    let id = UUID()
    let date = Date(timeIntervalSince1970: 1_764_680_000)
    let composed = TodosStore.State(todos: [Todo(id: id, title: "Caf\u{E9}", date: date)])
    let decomposed = TodosStore.State(todos: [Todo(id: id, title: "Cafe\u{301}", date: date)])
    #expect(composed == decomposed, "equal for Swift")
    let a = (composed, ListSync<TodosStore.State>(unstamped: composed))
    let b = (decomposed, ListSync<TodosStore.State>(unstamped: decomposed))
    let ab = ListSync<TodosStore.State>.merge(a, b)
    let ba = ListSync<TodosStore.State>.merge(b, a)
    let bytesAB = try StateFileCoding.encode(ab.0, sync: ab.1, path: "todos.json")
    let bytesBA = try StateFileCoding.encode(ba.0, sync: ba.1, path: "todos.json")
    #expect(
      String(decoding: bytesAB, as: UTF8.self) == String(decoding: bytesBA, as: UTF8.self),
      "merge(a, b) and merge(b, a) write different bytes")
  }

  // MARK: Forgotten removals

  /// A store that runs finds its file replaced by a version from before the tombstones'
  /// horizon (a backup put back, or another device's old version renamed over it without a
  /// copy): the store merges back what it knew and the old version's todo, whose removal was
  /// forgotten, comes back — reported, as when the old version arrives as a copy.
  @Test("a forgotten removal brought back by the merge-back of a running store is reported")
  func forgottenRemovalOnMergeBack() throws {
    let milk = Todo(title: "Buy milk")
    try deviceStore("laptop", in: folder.url, ahead: -100 * Self.day).trySend(.addTodo(milk))
    let old = try Data(contentsOf: folder.file("todos.json"))
    try deviceStore("laptop", in: folder.url, ahead: -95 * Self.day).trySend(
      .removeTodos(ids: [milk.id]))
    let running = try deviceStore("laptop", in: folder.url)
    try running.trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(text(folder.file("todos.json"))?.contains("Buy milk") == false, "forgotten")
    // The old version is renamed over the file (a new inode, as a sync engine or a restore
    // does), with no copy beside it.
    let incoming = folder.file(".syncthing.todos.json.tmp")
    try old.write(to: incoming)
    #expect(rename(incoming.path, folder.file("todos.json").path) == 0)
    try running.refresh()
    #expect(Set(running.todos.map(\.title)) == ["Buy milk", "Call Ann"], "it came back")
    #expect(
      running.core.mergeReport.forgottenRemovals.map(\.count) == [1],
      "the revival is reported: \(running.core.mergeReport.forgottenRemovals)")
  }

  /// A new device (or one whose diary was started anew) writes the file before its first
  /// sync: its version knows none of the file's todos, because it never saw them — not
  /// because it removed them. Merging it brings nothing back, and nothing is reported: its
  /// writers share none with the file's, so it can have removed nothing of it.
  @Test("a new device's first copy, which brings nothing back, is not reported")
  func newDeviceCopyIsNotAForgottenRemoval() throws {
    let laptopFolder = try subfolder("laptop")
    let phoneFolder = try subfolder("phone")
    try deviceStore("laptop", in: laptopFolder, ahead: -100 * Self.day)
      .trySend(.addTodo(Todo(title: "Buy milk")))
    try deviceStore("laptop", in: laptopFolder).trySend(.addTodo(Todo(title: "Call Ann")))
    try deviceStore("phone", in: phoneFolder).trySend(.addTodo(Todo(title: "Pay rent")))
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("todos.json"),
      to: laptopFolder.appendingPathComponent("todos.sync-conflict-20261201-135016-PHONE12.json"))
    let laptop = try deviceStore("laptop", in: laptopFolder)
    let before = Set(laptop.todos.map(\.id))
    try laptop.refresh()
    #expect(laptop.core.mergeReport.merged.count == 1)
    #expect(Set(laptop.todos.map(\.title)) == ["Buy milk", "Call Ann", "Pay rent"])
    #expect(before.isSubset(of: Set(laptop.todos.map(\.id))), "nothing of the file was gone")
    #expect(
      laptop.core.mergeReport.forgottenRemovals.isEmpty,
      "nothing came back: \(laptop.core.mergeReport.forgottenRemovals)")
  }
  /// Two copies arrive together: a tablet's, made offline 150 days ago (a device the file
  /// never heard of), and the phone's version from 100 days ago holding a todo the laptop
  /// removed 95 days ago and has since forgotten. The phone's copy is reported whether or not
  /// the tablet's is merged first: each copy is weighed against the file as stored, not
  /// against the writers an earlier copy's old clock lowered.
  @Test(
    "a forgotten removal is reported whatever other copy is merged before it",
    arguments: [false, true])
  func forgottenRemovalAfterAnOldDevicesCopy(withTablet: Bool) throws {
    let laptopFolder = try subfolder("laptop")
    let tabletFolder = try subfolder("tablet")
    try deviceStore("tablet", in: tabletFolder, ahead: -150 * Self.day)
      .trySend(.addTodo(Todo(title: "Tablet todo")))
    let bread = Todo(title: "Buy bread")
    try deviceStore("laptop", in: laptopFolder, ahead: -100 * Self.day).trySend(.addTodo(bread))
    let old = try Data(contentsOf: laptopFolder.appendingPathComponent("todos.json"))
    try deviceStore("laptop", in: laptopFolder, ahead: -95 * Self.day)
      .trySend(.removeTodos(ids: [bread.id]))
    try deviceStore("laptop", in: laptopFolder).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(
      text(laptopFolder.appendingPathComponent("todos.json"))?.contains("Buy bread") == false,
      "forgotten")
    let tabletCopy = "todos.sync-conflict-20261201-000000-TABLET1.json"
    let phoneCopy = "todos.sync-conflict-20261202-000000-PHONE12.json"
    if withTablet {
      try FileManager.default.copyItem(
        at: tabletFolder.appendingPathComponent("todos.json"),
        to: laptopFolder.appendingPathComponent(tabletCopy))
    }
    try old.write(to: laptopFolder.appendingPathComponent(phoneCopy))
    let laptop = try deviceStore("laptop", in: laptopFolder)
    try laptop.refresh()
    #expect(laptop.core.mergeReport.merged == (withTablet ? [tabletCopy, phoneCopy] : [phoneCopy]))
    #expect(laptop.todos.contains { $0.id == bread.id }, "it came back")
    #expect(
      laptop.core.mergeReport.forgottenRemovals.map(\.name).contains(phoneCopy),
      "the phone's copy brought it back: \(laptop.core.mergeReport.forgottenRemovals)")
  }
  /// A version 1 file (a device still on the previous release, or a backup from before the
  /// upgrade) arrives as a copy holding a todo the laptop removed 95 days ago and has since
  /// forgotten: its todos are stamped ``Stamp/origin``, so the merge brings the todo back —
  /// reported, as every todo of a version without stamps that the file does not know is.
  @Test("a version 1 copy that brings back a forgotten removal is reported")
  func forgottenRemovalFromAVersion1Copy() throws {
    let bread = Todo(title: "Buy bread", date: Date(timeIntervalSince1970: 1_750_000_000))
    try deviceStore("laptop", in: folder.url, ahead: -100 * Self.day).trySend(.addTodo(bread))
    try deviceStore("laptop", in: folder.url, ahead: -95 * Self.day).trySend(
      .removeTodos(ids: [bread.id]))
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(text(folder.file("todos.json"))?.contains("Buy bread") == false, "forgotten")
    let copy = "todos.sync-conflict-20261202-000000-TABLET1.json"
    try Data(
      """
      { "todos" : [ { "id" : "\(bread.id.uuidString)", "title" : "Buy bread",
          "date" : "2025-06-15T15:06:40Z", "isDone" : false, "priority" : 0 } ],
        "version" : 1 }
      """.utf8
    ).write(to: folder.file(copy))
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.refresh()
    #expect(laptop.core.mergeReport.merged == [copy])
    #expect(laptop.todos.contains { $0.id == bread.id }, "it came back")
    #expect(
      laptop.core.mergeReport.forgottenRemovals.map(\.name) == [copy],
      "reported: \(laptop.core.mergeReport.forgottenRemovals)")
  }
  /// A todo moved by hand (its object cut and pasted to the top of the list in an editor; the
  /// stamps, one entry per place, left as they were) and read by a new process: each item
  /// takes its own entry back by its id's digest, and the moved one a new place, stamped as
  /// the newest move. Merged with the phone's version (which only ticked a todo), the move
  /// stays.
  @Test("a todo moved by hand, read by a new process, stays moved through a merge")
  func movedByHandForNewProcess() throws {
    let laptopFolder = try subfolder("laptop")
    let phoneFolder = try subfolder("phone")
    let laptop = try deviceStore("laptop", in: laptopFolder)
    for title in ["three", "two", "one"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    let file = laptopFolder.appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: file, to: phoneFolder.appendingPathComponent("todos.json"))
    let phone = try deviceStore("phone", in: phoneFolder)
    try phone.trySend(.toggleTodo(id: phone.todos[1].id))
    // By hand: "three" cut and pasted to the top.
    try editByHand(file) { object in
      var list = object["todos"] as! [[String: Any]]
      list.insert(list.removeLast(), at: 0)
      object["todos"] = list
    }
    // `diary` (a new process) on the laptop.
    try deviceStore("laptop", in: laptopFolder).trySend(.addTodo(Todo(title: "zero")))
    #expect(
      try deviceStore("laptop", in: laptopFolder).todos.map(\.title) == [
        "zero", "three", "one", "two",
      ])
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("todos.json"),
      to: laptopFolder.appendingPathComponent("todos.sync-conflict-20261201-135016-PHONE12.json"))
    let reader = try deviceStore("laptop", in: laptopFolder)
    try reader.refresh()
    #expect(reader.todos.map(\.title) == ["zero", "three", "one", "two"], "the move stays")
    #expect(reader.todos.first { $0.title == "two" }?.isDone == true, "the phone's tick stays")
  }
}
