import Foundation

extension KeyValuesSync {
  /// A change of a key that lost to a concurrent one — made on another device without seeing
  /// it — kept beside the winner (see ``SyncConflict``): a value set, or a reset. It stays
  /// until a device resolves it (see ``resolving(_:choosing:in:stamp:)``) or its own device
  /// changes the key again, or it is older than the tombstones (see
  /// ``Stamp/tombstoneLifetime``).
  package struct Conflict: Equatable, Sendable {
    /// The value the change set; `nil` for a reset (the key removed: its default).
    package var value: JSONValue?
    /// The change's stamp.
    package var stamp: Stamp
    /// What the change had seen.
    package var seen: SeenStamps
  }

  /// The stamp of the key's latest change: its set's, or its removal's.
  func stamp(of name: Name) -> Stamp? { set[name] ?? removed[name] }

  /// What the change of the key `name` stamped `stamp` had seen: its record, or every change
  /// before it.
  func seen(of name: Name, at stamp: Stamp) -> SeenStamps {
    if let change = seen[name], change.stamp == stamp { return change.seen }
    return SeenStamps(before: stamp)
  }

  /// Records that this device changes the key `name`, stamped `old` (`nil`: never set), at
  /// `stamp`: the change saw the change it replaces and what that one saw — of a key never
  /// set, nothing — and, unless it is a hand edit this device stamps, every earlier change of
  /// its own device, and what the conflicts those cover had seen; the conflicts of the key
  /// that covers go, as the next merge would drop them.
  mutating func noteChange(
    of name: Name, replacing old: Stamp?, stamp: Stamp, isHandEdit: Bool = false
  ) {
    var seen = old.map { self.seen(of: name, at: $0) } ?? SeenStamps(before: .origin)
    if let old { seen.insert(old) }
    // A device saw its own earlier changes; a hand edit it stamps saw only what it replaced.
    if !isHandEdit { seen.insert(stamp) }
    if let kept = conflicts[name] {
      seen.close(over: kept.map { FieldChange(stamp: $0.stamp, seen: $0.seen) })
    }
    self.seen[name] = FieldChange(stamp: stamp, seen: seen)
    guard let kept = conflicts[name], kept.contains(where: { seen.covers($0.stamp) }) else {
      return
    }
    let left = kept.filter { !seen.covers($0.stamp) }
    conflicts[name] = left.isEmpty ? nil : left
  }

  /// The conflicts and records of what changes saw after `a` and `b`, the sides of a merge,
  /// met in `merged`, which holds the winners: per key, the change that lost (when the sides'
  /// stamps differ) and the conflicts both kept, each kept unless the winner or another of
  /// them had seen it (see ``FieldChange/settle(winner:changes:)``). O(*n*) in the number of
  /// keys, plus O(*k*³) for the *k* changes of a key that met.
  static func settleConflicts(_ a: (KeyValues, Self), _ b: (KeyValues, Self), in merged: inout Self)
  {
    merged.conflicts = [:]
    merged.seen = [:]
    var names = Set(a.1.set.keys).union(a.1.removed.keys)
    names.formUnion(b.1.set.keys)
    names.formUnion(b.1.removed.keys)
    for name in names {
      guard let winner = merged.stamp(of: name) else { continue }
      func seenOf(_ stamp: Stamp) -> SeenStamps {
        let records = [a.1.seen[name], b.1.seen[name]].compactMap { $0 }.filter {
          $0.stamp == stamp
        }
        return records.dropFirst().reduce(records.first?.seen ?? SeenStamps(before: stamp)) {
          $0.union($1.seen)
        }
      }
      var candidates = (a.1.conflicts[name] ?? []) + (b.1.conflicts[name] ?? [])
      for side in [a, b] {
        // Every change that loses is weighed, whatever its value: which changes a merge
        // keeps cannot depend on the order of merges.
        if let stamp = side.1.stamp(of: name), stamp != winner {
          candidates.append(
            Conflict(value: side.0.values[name.string], stamp: stamp, seen: seenOf(stamp)))
        }
      }
      merged.settle(name, winner: FieldChange(stamp: winner, seen: seenOf(winner)), candidates)
    }
  }

  /// Keeps of `candidates`, the changes of the key `name` that met the key's latest change
  /// `winner`, those that stay conflicts beside it (see
  /// ``FieldChange/settle(winner:changes:)``), and what the winner saw.
  mutating func settle(_ name: Name, winner: FieldChange, _ candidates: [Conflict]) {
    // One entry per change: of two with one stamp, the value as the merge picks it (a set
    // over a reset, the later text), and all they saw.
    var changes: [Conflict] = []
    for candidate in candidates.sorted(by: { $0.stamp < $1.stamp }) {
      guard let last = changes.last, last.stamp == candidate.stamp else {
        changes.append(candidate)
        continue
      }
      if let value = candidate.value, last.value.map({ $0.precedes(value) }) ?? true {
        changes[changes.count - 1].value = value
      }
      changes[changes.count - 1].seen.formUnion(candidate.seen)
    }
    var records = changes.map { FieldChange(stamp: $0.stamp, seen: $0.seen) }
    let settled = FieldChange.settle(winner: winner, changes: &records)
    var kept: [Conflict] = []
    for ((change, record), isKept) in zip(zip(changes, records), settled.kept) where isKept {
      kept.append(Conflict(value: change.value, stamp: change.stamp, seen: record.seen))
    }
    conflicts[name] = kept.isEmpty ? nil : kept
    seen[name] =
      settled.winner == SeenStamps(before: winner.stamp)
      ? nil : FieldChange(stamp: winner.stamp, seen: settled.winner)
  }

  /// Drops the conflicts and the records of what changes saw stamped before `milliseconds`,
  /// as the tombstones are.
  mutating func pruneConflicts(before milliseconds: Int64) {
    conflicts = conflicts.compactMapValues { kept in
      let left = kept.filter { $0.stamp.milliseconds >= milliseconds }
      return left.isEmpty ? nil : left
    }
    seen = seen.filter { $0.value.stamp.milliseconds >= milliseconds }
  }

  /// Whether every conflict `version` keeps, `known` keeps too, with the same value (one
  /// edited by hand is another). O(*k*) in their number.
  static func conflicts(of version: Self, areKeptBy known: Self) -> Bool {
    version.conflicts.allSatisfy { name, kept in
      let mine = known.conflicts[name] ?? []
      return kept.allSatisfy { conflict in
        mine.contains { $0.stamp == conflict.stamp && $0.value == conflict.value }
      }
    }
  }

  /// The conflicts of the key `name` still open in `state`: each value kept other than the
  /// key's and than one kept with a later stamp. O(*k*²) for its *k* conflicts — a few.
  func openConflicts(of name: Name, in state: KeyValues) -> [Conflict] {
    let kept = conflicts[name] ?? []
    return kept.filter { conflict in
      !Self.isSame(conflict.value, state.values[name.string])
        && !kept.contains { $0.stamp > conflict.stamp && Self.isSame($0.value, conflict.value) }
    }
  }

  /// Whether two values of a key (`nil`: reset) are one: equal with their numbers spelled as
  /// their `Double`s are (`7` and `7.0` are one value).
  static func isSame(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): a == b || a.respellingNumbers == b.respellingNumbers
    default: false
    }
  }

  /// See ``StateSync/openConflicts(in:)``: in order of the keys. O(*k*) for the *k* keys with
  /// conflicts, in order.
  package func openConflicts(in state: KeyValues) -> [SyncConflict] {
    guard !conflicts.isEmpty else { return [] }
    return conflicts.keys.sorted { $0.string.utf8.lexicographicallyPrecedes($1.string.utf8) }
      .flatMap { name in
        openConflicts(of: name, in: state).map { conflict in
          SyncConflict(
            item: nil, field: name.string, value: conflict.value.map(\.jsonText),
            stamp: conflict.stamp)
        }
      }
  }

  /// See ``StateSync/resolving(_:choosing:in:stamp:)``: choosing a conflict sets its value
  /// (or resets the key), an ordinary change, stamped; either way the key is stamped as a
  /// change that saw every conflict of it, which every device then drops. O(*n*) in the
  /// number of keys.
  package func resolving(
    _ conflict: SyncConflict, choosing choice: SyncConflict.Choice, in state: inout KeyValues,
    stamp: Stamp
  ) -> Self? {
    guard conflict.item == nil, let key = conflict.field else { return nil }
    let name = Name(key)
    guard let old = self.stamp(of: name),
      let kept = openConflicts(of: name, in: state).first(where: {
        $0.stamp.description == conflict.stamp
      })
    else { return nil }
    var result = self
    if choice == .conflict {
      let before = state
      state.values[key] = kept.value
      result = stamped(before: before, after: state, stamp: stamp)
    }
    var seen = self.seen(of: name, at: old)
    seen.insert(old)
    for conflict in conflicts[name] ?? [] {
      seen.formUnion(conflict.seen)
      seen.insert(conflict.stamp)
    }
    if result.set[name] != nil { result.set[name] = stamp } else { result.removed[name] = stamp }
    result.seen[name] = FieldChange(stamp: stamp, seen: seen)
    result.conflicts[name] = nil
    return result
  }
}

// MARK: The file's section

extension KeyValuesSync {
  /// Reads the `"conflicts"` member: by key, `[ { "seen" : "…", "stamp" : "…", "value" : … } ]`
  /// (a reset has no `"value"`). An entry that is not such (edited by hand) is dropped: a
  /// conflict is not worth refusing the file for. Throws only for text that is not JSON's.
  static func readConflicts(from reader: inout JSONReader) throws(JSONCodingError) -> [Name:
    [Conflict]]
  {
    var conflicts: [Name: [Conflict]] = [:]
    try reader.readMembers { key, reader throws(JSONCodingError) in
      guard reader.kind == .array else { return reader.skipValue() }
      try reader.readArray { reader throws(JSONCodingError) in
        guard reader.kind == .object else { return reader.skipValue() }
        var (stamp, seen, value): (Stamp?, Substring?, JSONValue?)
        try reader.readMembers { member, reader throws(JSONCodingError) in
          switch (member, reader.kind) {
          case ("seen", .string): seen = Substring(try reader.readString())
          case ("stamp", .string): stamp = Stamp(Substring(try reader.readString()))
          case ("value", _): value = try JSONValue(from: &reader)
          default: reader.skipValue()
          }
        }
        guard let stamp, let seen = seen.flatMap({ SeenStamps($0, of: stamp) }),
          !(conflicts[Name(key)] ?? []).contains(where: { $0.stamp == stamp })
        else { return }
        conflicts[Name(key), default: []].append(Conflict(value: value, stamp: stamp, seen: seen))
      }
      conflicts[Name(key)]?.sort { $0.stamp < $1.stamp }
    }
    return conflicts
  }

  /// Writes the conflicts, by key, as ``readConflicts(from:)`` reads them.
  func writeConflicts(to writer: inout JSONWriter) throws(JSONCodingError) {
    writer.beginObject()
    for (name, kept) in conflicts.sorted(by: {
      $0.key.string.utf8.lexicographicallyPrecedes($1.key.string.utf8)
    }) {
      writer.member(name.string)
      writer.beginArray()
      for conflict in kept {
        writer.element()
        writer.beginObject()
        writer.member("seen")
        writer.writeString(conflict.seen.text(of: conflict.stamp))
        writer.member("stamp")
        writer.writeString(conflict.stamp.description)
        if let value = conflict.value {
          writer.member("value")
          try value.write(to: &writer)
        }
        writer.endObject()
      }
      writer.endArray()
    }
    writer.endObject()
  }
}
