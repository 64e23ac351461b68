import Foundation

/// The stamps of an item: one per field, and its place in the list with the stamp of the
/// move that put it there.
package struct ItemStamps: Hashable, Sendable {
  /// One stamp per field of ``SyncedList/itemFields``, in their order.
  package var fields: FieldStamps
  /// Where the item is in the list (see ``Position``).
  package var position: String
  /// When the item was put at ``position``.
  package var positioned: Stamp
  /// What each device added to and subtracted from the item's counters (fields merged by
  /// ``MergeRule/counter``), and added and removed of its sets' elements (fields merged by
  /// ``MergeRule/addWins``), in the order of field, element, then device; empty for a list
  /// without such fields.
  package var counts: [Tally] = []

  package init(fields: FieldStamps, position: String, positioned: Stamp) {
    self.fields = fields
    self.position = position
    self.positioned = positioned
  }

  /// What one device added to and subtracted from one counter of an item, in all — or, of a
  /// set, how many times it added one element and through which of those additions the
  /// element was removed (by any device that saw them). Both only grow, so the merge keeps
  /// the larger of each. A counter is the sum of every device's `added - subtracted`
  /// (wrapping around beyond `Int`'s range); an element is in its set when some device's
  /// `added` exceeds its `subtracted`.
  package struct Tally: Hashable, Sendable {
    package var field: Int
    /// The JSON text of the set's element; empty for a counter.
    package var element: [UInt8] = []
    package var device: DeviceID
    package var added: UInt64
    package var subtracted: UInt64

    /// Whether this tally comes before `other` in an item's ``ItemStamps/counts``.
    func precedes(_ other: Tally) -> Bool {
      if field != other.field { return field < other.field }
      if element != other.element { return element.lexicographicallyPrecedes(other.element) }
      return device.text < other.device.text
    }

    /// Whether this tally counts the same field, element and device as `other`.
    func isAlike(_ other: Tally) -> Bool {
      field == other.field && device == other.device && element == other.element
    }
  }

  /// A change of a counter or a set that its tallies do not count yet (see
  /// ``untallied(_:of:in:)``).
  package enum TallyChange: Equatable, Sendable {
    /// A counter's value changed by this much.
    case count(Int)
    /// A set's elements (their JSON texts) added and removed.
    case elements(added: [[UInt8]], removed: [[UInt8]])
  }

  /// The value of the counter `field`: the sum of its tallies. O(tallies).
  package func count(of field: Int) -> Int {
    counts.reduce(0) {
      $1.field == field ? $0 &+ Int(truncatingIfNeeded: $1.added &- $1.subtracted) : $0
    }
  }

  /// The elements of the set `field`, as their JSON texts ordered by their bytes: those with
  /// a device's additions not all removed. O(tallies).
  package func elements(of field: Int) -> [[UInt8]] {
    var elements: [[UInt8]] = []
    for tally in counts where tally.field == field && tally.added > tally.subtracted {
      if elements.last != tally.element { elements.append(tally.element) }
    }
    return elements
  }

  /// The offset of the tally of `field`, `element` and `device`, inserted with nothing
  /// counted when there is none. O(tallies).
  private mutating func tally(of field: Int, element: [UInt8], by device: DeviceID) -> Int {
    let tally = Tally(field: field, element: element, device: device, added: 0, subtracted: 0)
    let place = counts.firstIndex { !$0.precedes(tally) } ?? counts.endIndex
    if place == counts.endIndex || !counts[place].isAlike(tally) {
      counts.insert(tally, at: place)
    }
    return place
  }

  /// Counts `change` to the counter or set `field`, made by `device`: a counter's change in
  /// its sum; a set's additions as `device`'s, its removals as removing every addition of
  /// the element counted so far. O(tallies + elements changed × log).
  package mutating func count(_ change: TallyChange, to field: Int, by device: DeviceID) {
    switch change {
    case .count(let change):
      guard change != 0 else { return }
      let place = tally(of: field, element: [], by: device)
      if change > 0 {
        counts[place].added &+= UInt64(change)
      } else {
        counts[place].subtracted &+= UInt64(change.magnitude)
      }
    case .elements(let added, let removed):
      if !removed.isEmpty {
        let removed = Set(removed)
        for place in counts.indices
        where counts[place].field == field && removed.contains(counts[place].element) {
          counts[place].subtracted = counts[place].added
        }
      }
      guard !added.isEmpty else { return }
      let additions = added.map {
        Tally(field: field, element: $0, device: device, added: 1, subtracted: 0)
      }
      joinCounts(additions.sorted { $0.precedes($1) }, adding: true)
    }
  }

  /// What `item` holds in the counter or set `field` (merged by `merge`) beyond what its
  /// tallies count, or `nil` when they count it all (or the field is neither). A set's
  /// element is added or removed when no element equal to it was held or is left: one the
  /// set holds as an equal element written otherwise (a `String` in another Unicode
  /// normalization) is neither. O(tallies + elements).
  package func untallied<Item>(_ field: Int, of item: Item, in merge: SyncField<Item>.Merge)
    -> TallyChange?
  {
    switch merge {
    case .counter(let get, _):
      let change = get(item) &- count(of: field)
      return change == 0 ? nil : .count(change)
    case .elements(let get, let set, _, let holds):
      let (wanted, held) = (get(item), elements(of: field))
      guard wanted != held else { return nil }
      var heldItem = item
      set(held, &heldItem)
      let (wantedSet, heldSet) = (Set(wanted), Set(held))
      let added = wanted.filter { !heldSet.contains($0) && !holds(heldItem, $0) }
      let removed = held.filter { !wantedSet.contains($0) && !holds(item, $0) }
      return added.isEmpty && removed.isEmpty ? nil : .elements(added: added, removed: removed)
    case .latest, .greatest:
      return nil
    }
  }

  /// Makes each counter and set among `fields` count the value `item` holds for it, what it
  /// lacks counted as the change of `device` — or, when `nil`, of an edit by a program that
  /// does not count (see ``editor(of:field:named:change:)``). O(fields × tallies).
  package mutating func settleCounts<Item: Identifiable>(
    of item: Item, in fields: [SyncField<Item>], by device: DeviceID?
  ) where Item.ID == UUID {
    for (field, syncField) in fields.enumerated() where syncField.merge.isTallied {
      guard let change = untallied(field, of: item, in: syncField.merge) else { continue }
      count(
        change, to: field,
        by: device ?? editor(of: item.id, field: field, named: syncField.name, change: change))
    }
  }

  /// Sets each counter and set among `fields` of `item` to what its tallies count; a set
  /// that holds those elements already is left as it is. O(fields × tallies).
  func setCountedValues<Item>(of item: inout Item, in fields: [SyncField<Item>]) {
    for field in fields.indices {
      switch fields[field].merge {
      case .counter(_, let set): set(count(of: field), &item)
      case .elements(let get, let set, _, _):
        let elements = elements(of: field)
        if get(item) != elements { set(elements, &item) }
      case .latest, .greatest: continue
      }
    }
  }

  /// The device an edit of a counter or a set by a program that does not count (an editor,
  /// a script) is counted as: named after the edit — the item, the field, the tallies it did
  /// not match and the value it set, or the elements it added and removed — so that every
  /// device that reads the same edit counts it as the same change, once, rather than each as
  /// its own. `e` and 12 base-36 digits of a hash.
  func editor(of item: UUID, field: Int, named name: String, change: TallyChange) -> DeviceID {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      hash = (hash ^ 0xff) &* 0x0000_0100_0000_01b3
    }
    withUnsafeBytes(of: item.uuid) { mix($0) }
    mix(name.utf8)
    for tally in counts where tally.field == field {
      if !tally.element.isEmpty { mix(tally.element) }
      mix("\(tally.device.text) \(tally.added) \(tally.subtracted)".utf8)
    }
    switch change {
    case .count(let change): mix(String(count(of: field) &+ change).utf8)
    case .elements(let added, let removed):
      for element in added { mix("+".utf8 + element) }
      for element in removed { mix("-".utf8 + element) }
    }
    let digits = String(hash % 4_738_381_338_321_616_896, radix: 36)  // 36^12
    return DeviceID(Substring("e" + String(repeating: "0", count: 12 - digits.count) + digits))!
  }

  /// Whether `other` counts each change these tallies count: its tally of each field,
  /// element and device is at least as large in both sums. O(tallies), both in order.
  func countsAreCovered(by other: ItemStamps) -> Bool {
    var theirs = other.counts[...]
    for tally in counts {
      while let first = theirs.first, first.precedes(tally) { theirs.removeFirst() }
      guard let first = theirs.first, first.isAlike(tally), first.added >= tally.added,
        first.subtracted >= tally.subtracted
      else { return false }
    }
    return true
  }

  /// Joins `other`'s tallies, in order, into these: the larger of each device's sums — or,
  /// `adding`, their sums. O(tallies).
  package mutating func joinCounts(_ other: [Tally], adding: Bool = false) {
    guard adding || other != counts else { return }
    var joined: [Tally] = []
    joined.reserveCapacity(counts.count + other.count)
    var (mine, theirs) = (counts[...], other[...])
    while let first = mine.first, let second = theirs.first {
      if first.precedes(second) {
        joined.append(mine.removeFirst())
      } else if second.precedes(first) {
        joined.append(theirs.removeFirst())
      } else {
        var tally = mine.removeFirst()
        theirs.removeFirst()
        if adding {
          tally.added &+= second.added
          tally.subtracted &+= second.subtracted
        } else {
          tally.added = max(tally.added, second.added)
          tally.subtracted = max(tally.subtracted, second.subtracted)
        }
        joined.append(tally)
      }
    }
    counts = joined + mine + theirs
  }

  /// The latest of the item's stamps.
  var latest: Stamp { max(fields.latest ?? positioned, positioned) }

  /// The latest change of the item's fields: what a removal is weighed against. A move is
  /// not a change of the item, so it never brings back an item removed elsewhere.
  var latestEdit: Stamp { fields.latest ?? positioned }
}

/// One stamp per field of an item, in the fields' order: a stamp most fields share, and the
/// fields stamped otherwise. An item whose fields were last changed together (added, and not
/// edited field by field since) holds no array — a list of 100,000 items would otherwise
/// allocate 100,000 of them, each larger than the item's own text in the file.
///
/// Two values are equal when they hold the same stamps, whichever stamp they share.
package struct FieldStamps: RandomAccessCollection, MutableCollection, Hashable, Sendable {
  /// A field stamped other than ``shared``.
  struct Exception: Sendable {
    var field: Int
    var stamp: Stamp
  }

  /// The stamp of every field not among ``exceptions``. (First: so that no padding lies
  /// between the properties where `Int` is 32 bits, see ``hasSameBits(_:_:)``.)
  private var shared: Stamp
  package let count: Int
  /// The fields stamped other than ``shared``, in the fields' order; a few at most.
  private var exceptions: [Exception] = []

  /// `count` fields, each stamped `stamp`.
  package init(repeating stamp: Stamp, count: Int) {
    self.count = count
    shared = stamp
  }

  /// The fields stamped `stamps`, in order.
  ///
  /// - Complexity: O(*n*).
  package init(_ stamps: [Stamp]) {
    self.init(repeating: stamps.first ?? .origin, count: stamps.count)
    for (field, stamp) in stamps.enumerated() where stamp != shared {
      exceptions.append(Exception(field: field, stamp: stamp))
    }
  }

  package var startIndex: Int { 0 }
  package var endIndex: Int { count }

  /// The stamp of `field`.
  ///
  /// - Complexity: O(*e*) for the *e* fields stamped otherwise than the shared stamp.
  package subscript(field: Int) -> Stamp {
    get {
      precondition(field >= 0 && field < count, "Index out of range")
      for exception in exceptions where exception.field == field { return exception.stamp }
      return shared
    }
    set {
      precondition(field >= 0 && field < count, "Index out of range")
      let place = exceptions.firstIndex { $0.field >= field } ?? exceptions.endIndex
      let isException = place < exceptions.endIndex && exceptions[place].field == field
      if newValue == shared {
        if isException { exceptions.remove(at: place) }
      } else if isException {
        exceptions[place].stamp = newValue
      } else {
        exceptions.insert(Exception(field: field, stamp: newValue), at: place)
      }
    }
  }

  /// The latest stamp, or `nil` when there are no fields.
  ///
  /// - Complexity: O(*e*).
  package var latest: Stamp? {
    guard count > 0 else { return nil }
    // The shared stamp counts only while a field has it.
    let first = exceptions.count < count ? shared : exceptions[0].stamp
    return exceptions.reduce(first) { Swift.max($0, $1.stamp) }
  }

  package static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for stamp in self { hasher.combine(stamp) }
  }
}

extension ItemStamps {
  /// Writes the text of each of `stamps` (see ``ListSync/text(of:)``) as an element of the
  /// open array, followed by the digests of the id and fields of the item of `list` at its
  /// offset when `list` is given; `names` are the fields' names. No `String` is made: this runs once
  /// per item of every write.
  static func write<List: SyncedList>(
    _ stamps: [ItemStamps], digestsOf list: [List.Item]?, in: List.Type, names: [[UInt8]],
    to writer: inout JSONWriter
  ) {
    var text: [UInt8] = []
    text.reserveCapacity(128)
    var digests = JSONWriter(capacity: 256)
    for index in stamps.indices {
      writer.element()
      text.removeAll(keepingCapacity: true)
      stamps[index].append(names: names, to: &text)
      if let list { List.appendDigests(of: list[index], to: &text, writingWith: &digests) }
      // Letters, digits, `.`, `=` and spaces: nothing to escape.
      text.withUnsafeBufferPointer { text in
        writer.writeQuoted(length: text.count) {
          $0.update(from: text.baseAddress!, count: text.count)
        }
      }
    }
  }

  /// Appends the text of these stamps to `text`: the position, the earliest stamp, then
  /// `name=stamp` for each field (`names`) or the position stamped later.
  func append(names: [[UInt8]], to text: inout [UInt8]) {
    var base = positioned
    for stamp in fields where stamp < base { base = stamp }
    text.append(contentsOf: position.utf8)
    text.append(UInt8(ascii: " "))
    base.append(to: &text)
    for field in 0..<fields.count where fields[field] != base {
      text.append(UInt8(ascii: " "))
      text.append(contentsOf: names[field])
      text.append(UInt8(ascii: "="))
      fields[field].append(to: &text)
    }
    if positioned != base {
      text.append(contentsOf: " position=".utf8)
      positioned.append(to: &text)
    }
    for tally in counts {
      text.append(UInt8(ascii: " "))
      text.append(contentsOf: names[tally.field])
      if !tally.element.isEmpty {
        text.append(UInt8(ascii: ":"))
        Self.appendEscaped(tally.element, to: &text)
      }
      text.append(UInt8(ascii: "@"))
      text.append(contentsOf: tally.device.text.utf8)
      text.append(UInt8(ascii: "="))
      text.append(contentsOf: String(tally.added).utf8)
      if tally.subtracted != 0 {
        text.append(UInt8(ascii: "-"))
        text.append(contentsOf: String(tally.subtracted).utf8)
      }
    }
  }

  /// Appends `element`'s text with `%` and two hex digits in place of each byte that would
  /// end or split a word of the stamps — a space or other control, `%`, `@`, `=` — or that a
  /// JSON string escapes: `"`, `\`. So `"a b"` is `%22a%20b%22`.
  static func appendEscaped(_ element: [UInt8], to text: inout [UInt8]) {
    let digits = Array("0123456789ABCDEF".utf8)
    for byte in element {
      if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "@")
        || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
      {
        text += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
      } else {
        text.append(byte)
      }
    }
  }

  /// The bytes `text` escapes (see ``appendEscaped(_:to:)``), or `nil` when a `%` is not
  /// followed by two hex digits.
  static func unescaped(_ text: Substring.UTF8View) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = text.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}

/// The sync section of a list of items (see ``StateSync``): stamps for each item's fields
/// and place, tombstones of the items removed, stamps of the state's own fields.
///
/// In the file, beside the list:
/// ```json
/// "sync" : {
///   "items" : [ "V mip1k3c0.0.k3j5q8x1z0", "k mip1k3c0.0.k3j5q8x1z0 title=mip1kz9a.0.7wq0" ],
///   "removed" : [ { "at" : "…", "item" : { … }, "stamps" : "…" } ],
///   "state" : { "sortType" : "mip1k3c0.0.k3j5q8x1z0 #4f" }
/// }
/// ```
/// Each entry of `"items"` is the item's position key, the earliest of its stamps, then
/// `name=stamp` for each field (or `position`) stamped later, then `#` and the digests of
/// the item's id and fields (see ``ContentDigest``), which show an entry left in its place
/// while the items were reordered by hand, and a field edited under its old stamp.
/// The entries follow the list; tombstones are ordered by id. A field of the state is
/// stamped, then `#` and the digest of its value, the same way.
///
/// The merge is a join of registers, one per field, each merged by its ``MergeRule``: per
/// id, each field takes the value of the later stamp (a value that lost kept as a conflict),
/// the greater value, or the sum of every device's tallies (`views@device=added-subtracted`
/// after the field stamps, see ``ItemStamps/Tally``); a removal keeps the item's fields (so that a later edit elsewhere brings
/// it back whole), and the item is in the list while some field of it was stamped after its
/// latest removal. The list is ordered by position, then id.
package struct ListSync<State: SyncedList>: StateSync {
  /// A removed item: its last fields and stamps, and the removal's stamp.
  package struct Removed: Equatable, Sendable {
    package var item: State.Item
    package var stamps: ItemStamps
    package var at: Stamp
  }

  /// The stamps of the items, in the list's order.
  package var items: [ItemStamps]
  /// The items removed, by id.
  package var removed: [UUID: Removed]
  /// One stamp per field of ``SyncedList/stateFields``.
  package var state: [Stamp]
  /// The values that lost to a concurrent change, kept, by item (see ``Conflict``): in order
  /// of field, a removal first, then of stamp.
  package var conflicts: [UUID: [Conflict]] = [:]
  /// What the latest change of a field of an item had seen, where it recorded it (see
  /// ``SeenStamps``); by the item's id and the field's offset. An entry whose stamp is no
  /// longer the field's says nothing.
  package var seen: [FieldKey: FieldChange] = [:]
  /// The wall clock of each device at its latest write of the file.
  package var writers = WriterClocks()
  /// The offsets of the items that have no stamps in the file (see
  /// ``StateSync/reconcile(with:)``); never written.
  package var unstamped: Set<Int> = []
  /// The fields edited in the file under their old stamps: each a field's offset in
  /// ``SyncedList/itemFields`` by the item's offset (see ``StateSync/reconcile(with:)``);
  /// never written.
  package var editedFields: [Int: [Int]] = [:]
  /// The ids of the items edited by hand (see ``editedFields``, ``unstamped``), by offset,
  /// for ``stampUnstamped(_:)`` to record what their changes saw; never written.
  var handEdited: [Int: UUID] = [:]
  /// The offsets of the items moved by hand: given new places, to be stamped; never written.
  package var movedByHand: Set<Int> = []
  /// The changes of counters and sets made by a program that does not count them, by the
  /// item's offset and the field's, for ``stampUnstamped(_:)`` to count; never written.
  var uncounted: [UncountedChange] = []

  /// A change of a counter or a set that its tallies do not count (see ``uncounted``).
  struct UncountedChange: Equatable {
    var offset: Int
    var field: Int
    var change: ItemStamps.TallyChange
    /// Whose change it is counted as: the edit's (see
    /// ``ItemStamps/editor(of:field:named:change:)``).
    var editor: DeviceID
  }
  /// The digests of the items' ids and fields as the file holds them, item after item, each
  /// ``digestsPerItem`` long (`nil`: none written), from the file's reading until
  /// ``reconcile(with:)`` compares them with the items.
  var readDigests: [ContentDigest?] = []
  /// How many digests an item's stamps end with: its id's, then its fields'.
  static var digestsPerItem: Int { 1 + State.itemFields.count }
  /// The digests of the state's fields as the file holds them, by their offset in
  /// ``SyncedList/stateFields``, until ``reconcile(with:)`` compares them.
  var readStateDigests: [Int: ContentDigest] = [:]
  /// The offsets of the state's fields edited in the file under their old stamps; never
  /// written.
  package var editedStateFields: Set<Int> = []
  /// The conflicts as the file holds them, from the file's reading until
  /// ``reconcile(with:)`` reads their values into the items they are of.
  var readConflicts: [ReadConflict] = []
  /// The records of what changes saw as the file holds them, from the file's reading until
  /// ``reconcile(with:)`` gives each the stamp of its change (see ``attachSeen(to:)``).
  var readSeen: [FieldKey: Substring] = [:]

  package init(items: [ItemStamps], removed: [UUID: Removed], state: [Stamp]) {
    self.items = items
    self.removed = removed
    self.state = state
  }

  package init(unstamped state: State) {
    let fields = FieldStamps(repeating: .origin, count: State.itemFields.count)
    items = Position.keys(state.syncedItems.count, between: nil, and: nil).map {
      ItemStamps(fields: fields, position: $0, positioned: .origin)
    }
    // Counters count from their values, as changes of no device: every device reads the
    // same file so, and adds nothing twice. (A list without counters or sets skips the pass.)
    let itemFields = State.itemFields
    if itemFields.contains(where: { $0.merge.isTallied }) {
      for (offset, item) in state.syncedItems.enumerated() {
        items[offset].settleCounts(of: item, in: itemFields, by: Stamp.origin.device)
      }
    }
    removed = [:]
    self.state = Array(repeating: .origin, count: State.stateFields.count)
  }

  package var isLeftOut: Bool { false }

  package var latest: Stamp? {
    var latest = state.max()
    for stamps in items { latest = max(latest ?? stamps.latest, stamps.latest) }
    for removal in removed.values {
      latest = max(latest ?? removal.at, removal.at, removal.stamps.latest)
    }
    return latest
  }

  /// See ``StateSync/reconcile(with:)``. When the stamps no longer follow the items one for
  /// one (an item added or removed by hand), each item takes the entry with its id's digest
  /// back (see ``alignEntries(of:digests:writer:)``) and an item added by hand is unstamped,
  /// with a place between its neighbours; in a file without digests (of another version),
  /// no item's stamps can be told: every item is unstamped, with a new place in the list's
  /// order. An item both in the list and removed
  /// was put back: its removal is dropped and it is unstamped. Items out of their places'
  /// order (moved by hand) are given places between their neighbours, stamped as moves. An
  /// item whose entry's id digest is another's was reordered by hand, its entry left in
  /// place: it takes its own entry back (see ``restoreEntries(of:digests:writer:)``). A field
  /// whose value no longer matches the digest beside its stamp was edited under that stamp:
  /// it is unstamped alone. O(*n*) in the size of the state (each digest is made once), plus
  /// O(*n* log *n*) when items are out of order.
  package mutating func reconcile(with state: State) {
    let list = state.syncedItems
    if !readConflicts.isEmpty { readValues(of: list) }
    // Records of what changes saw, once the entries are back in their places.
    defer { if !readSeen.isEmpty { attachSeen(to: list) } }
    var digests = readDigests
    readDigests = []
    var writer = JSONWriter(capacity: 256)
    for (field, digest) in readStateDigests
    where digest != State.stateFields[field].digest(state, &writer) {
      editedStateFields.insert(field)
    }
    readStateDigests = [:]
    // Items added by hand, given entries of their own by `alignEntries`.
    var handAdded: Set<Int> = []
    if items.count != list.count,
      let added = alignEntries(of: list, digests: &digests, writer: &writer)
    {
      handAdded = added
    }
    guard items.count == list.count else {
      let fields = FieldStamps(repeating: .origin, count: State.itemFields.count)
      items = Position.keys(list.count, between: nil, and: nil).map {
        ItemStamps(fields: fields, position: $0, positioned: .origin)
      }
      unstamped = Set(list.indices)
      for item in list { removed[item.id] = nil }
      noteUncountedChanges(of: list)
      // Every item is stamped anew, as taking nothing it saw: no record of theirs holds.
      let live = Set(list.lazy.map(\.id))
      readSeen = readSeen.filter { !live.contains($0.key.item) }
      seen = seen.filter { !live.contains($0.key.item) }
      return
    }
    for (offset, item) in list.enumerated() where removed[item.id] != nil {
      removed[item.id] = nil
      unstamped.insert(offset)
      handEdited[offset] = item.id
    }
    unstamped.formUnion(handAdded)
    let fields = State.itemFields
    let stride = Self.digestsPerItem
    if digests.count == list.count * stride {
      restoreEntries(of: list, digests: &digests, writer: &writer)
      for (offset, item) in list.enumerated() where !unstamped.contains(offset) {
        for field in fields.indices {
          if let digest = digests[offset * stride + 1 + field],
            digest != fields[field].digest(item, &writer)
          {
            editedFields[offset, default: []].append(field)
            handEdited[offset] = item.id
          }
        }
      }
    }
    // An item added by hand takes a place between its neighbours, as one moved there.
    let placed = list.indices.filter { !handAdded.contains($0) }
    let keys = placed.map { (items[$0].position, list[$0].id) }
    if !handAdded.isEmpty || !zip(keys, keys.dropFirst()).allSatisfy({ Self.precedes($0, $1) }) {
      let kept = longestAscendingOffsets(keys, by: Self.precedes).map { placed[$0] }
      placeMoved(keeping: kept, stamp: .origin)
      movedByHand.formUnion(Set(placed).subtracting(kept))
    }
    noteUncountedChanges(of: list)
  }

  /// The offset in `candidates` (entries of stamps with `item`'s id digest) of the entry
  /// whose fields' digests in `digests` match `item`'s most, or `nil` when there is none.
  /// O(candidates × fields).
  private static func best(
    of candidates: [Int], for item: State.Item, digests: [ContentDigest?],
    writer: inout JSONWriter
  ) -> Int? {
    let (fields, stride) = (State.itemFields, digestsPerItem)
    let matching = candidates.map { entry in
      fields.indices.count { field in
        digests[entry * stride + 1 + field] == fields[field].digest(item, &writer)
      }
    }
    return matching.indices.max { matching[$0] < matching[$1] }
  }

  /// Gives each item of `list`, whose items were added or removed by hand (the entries of
  /// stamps no longer follow the items one for one), the entry with its id's digest — of two
  /// alike, the one whose fields' digests match more — and an item with none (added by hand)
  /// an entry stamped ``Stamp/origin``, to be stamped anew; the entries of items removed by
  /// hand go. Returns the offsets of the items added by hand, or `nil`, having changed
  /// nothing, when the entries have no digests (a file of another version): no item's
  /// entry can be told. O(*n*) in the size of the state.
  private mutating func alignEntries(
    of list: [State.Item], digests: inout [ContentDigest?], writer: inout JSONWriter
  ) -> Set<Int>? {
    let stride = Self.digestsPerItem
    guard digests.count == items.count * stride,
      items.indices.allSatisfy({ digests[$0 * stride] != nil })
    else { return nil }
    var entries: [ContentDigest: [Int]] = [:]
    for entry in items.indices { entries[digests[entry * stride]!, default: []].append(entry) }
    let (entryStamps, entryDigests) = (items, digests)
    let fields = State.itemFields
    let unstampedEntry = ItemStamps(
      fields: FieldStamps(repeating: .origin, count: fields.count), position: "",
      positioned: .origin)
    (items, digests) = ([], [])
    items.reserveCapacity(list.count)
    digests.reserveCapacity(list.count * stride)
    var added: Set<Int> = []
    for (offset, item) in list.enumerated() {
      let id = ContentDigest(of: item.id)
      let candidates = entries[id] ?? []
      guard let best = Self.best(of: candidates, for: item, digests: entryDigests, writer: &writer)
      else {
        items.append(unstampedEntry)
        digests += repeatElement(nil, count: stride)
        added.insert(offset)
        handEdited[offset] = item.id
        continue
      }
      let entry = candidates[best]
      entries[id]!.remove(at: best)
      items.append(entryStamps[entry])
      digests += entryDigests[entry * stride..<(entry + 1) * stride]
    }
    // Stamped anew, as taking nothing it saw: no record of an item added by hand holds.
    let new = Set(added.lazy.map { list[$0].id })
    readSeen = readSeen.filter { !new.contains($0.key.item) }
    seen = seen.filter { !new.contains($0.key.item) }
    return added
  }

  /// Notes, for ``stampUnstamped(_:)``, each counter and set of `list` whose value is not
  /// what its tallies count (set by a program that does not count: an editor) as a change of
  /// the editor (see ``ItemStamps/editor(of:field:named:change:)``); the field is unstamped
  /// too. O(*n*) for a list with counters or sets.
  private mutating func noteUncountedChanges(of list: [State.Item]) {
    let fields = State.itemFields
    guard fields.contains(where: \.merge.isTallied) else { return }
    uncounted = []
    for (offset, item) in list.enumerated() {
      for field in fields.indices where fields[field].merge.isTallied {
        guard let change = items[offset].untallied(field, of: item, in: fields[field].merge)
        else { continue }
        let editor = items[offset].editor(
          of: item.id, field: field, named: fields[field].name, change: change)
        uncounted.append(
          UncountedChange(offset: offset, field: field, change: change, editor: editor))
        if !unstamped.contains(offset), !(editedFields[offset]?.contains(field) ?? false) {
          editedFields[offset, default: []].append(field)
          handEdited[offset] = item.id
        }
      }
    }
  }

  /// Gives each item of `list` whose entry of stamps belongs to another item — its id's
  /// digest is not the item's: the items were reordered by hand, the entries left in their
  /// places — its own entry and digests back: the misplaced entry with its id's digest (of
  /// two alike, the one whose fields' digests match more). An item whose entry is not found
  /// is unstamped. O(*n*) in the size of the state.
  private mutating func restoreEntries(
    of list: [State.Item], digests: inout [ContentDigest?], writer: inout JSONWriter
  ) {
    let stride = Self.digestsPerItem
    let ids = list.map { ContentDigest(of: $0.id) }
    let misplaced = list.indices.filter { offset in
      digests[offset * stride].map { $0 != ids[offset] } ?? false
    }
    guard !misplaced.isEmpty else { return }
    var entries: [ContentDigest: [Int]] = [:]
    for offset in misplaced { entries[digests[offset * stride]!, default: []].append(offset) }
    let (entryStamps, entryDigests) = (items, digests)
    let fields = State.itemFields
    for offset in misplaced {
      let candidates = entries[ids[offset]] ?? []
      let item = list[offset]
      guard let best = Self.best(of: candidates, for: item, digests: entryDigests, writer: &writer)
      else {
        items[offset].fields = FieldStamps(repeating: .origin, count: fields.count)
        items[offset].positioned = .origin
        unstamped.insert(offset)
        handEdited[offset] = item.id
        continue
      }
      let entry = candidates[best]
      entries[ids[offset]]!.remove(at: best)
      items[offset] = entryStamps[entry]
      for digest in 0..<stride {
        digests[offset * stride + digest] = entryDigests[entry * stride + digest]
      }
    }
  }

  /// See ``StateSync/noteEdits(of:underStampsOf:)``: a field of an item (by id) or of the
  /// state. O(*n*) in the sizes of both; no lookup while the lists hold the same ids in the
  /// same places.
  package mutating func noteEdits(of state: State, underStampsOf known: (State, Self)) {
    let (list, knownList) = (state.syncedItems, known.0.syncedItems)
    let fields = State.itemFields
    var knownOffsets: [UUID: Int]?
    for (offset, item) in list.enumerated() where !unstamped.contains(offset) {
      var other = offset
      if offset >= knownList.count || knownList[offset].id != item.id {
        if knownOffsets == nil {
          knownOffsets = Dictionary(
            knownList.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        guard let found = knownOffsets![item.id] else { continue }
        other = found
      }
      let (stamps, knownStamps) = (items[offset].fields, known.1.items[other].fields)
      // A field another rule merges may hold another value under the stamp it had: the
      // merge's (a counter's sum, the greater value).
      for field in fields.indices
      where fields[field].isLatestWins
        && stamps[field] > .origin && stamps[field] == knownStamps[field]
        && !fields[field].isEqual(item, knownList[other])
        && !(editedFields[offset]?.contains(field) ?? false)
      {
        editedFields[offset, default: []].append(field)
        handEdited[offset] = item.id
      }
    }
    for field in State.stateFields.indices
    where State.stateFields[field].isLatestWins
      && self.state[field] > .origin && self.state[field] == known.1.state[field]
      && !State.stateFields[field].isEqual(state, known.0)
    {
      editedStateFields.insert(field)
    }
  }

  package var hasUnstamped: Bool {
    !unstamped.isEmpty || !editedFields.isEmpty || !editedStateFields.isEmpty
      || !movedByHand.isEmpty || !uncounted.isEmpty
  }

  /// Whether nothing of `state` was stamped in the file: its `"sync"` member was removed by
  /// hand (no program that stamps writes such a file).
  func isWhollyUnstamped(_ state: State) -> Bool {
    writers.clocks.isEmpty && removed.isEmpty && unstamped.count == state.syncedItems.count
  }

  package mutating func stampUnstamped(_ stamp: Stamp) {
    for (offset, fields) in editedFields {
      for field in fields {
        // A value edited by hand saw the value it replaced, and what that one saw.
        if let id = handEdited[offset] {
          noteChange(
            of: FieldKey(item: id, field: field), replacing: items[offset].fields[field],
            stamp: stamp, isHandEdit: true)
        }
        items[offset].fields[field] = stamp
      }
    }
    // An item put back by hand is stamped anew, as taking nothing it saw.
    for offset in unstamped {
      guard let id = handEdited[offset] else { continue }
      for field in State.itemFields.indices { seen[FieldKey(item: id, field: field)] = nil }
    }
    handEdited = [:]
    for field in editedStateFields { state[field] = stamp }
    for offset in movedByHand { items[offset].positioned = stamp }
    (editedStateFields, movedByHand) = ([], [])
    for offset in unstamped {
      items[offset].fields = FieldStamps(repeating: stamp, count: items[offset].fields.count)
      items[offset].positioned = stamp
    }
    for uncounted in uncounted {
      items[uncounted.offset].count(uncounted.change, to: uncounted.field, by: uncounted.editor)
    }
    (unstamped, editedFields, uncounted) = ([], [:], [])
  }

  /// See ``StateSync/isCovered(_:by:)``; an item's stamps that `known` holds for another
  /// item count as known too (the items of a list reordered by hand, whose stamps stayed in
  /// their places). O(*n*) in the sizes of both.
  package static func isCovered(_ version: (State, Self), by known: (State, Self)) -> Bool {
    if version.1.isWhollyUnstamped(version.0) { return true }
    guard version.1.writers.isUnchanged(since: known.1.writers),
      conflicts(of: version.1, areKeptBy: known.1)
    else { return false }
    return stamps(of: version, areCoveredBy: known, leniently: true)
  }

  /// See ``StateSync/holdsChanges(of:in:)``: each stamp and counter tally of `known` is at
  /// most `version`'s for the same part. O(*n*) in the sizes of both.
  package static func holdsChanges(of known: (State, Self), in version: (State, Self)) -> Bool {
    stamps(of: known, areCoveredBy: version, leniently: false, joiningValues: false)
  }

  /// See ``StateSync/descends(_:from:)``: a change of a field of `known` that a later one of
  /// `version` replaced without seeing it — made concurrently, on another device — is not
  /// held, where the field keeps conflicts: merging `known` keeps it as one. O(*n*) in the
  /// sizes of both.
  package static func descends(_ version: (State, Self), from known: (State, Self)) -> Bool {
    conflicts(of: known.1, areHeldBy: version)
      && stamps(of: known, areCoveredBy: version, leniently: false, seeing: true)
  }

  /// Whether each stamp of `version` is at most `known`'s for the same item and field (or
  /// removal, or field of the state). `leniently`, for a version a program that does not
  /// stamp made: items stamped ``Stamp/origin`` or unstamped count as covered, and so do an
  /// item's stamps that `known` holds for another item (a list reordered by hand, its stamps
  /// left in their places). Each counter's tallies are at most `known`'s too, and, when
  /// `joiningValues`, each value of a field that keeps the greatest. `seeing`, a field's
  /// change that `known` replaced must be one its change saw, or a conflict it keeps, where
  /// the field keeps conflicts.
  private static func stamps(
    of version: (State, Self), areCoveredBy known: (State, Self), leniently: Bool,
    joiningValues: Bool = true, seeing: Bool = false
  ) -> Bool {
    var knownItems: [UUID: (item: State.Item, stamps: ItemStamps, removedAt: Stamp?)] = [:]
    knownItems.reserveCapacity(known.1.items.count + known.1.removed.count)
    for (item, stamps) in zip(known.0.syncedItems, known.1.items) {
      knownItems[item.id] = (item, stamps, nil)
    }
    for (id, removal) in known.1.removed {
      knownItems[id] = (removal.item, removal.stamps, removal.at)
    }
    let fields = State.itemFields
    // A field that keeps the greatest value is covered, `joiningValues`, by a value at least
    // as great — so that a version covered is one the merge leaves as it is: its stamp may
    // be another change's, which did not see the greater value.
    let greatest = fields.indices.filter {
      if case .greatest = fields[$0].merge { joiningValues } else { false }
    }
    func covers(_ mine: State.Item, _ theirs: State.Item) -> Bool {
      greatest.allSatisfy { !fields[$0].precedesInMerge(mine, theirs) }
    }
    let keepingConflicts = fields.indices.filter {
      if case .latest(let keeps) = fields[$0].merge { seeing && keeps } else { false }
    }
    // Whether `known` saw each change of `stamps`, of the item `id`, that it replaced: its
    // field's latest change saw it, or it keeps it, or a change it keeps saw it.
    func sees(_ stamps: ItemStamps, of id: UUID, in mine: ItemStamps) -> Bool {
      keepingConflicts.allSatisfy { field in
        let (theirs, latest) = (stamps.fields[field], mine.fields[field])
        return theirs == latest
          || known.1.seen(of: FieldKey(item: id, field: field), at: latest).covers(theirs)
          || (known.1.conflicts[id] ?? []).contains {
            $0.field == field && ($0.stamp == theirs || $0.seen.covers(theirs))
          }
      }
    }
    var knownStamps: Set<ItemStamps>?
    for (offset, (item, stamps)) in zip(version.0.syncedItems, version.1.items).enumerated()
    where !leniently || (!version.1.unstamped.contains(offset) && stamps.latest > .origin) {
      if let mine = knownItems[item.id], stamps.positioned <= mine.stamps.positioned,
        zip(stamps.fields, mine.stamps.fields).allSatisfy({ $0 <= $1 }),
        stamps.countsAreCovered(by: mine.stamps), covers(mine.item, item),
        sees(stamps, of: item.id, in: mine.stamps)
      {
        continue
      }
      guard leniently else { return false }
      if knownStamps == nil { knownStamps = Set(known.1.items) }
      guard knownStamps!.contains(stamps) else { return false }
    }
    // A removal is covered with the stamps it keeps, which a merge joins too (a move made
    // before the removal is the item's place should it come back).
    for (id, removal) in version.1.removed {
      guard let mine = knownItems[id],
        removal.at <= mine.removedAt ?? mine.stamps.latestEdit,
        removal.stamps.positioned <= mine.stamps.positioned,
        zip(removal.stamps.fields, mine.stamps.fields).allSatisfy({ $0 <= $1 }),
        removal.stamps.countsAreCovered(by: mine.stamps), covers(mine.item, removal.item),
        sees(removal.stamps, of: id, in: mine.stamps)
      else { return false }
      // `seeing`: a removal that a later edit undid is one `known` keeps (the merge keeps
      // the latest such removal, seen or not).
      if seeing, mine.removedAt == nil,
        !(known.1.conflicts[id] ?? []).contains(where: { $0.field == nil && $0.stamp >= removal.at }
        )
      {
        return false
      }
    }
    return zip(version.1.state, known.1.state).allSatisfy { $0 <= $1 }
  }

  /// See ``StateSync/forgottenRemovals(_:_:)``.
  package static func forgottenRemovals(_ a: (State, Self), _ b: (State, Self)) -> Int {
    func count(of version: (State, Self), in other: (State, Self)) -> Int {
      let writers = other.1.writers
      guard let horizon = writers.forgettingBefore else { return 0 }
      let isOld = { (stamps: ItemStamps) in
        writers.mayHaveForgotten(stamps.latestEdit, before: horizon)
      }
      guard version.1.items.contains(where: isOld) else { return 0 }
      var known = Set(other.0.syncedItems.lazy.map(\.id))
      known.formUnion(other.1.removed.keys)
      return zip(version.0.syncedItems, version.1.items).count { item, stamps in
        isOld(stamps) && !known.contains(item.id)
      }
    }
    return count(of: a, in: b) + count(of: b, in: a)
  }

  /// Drops the tombstones, the conflicts and the records of what changes saw stamped before
  /// `milliseconds` (see ``pruneConflicts(before:)``).
  package mutating func prune(before milliseconds: Int64) {
    pruneConflicts(before: milliseconds)
    guard removed.values.contains(where: { $0.at.milliseconds < milliseconds }) else { return }
    removed = removed.filter { $0.value.at.milliseconds >= milliseconds }
  }

  // MARK: Stamping a change

  package func stamped(before: State, after: State, stamp: Stamp) -> Self {
    var result = self
    _ = result.stamp(
      before: before, after: after, stamp: stamp, countingAs: stamp.device, cache: nil)
    return result
  }

  package func stampedEdit(before: State, after: State, stamp: Stamp) -> Self {
    var result = self
    _ = result.stamp(before: before, after: after, stamp: stamp, countingAs: nil, cache: nil)
    return result
  }

  package mutating func stamp(
    before: State, after: State, stamp: Stamp, cache: EncodedList<State>?
  ) -> Prior {
    self.stamp(before: before, after: after, stamp: stamp, countingAs: stamp.device, cache: cache)
  }

  /// What ``stamp(before:after:stamp:cache:)`` replaced: the items' stamps it changed where
  /// they are, with the rest of the stamps as they were (their buffers shared, not copied) —
  /// or, when the list's order or length changed, the whole stamps as they were.
  package struct Prior {
    fileprivate enum Replaced {
      case all(ListSync)
      case items(rest: ListSync, [(offset: Int, stamps: ItemStamps)])
    }

    fileprivate let replaced: Replaced
    #if DEBUG
      /// The stamps as they were, which ``restore(_:cache:)`` checks it put back.
      fileprivate let original: ListSync
    #endif

    fileprivate init(_ replaced: Replaced, original: ListSync) {
      self.replaced = replaced
      #if DEBUG
        self.original = original
      #endif
    }
  }

  package mutating func restore(_ prior: Prior, cache: EncodedList<State>?) {
    cache?.forgetLentStamps()
    switch prior.replaced {
    case .all(let stamps):
      self = stamps
    case .items(let rest, let replaced):
      var items = self.items
      self.items = []
      for (offset, stamps) in replaced { items[offset] = stamps }
      self = rest
      self.items = items
    }
    #if DEBUG
      assert(self == prior.original, "the stamps put back are not those the stamping replaced")
    #endif
  }

  /// Stamps in place the changes from `before` into `after`, each stamped `stamp`, and a
  /// counter's change counted as `device`'s — or, when `nil`, the edit's (see
  /// ``ItemStamps/settleCounts(of:in:by:)``), a hand edit that saw only what it replaced —
  /// and returns what they replaced (see ``restore(_:cache:)``).
  // Specialised for the package's lists: generic, each item would be copied through its
  // type's metadata, many times slower.
  @_specialize(exported:true,where State == TodosStore.State)
  @_specialize(exported:true,where State == WorkoutsStore.State)
  mutating func stamp(
    before: State, after: State, stamp: Stamp, countingAs device: DeviceID?,
    cache: EncodedList<State>?
  ) -> Prior {
    let fields = State.itemFields
    let old = before.syncedItems
    let new = after.syncedItems
    // While the lists hold the same ids in the same places (a toggle, an edit), each item is
    // compared with the one in its place: no lookup, no move, and only a changed item's
    // stamps are touched — in place, and only they are kept to be put back.
    let (inPlace, changed) = State.itemsInPlace(old, new)
    let isInPlace = inPlace == old.count && inPlace == new.count && items.count == old.count
    let prior: Prior
    var lent = false
    if isInPlace {
      var rest = self
      rest.items = []
      prior = Prior(.items(rest: rest, changed.map { ($0, items[$0]) }), original: self)
      lent = cache?.lendStamps(items) ?? false
    } else {
      prior = Prior(.all(self), original: self)
    }
    for offset in changed {
      for field in 0..<fields.count where !fields[field].isEqual(old[offset], new[offset]) {
        noteChange(
          of: FieldKey(item: new[offset].id, field: field),
          replacing: items[offset].fields[field], stamp: stamp, isHandEdit: device == nil)
        items[offset].fields[field] = stamp
      }
      items[offset].settleCounts(of: new[offset], in: fields, by: device)
    }
    if lent { cache?.lentStampsChanged(at: changed, in: items) }
    if !isInPlace, inPlace < old.count || inPlace < new.count,
      !stampInsertion(from: old, to: new, at: inPlace, stamp: stamp, countingAs: device)
    {
      let stamps = items
      if inPlace < items.count { items.removeSubrange(inPlace...) }
      stampChanges(
        from: old, to: new, after: inPlace, stamps: stamps, stamp: stamp, countingAs: device)
    }
    for field in 0..<State.stateFields.count
    where !State.stateFields[field].isEqual(before, after) {
      state[field] = stamp
    }
    return prior
  }

  /// Stamps the items of `new` from offset `start` on — added, changed, moved — and the
  /// removal of the items of `old` that `new` does not hold; `stamps` are those of `old`.
  /// O(*n*), plus O(*n* log *n*) when items moved.
  private mutating func stampChanges(
    from old: [State.Item], to new: [State.Item], after start: Int, stamps: [ItemStamps],
    stamp: Stamp, countingAs device: DeviceID?
  ) {
    let fields = State.itemFields
    var index: [UUID: Int] = [:]
    index.reserveCapacity(old.count - start)
    for offset in start..<old.count where index[old[offset].id] == nil {
      index[old[offset].id] = offset
    }
    // The items whose key may stay, by their offset in the new list.
    var placed = Array(0..<start)
    for offset in start..<new.count {
      let item = new[offset]
      if let previous = index.removeValue(forKey: item.id) {
        var itemStamps = stamps[previous]
        if old[previous] != item {
          for field in 0..<fields.count where !fields[field].isEqual(old[previous], item) {
            noteChange(
              of: FieldKey(item: item.id, field: field), replacing: itemStamps.fields[field],
              stamp: stamp, isHandEdit: device == nil)
            itemStamps.fields[field] = stamp
          }
          itemStamps.settleCounts(of: item, in: fields, by: device)
        }
        items.append(itemStamps)
        placed.append(offset)
      } else {
        items.append(stampsOfAdded(item, stamp: stamp, countingAs: device))
      }
    }
    // In order when sorted by key, then id, as the file keeps them.
    let keys = placed.map { (items[$0].position, new[$0].id) }
    let kept =
      zip(keys, keys.dropFirst()).allSatisfy { Self.precedes($0, $1) }
      ? placed : longestAscendingOffsets(keys, by: Self.precedes).map { placed[$0] }
    if kept.count < items.count { placeMoved(keeping: kept, stamp: stamp) }
    for (_, offset) in index {
      let id = old[offset].id
      removed[id] = Removed(item: old[offset], stamps: stamps[offset], at: stamp)
      // A removal that an edit undid is no longer one: the item is removed again.
      if conflicts[id]?.first?.field == nil, conflicts[id] != nil { conflicts[id]!.removeFirst() }
      if conflicts[id]?.isEmpty ?? false { conflicts[id] = nil }
    }
  }

  /// What ``stampChanges(from:to:after:stamps:stamp:)`` does, when `new` is `old` with items
  /// inserted at `start` (adds at the top of a list, a paste), done in place: the new items
  /// stamped `stamp` and keyed between their neighbours, the items after them kept with their
  /// keys and their changed fields stamped — without the index of the list and the second
  /// array of stamps the general case builds. Returns `false`, having changed nothing, when
  /// `new` is not such an insertion or the kept keys are not in order (the general case then
  /// moves some of them). Ids are unique in each list, as every list's are.
  ///
  /// - Complexity: O(*n* + *k* log *n*) for *n* items and *k* inserted.
  private mutating func stampInsertion(
    from old: [State.Item], to new: [State.Item], at start: Int, stamp: Stamp,
    countingAs device: DeviceID?
  ) -> Bool {
    let inserted = new.count - old.count
    guard inserted > 0, start <= old.count, items.count == old.count else { return false }
    let insertedIDs = Set(new[start..<start + inserted].lazy.map(\.id))
    for offset in start..<old.count {
      guard old[offset].id == new[offset + inserted].id, !insertedIDs.contains(old[offset].id)
      else { return false }
    }
    for offset in old.indices.dropLast()
    where !Self.precedes(
      (items[offset].position, old[offset].id), (items[offset + 1].position, old[offset + 1].id))
    {
      return false
    }
    // One buffer for the changes and the insertion: copied (when shared) straight to the size
    // it ends at, not copied and then grown to twice that.
    items.reserveCapacity(items.count + inserted)
    let fields = State.itemFields
    for offset in start..<old.count where old[offset] != new[offset + inserted] {
      for field in 0..<fields.count
      where !fields[field].isEqual(old[offset], new[offset + inserted]) {
        noteChange(
          of: FieldKey(item: old[offset].id, field: field), replacing: items[offset].fields[field],
          stamp: stamp, isHandEdit: device == nil)
        items[offset].fields[field] = stamp
      }
      items[offset].settleCounts(of: new[offset + inserted], in: fields, by: device)
    }
    var added: [ItemStamps] = []
    added.reserveCapacity(inserted)
    for item in new[start..<start + inserted] {
      added.append(stampsOfAdded(item, stamp: stamp, countingAs: device))
    }
    items.insert(contentsOf: added, at: start)
    placeMoved(keeping: Array(0..<start) + Array(start + inserted..<new.count), stamp: stamp)
    return true
  }

  /// The stamps of `item`, added at `stamp` (see ``noteReinsertion(of:stamp:)``), placed
  /// nowhere yet: its counters count its values, beyond what its tombstone counted (an
  /// item put back), as `device`'s change (see ``ItemStamps/settleCounts(of:in:by:)``).
  /// O(fields).
  private mutating func stampsOfAdded(
    _ item: State.Item, stamp: Stamp, countingAs device: DeviceID?
  ) -> ItemStamps {
    let fields = State.itemFields
    var stamps = ItemStamps(
      fields: FieldStamps(repeating: stamp, count: fields.count), position: "", positioned: stamp)
    stamps.counts = removed[item.id]?.stamps.counts ?? []
    stamps.settleCounts(of: item, in: fields, by: device)
    noteReinsertion(of: item, stamp: stamp)
    return stamps
  }

  /// Gives the items not at the offsets `kept` (ascending, in order) new keys between their
  /// kept neighbours, stamped `stamp`. A kept item whose key equals the one before a run (two
  /// devices' adds can take one key) is moved with the run: no key lies between them.
  ///
  /// When a new key would be longer than ``Position/longestMade`` (many adds or moves into one
  /// gap), every item is given a new key instead, spread evenly and stamped `stamp`: a move of
  /// the whole list, merged like any other (a move made concurrently on another device loses
  /// to it). So keys stay short whatever the history: O(log *n*) digits after the new keys.
  private mutating func placeMoved(keeping kept: [Int], stamp: Stamp) {
    if !placeMovedInGaps(keeping: kept, stamp: stamp) {
      for (offset, key) in Position.keys(items.count, between: nil, and: nil).enumerated() {
        items[offset].position = key
        items[offset].positioned = stamp
      }
    }
  }

  /// See ``placeMoved(keeping:stamp:)``; returns `false`, having changed nothing, when a key
  /// would be too long.
  private mutating func placeMovedInGaps(keeping kept: [Int], stamp: Stamp) -> Bool {
    var placed: [(offset: Int, key: String)] = []
    var start = 0
    for end in kept + [items.count] {
      let low = start > 0 ? items[start - 1].position : nil
      if end > start, end < items.count, let low, !(low < items[end].position) { continue }
      if end > start {
        let high = end < items.count ? items[end].position : nil
        for (offset, key) in Position.keys(end - start, between: low, and: high).enumerated() {
          guard key.utf8.count <= Position.longestMade else { return false }
          placed.append((start + offset, key))
        }
      }
      start = end + 1
    }
    for (offset, key) in placed {
      items[offset].position = key
      items[offset].positioned = stamp
    }
    return true
  }

  /// Whether the key and id `first` sort before `second`: the order of a merged list.
  static func precedes(_ first: (String, UUID), _ second: (String, UUID)) -> Bool {
    // Keys are ASCII: `<` compares their bytes.
    first.0 != second.0 ? first.0 < second.0 : first.1.precedes(second.1)
  }

  // MARK: Merging

  /// One version of an item: live, or removed at `removedAt`.
  struct Version {
    var item: State.Item
    var stamps: ItemStamps
    var removedAt: Stamp?
    /// The changes of a field that lost to the other version's in ``join(_:)``: to be kept
    /// as conflicts unless the winner had seen them (see ``ListSync/settleConflicts``).
    var lost: [Conflict] = []

    init(item: State.Item, stamps: ItemStamps, removedAt: Stamp?) {
      self.item = item
      self.stamps = stamps
      self.removedAt = removedAt
    }

    /// This version joined with `other`: each field from the later stamp.
    mutating func join(_ other: Version) {
      let fields = State.itemFields
      // The same version: nothing to join. Values equal but written otherwise (text in
      // another Unicode normalization) are joined field by field, by their text, so that
      // the merge writes the same bytes whichever side comes first.
      if other.removedAt == removedAt, other.stamps == stamps, other.item == item,
        fields.allSatisfy({ $0.isIdentical(item, other.item) })
      {
        return
      }
      var counts = false
      for field in fields.indices {
        let (mine, theirs) = (stamps.fields[field], other.stamps.fields[field])
        switch fields[field].merge {
        case .latest(let keepsConflicts):
          if theirs > mine
            || (theirs == mine && fields[field].precedes(item, other.item))
          {
            // Every change that loses is recorded, whatever its value: which changes a merge
            // keeps cannot depend on the order of merges (one holding the winner's value is
            // not shown, see ``openConflicts(of:at:in:)``).
            if theirs != mine, keepsConflicts {
              lost.append(Conflict(field: field, value: item, stamp: mine))
            }
            fields[field].copy(other.item, &item)
            stamps.fields[field] = theirs
          } else if theirs != mine, keepsConflicts {
            lost.append(Conflict(field: field, value: other.item, stamp: theirs))
          }
        case .greatest:
          // The greater value, of values alike the greater text: a join, whatever the stamps.
          if fields[field].precedesInMerge(item, other.item) {
            fields[field].copy(other.item, &item)
          }
          stamps.fields[field] = max(mine, theirs)
        case .counter, .elements:
          counts = true
          stamps.fields[field] = max(mine, theirs)
        }
      }
      if counts {
        stamps.joinCounts(other.stamps.counts)
        stamps.setCountedValues(of: &item, in: fields)
      }
      // The later move wins; of one stamp, the greater key.
      if other.stamps.positioned > stamps.positioned
        || (other.stamps.positioned == stamps.positioned
          && stamps.position < other.stamps.position)
      {
        stamps.position = other.stamps.position
        stamps.positioned = other.stamps.positioned
      }
      if let theirs = other.removedAt { removedAt = max(removedAt ?? theirs, theirs) }
    }
  }

  @_specialize(exported:true,where State == TodosStore.State)
  @_specialize(exported:true,where State == WorkoutsStore.State)
  package static func merge(_ a: (State, Self), _ b: (State, Self)) -> (State, Self) {
    var versions: [UUID: Version] = [:]
    versions.reserveCapacity(a.0.syncedItems.count + a.1.removed.count)
    func add(_ version: Version, _ id: UUID) {
      versions[id, default: version].join(version)
    }
    for side in [a, b] {
      for (item, stamps) in zip(side.0.syncedItems, side.1.items) {
        add(Version(item: item, stamps: stamps, removedAt: nil), item.id)
      }
      for (id, removal) in side.1.removed {
        add(Version(item: removal.item, stamps: removal.stamps, removedAt: removal.at), id)
      }
    }
    let (conflicts, seen) = settleConflicts(a.1, b.1, versions: &versions)
    var live: [Version] = []
    var removed: [UUID: Removed] = [:]
    for (id, version) in versions {
      if let at = version.removedAt, version.stamps.latestEdit <= at {
        removed[id] = Removed(item: version.item, stamps: version.stamps, at: at)
      } else {
        live.append(version)
      }
    }
    // Keys are ASCII: `<` compares their bytes. Both sides come in order: the sort is a
    // merge of runs.
    live.sort { Self.precedes(($0.stamps.position, $0.item.id), ($1.stamps.position, $1.item.id)) }
    var state = a.0.replacingItems(live.map(\.item))
    var stateStamps = a.1.state
    let fields = State.stateFields
    for field in fields.indices {
      let (mine, theirs) = (a.1.state[field], b.1.state[field])
      if case .greatest = fields[field].merge {
        if fields[field].precedesInMerge(a.0, b.0) { fields[field].copy(b.0, &state) }
        stateStamps[field] = max(mine, theirs)
      } else if theirs > mine || (theirs == mine && fields[field].precedes(a.0, b.0)) {
        fields[field].copy(b.0, &state)
        stateStamps[field] = theirs
      }
    }
    var sync = ListSync(items: live.map(\.stamps), removed: removed, state: stateStamps)
    sync.writers = a.1.writers.merged(with: b.1.writers)
    (sync.conflicts, sync.seen) = (conflicts, seen)
    return (state, sync)
  }
}

// MARK: The file's section

extension ListSync {
  package init(from reader: inout JSONReader) throws(JSONCodingError) {
    var items: [ItemStamps] = []
    var digests: [ContentDigest?] = []
    var stateDigests: [Int: ContentDigest] = [:]
    var removed: [UUID: Removed] = [:]
    var state = Array(repeating: Stamp.origin, count: State.stateFields.count)
    var writers = WriterClocks()
    var conflicts: [ReadConflict] = []
    var seen: [FieldKey: Substring] = [:]
    try reader.readMembers { key, reader throws(JSONCodingError) in
      switch key {
      case "writers": writers = try WriterClocks(from: &reader)
      case "items":
        try reader.readArray { reader throws(JSONCodingError) in
          let (stamps, itemDigests) = try Self.itemStamps(try reader.readString())
          items.append(stamps)
          if let itemDigests {
            digests += itemDigests.lazy.map(Optional.some)
          } else {
            digests += repeatElement(nil, count: Self.digestsPerItem)
          }
        }
      case "removed":
        try reader.readArray { reader throws(JSONCodingError) in
          var at: Stamp?
          var item: State.Item?
          var stamps: ItemStamps?
          try reader.readMembers { key, reader throws(JSONCodingError) in
            switch key {
            case "at": at = try Self.stamp(try reader.readString())
            case "item": item = try State.Item(from: &reader)
            case "stamps": stamps = try Self.itemStamps(try reader.readString()).stamps
            default: reader.skipValue()
            }
          }
          guard let at, let item, let stamps else {
            throw JSONCodingError("expected \"at\", \"item\" and \"stamps\"", kind: .missingKey)
          }
          // Removed twice (a hand edit): the later removal stands.
          if let other = removed[item.id], other.at >= at { return }
          removed[item.id] = Removed(item: item, stamps: stamps, at: at)
        }
      case "conflicts" where reader.kind == .array:
        try reader.readArray { reader throws(JSONCodingError) in
          if let conflict = try ReadConflict.read(from: &reader) { conflicts.append(conflict) }
        }
      case "seen" where reader.kind == .array:
        try reader.readArray { reader throws(JSONCodingError) in
          guard reader.kind == .string else { return reader.skipValue() }
          if let (key, record) = Self.readSeen(try reader.readString()) { seen[key] = record }
        }
      case "state":
        try reader.readMembers { key, reader throws(JSONCodingError) in
          guard let field = State.stateFields.firstIndex(where: { $0.name == key }) else {
            return reader.skipValue()
          }
          var text = try reader.readString()
          // A digest that is not one (a file of another version, or edited by hand) is left
          // out: the value is then taken as stamped.
          if let space = text.firstIndex(of: " "), text[text.index(after: space)...].first == "#" {
            stateDigests[field] =
              ContentDigest.digests(
                text[text.index(space, offsetBy: 2)...].utf8, count: 1)?[0]
            text = String(text[..<space])
          }
          state[field] = try Self.stamp(text)
        }
      default:
        reader.skipValue()
      }
    }
    self.init(items: items, removed: removed, state: state)
    self.writers = writers
    self.readDigests = digests
    self.readStateDigests = stateDigests
    self.readConflicts = conflicts
    self.readSeen = seen
  }

  /// Writes the section without digests: it does not hold the values they are of (see
  /// ``envelope(writing:cache:)``).
  package func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    try write(to: &writer, digestsOf: nil) { writer in
      ItemStamps.write(items, digestsOf: nil, in: State.self, names: Self.names, to: &writer)
    }
  }

  package static func makeWriteCache() -> EncodedList<State> { EncodedList() }

  /// The `"sync"` section and, with a `cache`, the list of items, both written from the
  /// cache: the text of the items and stamps that did not change since its last write is
  /// copied, not encoded again.
  @_specialize(exported:true,where State == TodosStore.State)
  @_specialize(exported:true,where State == WorkoutsStore.State)
  package func envelope(writing state: State, cache: EncodedList<State>?) -> [EnvelopeMember] {
    let list = state.syncedItems
    guard let cache else {
      return [
        EnvelopeMember(key: "sync") { writer throws(JSONCodingError) in
          try write(to: &writer, digestsOf: state) { writer in
            ItemStamps.write(items, digestsOf: list, in: State.self, names: Self.names, to: &writer)
          }
        }
      ]
    }
    let matches = cache.matches(for: list)
    return [
      EnvelopeMember(key: "sync") { writer throws(JSONCodingError) in
        try write(to: &writer, digestsOf: state) { writer in
          cache.writeStamps(items, of: list, matches: matches, names: Self.names, to: &writer)
        }
      },
      EnvelopeMember(key: State.itemsName) { writer throws(JSONCodingError) in
        try cache.writeItems(list, matches: matches, to: &writer)
      },
    ]
  }

  /// The fields' names in the stamps' text.
  private static var names: [[UInt8]] { State.itemFields.map { Array($0.name.utf8) } }

  /// Writes the section, its `"items"` elements written by `writeItems`, each field of the
  /// state with the digest of its value in `state`, if given.
  private func write(
    to writer: inout JSONWriter, digestsOf state: State?,
    itemStamps writeItems: (inout JSONWriter) -> Void
  ) throws(JSONCodingError) {
    writer.beginObject()
    if !conflicts.isEmpty {
      writer.member("conflicts")
      try writeConflicts(to: &writer)
    }
    writer.member("items")
    writer.beginArray()
    writeItems(&writer)
    writer.endArray()
    writer.member("removed")
    writer.beginArray()
    for (id, removal) in removed.sorted(by: { $0.key.precedes($1.key) }) {
      writer.element()
      writer.beginObject()
      writer.member("at")
      writer.writeString(removal.at.description)
      writer.member("item")
      do throws(JSONCodingError) {
        try removal.item.write(to: &writer)
      } catch {
        throw error.at(.key("removed")).at(.key("\(id)"))
      }
      writer.member("stamps")
      writer.writeString(Self.text(of: removal.stamps))
      writer.endObject()
    }
    writer.endArray()
    if !seen.isEmpty {
      writer.member("seen")
      writeSeen(to: &writer)
    }
    if !State.stateFields.isEmpty {
      writer.member("state")
      writer.beginObject()
      var digests = JSONWriter(capacity: 64)
      for (field, stamp) in zip(State.stateFields, self.state).sorted(by: {
        $0.0.name.utf8.lexicographicallyPrecedes($1.0.name.utf8)
      }) {
        writer.member(field.name)
        var text = Array(stamp.description.utf8)
        if let state {
          text.append(contentsOf: " #".utf8)
          field.digest(state, &digests).append(to: &text)
        }
        writer.writeString(String(decoding: text, as: UTF8.self))
      }
      writer.endObject()
    }
    writer.member("writers")
    try writers.write(to: &writer)
    writer.endObject()
  }

  /// An item's stamps as one string: its position, its earliest stamp, then the fields (and
  /// the position) stamped later, as `name=stamp`.
  static func text(of stamps: ItemStamps) -> String {
    var text: [UInt8] = []
    stamps.append(names: names, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// The stamps written as `text` (see ``text(of:)``), and the digests of the item's id and
  /// fields written after them, if any (`nil` too when they are not ``digestsPerItem``
  /// digests: a file of another version, or edited by hand, whose fields are then taken as
  /// stamped).
  static func itemStamps(
    _ text: String
  ) throws(JSONCodingError) -> (stamps: ItemStamps, digests: [ContentDigest]?) {
    var words = text.split(separator: " ", omittingEmptySubsequences: false)
    var digests: [ContentDigest]?
    if let last = words.last, last.first == "#" {
      digests = ContentDigest.digests(last.dropFirst().utf8, count: Self.digestsPerItem)
      words.removeLast()
    }
    guard words.count >= 2, Position.isValid(words[0]), let base = Stamp(words[1]) else {
      throw JSONCodingError("expected a position and a stamp, not \(quoted(text))")
    }
    var stamps = ItemStamps(
      fields: FieldStamps(repeating: base, count: State.itemFields.count),
      position: String(words[0]),
      positioned: base)
    for word in words.dropFirst(2) {
      if let tally = Self.tally(word) {
        // Of a field that is no counter (any more): dropped, as its value is the field's.
        if let tally = tally { stamps.counts.append(tally) }
        continue
      }
      let parts = word.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, let stamp = Stamp(parts[1]), stamp > base else {
        throw JSONCodingError("expected name=stamp after the first stamp, not \"\(word)\"")
      }
      if parts[0] == "position" {
        stamps.positioned = stamp
      } else if let field = State.itemFields.firstIndex(where: { $0.name == parts[0] }) {
        stamps.fields[field] = stamp
      } else {
        throw JSONCodingError("\"\(parts[0])\" is not a field of \(State.itemsName)")
      }
    }
    stamps.counts.sort { $0.precedes($1) }
    // Written twice (by hand): the first stands.
    stamps.counts = stamps.counts.enumerated().filter { offset, tally in
      offset == 0 || stamps.counts[offset - 1].precedes(tally)
    }.map(\.element)
    return (stamps, digests)
  }

  /// The tally written as `word` (`views@k3j5q8x1z0=12-2`, `tags:%22work%22@k3j5q8x1z0=2-1`,
  /// see ``ItemStamps/Tally``): `nil` when `word` is not one (`name=stamp`), `.some(nil)`
  /// when it is one but not of a counter or a set of the list's items, or not valid. An
  /// element is kept as its canonical text (an editor may have written `"\u0061"` for
  /// `"a"`).
  private static func tally(_ word: Substring) -> ItemStamps.Tally?? {
    guard let at = word.firstIndex(of: "@"), let equals = word.firstIndex(of: "="), at < equals
    else { return nil }
    let sums = word[word.index(after: equals)...].split(
      separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    let name = word[..<at].prefix { $0 != ":" }
    let escapedElement = word[name.endIndex..<at].dropFirst()
    guard
      let field = State.itemFields.firstIndex(where: { $0.name == name }),
      let device = DeviceID(word[word.index(after: at)..<equals]),
      let added = UInt64(sums[0]), let subtracted = sums.count > 1 ? UInt64(sums[1]) : 0
    else { return .some(nil) }
    var element: [UInt8] = []
    switch State.itemFields[field].merge {
    case .counter where name.endIndex == at: break
    case .elements(_, _, let canonical, _) where name.endIndex < at:
      // A removal removes additions made: never more than them, nor a sum no addition can
      // follow (`added` is a count of additions, which 2⁶⁴ of them never reach).
      guard subtracted <= added, added < UInt64.max,
        let text = ItemStamps.unescaped(escapedElement.utf8), let text = canonical(text)
      else { return .some(nil) }
      element = text
    default: return .some(nil)
    }
    return ItemStamps.Tally(
      field: field, element: element, device: device, added: added, subtracted: subtracted)
  }

  static func stamp(_ text: String) throws(JSONCodingError) -> Stamp {
    guard let stamp = Stamp(Substring(text)) else {
      throw JSONCodingError("expected a stamp, not \(quoted(text))")
    }
    return stamp
  }
}

extension UUID {
  /// Whether this id sorts before `other`, by their bytes: the order of ids in merged files.
  func precedes(_ other: UUID) -> Bool {
    withUnsafeBytes(of: uuid) { first in
      withUnsafeBytes(of: other.uuid) { first.lexicographicallyPrecedes($0) }
    }
  }
}
