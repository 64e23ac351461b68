import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Values that lost to a concurrent change are kept beside the winner (issue 41, item 1).
@Suite("Conflicts: no value lost silently to a concurrent change")
struct ConflictTests {
  typealias TodoReplica = MergeTests.TodoReplica
  typealias Sync = ListSync<TodosStore.State>
  static let title = Todo.fieldTable.fields.firstIndex { $0.name == "title" }!

  static func retitled(_ todo: Todo, _ title: String) -> TodosStore.Action {
    var todo = todo
    todo.title = title
    return .updateTodo(todo)
  }

  /// `replica` after merging `other`, its clock having read the merge's stamps, as a store's.
  static func synced(_ replica: TodoReplica, with other: TodoReplica) -> TodoReplica {
    let merged = replica.merged(with: other)
    if let latest = merged.sync.latest { merged.clock.observe(latest) }
    return merged
  }

  /// The file `replica` writes, read back.
  static func reread(_ replica: TodoReplica) throws -> TodoReplica {
    let (state, sync) = try StateFileCoding.decode(
      replica.bytes, path: "todos.json", sync: Sync.self)
    return TodoReplica(state: state, sync: sync, clock: replica.clock)
  }

  /// The open conflicts of `replica`, by todo.
  static func open(_ replica: TodoReplica) -> [UUID: [Sync.Conflict]] {
    var open: [UUID: [Sync.Conflict]] = [:]
    for id in replica.sync.conflicts.keys {
      let offset = replica.state.todos.firstIndex { $0.id == id }
      let kept = replica.sync.openConflicts(of: id, at: offset, in: replica.state.todos)
      if !kept.isEmpty { open[id] = kept }
    }
    return open
  }

  /// The titles kept as conflicts of the todo `id` in `replica`.
  static func keptTitles(_ replica: TodoReplica, _ id: UUID) -> [String] {
    (open(replica)[id] ?? []).filter { $0.field == title }.map(\.value.title)
  }

  @Test("a title changed on two devices at once: the later wins, the other is kept, either way")
  func concurrentTitles() throws {
    let todo = Todo(title: "Buy milk")
    var (phone, laptop) = MergeTests.phoneAndLaptop([todo])
    phone.apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy oat milk")) }
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy soy milk")) }
    let merged = phone.merged(with: laptop)
    #expect(merged.state.todos.map(\.title) == ["Buy soy milk"], "the later stamp wins")
    #expect(Self.keptTitles(merged, todo.id) == ["Buy oat milk"])
    let conflict = try #require(merged.sync.conflicts[todo.id]?.first)
    #expect(conflict.stamp.device == phone.clock.device)
    #expect(merged.bytes == laptop.merged(with: phone).bytes)
    #expect(try Self.reread(merged).sync == merged.sync, "kept in the file")
    #expect(try Self.reread(merged).bytes == merged.bytes)
  }

  @Test("a change made after seeing the other is no conflict; nor is the same value set twice")
  func sequentialChanges() {
    let todo = Todo(title: "Buy milk")
    var (phone, laptop) = MergeTests.phoneAndLaptop([todo])
    phone.apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy oat milk")) }
    laptop = Self.synced(laptop, with: phone)
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy soy milk")) }
    #expect(phone.merged(with: laptop).sync.conflicts.isEmpty)
    var (a, b) = MergeTests.phoneAndLaptop([todo])
    a.apply { TodosStore.reduce(&$0, Self.retitled(todo, "Same")) }
    b.apply { TodosStore.reduce(&$0, Self.retitled(todo, "Same")) }
    #expect(Self.open(a.merged(with: b)).isEmpty, "kept, not shown: it holds the winner's value")
  }

  @Test("a value is kept though the winner's device changed the field twice since")
  func winnerChangedTwice() {
    let todo = Todo(title: "Buy milk")
    var (phone, laptop) = MergeTests.phoneAndLaptop([todo])
    phone.apply { TodosStore.reduce(&$0, Self.retitled(todo, "phone")) }
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "laptop 1")) }
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "laptop 2")) }
    let merged = phone.merged(with: laptop)
    #expect(merged.state.todos.map(\.title) == ["laptop 2"])
    #expect(Self.keptTitles(merged, todo.id) == ["phone"], "not 'laptop 1': laptop saw it")
  }

  @Test("three devices: a value lost to one that was then changed knowingly is still kept")
  func threeDevices() {
    let todo = Todo(title: "Buy milk")
    let devices = Devices(steps: 1...1)
    let base = TodosStore.State(todos: [todo])
    func replica(_ name: String) -> TodoReplica {
      TodoReplica(state: base, sync: Sync(unstamped: base), clock: devices.clock(name))
    }
    var (phone, tablet, laptop) = (replica("phone"), replica("tablet"), replica("laptop"))
    phone.apply { TodosStore.reduce(&$0, Self.retitled(todo, "phone")) }
    tablet.apply { TodosStore.reduce(&$0, Self.retitled(todo, "tablet")) }
    laptop = Self.synced(laptop, with: tablet)
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "laptop")) }
    let merged = phone.merged(with: laptop).merged(with: tablet)
    #expect(merged.state.todos.map(\.title) == ["laptop"])
    #expect(Self.keptTitles(merged, todo.id) == ["phone"], "tablet's was seen by laptop")
    #expect(merged.bytes == tablet.merged(with: laptop.merged(with: phone)).bytes)
  }

  @Test("a removal that an edit made without seeing it undid is kept; an undo of it is not")
  func removalUndone() throws {
    let todo = Todo(title: "Call Ann")
    var (phone, laptop) = MergeTests.phoneAndLaptop([todo])
    phone.apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    laptop.apply { TodosStore.reduce(&$0, .toggleTodo(id: todo.id)) }
    let merged = phone.merged(with: laptop)
    #expect(merged.state.todos.map(\.id) == [todo.id], "the later edit keeps it")
    let removal = try #require(Self.open(merged)[todo.id]?.first)
    #expect(removal.field == nil && removal.stamp.device == phone.clock.device)
    // The phone puts the todo back (undo): it saw its removal.
    var (again, other) = MergeTests.phoneAndLaptop([todo])
    again.apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    let removed = again
    again.apply { TodosStore.reduce(&$0, .addTodo(todo)) }
    other = Self.synced(other, with: removed)
    #expect(again.merged(with: other).state.todos.map(\.id) == [todo.id])
    #expect(Self.open(again.merged(with: other)).isEmpty)
  }

  @Test("a later ordinary change of the field keeps the conflict; resolving drops it everywhere")
  func resolving() throws {
    let todo = Todo(title: "Buy milk")
    var (phone, laptop) = MergeTests.phoneAndLaptop([todo])
    phone.apply { TodosStore.reduce(&$0, Self.retitled(todo, "phone")) }
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "laptop")) }
    phone = Self.synced(phone, with: laptop)
    laptop = Self.synced(laptop, with: phone)
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "laptop again")) }
    #expect(Self.keptTitles(Self.synced(laptop, with: phone), todo.id) == ["phone"])
    for keeping in ["phone", "laptop"] {
      var resolver = phone
      resolver.state.todos[0].title = keeping
      resolver.sync = resolver.sync.resolving(
        item: todo.id, at: 0, field: Self.title, stamp: resolver.clock.stamp())
      #expect(resolver.sync.conflicts.isEmpty)
      // The other device, which still keeps the conflict, learns the resolution.
      for merged in [resolver.merged(with: phone), phone.merged(with: resolver)] {
        #expect(merged.sync.conflicts.isEmpty)
        #expect(merged.state.todos.map(\.title) == [keeping])
      }
    }
  }

  @Test("keeping an item whose removal an edit undid drops the removal's conflict everywhere")
  func resolvingRemoval() throws {
    let todo = Todo(title: "Call Ann")
    var (phone, laptop) = MergeTests.phoneAndLaptop([todo])
    phone.apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    laptop.apply { TodosStore.reduce(&$0, .toggleTodo(id: todo.id)) }
    let merged = Self.synced(laptop, with: phone)
    var resolver = merged
    resolver.sync = resolver.sync.resolving(
      item: todo.id, at: 0, field: nil, stamp: resolver.clock.stamp())
    #expect(Self.open(resolver).isEmpty)
    #expect(Self.open(resolver.merged(with: phone)).isEmpty)
    #expect(Self.open(phone.merged(with: merged).merged(with: resolver)).isEmpty)
  }

  @Test("conflicts are dropped with the tombstones, 90 days after every device wrote")
  func pruned() {
    let todo = Todo(title: "Buy milk")
    var (phone, laptop) = MergeTests.phoneAndLaptop([todo])
    phone.apply { TodosStore.reduce(&$0, Self.retitled(todo, "phone")) }
    laptop.apply { TodosStore.reduce(&$0, Self.retitled(todo, "laptop")) }
    var merged = phone.merged(with: laptop)
    let stamp = merged.sync.conflicts[todo.id]![0].stamp
    merged.sync.noteWrite(by: phone.clock.device, at: stamp.milliseconds + 1)
    merged.sync.noteWrite(by: laptop.clock.device, at: stamp.milliseconds + 1)
    #expect(!merged.sync.conflicts.isEmpty, "kept while recent")
    #expect(!merged.sync.seen.isEmpty, "what the changes saw is kept as long")
    let later = merged.sync.latest!.milliseconds + Stamp.tombstoneLifetime + 1
    merged.sync.noteWrite(by: phone.clock.device, at: later)
    merged.sync.noteWrite(by: laptop.clock.device, at: later)
    #expect(merged.sync.conflicts.isEmpty)
    #expect(merged.sync.seen.isEmpty)
  }

  /// Three devices' histories of actions, merges with each other, and resolutions.
  enum Step: Sendable, CustomStringConvertible {
    case act(device: Int, TodosStore.Action)
    case sync(device: Int, from: Int)
    case resolve(device: Int, pick: Int)

    var description: String {
      switch self {
      case .act(let device, let action): "d\(device): \(action)"
      case .sync(let device, let from): "d\(device) ← d\(from)"
      case .resolve(let device, let pick): "d\(device) resolves #\(pick)"
      }
    }
  }

  static let steps = Gen<Step>.oneOf(
    Gen<(Int, TodosStore.Action)>.zip(devices, .todoAction(maxCount: 4)).map {
      Step.act(device: $0, $1)
    },
    Gen<(Int, Int)>.zip(devices, devices).map { Step.sync(device: $0, from: $1) },
    Gen<(Int, Int)>.zip(devices, .integer(in: 0...7)).map { Step.resolve(device: $0, pick: $1) }
  ).array(maxCount: 24)

  static let devices = Gen<Int>.integer(in: 0...2)

  /// The replicas after `steps`, and what each change of a title truly knew: every change of
  /// a title each replica had made or merged when it was made.
  static func run(
    _ base: [Todo], _ steps: [Step]
  ) -> (replicas: [TodoReplica], knew: [Stamp: Set<Stamp>], addedTwice: Set<UUID>) {
    let devices = Devices()
    let state = TodosStore.State(todos: base)
    var replicas = (0..<3).map {
      TodoReplica(state: state, sync: Sync(unstamped: state), clock: devices.clock("d\($0)"))
    }
    var knowledge = [Set<Stamp>](repeating: [], count: 3)
    var knew: [Stamp: Set<Stamp>] = [:]
    // The ids each device has held, and those added anew on two devices — which real ids
    // never are, but generated ones may be.
    var known = [Set<UUID>](repeating: Set(base.map(\.id)), count: 3)
    var addedAnew: [UUID: Int] = [:]
    var addedTwice: Set<UUID> = []
    func noteTitles(of device: Int, before: TodoReplica) {
      for todo in replicas[device].state.todos where !known[device].contains(todo.id) {
        known[device].insert(todo.id)
        if let other = addedAnew[todo.id], other != device { addedTwice.insert(todo.id) }
        addedAnew[todo.id] = device
      }
      let old = Dictionary(
        zip(before.state.todos.map(\.id), before.sync.items.map { $0.fields[title] }),
        uniquingKeysWith: { first, _ in first })
      for (todo, stamps) in zip(replicas[device].state.todos, replicas[device].sync.items)
      where old[todo.id] != stamps.fields[title] {
        knew[stamps.fields[title]] = knowledge[device]
        knowledge[device].insert(stamps.fields[title])
      }
    }
    for step in steps {
      switch step {
      case .act(let device, let action):
        let before = replicas[device]
        replicas[device].apply { TodosStore.reduce(&$0, TodosStore.resolve(action, in: $0)) }
        noteTitles(of: device, before: before)
      case .sync(let device, let from):
        replicas[device] = synced(replicas[device], with: replicas[from])
        knowledge[device].formUnion(knowledge[from])
        known[device].formUnion(known[from])
      case .resolve(let device, let pick):
        var replica = replicas[device]
        let all = open(replica).sorted { $0.key.precedes($1.key) }.flatMap { id, kept in
          kept.map { (id, $0) }
        }
        guard !all.isEmpty,
          let offset = replica.state.todos.firstIndex(where: { $0.id == all[pick % all.count].0 })
        else { continue }
        let (id, conflict) = all[pick % all.count]
        if let field = conflict.field, pick % 2 == 0 {
          Todo.fieldTable.fields[field].copy(conflict.value, &replica.state.todos[offset])
        }
        replica.sync = replica.sync.resolving(
          item: id, at: offset, field: conflict.field, stamp: replica.clock.stamp())
        let before = replicas[device]
        replicas[device] = replica
        noteTitles(of: device, before: before)
      }
    }
    return (replicas, knew, addedTwice)
  }

  static let histories = Gen<([Todo], [Step])>.zip(.todos(maxCount: 4), steps)

  @Test(
    "with conflicts kept and resolved, the merge is commutative, associative and idempotent, to the byte"
  )
  func laws() {
    check(Self.histories, iterations: 500) { base, steps in
      let (a, b, c) = Self.run(base, steps).replicas.triple
      try requireEqual(a.merged(with: b).bytes, b.merged(with: a).bytes, "a ∪ b = b ∪ a")
      try requireEqual(
        a.merged(with: b).merged(with: c).bytes, a.merged(with: b.merged(with: c)).bytes,
        "(a ∪ b) ∪ c = a ∪ (b ∪ c)")
      try requireEqual(a.merged(with: a).bytes, a.bytes, "a ∪ a = a")
      for replica in [a, b, c, a.merged(with: b).merged(with: c)] {
        try requireEqual(try Self.reread(replica).bytes, replica.bytes, "read back as written")
      }
    }
  }

  @Test(
    "a version that descends from another is one the merge with it leaves as it is, to the byte")
  func descendsIsSound() {
    check(Self.histories, iterations: 2_000) { base, steps in
      let (a, b, c) = Self.run(base, steps).replicas.triple
      for (version, known) in [(a, b), (b, a), (a, c), (a.merged(with: b), c)]
      where Sync.descends((version.state, version.sync), from: (known.state, known.sync)) {
        try requireEqual(version.merged(with: known).bytes, version.bytes, "merged as it is")
      }
      let ab = a.merged(with: b)
      try requireEqual(
        Sync.descends((ab.state, ab.sync), from: (b.state, b.sync)), true,
        "a ∪ b descends from b: a store does not write it again")
    }
  }

  @Test(
    "every title a device set is the merge's, or kept as a conflict, or known to a change that replaced it"
  )
  func noSilentLoser() {
    check(Self.histories, iterations: 500) { base, steps in
      let (replicas, knew, addedTwice) = Self.run(base, steps)
      let merged = replicas[0].merged(with: replicas[1]).merged(with: replicas[2])
      for (todo, stamps) in zip(merged.state.todos, merged.sync.items)
      where !addedTwice.contains(todo.id) {
        // Every conflict stored, shown or not: one not shown holds a value shown.
        let kept = (merged.sync.conflicts[todo.id] ?? []).filter { $0.field == Self.title }
        let surviving = [stamps.fields[Self.title]] + kept.map(\.stamp)
        let values = Set([todo.title] + kept.map(\.value.title))
        for replica in replicas {
          for (version, versionStamps) in zip(replica.state.todos, replica.sync.items)
          where version.id == todo.id {
            let stamp = versionStamps.fields[Self.title]
            guard !values.contains(version.title), knew[stamp] != nil else { continue }
            try requireEqual(
              surviving.contains { knew[$0]?.contains(stamp) ?? false }, true,
              "\(quoted(version.title)) (stamped \(stamp)) lost to \(quoted(todo.title)) silently")
          }
        }
      }
    }
  }
}

/// Histories an adversarial review found, each once wrong.
@Suite("Conflicts: the histories a review found")
struct ConflictReviewTests {
  typealias TodoReplica = MergeTests.TodoReplica
  typealias Sync = ListSync<TodosStore.State>
  static let date = Todo.fieldTable.fields.firstIndex { $0.name == "date" }!

  static func retitled(_ todo: Todo, _ title: String) -> TodosStore.Action {
    ConflictTests.retitled(todo, title)
  }

  static func replicas(_ names: [String], _ todos: [Todo]) -> [TodoReplica] {
    let devices = Devices(steps: 1...1)
    let base = TodosStore.State(todos: todos)
    return names.map {
      TodoReplica(state: base, sync: Sync(unstamped: base), clock: devices.clock($0))
    }
  }

  @Test("a device's own later change supersedes its kept value, in its own file too: a ∪ a = a")
  func ownLaterChange() {
    let todo = Todo(title: "t")
    var r = Self.replicas(["b", "c"], [todo])
    var (b, c) = (r[0], r[1])
    b.apply { TodosStore.reduce(&$0, Self.retitled(todo, "y")) }
    c.apply { TodosStore.reduce(&$0, Self.retitled(todo, "w")) }
    b = ConflictTests.synced(b, with: c)
    #expect(ConflictTests.keptTitles(b, todo.id) == ["y"])
    b.apply { TodosStore.reduce(&$0, Self.retitled(todo, "y2")) }
    #expect(ConflictTests.keptTitles(b, todo.id).isEmpty, "y2 saw b's own y")
    c = ConflictTests.synced(c, with: b)
    c.apply { TodosStore.reduce(&$0, Self.retitled(todo, "x")) }
    #expect(c.merged(with: c).bytes == c.bytes)
    #expect(c.merged(with: b).bytes == b.merged(with: c).bytes)
    r = [b, c]
    #expect(r[0].merged(with: r[1]).state.todos.map(\.title) == ["x"])
  }

  @Test(
    "a device's own later change takes what its earlier change had seen: a title it replaced does not come back"
  )
  func ownLaterChangeSawWhatTheEarlierSaw() {
    let todo = Todo(title: "Buy milk")
    var r = Self.replicas(["desk", "phone", "laptop"], [todo])
    r[0].apply { TodosStore.reduce(&$0, Self.retitled(todo, "five")) }
    r[1] = ConflictTests.synced(r[1], with: r[0])
    r[1].apply { TodosStore.reduce(&$0, Self.retitled(todo, "nine")) }
    r[2].apply { TodosStore.reduce(&$0, Self.retitled(todo, "seven")) }
    r[1] = ConflictTests.synced(r[1], with: r[2])
    #expect(ConflictTests.keptTitles(r[1].merged(with: r[0]), todo.id) == ["nine"])
    r[1].apply { TodosStore.reduce(&$0, Self.retitled(todo, "ten")) }
    #expect(ConflictTests.keptTitles(r[1].merged(with: r[0]), todo.id).isEmpty)
  }

  @Test(
    "a version whose later title did not see another's does not descend from it: merging it keeps the other"
  )
  func descendsOnlyFromWhatItSaw() {
    let todo = Todo(title: "Buy milk")
    var r = Self.replicas(["phone", "laptop"], [todo])
    r[0].apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy oat milk")) }
    r[1].apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy soy milk")) }
    func descends(_ version: TodoReplica, from known: TodoReplica) -> Bool {
      Sync.descends((version.state, version.sync), from: (known.state, known.sync))
    }
    #expect(!descends(r[1], from: r[0]), "the laptop's title did not see the phone's")
    let merged = ConflictTests.synced(r[0], with: r[1])
    #expect(descends(merged, from: r[0]) && descends(merged, from: r[1]))
    #expect(Sync.holdsChanges(of: (r[0].state, r[0].sync), in: (r[1].state, r[1].sync)))
    // A removal the laptop's later edit did not see: not held until kept.
    var phone = r[0]
    phone.apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    var laptop = r[1]
    laptop.apply { TodosStore.reduce(&$0, .toggleTodo(id: todo.id)) }
    #expect(!descends(laptop, from: phone), "the tick did not see the removal")
    #expect(descends(ConflictTests.synced(laptop, with: phone), from: phone), "kept")
  }

  @Test(
    "an edit by hand that a store stamps as an edit of the version it knew keeps the conflicts of its field"
  )
  func stampedEditKeepsConflicts() {
    let todo = Todo(title: "Buy milk")
    var r = Self.replicas(["phone", "laptop"], [todo])
    r[0].apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy oat milk")) }
    r[1].apply { TodosStore.reduce(&$0, Self.retitled(todo, "Buy soy milk")) }
    let phone = ConflictTests.synced(r[0], with: r[1])
    #expect(ConflictTests.keptTitles(phone, todo.id) == ["Buy oat milk"])
    var after = phone.state
    after.todos[0].title = "Buy rice milk"
    let edited = phone.sync.stampedEdit(
      before: phone.state, after: after, stamp: phone.clock.stamp())
    let byHand = TodoReplica(state: after, sync: edited, clock: phone.clock)
    #expect(ConflictTests.keptTitles(byHand, todo.id) == ["Buy oat milk"])
  }

  @Test("a value seen before it was replaced is no conflict, whatever the order of merges")
  func seenThenReplaced() {
    let todo = Todo(title: "t")
    var r = Self.replicas(["a", "b", "c"], [todo])
    r[0].apply { TodosStore.reduce(&$0, Self.retitled(todo, "z")) }
    r[1] = ConflictTests.synced(r[1], with: r[0])
    r[1].apply { TodosStore.reduce(&$0, Self.retitled(todo, "y")) }
    r[2].apply { TodosStore.reduce(&$0, Self.retitled(todo, "w")) }
    let (a, b, c) = r.triple
    let first = a.merged(with: b).merged(with: c)
    #expect(first.bytes == a.merged(with: b.merged(with: c)).bytes)
    #expect(ConflictTests.keptTitles(first, todo.id) == ["y"], "z was seen by y")
  }

  @Test("an edit a concurrent removal swallowed is kept when the removal is undone")
  func editSwallowedByRemoval() {
    let todo = Todo(title: "old")
    var r = Self.replicas(["a", "b"], [todo])
    var (a, b) = (r[0], r[1])
    b.apply { TodosStore.reduce(&$0, Self.retitled(todo, "new")) }
    a.apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    a = ConflictTests.synced(a, with: b)
    #expect(a.state.todos.isEmpty, "the later removal wins")
    // The removal undone: the todo as it was removed comes back.
    a.apply { TodosStore.reduce(&$0, .addTodo(todo)) }
    r = [a, b]
    let merged = r[0].merged(with: r[1])
    #expect(
      merged.state.todos.map(\.title) == ["old"]
        && ConflictTests.keptTitles(merged, todo.id) == ["new"],
      "b's title is kept beside the todo put back")
  }

  @Test("keeping an item whose removal an edit undid leaves its other conflicts open")
  func keepingLeavesFieldConflicts() throws {
    let todo = Todo(title: "t", date: Date(timeIntervalSince1970: 1_764_000_000))
    var r = Self.replicas(["a", "b", "c"], [todo])
    var dated = todo
    dated.date = Date(timeIntervalSince1970: 1_764_100_000)
    r[1].apply { TodosStore.reduce(&$0, .updateTodo(dated)) }
    r[0].apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    dated.date = Date(timeIntervalSince1970: 1_764_200_000)
    r[2].apply { TodosStore.reduce(&$0, .updateTodo(dated)) }
    var merged = r[2].merged(with: r[0]).merged(with: r[1])
    let open = ConflictTests.open(merged)[todo.id] ?? []
    #expect(open.map(\.field) == [nil, Self.date], "the removal, and b's date")
    merged.sync = merged.sync.resolving(
      item: todo.id, at: 0, field: nil, stamp: merged.clock.stamp())
    for version in [merged, merged.merged(with: r[1]), r[1].merged(with: merged)] {
      #expect(ConflictTests.open(version)[todo.id]?.map(\.field) == [Self.date])
    }
  }

  /// A phone's and a laptop's copies of `todo` after each retitled it at once (the laptop
  /// later), and their merge, which keeps the phone's title.
  static func concurrentTitles(
    _ todo: Todo
  ) -> (phone: TodoReplica, laptop: TodoReplica, merged: TodoReplica) {
    let r = replicas(["phone", "laptop"], [todo])
    var (phone, laptop) = (r[0], r[1])
    phone.apply { TodosStore.reduce(&$0, retitled(todo, "phone")) }
    laptop.apply { TodosStore.reduce(&$0, retitled(todo, "laptop")) }
    return (phone, laptop, phone.merged(with: laptop))
  }

  @Test("a value edited by hand under its stamp keeps the conflicts of its field open")
  func handEditKeepsConflicts() throws {
    let todo = Todo(title: "t")
    let (phone, _, merged) = Self.concurrentTitles(todo)
    // An editor changes the title in the file, leaving the stamps as they were.
    let text = String(decoding: merged.bytes, as: UTF8.self)
      .replacingOccurrences(of: "\"title\" : \"laptop\"", with: "\"title\" : \"editor\"")
    let (state, sync) = try StateFileCoding.decode(
      Data(text.utf8), path: "todos.json", sync: Sync.self)
    var edited = TodoReplica(state: state, sync: sync, clock: merged.clock)
    #expect(edited.state.todos.map(\.title) == ["editor"])
    edited.sync.stampUnstamped(edited.clock.stamp())
    #expect(ConflictTests.keptTitles(edited, todo.id) == ["phone"])
    #expect(ConflictTests.keptTitles(edited.merged(with: phone), todo.id) == ["phone"])
  }

  @Test("a conflict or record of a field this build does not know is dropped, not refused")
  func unknownFields() throws {
    let merged = Self.concurrentTitles(Todo(title: "t")).merged
    let text = String(decoding: merged.bytes, as: UTF8.self)
      .replacingOccurrences(of: "\"field\" : \"title\"", with: "\"field\" : \"colour\"")
      .replacingOccurrences(of: " title ", with: " colour ")
    let (state, sync) = try StateFileCoding.decode(
      Data(text.utf8), path: "todos.json", sync: Sync.self)
    #expect(state == merged.state)
    #expect(sync.conflicts.isEmpty && sync.seen.isEmpty)
  }

  @Test("a change that lost unkept still tells what the winner saw through it, in any order")
  func closedRecords() {
    // Found by `checkConvergence` on the workouts: one id added on two devices, removed on
    // one, then added there again with another priority.
    let todo = Todo(title: "t")
    var r = Self.replicas(["a", "b", "c"], [])
    r[2].apply { TodosStore.reduce(&$0, .addTodo(todo)) }
    r[0].apply { TodosStore.reduce(&$0, .addTodo(todo)) }
    r[1] = ConflictTests.synced(r[1], with: r[0])
    r[0].apply { TodosStore.reduce(&$0, .removeTodos(ids: [todo.id])) }
    r[0] = ConflictTests.synced(r[0], with: r[1])
    var urgent = todo
    urgent.priority = 3
    r[0].apply { TodosStore.reduce(&$0, .addTodo(urgent)) }
    let (a, b, c) = r.triple
    #expect(a.merged(with: b).merged(with: c).bytes == a.merged(with: b.merged(with: c)).bytes)
    #expect(ConflictTests.open(a.merged(with: b).merged(with: c)).isEmpty, "c's add was seen")
  }
}
