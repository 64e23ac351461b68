import Foundation

/// The sync section of a settings file (see ``StateSync``): a stamp for each key set, and
/// one for each key removed (reset to its default).
///
/// In the file, beside the values:
/// `"sync" : { "removed" : { "theme" : "…" }, "set" : { "sleepGoal" : "mip1k3c0.0.k3j5q8x1z0 #1z" } }`:
/// a key set is stamped, then `#` and the digest of its value (see ``ContentDigest``), which
/// shows a value edited under its old stamp. The merge takes, key by key, the value or the
/// removal of the later stamp, and keeps the change that lost to a concurrent one as a
/// conflict (`"conflicts"`, with what each change saw: `"seen"`, see ``SeenStamps``).
package struct KeyValuesSync: StateSync {
  package typealias State = KeyValues
  typealias Name = KeyValues.Name

  /// The stamp of each key set.
  var set: [Name: Stamp]
  /// The stamp of each key removed.
  var removed: [Name: Stamp]
  /// The changes that lost to a concurrent one, kept, by key, in order of stamp (see
  /// ``Conflict``).
  var conflicts: [Name: [Conflict]] = [:]
  /// What the latest change of a key had seen, where it recorded it (see ``SeenStamps``). An
  /// entry whose stamp is no longer the key's says nothing.
  var seen: [Name: FieldChange] = [:]
  /// The wall clock of each device at its latest write of the file.
  package var writers = WriterClocks()
  /// The keys set or removed without a stamp (see ``StateSync/reconcile(with:)``); never
  /// written.
  var unstamped: Set<Name> = []
  /// The stamps of the keys set or removed by hand where the file stamped them otherwise — a
  /// key reset, or set again after a reset — for ``stampUnstamped(_:)`` to record what their
  /// changes saw; never written.
  var replacedByHand: [Name: Stamp] = [:]
  /// The digests of the values of the keys set, as the file holds them, from the file's
  /// reading until ``reconcile(with:)`` compares them with the values.
  var readDigests: [Name: ContentDigest] = [:]

  init(set: [Name: Stamp], removed: [Name: Stamp]) {
    self.set = set
    self.removed = removed
  }

  package init(unstamped state: KeyValues) {
    set = Dictionary(uniqueKeysWithValues: state.values.map { (Name($0.key), Stamp.origin) })
    removed = [:]
  }

  package var isLeftOut: Bool { false }

  package var latest: Stamp? { max(set.values.max() ?? .origin, removed.values.max() ?? .origin) }

  /// See ``StateSync/reconcile(with:)``: a key with a value and no stamp was set by hand, a
  /// key stamped as set without a value was removed by hand, a key whose value no longer
  /// matches the digest beside its stamp was set by hand under that stamp; all are
  /// unstamped. A key both set and removed is set. O(*n*) in the size of the values.
  package mutating func reconcile(with state: KeyValues) {
    let digests = readDigests
    readDigests = [:]
    for (key, value) in state.values {
      let name = Name(key)
      let removal = removed.removeValue(forKey: name)
      if set[name] == nil {
        set[name] = .origin
        unstamped.insert(name)
        if let removal { replacedByHand[name] = removal }
      } else if let digest = digests[name], digest != ContentDigest(of: value) {
        unstamped.insert(name)
      }
    }
    guard set.count != state.values.count else { return }
    for (name, stamp) in set where state.values[name.string] == nil {
      set[name] = nil
      removed[name] = .origin
      unstamped.insert(name)
      replacedByHand[name] = stamp
    }
  }

  /// See ``StateSync/noteEdits(of:underStampsOf:)``: a value is another when it differs
  /// with its numbers spelled as their `Double`s are, as its digest is made (`7` and `7.0`
  /// are one value). O(*n*) in the number of keys.
  package mutating func noteEdits(of state: KeyValues, underStampsOf known: (KeyValues, Self)) {
    for (key, value) in state.values {
      let name = Name(key)
      guard let stamp = set[name], stamp > .origin, known.1.set[name] == stamp,
        let knownValue = known.0.values[key], knownValue != value,
        knownValue.respellingNumbers != value.respellingNumbers
      else { continue }
      unstamped.insert(name)
    }
  }

  package var hasUnstamped: Bool { !unstamped.isEmpty }

  /// A key set, edited or reset by hand saw the change it replaced, and what that one saw
  /// (see ``noteChange(of:replacing:stamp:isHandEdit:)``); a key the file never stamped
  /// records nothing (it is taken as having seen every change before it).
  package mutating func stampUnstamped(_ stamp: Stamp) {
    for name in unstamped {
      if let old = replacedByHand[name] ?? set[name], old > .origin {
        noteChange(of: name, replacing: old, stamp: stamp, isHandEdit: true)
      } else {
        seen[name] = nil
      }
      if set[name] != nil { set[name] = stamp } else { removed[name] = stamp }
    }
    (unstamped, replacedByHand) = ([], [:])
  }

  /// See ``StateSync/descends(_:from:)``. O(*n*) in the number of keys.
  ///
  /// A change of `known` that a later one of `version` replaced without seeing it — made
  /// concurrently, on another device — is not held: merging `known` keeps it as a conflict.
  package static func descends(
    _ version: (KeyValues, Self), from known: (KeyValues, Self)
  ) -> Bool {
    func isSeen(_ stamp: Stamp, _ name: Name) -> Bool {
      guard let latest = version.1.stamp(of: name), stamp <= latest else { return false }
      return stamp == latest || version.1.seen(of: name, at: latest).covers(stamp)
        || (version.1.conflicts[name] ?? []).contains {
          $0.stamp == stamp || $0.seen.covers(stamp)
        }
    }
    // A conflict of `known` is held when `version` keeps it, or the merge would drop it: its
    // key's latest change, or a conflict kept, saw it.
    func isHeld(_ conflict: Conflict, _ name: Name) -> Bool {
      let kept = version.1.conflicts[name] ?? []
      if let same = kept.first(where: { $0.stamp == conflict.stamp }) {
        return same.value == conflict.value
      }
      guard let latest = version.1.stamp(of: name) else { return false }
      return conflict.stamp >= latest || isSeen(conflict.stamp, name)
    }
    return known.1.set.allSatisfy { isSeen($1, $0) }
      && known.1.removed.allSatisfy { isSeen($1, $0) }
      && known.1.conflicts.allSatisfy { name, kept in kept.allSatisfy { isHeld($0, name) } }
  }

  /// See ``StateSync/holdsChanges(of:in:)``. O(*n*) in the number of keys.
  package static func holdsChanges(
    of known: (KeyValues, Self), in version: (KeyValues, Self)
  ) -> Bool {
    func isHeld(_ name: Name, _ stamp: Stamp) -> Bool {
      version.1.stamp(of: name).map { stamp <= $0 } ?? false
    }
    return known.1.set.allSatisfy(isHeld) && known.1.removed.allSatisfy(isHeld)
  }

  /// See ``StateSync/isCovered(_:by:)``. O(*n*) in the number of keys.
  package static func isCovered(
    _ version: (KeyValues, Self), by known: (KeyValues, Self)
  ) -> Bool {
    func isKnown(_ stamp: Stamp, _ name: Name) -> Bool {
      stamp == .origin || version.1.unstamped.contains(name)
        || stamp <= max(known.1.set[name] ?? .origin, known.1.removed[name] ?? .origin)
    }
    let isWhollyUnstamped =
      version.1.writers.clocks.isEmpty
      && version.1.set.keys.allSatisfy(version.1.unstamped.contains)
      && version.1.removed.keys.allSatisfy(version.1.unstamped.contains)
    if isWhollyUnstamped { return true }
    return version.1.writers.isUnchanged(since: known.1.writers)
      && conflicts(of: version.1, areKeptBy: known.1)
      && version.1.set.allSatisfy { isKnown($1, $0) }
      && version.1.removed.allSatisfy { isKnown($1, $0) }
  }

  /// See ``StateSync/forgottenRemovals(_:_:)``. O(*n*) in the number of keys.
  package static func forgottenRemovals(
    _ a: (KeyValues, Self), _ b: (KeyValues, Self)
  ) -> Int {
    func count(of version: Self, in other: Self) -> Int {
      guard let horizon = other.writers.forgettingBefore else { return 0 }
      return version.set.count { name, stamp in
        other.writers.mayHaveForgotten(stamp, before: horizon) && other.set[name] == nil
          && other.removed[name] == nil
      }
    }
    return count(of: a.1, in: b.1) + count(of: b.1, in: a.1)
  }

  package mutating func prune(before milliseconds: Int64) {
    removed = removed.filter { $0.value.milliseconds >= milliseconds }
    pruneConflicts(before: milliseconds)
  }

  /// See ``StateSync/stamped(before:after:stamp:)``: each key changed records what its change
  /// saw (see ``noteChange(of:replacing:stamp:isHandEdit:)``).
  package func stamped(before: KeyValues, after: KeyValues, stamp: Stamp) -> Self {
    stamped(before: before, after: after, stamp: stamp, isHandEdit: false)
  }

  /// See ``StateSync/stampedEdit(before:after:stamp:)``: as ``stamped(before:after:stamp:)``,
  /// each change a hand edit that saw only what it replaced.
  package func stampedEdit(before: KeyValues, after: KeyValues, stamp: Stamp) -> Self {
    stamped(before: before, after: after, stamp: stamp, isHandEdit: true)
  }

  private func stamped(
    before: KeyValues, after: KeyValues, stamp: Stamp, isHandEdit: Bool
  ) -> Self {
    var result = self
    for (key, value) in after.values where before.values[key] != value {
      let name = Name(key)
      result.noteChange(
        of: name, replacing: result.stamp(of: name), stamp: stamp, isHandEdit: isHandEdit)
      result.set[name] = stamp
      result.removed[name] = nil
    }
    for (key, _) in before.values where after.values[key] == nil {
      let name = Name(key)
      result.noteChange(
        of: name, replacing: result.stamp(of: name), stamp: stamp, isHandEdit: isHandEdit)
      result.set[name] = nil
      result.removed[name] = stamp
    }
    return result
  }

  package static func merge(
    _ a: (KeyValues, Self), _ b: (KeyValues, Self)
  ) -> (KeyValues, Self) {
    var (state, sync) = a
    sync.writers = a.1.writers.merged(with: b.1.writers)
    for (key, value) in b.0.values {
      let name = Name(key)
      let theirs = b.1.set[name] ?? .origin
      if let mine = sync.set[name] {
        let ours = state.values[key]!
        if theirs > mine || (theirs == mine && ours.precedes(value)) {
          state.values[key] = value
          sync.set[name] = theirs
        }
      } else if let removedAt = sync.removed[name] {
        if theirs > removedAt {
          state.values[key] = value
          (sync.set[name], sync.removed[name]) = (theirs, nil)
        }
      } else {
        state.values[key] = value
        sync.set[name] = theirs
      }
    }
    for (name, theirs) in b.1.removed {
      if let mine = sync.set[name] {
        // Of one stamp, the value stays: removals are never stamped ``Stamp/origin``.
        if theirs > mine {
          state.values.removeValue(forKey: name.string)
          (sync.set[name], sync.removed[name]) = (nil, theirs)
        }
      } else {
        sync.removed[name] = max(sync.removed[name] ?? theirs, theirs)
      }
    }
    settleConflicts(a, b, in: &sync)
    return (state, sync)
  }
}

extension JSONValue {
  /// Whether this value's JSON text sorts before `other`'s: breaks the tie of two values
  /// with one stamp the same way on every device.
  func precedes(_ other: JSONValue) -> Bool {
    func text(_ value: JSONValue) -> [UInt8] {
      var writer = JSONWriter()
      try? value.write(to: &writer)
      return Array(writer.finish())
    }
    return text(self).lexicographicallyPrecedes(text(other))
  }
}

// MARK: The file's section

extension KeyValuesSync {
  package init(from reader: inout JSONReader) throws(JSONCodingError) {
    var set: [Name: Stamp] = [:]
    var removed: [Name: Stamp] = [:]
    var digests: [Name: ContentDigest] = [:]
    var writers = WriterClocks()
    var conflicts: [Name: [Conflict]] = [:]
    var seen: [Name: Substring] = [:]
    try reader.readMembers { key, reader throws(JSONCodingError) in
      switch key {
      case "writers": writers = try WriterClocks(from: &reader)
      case "conflicts" where reader.kind == .object:
        conflicts = try Self.readConflicts(from: &reader)
      case "seen" where reader.kind == .object:
        // A record that is not one (edited by hand) is dropped, as a conflict is.
        try reader.readMembers { name, reader throws(JSONCodingError) in
          guard reader.kind == .string else { return reader.skipValue() }
          seen[Name(name)] = Substring(try reader.readString())
        }
      case "set", "removed":
        try reader.readMembers { name, reader throws(JSONCodingError) in
          let text = try reader.readString()
          var words = text.split(separator: " ")
          // A digest that is not one (a file of another version, or edited by hand) is left
          // out: the value is then taken as stamped.
          if key == "set", words.count == 2, words[1].first == "#" {
            digests[Name(name)] = ContentDigest.digests(words[1].dropFirst().utf8, count: 1)?[0]
            words.removeLast()
          }
          guard words.count == 1, let stamp = Stamp(words[0]) else {
            throw JSONCodingError("expected a stamp, not \(quoted(text))")
          }
          if key == "set" { set[Name(name)] = stamp } else { removed[Name(name)] = stamp }
        }
      default:
        reader.skipValue()
      }
    }
    self.init(set: set, removed: removed)
    self.writers = writers
    self.readDigests = digests
    // A conflict or record of a key the file does not stamp belongs to nothing.
    for (name, text) in seen {
      guard let stamp = stamp(of: name), let record = SeenStamps(text, of: stamp) else { continue }
      self.seen[name] = FieldChange(stamp: stamp, seen: record)
    }
    // Conflicts as the merge keeps them: one edited by hand into one the winner saw, or
    // stamped after it, is not listed only to vanish at the next merge.
    for (name, kept) in conflicts {
      guard let winner = stamp(of: name) else { continue }
      settle(name, winner: FieldChange(stamp: winner, seen: self.seen(of: name, at: winner)), kept)
    }
  }

  /// Writes the section without the digests of the values, which it does not hold (see
  /// ``envelope(writing:cache:)``).
  package func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    try write(digestsOf: nil, to: &writer)
  }

  /// The `"sync"` section of `state`, each key set with the digest of its value.
  package func envelope(writing state: KeyValues, cache: NoWriteCache?) -> [EnvelopeMember] {
    [
      EnvelopeMember(key: "sync") { writer throws(JSONCodingError) in
        try write(digestsOf: state, to: &writer)
      }
    ]
  }

  /// Writes the section, each key set followed by the digest of its value in `state`, if
  /// given.
  private func write(
    digestsOf state: KeyValues?, to writer: inout JSONWriter
  ) throws(JSONCodingError) {
    writer.beginObject()
    if !conflicts.isEmpty {
      writer.member("conflicts")
      try writeConflicts(to: &writer)
    }
    // A record whose change is no longer the key's latest says nothing.
    let records = seen.filter { $0.value.stamp == stamp(of: $0.key) }
    for (key, stamps) in [("removed", removed), ("set", set)] {
      if key == "set", !records.isEmpty {
        writer.member("seen")
        writer.beginObject()
        for (name, change) in records.sorted(by: {
          $0.key.string.utf8.lexicographicallyPrecedes($1.key.string.utf8)
        }) {
          writer.member(name.string)
          writer.writeString(change.seen.text(of: change.stamp))
        }
        writer.endObject()
      }
      writer.member(key)
      writer.beginObject()
      for (name, stamp) in stamps.sorted(by: {
        $0.key.string.utf8.lexicographicallyPrecedes($1.key.string.utf8)
      }) {
        writer.member(name.string)
        var text = Array(stamp.description.utf8)
        if key == "set", let value = state?.values[name.string] {
          text.append(contentsOf: " #".utf8)
          ContentDigest(of: value).append(to: &text)
        }
        writer.writeString(String(decoding: text, as: UTF8.self))
      }
      writer.endObject()
    }
    writer.member("writers")
    try writers.write(to: &writer)
    writer.endObject()
  }
}
