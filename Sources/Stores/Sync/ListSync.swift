import Foundation

/// The stamps of an item: one per field, and its place in the list with the stamp of the
/// move that put it there.
package struct ItemStamps: Equatable, Sendable {
  /// One stamp per field of ``SyncedList/itemFields``, in their order.
  package var fields: [Stamp]
  /// Where the item is in the list (see ``Position``).
  package var position: String
  /// When the item was put at ``position``.
  package var positioned: Stamp

  /// The latest of the item's stamps.
  var latest: Stamp { max(fields.max() ?? positioned, positioned) }
}

/// The sync section of a list of items (see ``StateSync``): stamps for each item's fields
/// and place, tombstones of the items removed, stamps of the state's own fields.
///
/// In the file, beside the list:
/// ```json
/// "sync" : {
///   "items" : [ "V mip1k3c0.0.k3j5q8x1z0", "k mip1k3c0.0.k3j5q8x1z0 title=mip1kz9a.0.7wq0" ],
///   "removed" : [ { "at" : "…", "item" : { … }, "stamps" : "…" } ],
///   "state" : { "sortType" : "…" }
/// }
/// ```
/// Each entry of `"items"` is the item's position key, the earliest of its stamps, then
/// `name=stamp` for each field (or `position`) stamped later. The entries follow the list;
/// tombstones are ordered by id.
///
/// The merge is a join of last-writer-wins registers: per id, each field takes the value of
/// the later stamp, a removal keeps the item's fields (so that a later edit elsewhere brings
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

  package init(items: [ItemStamps], removed: [UUID: Removed], state: [Stamp]) {
    self.items = items
    self.removed = removed
    self.state = state
  }

  package init(unstamped state: State) {
    let fields = Array(repeating: Stamp.origin, count: State.itemFields.count)
    items = Position.keys(state.syncedItems.count, between: nil, and: nil).map {
      ItemStamps(fields: fields, position: $0, positioned: .origin)
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

  package func check(against state: State) throws(JSONCodingError) {
    guard items.count == state.syncedItems.count else {
      throw JSONCodingError(
        key: "sync",
        "\"items\" has \(items.count) entries for \(state.syncedItems.count) \(State.itemsName)")
    }
    for item in state.syncedItems where removed[item.id] != nil {
      throw JSONCodingError(key: "sync", "\(item.id) is both in the list and removed")
    }
  }

  package mutating func prune(before milliseconds: Int64) {
    removed = removed.filter { $0.value.at.milliseconds >= milliseconds }
  }

  // MARK: Stamping a change

  package func stamped(before: State, after: State, stamp: Stamp) -> Self {
    let fields = State.itemFields
    let old = before.syncedItems
    var index: [UUID: Int] = [:]
    index.reserveCapacity(old.count)
    for (offset, item) in old.enumerated() where index[item.id] == nil { index[item.id] = offset }
    var result = self
    result.items = []
    result.items.reserveCapacity(after.syncedItems.count)
    // The items whose key may stay, by their offset in the new list.
    var placed: [Int] = []
    var present = Set<UUID>(minimumCapacity: after.syncedItems.count)
    for (offset, item) in after.syncedItems.enumerated() {
      present.insert(item.id)
      if let previous = index[item.id] {
        var stamps = items[previous]
        for field in fields.indices where !fields[field].isEqual(old[previous], item) {
          stamps.fields[field] = stamp
        }
        result.items.append(stamps)
        placed.append(offset)
      } else {
        result.removed[item.id] = nil
        result.items.append(
          ItemStamps(
            fields: Array(repeating: stamp, count: fields.count), position: "", positioned: stamp))
      }
    }
    result.placeMoved(
      keeping: Self.longestAscending(placed.map { result.items[$0].position })
        .map { placed[$0] }, stamp: stamp)
    for (offset, item) in old.enumerated() where !present.contains(item.id) {
      result.removed[item.id] = Removed(item: item, stamps: items[offset], at: stamp)
    }
    for field in State.stateFields.indices where !State.stateFields[field].isEqual(before, after) {
      result.state[field] = stamp
    }
    return result
  }

  /// Gives the items not at the offsets `kept` (ascending, with ascending keys) new keys
  /// between the kept neighbours, stamped `stamp`.
  private mutating func placeMoved(keeping kept: [Int], stamp: Stamp) {
    var start = 0
    for end in kept + [items.count] {
      if end > start {
        let low = start > 0 ? items[start - 1].position : nil
        let high = end < items.count ? items[end].position : nil
        for (offset, key) in Position.keys(end - start, between: low, and: high).enumerated() {
          items[start + offset].position = key
          items[start + offset].positioned = stamp
        }
      }
      start = end + 1
    }
  }

  /// The offsets of a longest strictly ascending subsequence of `keys`. O(*n* log *n*).
  static func longestAscending(_ keys: [String]) -> [Int] {
    // tails[k]: the offset of the smallest last key of an ascending run of length k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: keys.count)
    for (offset, key) in keys.enumerated() {
      var (low, high) = (0, tails.count)
      while low < high {
        let middle = (low + high) / 2
        if keys[tails[middle]].utf8.lexicographicallyPrecedes(key.utf8) {
          low = middle + 1
        } else {
          high = middle
        }
      }
      if low > 0 { previous[offset] = tails[low - 1] }
      if low == tails.count { tails.append(offset) } else { tails[low] = offset }
    }
    var result: [Int] = []
    var offset = tails.last ?? -1
    while offset >= 0 {
      result.append(offset)
      offset = previous[offset]
    }
    return result.reversed()
  }

  // MARK: Merging

  /// One version of an item: live, or removed at `removedAt`.
  private struct Version {
    var item: State.Item
    var stamps: ItemStamps
    var removedAt: Stamp?

    /// This version joined with `other`: each field from the later stamp.
    mutating func join(_ other: Version) {
      let fields = State.itemFields
      for field in fields.indices {
        let (mine, theirs) = (stamps.fields[field], other.stamps.fields[field])
        if theirs > mine
          || (theirs == mine && fields[field].precedes(item, other.item))
        {
          fields[field].copy(other.item, &item)
          stamps.fields[field] = theirs
        }
      }
      // The later move wins; of one stamp, the greater key.
      if other.stamps.positioned > stamps.positioned
        || (other.stamps.positioned == stamps.positioned
          && stamps.position.utf8.lexicographicallyPrecedes(other.stamps.position.utf8))
      {
        stamps.position = other.stamps.position
        stamps.positioned = other.stamps.positioned
      }
      if let theirs = other.removedAt { removedAt = max(removedAt ?? theirs, theirs) }
    }
  }

  package static func merge(_ a: (State, Self), _ b: (State, Self)) -> (State, Self) {
    var versions: [UUID: Version] = [:]
    versions.reserveCapacity(a.0.syncedItems.count + a.1.removed.count)
    func add(_ version: Version, _ id: UUID) {
      if versions[id] == nil {
        versions[id] = version
      } else {
        versions[id]!.join(version)
      }
    }
    for side in [a, b] {
      for (item, stamps) in zip(side.0.syncedItems, side.1.items) {
        add(Version(item: item, stamps: stamps, removedAt: nil), item.id)
      }
      for (id, removal) in side.1.removed {
        add(Version(item: removal.item, stamps: removal.stamps, removedAt: removal.at), id)
      }
    }
    var live: [Version] = []
    var removed: [UUID: Removed] = [:]
    for (id, version) in versions {
      if let at = version.removedAt, version.stamps.latest <= at {
        removed[id] = Removed(item: version.item, stamps: version.stamps, at: at)
      } else {
        live.append(version)
      }
    }
    live.sort {
      if $0.stamps.position != $1.stamps.position {
        return $0.stamps.position.utf8.lexicographicallyPrecedes($1.stamps.position.utf8)
      }
      return $0.item.id.precedes($1.item.id)
    }
    var state = a.0.replacingItems(live.map(\.item))
    var stateStamps = a.1.state
    let fields = State.stateFields
    for field in fields.indices {
      let (mine, theirs) = (a.1.state[field], b.1.state[field])
      if theirs > mine || (theirs == mine && fields[field].precedes(a.0, b.0)) {
        fields[field].copy(b.0, &state)
        stateStamps[field] = theirs
      }
    }
    return (state, ListSync(items: live.map(\.stamps), removed: removed, state: stateStamps))
  }
}

// MARK: The file's section

extension ListSync {
  package init(from reader: inout JSONReader) throws(JSONCodingError) {
    var items: [ItemStamps] = []
    var removed: [UUID: Removed] = [:]
    var state = Array(repeating: Stamp.origin, count: State.stateFields.count)
    try reader.readMembers { key, reader throws(JSONCodingError) in
      switch key {
      case "items":
        try reader.readArray { reader throws(JSONCodingError) in
          items.append(try Self.itemStamps(try reader.readString()))
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
            case "stamps": stamps = try Self.itemStamps(try reader.readString())
            default: reader.skipValue()
            }
          }
          guard let at, let item, let stamps else {
            throw JSONCodingError("expected \"at\", \"item\" and \"stamps\"", kind: .missingKey)
          }
          guard
            removed.updateValue(Removed(item: item, stamps: stamps, at: at), forKey: item.id)
              == nil
          else { throw JSONCodingError("\(item.id) is removed twice") }
        }
      case "state":
        try reader.readMembers { key, reader throws(JSONCodingError) in
          guard let field = State.stateFields.firstIndex(where: { $0.name == key }) else {
            return reader.skipValue()
          }
          state[field] = try Self.stamp(try reader.readString())
        }
      default:
        reader.skipValue()
      }
    }
    self.init(items: items, removed: removed, state: state)
  }

  package func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    writer.beginObject()
    writer.member("items")
    writer.beginArray()
    for stamps in items {
      writer.element()
      writer.writeString(Self.text(of: stamps))
    }
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
    if !State.stateFields.isEmpty {
      writer.member("state")
      writer.beginObject()
      for (field, stamp) in zip(State.stateFields, state).sorted(by: {
        $0.0.name.utf8.lexicographicallyPrecedes($1.0.name.utf8)
      }) {
        writer.member(field.name)
        writer.writeString(stamp.description)
      }
      writer.endObject()
    }
    writer.endObject()
  }

  /// An item's stamps as one string: its position, its earliest stamp, then the fields (and
  /// the position) stamped later, as `name=stamp`.
  static func text(of stamps: ItemStamps) -> String {
    let base = min(stamps.fields.min() ?? stamps.positioned, stamps.positioned)
    var text = stamps.position + " " + base.description
    for (field, stamp) in zip(State.itemFields, stamps.fields) where stamp != base {
      text += " " + field.name + "=" + stamp.description
    }
    if stamps.positioned != base { text += " position=" + stamps.positioned.description }
    return text
  }

  /// The stamps written as `text` (see ``text(of:)``).
  static func itemStamps(_ text: String) throws(JSONCodingError) -> ItemStamps {
    let words = text.split(separator: " ", omittingEmptySubsequences: false)
    guard words.count >= 2, Position.isValid(words[0]), let base = Stamp(words[1]) else {
      throw JSONCodingError("expected a position and a stamp, not \(quoted(text))")
    }
    var stamps = ItemStamps(
      fields: Array(repeating: base, count: State.itemFields.count), position: String(words[0]),
      positioned: base)
    for word in words.dropFirst(2) {
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
    return stamps
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
