import Foundation
import StoreTesting
import Synchronization
import Testing

@testable import Stores

/// One device's copy of a file, changed by actions through the store's reducer and stamped as
/// a store on the file stamps them.
struct Replica<State: PersistentState, Sync: StateSync<State>> {
  var state: State
  var sync: Sync
  let clock: HybridClock

  /// Applies `reduce`; stamps what changed.
  mutating func apply(_ reduce: (inout State) -> Bool) {
    let before = state
    if reduce(&state) { sync = sync.stamped(before: before, after: state, stamp: clock.stamp()) }
  }

  /// This replica after merging `other` in.
  func merged(with other: Replica) -> Replica {
    let (state, sync) = Sync.merge((state, sync), (other.state, other.sync))
    return Replica(state: state, sync: sync, clock: clock)
  }

  /// The file this replica writes.
  var bytes: Data { (try? StateFileCoding.encode(state, sync: sync, path: "f.json")) ?? Data() }
}

/// Clocks of devices that share a wall clock, which moves by a step in `steps` on each
/// reading: sometimes backwards, by default.
final class Devices: Sendable {
  private let wall = Mutex<Int64>(1_700_000_000_000)
  private let steps: ClosedRange<Int64>

  init(steps: ClosedRange<Int64> = -3...5) {
    self.steps = steps
  }

  func clock(_ name: String) -> HybridClock {
    HybridClock(device: DeviceID(Substring(name))!) { [self] in
      wall.withLock { now in
        now += Int64.random(in: steps)
        return now
      }
    }
  }
}

@Suite("Merging the versions of a file from several devices")
struct MergeTests {
  typealias TodoReplica = Replica<TodosStore.State, ListSync<TodosStore.State>>

  /// Three devices' copies of one base list after random actions on each.
  static let histories = Gen<([Todo], [[TodosStore.Action]])>.zip(
    .todos(maxCount: 6),
    Gen<TodosStore.Action>.todoAction(maxCount: 6).array(maxCount: 6)
      .array(count: 3...3))

  static func replicas(_ base: [Todo], _ histories: [[TodosStore.Action]]) -> [TodoReplica] {
    let devices = Devices()
    let state = TodosStore.State(todos: base)
    return histories.enumerated().map { device, actions in
      var replica = TodoReplica(
        state: state, sync: ListSync(unstamped: state), clock: devices.clock("d\(device)"))
      for action in actions {
        replica.apply { TodosStore.reduce(&$0, TodosStore.resolve(action, in: $0)) }
      }
      return replica
    }
  }

  /// A phone's and a laptop's copies of `todos`, on a wall clock that moves by 1 ms a reading.
  static func phoneAndLaptop(_ todos: [Todo]) -> (TodoReplica, TodoReplica) {
    let devices = Devices(steps: 1...1)
    let base = TodosStore.State(todos: todos)
    return (
      TodoReplica(state: base, sync: ListSync(unstamped: base), clock: devices.clock("phone")),
      TodoReplica(state: base, sync: ListSync(unstamped: base), clock: devices.clock("laptop"))
    )
  }

  @Test(
    "a device's processes share its clock: a process stamps after a stamp another made ahead of the wall clock"
  )
  func sharedClock() {
    let folder = TemporaryFolder()
    let file = folder.file("clock")
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    func process() -> HybridClock {
      HybridClock(device: DeviceID("laptop")!, sharingWith: file) { now }
    }
    let app = process()
    // The app read a stamp of a device whose clock runs a month ahead, and followed it.
    app.observe(Stamp(milliseconds: now + 30 * 86_400_000, device: DeviceID("phone")!))
    let followed = app.stamp()
    #expect(followed.milliseconds == now + 30 * 86_400_000)
    // A process started afterwards, which never read a file holding that stamp.
    #expect(process().stamp() > followed)
    // Stamps that follow the wall clock write nothing.
    let local = folder.file("local")
    _ = HybridClock(device: DeviceID("laptop")!, sharingWith: local) { now }.stamp()
    #expect(!FileManager.default.fileExists(atPath: local.path))
  }

  @Test(
    "a clock ahead reserves its millisecond in the shared file: its further stamps there write nothing, and another process stamps after them all"
  )
  func sharedClockReservation() throws {
    let folder = TemporaryFolder()
    let file = folder.file("clock")
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    func process() -> HybridClock {
      HybridClock(device: DeviceID("laptop")!, sharingWith: file) { now }
    }
    func identity() -> FileKey? {
      var info = stat()
      return stat(file.path, &info) == 0 ? FileKey(info) : nil
    }
    let app = process()
    app.observe(Stamp(milliseconds: now + 30 * 86_400_000, device: DeviceID("phone")!))
    var stamps = [app.stamp()]
    let reserved = identity()
    #expect(reserved != nil)
    for _ in 0..<20 { stamps.append(app.stamp()) }
    #expect(identity() == reserved, "stamps in a reserved millisecond write nothing")
    #expect(stamps == stamps.sorted() && Set(stamps).count == stamps.count)
    let tool = process()
    let toolStamp = tool.stamp()
    #expect(stamps.allSatisfy { $0 < toolStamp })
    // The tool reserved the next millisecond: the app, reading it, stamps after it.
    #expect(app.stamp() > toolStamp)
    #expect(tool.stamp() > toolStamp)
  }

  @Test("todos: the merge is commutative, associative and idempotent, to the byte")
  func todoLaws() {
    check(Self.histories, iterations: 300) { base, histories in
      let (a, b, c) = Self.replicas(base, histories).triple
      try requireEqual(a.merged(with: b).bytes, b.merged(with: a).bytes, "a ∪ b = b ∪ a")
      try requireEqual(
        a.merged(with: b).merged(with: c).bytes, a.merged(with: b.merged(with: c)).bytes,
        "(a ∪ b) ∪ c = a ∪ (b ∪ c)")
      try requireEqual(a.merged(with: a).bytes, a.bytes, "a ∪ a = a")
      try requireEqual(a.merged(with: b).merged(with: b).bytes, a.merged(with: b).bytes)
    }
  }

  @Test("todos: every todo added on a device is in the merge unless a device removed it")
  func acknowledgedAdds() {
    check(Self.histories, iterations: 300) { base, histories in
      let replicas = Self.replicas(base, histories)
      let merged = replicas[0].merged(with: replicas[1]).merged(with: replicas[2])
      var added = Set(base.map(\.id))
      var removed = Set<UUID>()
      for replica in replicas {
        added.formUnion(replica.state.todos.map(\.id))
        removed.formUnion(replica.sync.removed.keys)
      }
      let ids = merged.state.todos.map(\.id)
      try requireEqual(Set(ids).count, ids.count, "no todo twice")
      try requireEqual(
        added.subtracting(removed).subtracting(ids), [], "added, never removed, and missing")
    }
  }

  @Test("a title changed on one device and done ticked on the other both survive")
  func fieldByField() throws {
    let todo = Todo(title: "Buy milk")
    var (phone, laptop) = Self.phoneAndLaptop([todo])
    var renamed = todo
    renamed.title = "Buy oat milk"
    phone.apply { TodosStore.reduce(&$0, .updateTodo(renamed)) }
    laptop.apply { TodosStore.reduce(&$0, .toggleTodo(id: todo.id)) }
    let merged = phone.merged(with: laptop)
    #expect(merged.state.todos.map(\.title) == ["Buy oat milk"])
    #expect(merged.state.todos.map(\.isDone) == [true])
  }

  @Test("a removal wins over edits stamped before it, and loses to edits stamped after it")
  func removalAndEdits() throws {
    let todo = Todo(title: "Call Ann")
    var (phone, laptop) = Self.phoneAndLaptop([todo])
    laptop.apply { TodosStore.reduce(&$0, .toggleTodo(id: todo.id)) }
    phone.apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    #expect(phone.merged(with: laptop).state.todos.isEmpty, "the later removal wins")
    laptop.clock.observe(phone.sync.removed[todo.id]!.at)
    laptop.apply { TodosStore.reduce(&$0, .toggleTodo(id: todo.id)) }
    let merged = phone.merged(with: laptop)
    #expect(merged.state.todos.map(\.id) == [todo.id], "an edit after the removal keeps it")
  }

  @Test("a move on one device survives a merge with a device that only added")
  func moves() throws {
    let todos = (0..<4).map { Todo(title: "t\($0)") }
    var (phone, laptop) = Self.phoneAndLaptop(todos)
    phone.apply { TodosStore.reduce(&$0, .moveTodos(ids: [todos[3].id], before: todos[0].id)) }
    laptop.apply { TodosStore.reduce(&$0, .addTodo(Todo(title: "new"))) }
    let titles = phone.merged(with: laptop).state.todos.map(\.title)
    #expect(titles.filter { $0 != "new" } == ["t3", "t0", "t1", "t2"])
    #expect(titles.contains("new"))
  }

  @Test(
    "a merge descends from both sides; merging a version into one that descends from it changes nothing"
  )
  func descends() {
    typealias Sync = ListSync<TodosStore.State>
    check(Self.histories, iterations: 300) { base, histories in
      let replicas = Self.replicas(base, histories)
      let merged = replicas[0].merged(with: replicas[1])
      for side in replicas[0...1] {
        try requireEqual(
          Sync.descends((merged.state, merged.sync), from: (side.state, side.sync)), true,
          "the merge descends from each side")
      }
      for (a, b) in [(replicas[0], replicas[1]), (replicas[1], replicas[2]), (merged, replicas[2])]
      where Sync.descends((a.state, a.sync), from: (b.state, b.sync)) {
        try requireEqual(a.merged(with: b).state, a.state, "nothing to merge back")
      }
    }
  }

  @Test("every list, merged or not, is in the order of its items' places; keys stay valid")
  func places() {
    check(Self.histories, iterations: 300) { base, histories in
      let replicas = Self.replicas(base, histories)
      for replica in replicas + [replicas[0].merged(with: replicas[1]).merged(with: replicas[2])] {
        let keys = zip(replica.sync.items, replica.state.todos).map { ($0.position, $1.id) }
        try requireEqual(
          zip(keys, keys.dropFirst()).allSatisfy { ListSync<TodosStore.State>.precedes($0, $1) },
          true, "in order")
        try requireEqual(
          keys.allSatisfy { Position.isValid(Substring($0.0)) }, true, "valid keys")
      }
    }
  }

  @Test("a move elsewhere does not bring back a todo removed after it was added")
  func moveAfterRemoval() throws {
    let todos = (0..<3).map { Todo(title: "t\($0)") }
    var (phone, laptop) = Self.phoneAndLaptop(todos)
    phone.apply { TodosStore.reduce(&$0, .removeTodos(ids: [todos[2].id])) }
    laptop.apply { TodosStore.reduce(&$0, .moveTodos(ids: [todos[2].id], before: todos[0].id)) }
    #expect(phone.merged(with: laptop).state.todos.map(\.title) == ["t0", "t1"])
  }

  @Test("settings: key by key, the later stamp wins; a reset is a stamped removal")
  func settings() {
    let keys = ["a", "b", "c"]
    let history = Gen<SettingsStore.Action>.settingsAction(keys: keys).array(maxCount: 6)
    check(history.array(count: 3...3), iterations: 300) { histories in
      let devices = Devices()
      let replicas = histories.enumerated().map { device, actions in
        var replica = Replica(
          state: KeyValues(), sync: KeyValuesSync(unstamped: KeyValues()),
          clock: devices.clock("d\(device)"))
        for action in actions { replica.apply { SettingsStore.reduce(&$0, action) } }
        return replica
      }
      let (a, b, c) = replicas.triple
      try requireEqual(a.merged(with: b).bytes, b.merged(with: a).bytes, "a ∪ b = b ∪ a")
      try requireEqual(
        a.merged(with: b).merged(with: c).bytes, a.merged(with: b.merged(with: c)).bytes,
        "(a ∪ b) ∪ c = a ∪ (b ∪ c)")
      try requireEqual(a.merged(with: a).bytes, a.bytes, "a ∪ a = a")
    }
  }

  /// Two versions of a todo with one stamp whose titles differ only in Unicode normalization
  /// (`Café` composed and decomposed; Swift's `==` holds them equal, their bytes and digests
  /// differ) — two version 1 files, stamped ``Stamp/origin``, or a hand edit whose digest
  /// collides: the merge writes the same bytes whichever side comes first, or two devices
  /// would never settle.
  @Test("a merge of titles equal but for Unicode normalization writes the same bytes either way")
  @MainActor
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
}

extension Array {
  /// The first three elements.
  var triple: (Element, Element, Element) { (self[0], self[1], self[2]) }
}
