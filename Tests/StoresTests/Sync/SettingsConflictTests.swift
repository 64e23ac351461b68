import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Settings keep the value that lost to a concurrent change of their key, as lists keep a
/// field's (issue 41, item 1).
@Suite("Conflicts of settings: no value lost silently to a concurrent change")
struct SettingsConflictTests {
  typealias Settings = Replica<KeyValues, KeyValuesSync>

  static func replica(_ device: String, _ devices: Devices, from base: Settings? = nil)
    -> Settings
  {
    Settings(
      state: base?.state ?? KeyValues(), sync: base?.sync ?? KeyValuesSync(unstamped: KeyValues()),
      clock: devices.clock(device))
  }

  static func set(_ key: String, _ value: JSONValue) -> (inout KeyValues) -> Bool {
    { SettingsStore.reduce(&$0, .set(key: key, value: value)) }
  }

  static func reset(_ key: String) -> (inout KeyValues) -> Bool {
    { SettingsStore.reduce(&$0, .remove(keys: [key])) }
  }

  /// `replica` after merging `other`, its clock having read the merge's stamps, as a store's.
  static func synced(_ replica: Settings, with other: Settings) -> Settings {
    let merged = replica.merged(with: other)
    if let latest = merged.sync.latest { merged.clock.observe(latest) }
    return merged
  }

  /// The file `replica` writes, read back.
  static func reread(_ replica: Settings) throws -> Settings {
    let (state, sync) = try StateFileCoding.decode(
      replica.bytes, path: "settings.json", sync: KeyValuesSync.self)
    return Settings(state: state, sync: sync, clock: replica.clock)
  }

  /// The values kept open of `key` (`nil`: a reset), as JSON text.
  static func kept(_ replica: Settings, _ key: String) -> [String?] {
    replica.sync.openConflicts(in: replica.state).filter { $0.field == key }.map(\.value)
  }

  /// A phone and a laptop that both hold `sleepGoal` 8, then set it to 9 and 7 (the laptop
  /// later) without seeing each other's change.
  static func concurrentGoals() -> (phone: Settings, laptop: Settings) {
    let devices = Devices(steps: 1...1)
    var phone = replica("phone", devices)
    phone.apply(set("sleepGoal", .number(JSONNumber(8))))
    var laptop = replica("laptop", devices, from: phone)
    phone.apply(set("sleepGoal", .number(JSONNumber(9))))
    laptop.apply(set("sleepGoal", .number(JSONNumber(7))))
    return (phone, laptop)
  }

  @Test("a setting changed on two devices at once: the later wins, the other is kept, either way")
  func concurrentSets() throws {
    let (phone, laptop) = Self.concurrentGoals()
    for merged in [phone.merged(with: laptop), laptop.merged(with: phone)] {
      #expect(merged.state.values["sleepGoal"] == .number(JSONNumber(7)))
      #expect(Self.kept(merged, "sleepGoal") == ["9"])
      #expect(try Self.reread(merged).bytes == merged.bytes, "read back as written")
    }
    let merged = phone.merged(with: laptop)
    let conflict = try #require(merged.sync.openConflicts(in: merged.state).first)
    #expect(conflict.item == nil && conflict.field == "sleepGoal" && conflict.device == "phone")
    #expect(conflict.description == "sleepGoal = 9 on phone")
  }

  @Test("a change made after seeing the other is no conflict; nor is the same value set twice")
  func sequentialChanges() {
    let devices = Devices(steps: 1...1)
    var phone = Self.replica("phone", devices)
    phone.apply(Self.set("theme", .string("dark")))
    var laptop = Self.synced(Self.replica("laptop", devices), with: phone)
    laptop.apply(Self.set("theme", .string("light")))
    #expect(Self.kept(phone.merged(with: laptop), "theme").isEmpty)
    var other = Self.replica("desktop", devices)
    other.apply(Self.set("units", .string("km")))
    var again = Self.replica("tablet", devices)
    again.apply(Self.set("units", .string("km")))
    #expect(Self.kept(other.merged(with: again), "units").isEmpty, "one value: nothing to choose")
  }

  @Test("a key set for the first time on two devices at once keeps the earlier value")
  func firstSets() {
    let devices = Devices(steps: 1...1)
    var phone = Self.replica("phone", devices)
    var laptop = Self.replica("laptop", devices)
    phone.apply(Self.set("theme", .string("dark")))
    laptop.apply(Self.set("theme", .string("light")))
    #expect(Self.kept(laptop.merged(with: phone), "theme") == ["\"dark\""])
  }

  @Test("a reset and a change at once: the one that lost is kept, a reset as the default")
  func resetAgainstSet() throws {
    var (phone, laptop) = Self.concurrentGoals()
    phone.apply(Self.reset("sleepGoal"))
    // The phone's reset is later than the laptop's 7: 7 is kept.
    #expect(phone.merged(with: laptop).state.values["sleepGoal"] == nil)
    #expect(Self.kept(phone.merged(with: laptop), "sleepGoal") == ["7"])
    laptop.apply(Self.set("sleepGoal", .number(JSONNumber(6))))
    // Now the laptop's 6 is later: the reset is kept (and 9, which the reset had seen, not).
    let merged = laptop.merged(with: phone)
    #expect(merged.state.values["sleepGoal"] == .number(JSONNumber(6)))
    #expect(Self.kept(merged, "sleepGoal") == [nil])
    #expect(
      merged.sync.openConflicts(in: merged.state).first?.description == "sleepGoal reset on phone")
    #expect(try Self.reread(merged).bytes == merged.bytes)
  }

  @Test("a device's own later change supersedes its kept value")
  func ownLaterChange() {
    var (phone, laptop) = Self.concurrentGoals()
    let merged = Self.synced(laptop, with: phone)
    #expect(Self.kept(merged, "sleepGoal") == ["9"])
    phone.apply(Self.set("sleepGoal", .number(JSONNumber(10))))
    // The phone's 10 saw its own 9, and not the laptop's 7: 7 is kept, 9 is not.
    #expect(Self.kept(merged.merged(with: phone), "sleepGoal") == ["7"])
    laptop = Self.synced(merged, with: phone)
    laptop.apply(Self.set("sleepGoal", .number(JSONNumber(8))))
    #expect(Self.kept(laptop, "sleepGoal").isEmpty, "a change that saw them covers them")
  }

  @Test("resolving sets the kept value, or keeps the current one; every device drops the conflict")
  func resolving() throws {
    for choice in [SyncConflict.Choice.conflict, .current] {
      let (phone, laptop) = Self.concurrentGoals()
      var merged = Self.synced(laptop, with: phone)
      let conflict = try #require(merged.sync.openConflicts(in: merged.state).first)
      var state = merged.state
      let resolved = try #require(
        merged.sync.resolving(conflict, choosing: choice, in: &state, stamp: merged.clock.stamp()))
      (merged.state, merged.sync) = (state, resolved)
      #expect(merged.state.values["sleepGoal"] == .number(JSONNumber(choice == .conflict ? 9 : 7)))
      #expect(Self.kept(merged, "sleepGoal").isEmpty)
      #expect(merged.sync.resolving(conflict, choosing: choice, in: &state, stamp: .origin) == nil)
      // The phone reads the resolution: the conflict is gone there too, whatever the order.
      for onPhone in [phone.merged(with: merged), merged.merged(with: phone)] {
        #expect(onPhone.state == merged.state)
        #expect(Self.kept(onPhone, "sleepGoal").isEmpty)
        #expect(onPhone.bytes == merged.bytes)
      }
    }
  }

  @Test("conflicts are dropped with the tombstones, 90 days after every device wrote")
  func pruned() {
    let (phone, laptop) = Self.concurrentGoals()
    var merged = laptop.merged(with: phone)
    let later = merged.sync.latest!.milliseconds + Stamp.tombstoneLifetime + 1
    merged.sync.noteWrite(by: DeviceID("phone")!, at: later)
    merged.sync.noteWrite(by: DeviceID("laptop")!, at: later)
    #expect(merged.sync.conflicts.isEmpty && merged.sync.seen.isEmpty)
  }

  @Test(
    "a value edited by hand under its stamp keeps the key's conflicts; a broken entry is dropped")
  func handEdits() throws {
    let (phone, laptop) = Self.concurrentGoals()
    let merged = laptop.merged(with: phone)
    let text = String(decoding: merged.bytes, as: UTF8.self)
    #expect(text.contains("\"conflicts\""), "\(text)")
    let edited = text.replacingOccurrences(of: "\"sleepGoal\" : 7", with: "\"sleepGoal\" : 5")
    #expect(edited != text)
    var (state, sync) = try StateFileCoding.decode(
      Data(edited.utf8), path: "settings.json", sync: KeyValuesSync.self)
    sync.reconcile(with: state)
    sync.stampUnstamped(merged.clock.stamp())
    let byHand = Settings(state: state, sync: sync, clock: merged.clock)
    #expect(Self.kept(byHand, "sleepGoal") == ["9"])
    // A conflict whose stamp is not one is dropped; the file is read.
    let broken = text.replacingOccurrences(of: "\"stamp\" : \"", with: "\"stamp\" : \"!")
    #expect(broken != text)
    let read = try StateFileCoding.decode(
      Data(broken.utf8), path: "settings.json", sync: KeyValuesSync.self)
    #expect(read.0.values["sleepGoal"] == .number(JSONNumber(7)) && read.1.conflicts.isEmpty)
  }

  @Test(
    "a record leaves out its change's own stamp, implied; a hand edit's, which saw only what it replaced, ends with -"
  )
  func recordText() throws {
    let phone = try #require(DeviceID("phone"))
    let laptop = try #require(DeviceID("laptop"))
    let earlier = Stamp(milliseconds: 1_000, device: laptop)
    let stamp = Stamp(milliseconds: 2_000, device: phone)
    var record = SeenStamps(before: .origin)
    record.insert(earlier)
    let handEdit = record
    record.insert(stamp)
    #expect(record.text(of: stamp) == "0.0.0 \(earlier)")
    #expect(handEdit.text(of: stamp) == "0.0.0 \(earlier) -")
    #expect(SeenStamps(Substring(record.text(of: stamp)), of: stamp) == record)
    #expect(SeenStamps(Substring(handEdit.text(of: stamp)), of: stamp) == handEdit)
    #expect(!handEdit.covers(Stamp(milliseconds: 1_500, device: phone)))
    #expect(record.covers(Stamp(milliseconds: 1_500, device: phone)), "its own device's earlier")
    #expect(SeenStamps("0.0.0 -x", of: stamp) == nil, "not a record: dropped")
  }

  /// The hole the three-device Syncthing test found: `diary` on the laptop set a value, the
  /// engine renamed the phone's concurrent, later-stamped version over the file, and the
  /// laptop's next store weighed its outbox against the file — taking the later stamp for a
  /// change that had seen the laptop's, so that the laptop's value was neither there nor kept.
  @Test(
    "a version whose later change did not see another's does not descend from it: merging it keeps the other"
  )
  func descendsOnlyFromWhatItSaw() {
    let (phone, laptop) = Self.concurrentGoals()
    func descends(_ version: Settings, from known: Settings) -> Bool {
      KeyValuesSync.descends((version.state, version.sync), from: (known.state, known.sync))
    }
    #expect(!descends(laptop, from: phone), "the laptop's 7 did not see the phone's 9")
    var merged = Self.synced(phone, with: laptop)
    #expect(descends(merged, from: phone), "9 is kept")
    #expect(descends(merged, from: laptop))
    merged.apply(Self.set("sleepGoal", .number(JSONNumber(10))))
    #expect(descends(merged, from: phone), "10 saw 9, its own device's")
  }

  // MARK: Histories a review found

  /// `replica`'s file edited by `edit` as a program that does not stamp would, then read as
  /// a store reads it: what changed stamped as this device's hand edit.
  static func editedByHand(_ replica: Settings, _ edit: (String) -> String) throws -> Settings {
    let text = String(decoding: replica.bytes, as: UTF8.self)
    let edited = edit(text)
    #expect(edited != text, "the edit changes the file")
    var (state, sync) = try StateFileCoding.decode(
      Data(edited.utf8), path: "settings.json", sync: KeyValuesSync.self)
    sync.reconcile(with: state)
    sync.stampUnstamped(replica.clock.stamp())
    return Settings(state: state, sync: sync, clock: replica.clock)
  }

  @Test(
    "a hand reset, or a hand set of a reset key, keeps the key's conflicts in a file a merge leaves as it is"
  )
  func handResetAndSet() throws {
    var (phone, laptop) = Self.concurrentGoals()
    let merged = Self.synced(laptop, with: phone)
    let reset = try Self.editedByHand(merged) {
      $0.replacingOccurrences(of: "\"sleepGoal\" : 7", with: "\"other\" : 1")
    }
    #expect(reset.state.values["sleepGoal"] == nil)
    #expect(Self.kept(reset, "sleepGoal") == ["9"])
    #expect(reset.merged(with: reset).bytes == reset.bytes, "a ∪ a = a")
    laptop.apply(Self.reset("sleepGoal"))
    let resetFirst = Self.synced(laptop, with: phone)
    #expect(Self.kept(resetFirst, "sleepGoal") == ["9"])
    let set = try Self.editedByHand(resetFirst) {
      $0.replacingOccurrences(
        of: "\"values\" : {}", with: "\"values\" : { \"sleepGoal\" : 3 }")
    }
    #expect(set.state.values["sleepGoal"] == .number(JSONNumber(3)))
    #expect(Self.kept(set, "sleepGoal") == ["9"])
    #expect(set.merged(with: set).bytes == set.bytes, "a ∪ a = a")
  }

  @Test(
    "a hand edit on the device whose value was kept keeps it, whichever way a store reads the edit")
  func handEditOnTheKeptValuesDevice() throws {
    let (phone, laptop) = Self.concurrentGoals()
    let merged = Self.synced(phone, with: laptop)
    #expect(Self.kept(merged, "sleepGoal") == ["9"])
    let underItsStamp = try Self.editedByHand(merged) {
      $0.replacingOccurrences(of: "\"sleepGoal\" : 7", with: "\"sleepGoal\" : 5")
    }
    #expect(Self.kept(underItsStamp, "sleepGoal") == ["9"])
    // A store that knew the version before the edit stamps it as an edit of that version.
    var after = merged.state
    after.values["sleepGoal"] = .number(JSONNumber(5))
    let edited = merged.sync.stampedEdit(
      before: merged.state, after: after, stamp: merged.clock.stamp())
    #expect(
      Self.kept(Settings(state: after, sync: edited, clock: merged.clock), "sleepGoal") == ["9"])
  }

  @Test(
    "a device's own later change takes what its earlier change had seen: a value it replaced does not come back"
  )
  func ownLaterChangeSawWhatTheEarlierSaw() {
    let devices = Devices(steps: 1...1)
    var desk = Self.replica("desk", devices)
    desk.apply(Self.set("k", .number(JSONNumber(5))))
    var phone = Self.synced(Self.replica("phone", devices), with: desk)
    phone.apply(Self.set("k", .number(JSONNumber(9))))
    var laptop = Self.replica("laptop", devices)
    laptop.apply(Self.set("k", .number(JSONNumber(7))))
    phone = Self.synced(phone, with: laptop)
    #expect(Self.kept(phone, "k") == ["9"])
    #expect(Self.kept(phone.merged(with: desk), "k") == ["9"])
    phone.apply(Self.set("k", .number(JSONNumber(10))))
    #expect(Self.kept(phone.merged(with: desk), "k").isEmpty, "the phone had seen 5 and 7")
  }

  @Test(
    "conflicts edited by hand: one past the key's stamp is dropped on reading, one of another value is a change"
  )
  func conflictsEditedByHand() throws {
    let (phone, laptop) = Self.concurrentGoals()
    let merged = laptop.merged(with: phone)
    let kept = try #require(merged.sync.conflicts[.init("sleepGoal")]?.first)
    let winner = try #require(merged.sync.stamp(of: .init("sleepGoal")))
    let later = Stamp(milliseconds: winner.milliseconds + 1000, device: kept.stamp.device)
    let text = String(decoding: merged.bytes, as: UTF8.self)
    let past = text.replacingOccurrences(
      of: "\"stamp\" : \"\(kept.stamp)\"", with: "\"stamp\" : \"\(later)\"")
    #expect(past != text)
    let read = try StateFileCoding.decode(
      Data(past.utf8), path: "settings.json", sync: KeyValuesSync.self)
    #expect(read.1.conflicts.isEmpty, "not listed only to vanish at the next merge")
    let otherValue = text.replacingOccurrences(of: "\"value\" : 9", with: "\"value\" : 4")
    #expect(otherValue != text)
    let edited = try StateFileCoding.decode(
      Data(otherValue.utf8), path: "settings.json", sync: KeyValuesSync.self)
    #expect(
      !KeyValuesSync.isCovered(edited, by: (merged.state, merged.sync)),
      "a store merges the edit rather than keep the value it knew")
  }

  // MARK: Random histories

  enum Step {
    case act(device: Int, SettingsStore.Action)
    case sync(device: Int, from: Int)
    case resolve(device: Int, pick: Int)
  }

  static let devices = Gen<Int>.integer(in: 0...2)

  static let histories = Gen<Step>.oneOf(
    Gen<(Int, SettingsStore.Action)>.zip(devices, .settingsAction(keys: ["a", "b"])).map {
      Step.act(device: $0, $1)
    },
    Gen<(Int, Int)>.zip(devices, devices).map { Step.sync(device: $0, from: $1) },
    Gen<(Int, Int)>.zip(devices, .integer(in: 0...7)).map { Step.resolve(device: $0, pick: $1) }
  ).array(maxCount: 24)

  /// The replicas after `steps`, and what each change of a key truly knew: every change of
  /// the key its replica had made or merged when it was made.
  static func run(_ steps: [Step]) -> (replicas: [Settings], knew: [Stamp: Set<Stamp>]) {
    let clocks = Devices()
    var replicas = (0..<3).map { replica("d\($0)", clocks) }
    var knowledge = [Set<Stamp>](repeating: [], count: 3)
    var knew: [Stamp: Set<Stamp>] = [:]
    func note(_ device: Int, before: Settings) {
      let sync = replicas[device].sync
      for name in Set(sync.set.keys).union(sync.removed.keys)
      where sync.stamp(of: name) != before.sync.stamp(of: name) {
        let stamp = sync.stamp(of: name)!
        knew[stamp] = knowledge[device]
        knowledge[device].insert(stamp)
      }
    }
    for step in steps {
      let device: Int
      let before: Settings
      switch step {
      case .act(let index, let action):
        (device, before) = (index, replicas[index])
        replicas[device].apply { SettingsStore.reduce(&$0, action) }
      case .sync(let index, let from):
        replicas[index] = synced(replicas[index], with: replicas[from])
        knowledge[index].formUnion(knowledge[from])
        continue
      case .resolve(let index, let pick):
        (device, before) = (index, replicas[index])
        let open = before.sync.openConflicts(in: before.state)
        guard !open.isEmpty else { continue }
        var state = before.state
        let choice: SyncConflict.Choice = pick % 2 == 0 ? .conflict : .current
        guard
          let resolved = before.sync.resolving(
            open[pick % open.count], choosing: choice, in: &state, stamp: before.clock.stamp())
        else { continue }
        (replicas[device].state, replicas[device].sync) = (state, resolved)
      }
      note(device, before: before)
    }
    return (replicas, knew)
  }

  @Test(
    "with conflicts kept and resolved, the settings' merge is commutative, associative and idempotent, to the byte"
  )
  func laws() {
    check(Self.histories, iterations: 500) { steps in
      let (a, b, c) = Self.run(steps).replicas.triple
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
    check(Self.histories, iterations: 2_000) { steps in
      let (a, b, c) = Self.run(steps).replicas.triple
      for (version, known) in [(a, b), (b, a), (a, c), (a.merged(with: b), c)]
      where KeyValuesSync.descends((version.state, version.sync), from: (known.state, known.sync)) {
        try requireEqual(version.merged(with: known).bytes, version.bytes, "merged as it is")
      }
      let ab = a.merged(with: b)
      try requireEqual(
        KeyValuesSync.descends((ab.state, ab.sync), from: (b.state, b.sync)), true,
        "a ∪ b descends from b: a store does not write it again")
    }
  }

  @Test(
    "every value a device set or reset is the merge's, or kept as a conflict, or known to a change that replaced it"
  )
  func noSilentLoser() {
    check(Self.histories, iterations: 500) { steps in
      let (replicas, knew) = Self.run(steps)
      let merged = replicas[0].merged(with: replicas[1]).merged(with: replicas[2])
      for replica in replicas {
        for name in Set(replica.sync.set.keys).union(replica.sync.removed.keys) {
          guard let stamp = replica.sync.stamp(of: name), knew[stamp] != nil,
            let winner = merged.sync.stamp(of: name), winner != stamp
          else { continue }
          let value = replica.state.values[name.string]
          // Every conflict stored, shown or not: one not shown holds a value shown.
          let kept = merged.sync.conflicts[name] ?? []
          let values = [merged.state.values[name.string]] + kept.map(\.value)
          guard !values.contains(where: { KeyValuesSync.isSame($0, value) }) else { continue }
          let surviving = [winner] + kept.map(\.stamp)
          try requireEqual(
            surviving.contains { knew[$0]?.contains(stamp) ?? false }, true,
            "\(name.string) = \(value?.description ?? "reset") (stamped \(stamp)) lost silently")
        }
      }
    }
  }
}

/// A settings store on a synced file lists and resolves its conflicts, as the lists' do.
@Suite("Conflicts kept by a settings store on a synced file, and resolved")
@MainActor
struct SettingsConflictStoreTests {
  let laptopFolder = TemporaryFolder()
  let phoneFolder = TemporaryFolder()
  let copy = "settings.sync-conflict-20261204-101500-PHONE01.json"

  func store(_ device: String, in folder: TemporaryFolder) throws -> SettingsStore {
    try SettingsStore(
      contentsOf: folder.file("settings.json"),
      clock: HybridClock(device: DeviceID(Substring(device))!) {
        Int64(Date().timeIntervalSince1970 * 1000)
      })
  }

  @Test("the value that lost is listed; resolving it makes it win on both devices")
  func listedAndResolved() throws {
    let laptop = try store("laptop", in: laptopFolder)
    try laptop.trySend(.set(key: "sleepGoal", value: .number(JSONNumber(8))))
    _ = phoneFolder.copy(laptopFolder.file("settings.json"))
    let phone = try store("phone", in: phoneFolder)
    try phone.trySend(.set(key: "sleepGoal", value: .number(JSONNumber(9))))
    Thread.sleep(forTimeInterval: 0.005)
    try laptop.trySend(.set(key: "sleepGoal", value: .number(JSONNumber(7))))
    _ = laptopFolder.write(try Data(contentsOf: phoneFolder.file("settings.json")), to: copy)
    try laptop.refresh()
    #expect(laptop.state.values["sleepGoal"] == .number(JSONNumber(7)))
    let conflict = try #require(laptop.syncStatus.conflicts.first)
    #expect(laptop.syncStatus.conflicts.count == 1)
    #expect(conflict.field == "sleepGoal" && conflict.value == "9" && conflict.device == "phone")
    #expect(try store("laptop", in: laptopFolder).syncStatus.conflicts == [conflict])
    #expect(try laptop.resolve(conflict, choosing: .conflict))
    #expect(laptop.state.values["sleepGoal"] == .number(JSONNumber(9)))
    #expect(laptop.syncStatus.conflicts.isEmpty)
    _ = phoneFolder.write(try Data(contentsOf: laptopFolder.file("settings.json")), to: copy)
    try phone.refresh()
    #expect(
      phone.state.values["sleepGoal"] == .number(JSONNumber(9))
        && phone.syncStatus.conflicts.isEmpty)
    #expect(
      try Data(contentsOf: phoneFolder.file("settings.json"))
        == Data(contentsOf: laptopFolder.file("settings.json")))
  }
}
