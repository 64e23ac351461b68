import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Files changed by programs that do not stamp — an editor, `jq`, a script, a backup put back:
/// their changes are the newest values, never refused, never undone.
@Suite("Hand edits of a stamped file")
@MainActor
struct HandEditTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

  /// Rewrites the file as a program that does not stamp would: `edit` changes its JSON
  /// object; the stamps stay as they were.
  func edit(_ edit: (inout [String: Any]) -> Void) throws {
    try editByHand(file, edit)
  }

  /// The todos of the JSON object of a file.
  static func todos(_ object: [String: Any]) -> [[String: Any]] {
    object["todos"] as? [[String: Any]] ?? []
  }

  /// A laptop's store with three todos, and a copy of its file, as a phone that synced it
  /// has it.
  func laptopAndPhone() throws -> (laptop: TodosStore, phoneFile: URL) {
    let laptop = try deviceStore("laptop", in: folder.url)
    for title in ["three", "two", "one"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    let phoneFolder = folder.file("phone")
    try FileManager.default.createDirectory(at: phoneFolder, withIntermediateDirectories: true)
    let phoneFile = phoneFolder.appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: file, to: phoneFile)
    return (laptop, phoneFile)
  }

  @Test("a title changed under its old stamp stays through the store's next action and a merge")
  func fieldEditedInPlace() throws {
    let (laptop, phoneFile) = try laptopAndPhone()
    try edit { object in
      var todos = Self.todos(object)
      todos[1]["title"] = "aaaa"
      object["todos"] = todos
    }
    try laptop.trySend(.addTodo(Todo(title: "zero")))
    #expect(laptop.todos.map(\.title) == ["zero", "one", "aaaa", "three"])
    // The phone's older version arrives as a conflict copy: the hand edit is the newer.
    try FileManager.default.copyItem(
      at: phoneFile, to: folder.file("todos.sync-conflict-20261201-135016-PHONE12.json"))
    try laptop.refresh()
    #expect(laptop.todos.map(\.title) == ["zero", "one", "aaaa", "three"])
    #expect(try deviceStore("laptop", in: folder.url).todos == laptop.todos)
  }

  @Test(
    "a title changed under its old stamp, then read by a new process, wins over the old value elsewhere",
    arguments: ["aaaa", "zzzz"])
  func fieldEditedForNewProcess(title: String) throws {
    let (_, phoneFile) = try laptopAndPhone()
    // The phone's version, with "two" under the stamp the edit kept, arrives as a copy: the
    // edit wins, whichever value sorts first.
    let laptop = try retitleSecondForNewProcess(title, thenMerge: phoneFile)
    #expect(laptop.todos.map(\.title) == ["zero", "one", title, "three"])
  }

  /// Retitles the second todo `title` by hand; `diary` on the laptop, a process that never
  /// read the file before, adds "zero"; then the phone's file arrives as a conflict copy, and
  /// a store on the laptop merges it.
  func retitleSecondForNewProcess(_ title: String, thenMerge phoneFile: URL) throws -> TodosStore {
    try edit { object in
      var todos = Self.todos(object)
      todos[1]["title"] = title
      object["todos"] = todos
    }
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "zero")))
    try FileManager.default.copyItem(
      at: phoneFile, to: folder.file("todos.sync-conflict-20261201-135016-PHONE12.json"))
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.refresh()
    return laptop
  }

  /// One hand edit in 1,296 keeps the value's digest ("t20" and "hand25" share theirs): a new
  /// process cannot see it, and writes it on under its old stamp. The running app still
  /// can: its memory holds another value under that very stamp.
  @Test("a title edited by hand under a matching digest, written on by a new process, stays")
  func fieldEditedUnderMatchingDigest() throws {
    try #require(ContentDigest(of: "t20") == ContentDigest(of: "hand25"), "the digests match")
    let laptop = try deviceStore("laptop", in: folder.url)
    for title in ["three", "t20", "one"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    let phoneFile = try phoneFolder().appendingPathComponent("todos.json")
    try FileManager.default.copyItem(at: file, to: phoneFile)
    try edit { object in
      var todos = Self.todos(object)
      todos[1]["title"] = "hand25"
      object["todos"] = todos
    }
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "zero")))
    try laptop.refresh()
    #expect(laptop.todos.map(\.title) == ["zero", "one", "hand25", "three"])
    // The phone's version, "t20" under the stamp the edit kept, arrives: the edit wins.
    try FileManager.default.copyItem(
      at: phoneFile, to: folder.file("todos.sync-conflict-20261201-135016-PHONE12.json"))
    try laptop.refresh()
    #expect(laptop.todos.map(\.title) == ["zero", "one", "hand25", "three"])
    let phone = try deviceStore("phone", in: phoneFile.deletingLastPathComponent())
    try FileManager.default.copyItem(
      at: file,
      to: phoneFile.deletingLastPathComponent().appendingPathComponent(
        "todos.sync-conflict-20261201-135016-LAPTOP1.json"))
    try phone.refresh()
    #expect(phone.todos == laptop.todos)
  }

  @Test("only the field edited by hand is stamped: another device's edit of another field stays")
  func fieldEditedAlone() throws {
    let (_, phoneFile) = try laptopAndPhone()
    let phone = try deviceStore("phone", in: phoneFile.deletingLastPathComponent())
    try phone.trySend(.toggleTodo(id: phone.todos[1].id))
    // Read after the phone's edit: stamped later than it.
    let laptop = try retitleSecondForNewProcess("aaaa", thenMerge: phoneFile)
    #expect(laptop.todos.map(\.title) == ["zero", "one", "aaaa", "three"])
    #expect(laptop.todos.map(\.isDone) == [false, false, true, false])
  }

  @Test("a file laid out anew by another program, its values unchanged, keeps every stamp")
  func laidOutAnew() throws {
    let (laptop, _) = try laptopAndPhone()
    func stamps() throws -> [String] {
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
      return (object["sync"] as! [String: Any])["items"] as! [String]
    }
    let before = try stamps()
    try edit { _ in }
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "zero")))
    #expect(Array(try stamps().dropFirst()) == before)
    #expect(before.allSatisfy { $0.split(separator: " ").last?.first == "#" })
    try laptop.refresh()
    #expect(laptop.todos.map(\.title) == ["zero", "one", "two", "three"])
  }

  @Test(
    "another device's version that only merged, renamed over a write, is not taken as a hand edit"
  )
  func otherDeviceThatOnlyMerged() throws {
    let (laptop, phoneFile) = try laptopAndPhone()
    // The phone merges a copy of the laptop's version it already holds, and writes: a version
    // with no stamp the laptop lacks, but written by a device that stamps.
    let phoneFolder = phoneFile.deletingLastPathComponent()
    try FileManager.default.copyItem(
      at: phoneFile,
      to: phoneFolder.appendingPathComponent("todos.sync-conflict-20261201-135016-LAPTOP1.json"))
    let phone = try deviceStore("phone", in: phoneFolder)
    try phone.refresh()
    #expect(phone.core.mergeReport.merged.count == 1)
    try laptop.trySend(.addTodo(Todo(title: "zero")))
    // The engine renames the phone's version over the laptop's write.
    #expect(rename(phoneFile.path, file.path) == 0)
    try laptop.trySend(.addTodo(Todo(title: "minus one")))
    #expect(laptop.todos.map(\.title) == ["minus one", "zero", "one", "two", "three"])
  }

  @Test("a todo removed by hand stays removed, on this device and after a merge")
  func removedByHand() throws {
    let (laptop, phoneFile) = try laptopAndPhone()
    try edit { object in
      var todos = Self.todos(object)
      todos.remove(at: 1)
      object["todos"] = todos
      var sync = object["sync"] as! [String: Any]
      var items = sync["items"] as! [String]
      items.remove(at: 1)
      sync["items"] = items
      object["sync"] = sync
    }
    try laptop.trySend(.addTodo(Todo(title: "zero")))
    #expect(laptop.todos.map(\.title) == ["zero", "one", "three"])
    try FileManager.default.copyItem(
      at: phoneFile, to: folder.file("todos.sync-conflict-20261201-135016-PHONE12.json"))
    try laptop.refresh()
    #expect(laptop.todos.map(\.title) == ["zero", "one", "three"], "the removal is stamped")
  }

  @Test("a todo added by hand without stamps is read, kept, and wins over older versions")
  func addedByHand() throws {
    let (laptop, _) = try laptopAndPhone()
    let id = UUID()
    try edit { object in
      var todos = Self.todos(object)
      todos.insert(
        [
          "id": id.uuidString, "title": "by hand", "date": "2026-12-01T10:00:00Z",
          "isDone": false, "priority": 1,
        ], at: 1)
      object["todos"] = todos
    }
    // A fresh reader (as `diary` is) and the running store both read it.
    #expect(
      try TodosStore(contentsOf: file).todos.map(\.title) == ["one", "by hand", "two", "three"])
    try laptop.trySend(.toggleTodo(id: id))
    #expect(laptop.todos.map(\.title) == ["one", "by hand", "two", "three"])
    #expect(laptop.todos[1].isDone)
    #expect(try deviceStore("laptop", in: folder.url).todos == laptop.todos)
  }

  @Test(
    "a backup put back while a store runs is merged with what it wrote since: nothing is lost"
  )
  func backupRestored() throws {
    let (laptop, phoneFile) = try laptopAndPhone()
    let backup = try Data(contentsOf: phoneFile)
    try laptop.trySend(.addTodo(Todo(title: "after the backup")))
    try backup.write(to: file)
    try laptop.trySend(.addTodo(Todo(title: "zero")))
    // A backup is a stamped version, as another device's is: what the store wrote since
    // stays (put a backup back with no store running to take it as it is).
    #expect(laptop.todos.map(\.title) == ["zero", "after the backup", "one", "two", "three"])
  }

  @Test(
    "a backup of a version written in the same millisecond as the next is still a backup"
  )
  func backupWithinAMillisecond() throws {
    // A wall clock that never moves: every write is in the same millisecond.
    let laptop = TodosStore(
      core: try TodosStore.fileCore(
        contentsOf: file, clock: HybridClock(device: DeviceID("laptop")!) { 1_796_000_000_000 }))
    for title in ["two", "one"] { try laptop.trySend(.addTodo(Todo(title: title))) }
    let backup = try Data(contentsOf: file)
    try laptop.trySend(.addTodo(Todo(title: "after the backup")))
    try backup.write(to: file)
    try laptop.trySend(.addTodo(Todo(title: "zero")))
    #expect(laptop.todos.map(\.title) == ["zero", "after the backup", "one", "two"])
  }

  @Test("300 same-size edits in place, each followed by an action: none is undone")
  func manyEditsInPlace() throws {
    let (laptop, _) = try laptopAndPhone()
    for round in 0..<300 {
      let title = String(format: "t%03d", 299 - round)
      try edit { object in
        var todos = Self.todos(object)
        todos[0]["title"] = title
        object["todos"] = todos
      }
      try laptop.trySend(.toggleTodo(id: laptop.todos[2].id))
      try #require(laptop.todos[0].title == title)
    }
  }

  @Test(
    "a todo put back by hand while its removal is recorded, or moved by hand (its stamps left in place), is read"
  )
  func putBackAndMoved() throws {
    let (laptop, _) = try laptopAndPhone()
    let removed = laptop.todos[2]
    try laptop.trySend(.removeTodos(ids: [removed.id]))
    let before = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
    try edit { object in
      var todos = Self.todos(object)
      todos.reverse()
      todos.append(
        [
          "id": removed.id.uuidString, "title": "three", "date": "2026-12-01T10:00:00Z",
          "isDone": false, "priority": 0,
        ])
      object["todos"] = todos
      var sync = object["sync"] as! [String: Any]
      sync["items"] = (sync["items"] as! [String]) + ["z mip1k3c0.0.laptop"]
      object["sync"] = sync
    }
    #expect(((before["sync"] as? [String: Any])?["removed"] as? [Any])?.count == 1)
    try laptop.trySend(.addTodo(Todo(title: "zero")))
    #expect(laptop.todos.map(\.title) == ["zero", "two", "one", "three"])
    #expect(try deviceStore("laptop", in: folder.url).todos == laptop.todos)
  }

  /// A workouts store on `workouts.json` in `folder`, stamping as `name`.
  func workouts(_ name: String, in folder: URL) throws -> StoreCore<WorkoutsStore> {
    try WorkoutsStore.fileCore(
      contentsOf: folder.appendingPathComponent("workouts.json"),
      clock: HybridClock(device: DeviceID(Substring(name))!))
  }

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

@Suite("Hand edits of a stamped settings file")
@MainActor
struct SettingsHandEditTests {
  let folder = TemporaryFolder()

  @Test("a key added by hand without a stamp is read and kept; one removed by hand stays so")
  func keysByHand() throws {
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url)
    settings.sleepGoal = 7
    settings.isNotificationsEnabled = false
    var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    var values = object["values"] as! [String: Any]
    values["distanceUnit"] = "miles"
    values["isNotificationsEnabled"] = nil
    object["values"] = values
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      .write(to: url)
    let reader = try SettingsStore(contentsOf: url)
    #expect(reader.distanceUnit == .miles)
    #expect(reader.isNotificationsEnabled == true)
    settings.sleepGoal = 6
    try settings.refresh()
    #expect(settings.distanceUnit == .miles)
    #expect(settings.isNotificationsEnabled == true)
    #expect(settings.sleepGoal == 6)
  }

  @Test(
    "a value changed under its old stamp, then read by a new process, wins over the old value elsewhere"
  )
  func valueEditedForNewProcess() throws {
    let url = folder.file("settings.json")
    try SettingsStore(contentsOf: url).sleepGoal = 7
    let phoneFolder = folder.file("phone")
    try FileManager.default.createDirectory(at: phoneFolder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: url, to: phoneFolder.appendingPathComponent("settings.json"))
    var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    var values = object["values"] as! [String: Any]
    values["sleepGoal"] = 5
    object["values"] = values
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      .write(to: url)
    // A new process sets another key; the phone's version (7 under the same stamp) arrives.
    try SettingsStore(contentsOf: url).isNotificationsEnabled = false
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("settings.json"),
      to: folder.file("settings.sync-conflict-20261201-135016-PHONE12.json"))
    let settings = try SettingsStore(contentsOf: url)
    try settings.refresh()
    #expect(settings.sleepGoal == 5)
    #expect(settings.isNotificationsEnabled == false)
  }

  /// A value edited by hand under a matching digest (one edit in 1,296): a new process writes
  /// it on under its old stamp; the running app, which holds another value under that stamp,
  /// takes it as the hand edit it is.
  @Test("a value edited by hand under a matching digest, written on by a new process, stays")
  func valueEditedUnderMatchingDigest() throws {
    try #require(
      ContentDigest(of: JSONValue.string("t20")) == ContentDigest(of: JSONValue.string("hand25")))
    let url = folder.file("settings.json")
    let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued)
    settings.motto = "t20"
    let phoneFolder = folder.file("phone")
    try FileManager.default.createDirectory(at: phoneFolder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: url, to: phoneFolder.appendingPathComponent("settings.json"))
    try editByHand(url) { object in
      var values = object["values"] as! [String: Any]
      values["motto"] = "hand25"
      object["values"] = values
    }
    try SettingsStore(contentsOf: url, keys: SettingsKeys.catalogued).sleepGoal = 6
    try settings.refresh()
    #expect(settings.motto == "hand25")
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("settings.json"),
      to: folder.file("settings.sync-conflict-20261201-135016-PHONE12.json"))
    try settings.refresh()
    #expect(settings.motto == "hand25")
    #expect(settings.sleepGoal == 6)
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
}

/// A file whose `"sync"` member a person removed by hand: every hand edit made with it is
/// the newest value, never the oldest.
@Suite("Hand edits of a file whose stamps were removed by hand")
@MainActor
struct StampsRemovedByHandTests: DeviceFolderSuite {
  let folder = TemporaryFolder()
  var file: URL { folder.file("todos.json") }

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
