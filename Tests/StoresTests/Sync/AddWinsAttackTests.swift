import Foundation
import StoreTesting
import Testing

@testable import Stores

/// `MergeRule.addWins` as an adversary tried it (a helper's review): elements in two
/// spellings, tallies an editor broke, items added by hand, elements no word holds plainly.
@Suite("Add-wins sets, attacked")
struct AddWinsAttackTests {
  typealias CardReplica = MergeRuleTests.CardReplica
  static let id = MergeRuleTests.card.id
  static let nfc = "\u{E9}"
  static let nfd = "e\u{301}"

  static func send(_ action: CardsStore.Action, to replica: inout CardReplica) {
    MergeRuleTests.send(action, to: &replica)
  }

  /// The file `replica` writes, read back and stamped as a store stamps what it reads.
  static func load(_ replica: CardReplica) throws -> CardReplica {
    var read = try MergeRuleTests.reread(replica)
    if read.sync.hasUnstamped { read.sync.stampUnstamped(read.clock.stamp()) }
    return read
  }

  static func text(_ replica: CardReplica) -> String {
    String(decoding: replica.bytes, as: UTF8.self)
  }

  static func decode(_ text: String, clock: HybridClock) throws -> CardReplica {
    let (state, sync) = try StateFileCoding.decode(
      Data(text.utf8), path: "cards.json", sync: ListSync<Cards>.self)
    return CardReplica(state: state, sync: sync, clock: clock)
  }

  // MARK: Unicode normalization

  @Test("an element in two normalizations: an addition no removal saw stays through another change")
  func normalizationLosesAddition() throws {
    var r = MergeRuleTests.replicas(["a", "b"], devices: Devices(steps: 1...1))
    Self.send(.tag(Self.id, Self.nfc), to: &r[0])
    Self.send(.tag(Self.id, Self.nfd), to: &r[1])
    var a = r[0].merged(with: r[1])
    #expect(a.state.cards[0].tags == [Self.nfc])
    // a changes something else of the card: it removes nothing.
    Self.send(.rename(Self.id, "renamed"), to: &a)
    // b removes the tag, having seen only its own addition.
    var b = r[1]
    Self.send(.untag(Self.id, Self.nfd), to: &b)
    let merged = a.merged(with: b)
    #expect(merged.state.cards[0].tags == [Self.nfc], "a's addition was seen by no removal")
  }

  @Test("an element in two normalizations: a merged file nobody edited reads as no hand edit")
  func normalizationMergeReadsAsEdit() throws {
    var r = MergeRuleTests.replicas(["a", "b"], devices: Devices(steps: 1...1))
    Self.send(.tag(Self.id, Self.nfc), to: &r[0])
    Self.send(.tag(Self.id, Self.nfd), to: &r[1])
    let merged = r[0].merged(with: r[1])
    let read = try MergeRuleTests.reread(merged)
    #expect(!read.sync.hasUnstamped, "nothing was edited by hand")
  }

  @Test("an element in two normalizations: an addition stays through a restart (a reread)")
  func normalizationLosesAdditionOnRestart() throws {
    var r = MergeRuleTests.replicas(["a", "b"], devices: Devices(steps: 1...1))
    Self.send(.tag(Self.id, Self.nfc), to: &r[0])
    Self.send(.tag(Self.id, Self.nfd), to: &r[1])
    let a = try Self.load(r[0].merged(with: r[1]))
    var b = r[1]
    Self.send(.untag(Self.id, Self.nfd), to: &b)
    #expect(a.merged(with: b).state.cards[0].tags == [Self.nfc])
  }

  // MARK: Hand-edited tallies

  @Test("a tally an editor set to remove more than was added is dropped: a later addition holds")
  func subtractedAboveAdded() throws {
    var a = MergeRuleTests.replicas(["a"], devices: Devices(steps: 1...1))[0]
    Self.send(.tag(Self.id, "work"), to: &a)
    Self.send(.untag(Self.id, "work"), to: &a)
    let original = Self.text(a)
    let edited = original.replacing("tags:%22work%22@a=1-1", with: "tags:%22work%22@a=1-5")
    #expect(edited != original)
    var read = try Self.decode(edited, clock: a.clock)
    #expect(!read.sync.hasUnstamped)
    let copy = read
    Self.send(.tag(Self.id, "work"), to: &read)
    #expect(read.state.cards[0].tags == ["work"])
    #expect(
      read.merged(with: copy).state.cards[0].tags == ["work"], "the addition was acknowledged")
  }

  @Test("a tally an editor set to 2⁶⁴ − 1 additions is dropped: a later addition holds")
  func uint64MaxWraps() throws {
    var a = MergeRuleTests.replicas(["a"], devices: Devices(steps: 1...1))[0]
    Self.send(.tag(Self.id, "work"), to: &a)
    Self.send(.untag(Self.id, "work"), to: &a)
    let original = Self.text(a)
    let max = UInt64.max
    let edited = original.replacing(
      "tags:%22work%22@a=1-1", with: "tags:%22work%22@a=\(max)-\(max)")
    #expect(edited != original)
    var read = try Self.decode(edited, clock: a.clock)
    let copy = read
    Self.send(.tag(Self.id, "work"), to: &read)
    #expect(read.merged(with: copy).state.cards[0].tags == ["work"])
  }

  @Test("duplicate tallies in two spellings of one element read the same on every device")
  func duplicateSpellings() throws {
    var a = MergeRuleTests.replicas(["a"], devices: Devices(steps: 1...1))[0]
    Self.send(.tag(Self.id, "work"), to: &a)
    let original = Self.text(a)
    let edited = original.replacing(
      "tags:%22work%22@a=1", with: "tags:%22work%22@a=1 tags:%22w\\\\u006frk%22@a=1-1")
    #expect(edited != original)
    let x = try Self.decode(edited, clock: a.clock)
    #expect(x.sync.items[0].counts.count == 1)
    #expect(x.state.cards[0].tags == ["work"])
  }

  @Test("a set field with an element-less tally, a counter tally with an element: dropped")
  func mismatchedTallies() throws {
    var a = MergeRuleTests.replicas(["a"], devices: Devices(steps: 1...1))[0]
    Self.send(.tag(Self.id, "work"), to: &a)
    Self.send(.view(Self.id), to: &a)
    let original = Self.text(a)
    let edited = original.replacing(
      "tags:%22work%22@a=1", with: "tags:%22work%22@a=1 tags@a=7 views:%22x%22@a=3 tags:@a=1")
    let x = try Self.decode(edited, clock: a.clock)
    #expect(x.state.cards[0].tags == ["work"])
    #expect(x.state.cards[0].views == 1)
    #expect(!x.sync.hasUnstamped)
  }

  // MARK: Files without tallies

  @Test("a set field without tallies, read on two devices, is one addition: one removal removes it")
  func noTallies() throws {
    var a = MergeRuleTests.replicas(["a"], devices: Devices(steps: 1...1))[0]
    Self.send(.tag(Self.id, "work"), to: &a)
    let original = Self.text(a)
    let edited = original.replacing(" tags:%22work%22@a=1", with: "")
    #expect(edited != original)
    let devices = Devices(steps: 1...1)
    var x = try Self.decode(edited, clock: devices.clock("x"))
    var y = try Self.decode(edited, clock: devices.clock("y"))
    x.sync.stampUnstamped(x.clock.stamp())
    y.sync.stampUnstamped(y.clock.stamp())
    #expect(x.sync.items[0].counts == y.sync.items[0].counts)
    Self.send(.untag(Self.id, "work"), to: &x)
    #expect(x.merged(with: y).state.cards[0].tags.isEmpty)
    #expect(y.merged(with: x).state.cards[0].tags.isEmpty)
    #expect(x.merged(with: y).bytes == y.merged(with: x).bytes)
  }

  @Test("a version 1 file with a set: every device counts it alike; removals hold")
  func versionOne() throws {
    let text = """
      {"cards":[{"best":0,"first":0,"id":"\(Self.id)","tags":["work","home"],"title":"","views":0}],"version":1}
      """
    let devices = Devices(steps: 1...1)
    var x = try Self.decode(text, clock: devices.clock("x"))
    var y = try Self.decode(text, clock: devices.clock("y"))
    if x.sync.hasUnstamped { x.sync.stampUnstamped(x.clock.stamp()) }
    if y.sync.hasUnstamped { y.sync.stampUnstamped(y.clock.stamp()) }
    Self.send(.untag(Self.id, "work"), to: &x)
    Self.send(.tag(Self.id, "new"), to: &y)
    let m1 = x.merged(with: y)
    let m2 = y.merged(with: x)
    #expect(m1.state.cards[0].tags == ["home", "new"])
    #expect(m1.bytes == m2.bytes)
  }

  @Test("an item added by hand keeps the other items' tallies: a later removal of a tag holds")
  func handAddedItemRevivesRemoval() throws {
    var r = MergeRuleTests.replicas(["a", "b"], devices: Devices(steps: 1...1))
    Self.send(.tag(Self.id, "work"), to: &r[0])
    var b = r[1].merged(with: r[0])
    #expect(b.state.cards[0].tags == ["work"])
    // An editor adds a card to b's file.
    b.state.cards.append(Card(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000C2")!))
    var edited = try MergeRuleTests.reread(b)
    if edited.sync.hasUnstamped { edited.sync.stampUnstamped(edited.clock.stamp()) }
    // b's user removes "work", having seen a's addition.
    Self.send(.untag(Self.id, "work"), to: &edited)
    #expect(edited.state.cards.first { $0.id == Self.id }!.tags.isEmpty)
    let merged = edited.merged(with: r[0])
    #expect(merged.state.cards.first { $0.id == Self.id }!.tags.isEmpty, "the removal saw it")
  }

  // MARK: Undo of a removal

  @Test("an item removed and put back keeps a concurrent addition of another device")
  func undoOfRemoval() throws {
    var r = MergeRuleTests.replicas(["a", "b"], devices: Devices(steps: 1...1))
    Self.send(.tag(Self.id, "work"), to: &r[0])
    r[1] = r[1].merged(with: r[0])
    let card = r[0].state.cards[0]
    Self.send(.remove(Self.id), to: &r[0])
    Self.send(.tag(Self.id, "home"), to: &r[1])
    Self.send(.untag(Self.id, "work"), to: &r[1])
    Self.send(.add(card), to: &r[0])
    let m1 = r[0].merged(with: r[1])
    let m2 = r[1].merged(with: r[0])
    #expect(m1.bytes == m2.bytes)
    #expect(m1.state.cards.first?.tags == ["home"])
  }

  // MARK: Escaping

  static let weird: [String] = [
    "\u{0}", "nul\u{0}inside", "%", "%zz", "%2", "tags:%22x%22@a=1-0", "tags@a=1-0", "title=1",
    "#x", "#", "position=0", "k:v", ":", "-", "1-2", "a b c", "\r\n", "\u{2028}", "\u{FEFF}",
    "\u{301}x", "x\u{301}", "\u{301}", "👩‍👩‍👧", "\"", "\\", "\\u0061", "\u{7F}", "\u{85}",
    "\u{A0}", String(repeating: "long ", count: 2_000), "", " ", "@", "=", "=@", "a\u{1F}b",
  ]

  @Test("weird elements keep their text through the file, byte for byte")
  func weirdElements() throws {
    var replica = MergeRuleTests.replicas(["a"])[0]
    for tag in Self.weird { Self.send(.tag(Self.id, tag), to: &replica) }
    let read = try MergeRuleTests.reread(replica)
    #expect(read.state.cards[0].tags == replica.state.cards[0].tags)
    #expect(read.sync.items[0].counts == replica.sync.items[0].counts)
    #expect(!read.sync.hasUnstamped)
    #expect(read.bytes == replica.bytes)
    // Removed: each removal holds through the file too.
    var removed = read
    for tag in Self.weird { Self.send(.untag(Self.id, tag), to: &removed) }
    let again = try MergeRuleTests.reread(removed)
    #expect(again.state.cards[0].tags.isEmpty)
    #expect(!again.sync.hasUnstamped)
    #expect(again.bytes == removed.bytes)
  }

  @Test("weird elements in a tombstone's stamps read back")
  func weirdTombstone() throws {
    var replica = MergeRuleTests.replicas(["a"])[0]
    for tag in Self.weird { Self.send(.tag(Self.id, tag), to: &replica) }
    Self.send(.remove(Self.id), to: &replica)
    let read = try MergeRuleTests.reread(replica)
    #expect(read.bytes == replica.bytes)
    #expect(
      read.sync.removed[Self.id]?.stamps.counts == replica.sync.removed[Self.id]?.stamps.counts)
  }

  // MARK: The laws, with weird elements

  static let weirdHistories = Gen<(Int, Int, Int, Int)>.zip(
    .integer(in: 0...2), .integer(in: 0...2), .integer(in: 0...6),
    .integer(in: 0...(weird.count + 4))
  ).array(maxCount: 40)

  static let pool = weird + ["work", nfc, nfd, "E\u{301}", "\u{C9}"]

  @Test("the oracle of the definition, with NFC/NFD elements and renames")
  func oracleWithRenames() {
    check(Self.weirdHistories, iterations: 500) { steps in
      var r = MergeRuleTests.replicas(["a", "b", "c"], devices: Devices())
      var oracles = [MergeRuleTests.SetOracle](repeating: .init(), count: 3)
      for (number, (device, other, kind, tag)) in steps.enumerated() {
        let element = Self.pool[tag % Self.pool.count]
        switch kind {
        case 0, 1:
          oracles[device].add(element, number: number)
          Self.send(.tag(Self.id, element), to: &r[device])
        case 2, 3:
          oracles[device].remove(element)
          Self.send(.untag(Self.id, element), to: &r[device])
        case 4:
          Self.send(.rename(Self.id, "t\(number)"), to: &r[device])
        case 5:
          r[device] = try Self.load(r[device])
        default:
          r[device] = r[device].merged(with: r[other])
          if let latest = r[device].sync.latest { r[device].clock.observe(latest) }
          oracles[device].merge(oracles[other])
        }
        try requireEqual(
          r[device].state.cards[0].tags, oracles[device].value, "device \(device)'s tags")
      }
      let m1 = r[0].merged(with: r[1]).merged(with: r[2])
      let m2 = r[2].merged(with: r[0].merged(with: r[1]))
      let m3 = r[1].merged(with: r[2]).merged(with: r[0])
      try requireEqual(m1.bytes, m2.bytes, "associative, commutative")
      try requireEqual(m1.bytes, m3.bytes, "associative, commutative")
      try requireEqual(m1.merged(with: m1).bytes, m1.bytes, "idempotent")
    }
  }

  @Test("the laws to the byte, weird elements, without NFC/NFD pairs")
  func lawsWeird() {
    check(Self.weirdHistories, iterations: 300) { steps in
      var r = MergeRuleTests.replicas(["a", "b", "c"], devices: Devices())
      for (device, other, kind, tag) in steps {
        let element = Self.weird[tag % Self.weird.count]
        switch kind {
        case 0, 1: Self.send(.tag(Self.id, element), to: &r[device])
        case 2, 3: Self.send(.untag(Self.id, element), to: &r[device])
        case 4: Self.send(.remove(Self.id), to: &r[device])
        case 5:
          var card = MergeRuleTests.card
          card.tags = [element]
          Self.send(.add(card), to: &r[device])
        default:
          r[device] = r[device].merged(with: r[other])
          if let latest = r[device].sync.latest { r[device].clock.observe(latest) }
        }
      }
      let m1 = r[0].merged(with: r[1]).merged(with: r[2])
      let m2 = r[2].merged(with: r[0].merged(with: r[1]))
      let m3 = r[1].merged(with: r[2]).merged(with: r[0])
      try requireEqual(m1.bytes, m2.bytes, "associative, commutative")
      try requireEqual(m1.bytes, m3.bytes, "associative, commutative")
      let read = try MergeRuleTests.reread(m1)
      try requireEqual(read.bytes, m1.bytes, "reads back")
      try requireEqual(read.sync.hasUnstamped, false, "no hand edit")
    }
  }
}

/// A list whose items hold a set of numbers merged add-wins.
struct Reading: ListItem, Codable, Hashable {
  var id = UUID()
  var values: Set<Double> = []
  var title = ""

  enum Field {
    static let values = ItemField("values", \Reading.values, merge: .addWins) { $1.values = $0 }
    static let title = ItemField("title", \Reading.title) { $1.title = $0 }
  }

  static let fieldTable = FieldTable(id: \.id, Field.title, Field.values)

  static func jsonFields<Coder: JSONFieldCoder<Reading> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let id = try coder.field("id", \.id)
    let title = try coder.field(Field.title)
    let values = try coder.field(Field.values)
    return try coder.object { Reading(id: id, values: values, title: title) }
  }
}

struct Readings: SyncedList {
  var readings: [Reading] = []
  static var itemsName: StaticString { "readings" }
  var syncedItems: [Reading] { readings }
  func replacingItems(_ items: [Reading]) -> Readings { Readings(readings: items) }

  static func jsonFields<Coder: JSONFieldCoder<Readings> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let readings = try coder.field("readings", \.readings)
    return try coder.object { Readings(readings: readings) }
  }
}

@Suite("Add-wins sets of numbers, and hand edits, attacked")
struct AddWinsAttackMoreTests {
  typealias R = Replica<Readings, ListSync<Readings>>
  typealias CardReplica = MergeRuleTests.CardReplica
  static let reading = Reading(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000D1")!)

  static func replicas(_ names: [String]) -> [R] {
    let devices = Devices(steps: 1...1)
    let base = Readings(readings: [reading])
    return names.map { R(state: base, sync: ListSync(unstamped: base), clock: devices.clock($0)) }
  }

  static func change(_ r: inout R, _ body: @escaping (inout Reading) -> Void) {
    r.apply {
      body(&$0.readings[0])
      return true
    }
  }

  static func reread(_ r: R) throws -> R {
    let (state, sync) = try StateFileCoding.decode(
      r.bytes, path: "readings.json", sync: ListSync<Readings>.self)
    return R(state: state, sync: sync, clock: r.clock)
  }

  @Test("-0.0 and 0.0 are one element: an addition no removal saw stays through another change")
  func negativeZero() throws {
    var r = Self.replicas(["a", "b"])
    Self.change(&r[0]) { $0.values.insert(0.0) }
    Self.change(&r[1]) { $0.values.insert(-0.0) }
    var a = r[0].merged(with: r[1])
    Self.change(&a) { $0.title = "x" }
    var b = r[1]
    Self.change(&b) { $0.values.remove(-0.0) }
    #expect(a.merged(with: b).state.readings[0].values == [0.0])
    #expect(try !Self.reread(r[0].merged(with: r[1])).sync.hasUnstamped)
  }

  @Test("a tally of a number no Double holds (1e999) is dropped; the file reads back as written")
  func infiniteTally() throws {
    var a = Self.replicas(["a"])[0]
    Self.change(&a) { $0.values.insert(1) }
    let text = String(decoding: a.bytes, as: UTF8.self)
    let edited = text.replacing("values:1@a=1", with: "values:1@a=1 values:1e999@a=1")
    #expect(edited != text)
    let (state, sync) = try StateFileCoding.decode(
      Data(edited.utf8), path: "readings.json", sync: ListSync<Readings>.self)
    let read = R(state: state, sync: sync, clock: a.clock)
    #expect(!read.sync.hasUnstamped)
    #expect(try Self.reread(read).bytes == read.bytes)
  }

  @Test("an item added by hand keeps the other items' counters: nothing counts twice")
  func handAddedItemCounter() throws {
    var r = MergeRuleTests.replicas(["a", "b"], devices: Devices(steps: 1...1))
    MergeRuleTests.send(.view(MergeRuleTests.card.id), to: &r[0])
    var b = r[1].merged(with: r[0])
    b.state.cards.append(Card(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000C2")!))
    var edited = try MergeRuleTests.reread(b)
    if edited.sync.hasUnstamped { edited.sync.stampUnstamped(edited.clock.stamp()) }
    let merged = edited.merged(with: r[0])
    #expect(merged.state.cards.first { $0.id == MergeRuleTests.card.id }!.views == 1)
  }
}

extension AddWinsAttackMoreTests {
  @Test("the definition's oracle on the tags work, é (NFC) and é (NFD) only")
  func ownOracleNarrowed() {
    check(MergeRuleTests.setHistories, iterations: 1000) { steps in
      try MergeRuleTests.checkSetHistory(steps, tags: ["work", "\u{E9}", "e\u{301}"])
    }
  }
}
