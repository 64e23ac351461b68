import Foundation

/// A field of an item of a list: the item's id and the field's offset in
/// ``SyncedList/itemFields``.
package struct FieldKey: Hashable, Sendable {
  package var item: UUID
  package var field: Int

  package init(item: UUID, field: Int) {
    self.item = item
    self.field = field
  }
}

/// The latest change of a field, as far as conflicts go: its stamp, and what it had seen.
package struct FieldChange: Hashable, Sendable {
  package var stamp: Stamp
  package var seen: SeenStamps
}

extension ListSync {
  /// A change that lost to a concurrent one — made on another device without seeing it — and
  /// is kept beside the winner, so that nobody's value disappears silently: a field's value
  /// that lost to a later stamp, or an item's removal that a later edit undid. It stays until
  /// a device resolves it (see ``resolving(_:keeping:stamp:)``) — a change that has seen it
  /// — or until it is older than the tombstones (see ``Stamp/tombstoneLifetime``).
  package struct Conflict: Sendable {
    /// The field's offset in ``SyncedList/itemFields``, or `nil` for the item's removal.
    package var field: Int?
    /// An item holding the value the change set, in ``field``; its other fields are not the
    /// change's. For a removal, the item.
    package var value: State.Item
    /// The change's stamp.
    package var stamp: Stamp
    /// What the change had seen.
    package var seen: SeenStamps

    package init(field: Int?, value: State.Item, stamp: Stamp, seen: SeenStamps? = nil) {
      self.field = field
      self.value = value
      self.stamp = stamp
      self.seen = seen ?? SeenStamps(before: stamp)
    }

    /// Whether `self` is kept before `other` in an item's list: the removal first, then by
    /// field, then by stamp.
    func precedes(_ other: Conflict) -> Bool {
      let (mine, theirs) = (field ?? -1, other.field ?? -1)
      return mine != theirs ? mine < theirs : stamp < other.stamp
    }
  }

  /// Records that the field `key`, stamped `old`, is changed by this device at `stamp`: the
  /// change saw what the change it replaces saw, that change and — unless it is a hand edit
  /// this device stamps — every earlier change of its own device, and what the conflicts
  /// those cover had seen; not the other conflicts kept beside it, which only a resolution
  /// sees.
  ///
  /// A conflict of the field that the change covers — a value its own device changed again
  /// since, or this device's own — goes, as the next merge would drop it: a file as written
  /// is one a merge leaves as it is.
  mutating func noteChange(
    of key: FieldKey, replacing old: Stamp, stamp: Stamp, isHandEdit: Bool = false
  ) {
    var seen = seen(of: key, at: old)
    seen.insert(old)
    // A device saw its own earlier changes; a hand edit it stamps saw only what it replaced.
    if !isHandEdit { seen.insert(stamp) }
    if let kept = conflicts[key.item] {
      seen.close(
        over: kept.filter { $0.field == key.field }.map {
          FieldChange(stamp: $0.stamp, seen: $0.seen)
        })
    }
    self.seen[key] = FieldChange(stamp: stamp, seen: seen)
    dropConflicts(of: key, coveredBy: seen)
  }

  /// Drops the conflicts of the field `key` that a change that saw `seen` covers.
  private mutating func dropConflicts(of key: FieldKey, coveredBy seen: SeenStamps) {
    guard let kept = conflicts[key.item],
      kept.contains(where: { $0.field == key.field && seen.covers($0.stamp) })
    else { return }
    let left = kept.filter { $0.field != key.field || !seen.covers($0.stamp) }
    conflicts[key.item] = left.isEmpty ? nil : left
  }

  /// Records that the item `id` is added at `stamp`: if it was removed (an undo puts it
  /// back), its tombstone goes, and each of its fields is a change that saw the removal and
  /// the field's change before it — not a change made elsewhere meanwhile, kept as a
  /// conflict beside it. A new item records nothing: it is taken as having seen every change
  /// before it.
  /// A field whose value is not the tombstone's (a change from elsewhere the removal
  /// swallowed, which the item put back does not hold) saw only the removal and this
  /// device's own changes before it.
  mutating func noteReinsertion(of item: State.Item, stamp: Stamp) {
    guard let removal = removed.removeValue(forKey: item.id) else { return }
    let fields = State.itemFields
    for field in fields.indices {
      let key = FieldKey(item: item.id, field: field)
      let old = removal.stamps.fields[field]
      var seen: SeenStamps
      // The tombstone's value, or a change the removal or this device made or surely saw (its
      // own device's): what it saw, and what that had seen — so that a record is closed
      // under what the changes it covers had seen, whatever the order of merges.
      if fields[field].isEqual(item, removal.item) || old.device == stamp.device
        || old.device == removal.at.device
      {
        seen = self.seen(of: key, at: old)
        seen.insert(old)
      } else {
        seen = SeenStamps(before: .origin)
      }
      seen.insert(removal.at)
      self.seen[key] = FieldChange(stamp: stamp, seen: seen)
    }
  }

  /// What the change of `key` stamped `stamp` had seen: its record, or every change before it.
  func seen(of key: FieldKey, at stamp: Stamp) -> SeenStamps {
    if let change = seen[key], change.stamp == stamp { return change.seen }
    return SeenStamps(before: stamp)
  }

  /// The conflicts of the item `id` as the merge of `a` and `b` leaves them, and the records
  /// of what the winning changes saw: the conflicts both kept and the changes that lost in
  /// the join of the item's versions, each kept unless a change of the same field (the
  /// winner, or another kept) had seen it; of the removals an edit undid, the latest — a
  /// conflict until a change of the item saw it (see ``isSeen(removal:of:id:)``). O(*k*) dictionary lookups for the *k* items
  /// with conflicts or whose versions differ, plus the records of both.
  static func settleConflicts(
    _ a: Self, _ b: Self, versions: inout [UUID: Version]
  ) -> ([UUID: [Conflict]], [FieldKey: FieldChange]) {
    // What the winning changes saw: each record whose stamp is still its field's.
    var seen: [FieldKey: FieldChange] = [:]
    for side in [a, b] {
      for (key, change) in side.seen {
        guard let version = versions[key.item], key.field < version.stamps.fields.count,
          version.stamps.fields[key.field] == change.stamp
        else { continue }
        if let other = seen[key] {
          seen[key]!.seen = other.seen.union(change.seen)
        } else {
          seen[key] = change
        }
      }
    }
    func seenOf(_ key: FieldKey, _ stamp: Stamp) -> SeenStamps {
      if let change = seen[key], change.stamp == stamp { return change.seen }
      var result = SeenStamps(before: stamp)
      var found = false
      for side in [a, b] {
        if let change = side.seen[key], change.stamp == stamp {
          result = found ? result.union(change.seen) : change.seen
          found = true
        }
      }
      return result
    }
    var ids = Set(a.conflicts.keys).union(b.conflicts.keys)
    for (id, version) in versions
    where !version.lost.isEmpty
      || (version.removedAt.map { version.stamps.latestEdit > $0 } ?? false)
    {
      ids.insert(id)
    }
    var conflicts: [UUID: [Conflict]] = [:]
    for id in ids {
      guard var version = versions[id] else { continue }
      var candidates = (a.conflicts[id] ?? []) + (b.conflicts[id] ?? [])
      for lost in version.lost {
        var lost = lost
        lost.seen = seenOf(FieldKey(item: id, field: lost.field!), lost.stamp)
        candidates.append(lost)
      }
      version.lost = []
      let isLive = version.removedAt.map { version.stamps.latestEdit > $0 } ?? true
      if isLive, let at = version.removedAt {
        candidates.append(Conflict(field: nil, value: version.item, stamp: at))
      }
      versions[id] = version
      let (kept, winners) = settle(candidates, of: version, isLive: isLive) { field, stamp in
        seenOf(FieldKey(item: id, field: field), stamp)
      }
      if !kept.isEmpty { conflicts[id] = kept }
      for (field, record) in winners {
        let stamp = version.stamps.fields[field]
        seen[FieldKey(item: id, field: field)] =
          record == SeenStamps(before: stamp) ? nil : FieldChange(stamp: stamp, seen: record)
      }
    }
    return (conflicts, seen)
  }

  /// The conflicts of `version` kept from `candidates`, and what the winning change of each
  /// field with candidates saw, by field: see ``settleConflicts(_:_:versions:)``; `seenOf`
  /// gives what a field's change saw. Each field's changes are settled by
  /// ``FieldChange/settle(winner:changes:)``.
  private static func settle(
    _ candidates: [Conflict], of version: Version, isLive: Bool,
    seenOf: (Int, Stamp) -> SeenStamps
  ) -> (kept: [Conflict], winners: [Int: SeenStamps]) {
    let fields = State.itemFields
    // One entry per change: of two with one stamp, the value that sorts last (as the join
    // picks), and all they saw.
    var changes: [Conflict] = []
    for candidate in candidates.sorted(by: { $0.precedes($1) }) {
      if let last = changes.last, last.field == candidate.field, last.stamp == candidate.stamp {
        var joined = last
        if let field = candidate.field, fields[field].precedes(last.value, candidate.value) {
          joined.value = candidate.value
        }
        joined.seen.formUnion(candidate.seen)
        changes[changes.count - 1] = joined
      } else {
        changes.append(candidate)
      }
    }
    // Per field (its changes are adjacent): the winner's record and each earlier change's,
    // grown, and the changes kept.
    var winners: [Int: SeenStamps] = [:]
    var kept: [Conflict] = []
    var start = changes.startIndex
    while start < changes.endIndex {
      let field = changes[start].field
      let end = changes[start...].firstIndex { $0.field != field } ?? changes.endIndex
      defer { start = end }
      guard let field else { continue }
      let stamp = version.stamps.fields[field]
      var records = changes[start..<end].map { FieldChange(stamp: $0.stamp, seen: $0.seen) }
      let settled = FieldChange.settle(
        winner: FieldChange(stamp: stamp, seen: seenOf(field, stamp)), changes: &records)
      winners[field] = settled.winner
      for (index, record) in zip(start..<end, records) { changes[index].seen = record.seen }
      for (index, isKept) in zip(start..<end, settled.kept) where isKept {
        kept.append(changes[index])
      }
    }
    // The latest removal an edit undid, kept whether or not a change of the item saw it (the
    // merge keeps the latest, and whether it is a conflict depends on all the changes it
    // meets: see ``isSeen(removal:of:)``).
    if isLive, var removal = changes.filter({ $0.field == nil }).max(by: { $0.stamp < $1.stamp }) {
      removal.value = version.item
      kept.insert(removal, at: 0)
    }
    return (kept, winners)
  }

  /// Whether a change of the item at `offset` saw the removal `removal` of it: its fields'
  /// latest changes, or a conflict kept beside them. Until one did, the removal is a
  /// conflict.
  func isSeen(removal: Conflict, of offset: Int, id: UUID) -> Bool {
    let fields = items[offset].fields
    return fields.indices.contains { field in
      seen(of: FieldKey(item: id, field: field), at: fields[field]).covers(removal.stamp)
    } || (conflicts[id] ?? []).contains { $0.field != nil && $0.seen.covers(removal.stamp) }
  }

  /// Drops the conflicts and the records of what changes saw (see ``seen``) stamped before
  /// `milliseconds`, as the tombstones are: a record outlives every copy that could still
  /// arrive holding a value its change saw — which would otherwise be taken for a value lost.
  /// (A field's record is never older than its conflicts: its change is stamped after them.)
  mutating func pruneConflicts(before milliseconds: Int64) {
    if conflicts.values.contains(where: { $0.contains { $0.stamp.milliseconds < milliseconds } }) {
      conflicts = conflicts.compactMapValues { kept in
        let kept = kept.filter { $0.stamp.milliseconds >= milliseconds }
        return kept.isEmpty ? nil : kept
      }
    }
    if seen.values.contains(where: { $0.stamp.milliseconds < milliseconds }) {
      seen = seen.filter { $0.value.stamp.milliseconds >= milliseconds }
    }
  }

  /// The stamps after this device resolved the conflicts of the field `field` of the item
  /// `id`, at `offset` in the list, keeping the value the state now holds (the caller sets the
  /// value chosen first) — or, with a `nil` field, the removal an edit undid, keeping the
  /// item: the field (for a removal, the item's first) is stamped `stamp` as a change that
  /// saw the winner and the conflicts resolved. It syncs as any change, and every device
  /// drops the conflicts it saw.
  package func resolving(item id: UUID, at offset: Int, field: Int?, stamp: Stamp) -> Self {
    var result = self
    let kept = conflicts[id] ?? []
    let changed = field ?? 0
    let key = FieldKey(item: id, field: changed)
    let old = items[offset].fields[changed]
    var seen = self.seen(of: key, at: old)
    seen.insert(old)
    for conflict in kept where conflict.field == field {
      // A removal's record says nothing of the field's changes.
      if field != nil { seen.formUnion(conflict.seen) }
      seen.insert(conflict.stamp)
    }
    result.items[offset].fields[changed] = stamp
    result.seen[key] = FieldChange(stamp: stamp, seen: seen)
    // The removal stays recorded (seen now): a merge keeps the latest removal of an item.
    let left = field == nil ? kept : kept.filter { $0.field != field }
    result.conflicts[id] = left.isEmpty ? nil : left
    return result
  }

  /// The conflicts of the item `id`, at `offset` in `list` (`nil`: removed), that are still
  /// open: of each field, the values kept other than the field's and than one kept with a
  /// later stamp; and the removal an edit undid unless a change of the item saw it since.
  /// O(*k*²) for the *k* conflicts kept of the item — a few.
  package func openConflicts(of id: UUID, at offset: Int?, in list: [State.Item]) -> [Conflict] {
    let kept = conflicts[id] ?? []
    let fields = State.itemFields
    return kept.filter { conflict in
      guard let offset else { return false }
      guard let field = conflict.field else {
        return !isSeen(removal: conflict, of: offset, id: id)
      }
      return !fields[field].isEqual(conflict.value, list[offset])
        && !kept.contains {
          $0.field == field && $0.stamp > conflict.stamp
            && fields[field].isEqual($0.value, conflict.value)
        }
    }
  }
}

extension ListSync {
  /// Whether merging the conflicts `known` keeps into `version` leaves them as they are:
  /// `version` keeps each (the same change, the same value), or the merge would drop it — a
  /// field's change that the field's latest change in `version`, or a conflict kept there,
  /// saw; a removal of an item `version` holds removed, or beside a later removal kept (the
  /// merge keeps the latest). O(*n*) in the size of `version` when `known` keeps conflicts.
  static func conflicts(of known: Self, areHeldBy version: (State, Self)) -> Bool {
    guard !known.conflicts.isEmpty else { return true }
    var stamps: [UUID: (stamps: ItemStamps, isRemoved: Bool)] = [:]
    for (item, itemStamps) in zip(version.0.syncedItems, version.1.items)
    where known.conflicts[item.id] != nil {
      stamps[item.id] = (itemStamps, false)
    }
    for (id, removal) in version.1.removed where known.conflicts[id] != nil {
      stamps[id] = (removal.stamps, true)
    }
    let fields = State.itemFields
    return known.conflicts.allSatisfy { id, conflicts in
      guard let (itemStamps, isRemoved) = stamps[id] else { return false }
      let kept = version.1.conflicts[id] ?? []
      return conflicts.allSatisfy { conflict in
        if let same = kept.first(where: { $0.field == conflict.field && $0.stamp == conflict.stamp }
        ) {
          return conflict.field.map { fields[$0].isIdentical(same.value, conflict.value) } ?? true
        }
        guard let field = conflict.field else {
          return isRemoved || kept.contains { $0.field == nil && $0.stamp > conflict.stamp }
        }
        let latest = itemStamps.fields[field]
        return conflict.stamp >= latest
          || version.1.seen(of: FieldKey(item: id, field: field), at: latest).covers(conflict.stamp)
          || kept.contains { $0.field == field && $0.seen.covers(conflict.stamp) }
      }
    }
  }

  /// Whether every conflict `version` keeps, `known` keeps too (the same change of the same
  /// field of the same item). O(*k*) for the *k* items with conflicts.
  static func conflicts(of version: Self, areKeptBy known: Self) -> Bool {
    version.conflicts.allSatisfy { id, kept in
      let mine = known.conflicts[id] ?? []
      return kept.allSatisfy { conflict in
        mine.contains { $0.field == conflict.field && $0.stamp == conflict.stamp }
      }
    }
  }
}

extension ListSync.Conflict: Equatable {
  /// Two conflicts are equal when they are of one field, change and knowledge, and hold one
  /// value in that field (the rest of the item they carry is not theirs).
  package static func == (a: Self, b: Self) -> Bool {
    guard a.field == b.field, a.stamp == b.stamp, a.seen == b.seen else { return false }
    guard let field = a.field else { return true }
    return State.itemFields[field].isIdentical(a.value, b.value)
  }
}

// MARK: The file's section

extension ListSync {
  /// A conflict as the file holds it, its value not read yet: the value's field is read into
  /// the item it is of, found once the items are (see ``readValues(of:)``).
  struct ReadConflict: Equatable, Sendable {
    var item: UUID
    var field: Int?
    var stamp: Stamp
    var seen: SeenStamps
    var value: JSONValue?

    /// Reads `{ "field" : "title", "item" : "…", "seen" : "…", "stamp" : "…", "value" : … }`
    /// (a removal has no `"field"` and no `"value"`); `nil` for an entry that is not such —
    /// of a field this build does not know, or edited by hand — which is dropped: a conflict
    /// is not worth refusing the file for. Throws only for text that is not JSON's.
    static func read(from reader: inout JSONReader) throws(JSONCodingError) -> ReadConflict? {
      var (item, field, stamp, seenText, value): (UUID?, Int?, Stamp?, Substring?, JSONValue?)
      var isValid = true
      guard reader.kind == .object else {
        reader.skipValue()
        return nil
      }
      try reader.readMembers { key, reader throws(JSONCodingError) in
        switch (key, reader.kind) {
        case ("field", .string):
          let name = try reader.readString()
          field = State.itemFields.firstIndex { $0.name == name }
          if field == nil { isValid = false }
        case ("item", .string): item = UUID(uuidString: try reader.readString())
        case ("seen", .string): seenText = Substring(try reader.readString())
        case ("stamp", .string): stamp = Stamp(Substring(try reader.readString()))
        case ("value", _): value = try JSONValue(from: &reader)
        default: reader.skipValue()
        }
      }
      guard isValid, let item, let stamp,
        let seen = seenText.flatMap({ SeenStamps($0, of: stamp) }),
        (field == nil) == (value == nil)
      else { return nil }
      return ReadConflict(item: item, field: field, stamp: stamp, seen: seen, value: value)
    }
  }

  /// Reads the value of each conflict read into the item it is of, in `list` or removed. A
  /// conflict of an item the file does not hold (removed by hand) is dropped, and so is one
  /// whose value is not one of its field (edited by hand): they belong to nothing a store
  /// shows. O(*n* + *k*) for *n* items and *k* conflicts.
  mutating func readValues(of list: [State.Item]) {
    var items: [UUID: State.Item] = [:]
    let ids = Set(readConflicts.lazy.map(\.item))
    for item in list where ids.contains(item.id) { items[item.id] = item }
    for (id, removal) in removed where ids.contains(id) { items[id] = removal.item }
    for read in readConflicts {
      guard var value = items[read.item],
        !(conflicts[read.item] ?? []).contains(where: {
          $0.field == read.field && $0.stamp == read.stamp
        })
      else { continue }
      if let field = read.field, let text = read.value {
        var writer = JSONWriter()
        guard (try? text.write(to: &writer)) != nil else { continue }
        let bytes = Array(writer.finish())
        let decoded = bytes.withUnsafeBufferPointer { bytes in
          var reader = JSONReader(bytes: bytes, topLevelKeys: [])
          return (try? State.itemFields[field].readValue(&reader, &value)) != nil
        }
        guard decoded else { continue }
      }
      let conflict = Conflict(field: read.field, value: value, stamp: read.stamp, seen: read.seen)
      conflicts[read.item, default: []].append(conflict)
    }
    readConflicts = []
    for id in conflicts.keys { conflicts[id]!.sort { $0.precedes($1) } }
  }

  /// Reads each record read (see ``readSeen``) as the record of the change it is of: its
  /// field's in `list`, or in the tombstone. A record of an item the file does not hold, or
  /// that is not one (edited by hand), is dropped.
  /// O(*n* + *k*) for *n* items and *k* records.
  mutating func attachSeen(to list: [State.Item]) {
    let ids = Set(readSeen.keys.lazy.map(\.item))
    var stamps: [UUID: ItemStamps] = [:]
    for (item, itemStamps) in zip(list, items) where ids.contains(item.id) {
      stamps[item.id] = itemStamps
    }
    for (id, removal) in removed where ids.contains(id) { stamps[id] = removal.stamps }
    for (key, text) in readSeen {
      guard let itemStamps = stamps[key.item],
        let seen = SeenStamps(text, of: itemStamps.fields[key.field])
      else { continue }
      self.seen[key] = FieldChange(stamp: itemStamps.fields[key.field], seen: seen)
    }
    readSeen = [:]
  }

  /// Writes the conflicts, by item, as ``ReadConflict`` reads them.
  func writeConflicts(to writer: inout JSONWriter) throws(JSONCodingError) {
    writer.beginArray()
    for (id, kept) in conflicts.sorted(by: { $0.key.precedes($1.key) }) {
      for conflict in kept {
        writer.element()
        writer.beginObject()
        if let field = conflict.field {
          writer.member("field")
          writer.writeString(State.itemFields[field].name)
        }
        writer.member("item")
        id.write(to: &writer)
        writer.member("seen")
        writer.writeString(conflict.seen.text(of: conflict.stamp))
        writer.member("stamp")
        writer.writeString(conflict.stamp.description)
        if let field = conflict.field {
          writer.member("value")
          do throws(JSONCodingError) {
            try State.itemFields[field].writeValue(conflict.value, &writer)
          } catch {
            throw error.at(.key("conflicts")).at(.key("\(id)"))
          }
        }
        writer.endObject()
      }
    }
    writer.endArray()
  }

  /// Writes what the latest changes saw, each `item field seen…` (the change is the field's
  /// latest, whose stamp the item's entry holds), by item and field.
  func writeSeen(to writer: inout JSONWriter) {
    writer.beginArray()
    let sorted = seen.sorted {
      $0.key.item != $1.key.item ? $0.key.item.precedes($1.key.item) : $0.key.field < $1.key.field
    }
    for (key, change) in sorted {
      writer.element()
      writer.writeString(
        "\(key.item) \(State.itemFields[key.field].name) \(change.seen.text(of: change.stamp))")
    }
    writer.endArray()
  }

  /// The field and the text of the record written as `text` (see ``writeSeen(to:)``), read
  /// once its change's stamp is (see ``attachSeen(to:)``); `nil` when it is not one — of a
  /// field this build does not know, or edited by hand — and is dropped.
  static func readSeen(_ text: String) -> (FieldKey, Substring)? {
    let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard words.count == 3, let id = UUID(uuidString: String(words[0])),
      let field = State.itemFields.firstIndex(where: { $0.name == words[1] })
    else { return nil }
    return (FieldKey(item: id, field: field), words[2])
  }
}

// MARK: Conflicts, for the store

extension ListSync {
  /// See ``StateSync/openConflicts(in:)``. O(*n*) in the size of `state` when a conflict is
  /// kept; O(1) when none is.
  package func openConflicts(in state: State) -> [SyncConflict] {
    let list = state.syncedItems
    // Stamps of another version than `state` (none is meant): nothing to tell of.
    guard !conflicts.isEmpty, list.count == items.count else { return [] }
    var result: [SyncConflict] = []
    for (offset, item) in list.enumerated() where conflicts[item.id] != nil {
      for conflict in openConflicts(of: item.id, at: offset, in: list) {
        result.append(Self.conflict(conflict, of: item.id))
      }
    }
    return result
  }

  /// `conflict` of the item `id`, as a store shows it.
  static func conflict(_ conflict: Conflict, of id: UUID) -> SyncConflict {
    var value: String?
    if let field = conflict.field {
      var writer = JSONWriter()
      if (try? State.itemFields[field].writeValue(conflict.value, &writer)) != nil {
        value = String(decoding: writer.finish(), as: UTF8.self)
      }
    }
    return SyncConflict(
      item: id, field: conflict.field.map { State.itemFields[$0].name }, value: value,
      stamp: conflict.stamp)
  }

  /// See ``StateSync/resolving(_:choosing:in:stamp:)``: choosing a field's conflict sets its
  /// value, choosing a removal removes the item — ordinary changes, stamped — and the field
  /// (for a removal kept, the item) is stamped as a change that saw every conflict of it.
  /// O(*n*) in the size of `state`.
  package func resolving(
    _ conflict: SyncConflict, choosing choice: SyncConflict.Choice, in state: inout State,
    stamp: Stamp
  ) -> Self? {
    var list = state.syncedItems
    guard let id = conflict.item, let offset = list.firstIndex(where: { $0.id == id }),
      let kept = openConflicts(of: id, at: offset, in: list).first(where: {
        $0.stamp.description == conflict.stamp
          && $0.field.map { State.itemFields[$0].name } == conflict.field
      })
    else { return nil }
    let before = state
    switch (choice, kept.field) {
    case (.conflict, nil):
      list.remove(at: offset)
      state = state.replacingItems(list)
      return stamped(before: before, after: state, stamp: stamp)
    case (.conflict, let field?):
      State.itemFields[field].copy(kept.value, &list[offset])
      state = state.replacingItems(list)
      return stamped(before: before, after: state, stamp: stamp)
        .resolving(item: id, at: offset, field: field, stamp: stamp)
    case (.current, let field):
      return resolving(item: id, at: offset, field: field, stamp: stamp)
    }
  }
}
