import Foundation

/// What a device had seen of one field when it changed it: the latest change of the field
/// by each device that it held (as the value it replaced, or as a conflict kept beside it),
/// and a stamp before which it is taken to have seen every change. A change *covers*
/// another when it had seen it: it was made knowing that value, so the other value is not
/// kept as a conflict beside it (see ``ListSync/Conflict``).
///
/// A change made by a program that does not record what it saw — an older build, a hand
/// edit — is taken as having seen every change stamped before it: as before conflicts were
/// kept, the later stamp simply wins.
///
/// In the file, beside the change's stamp, a space-separated list: the stamp up to which every
/// change was seen, then the latest stamp seen of each device past it, in order of the
/// devices — but the change's own stamp, implied (see ``text(of:)``).
package struct SeenStamps: Hashable, Sendable {
  /// Every change stamped up to it was seen.
  private(set) var before: Stamp
  /// The latest change seen of each device past ``before``, one per device, in order of the
  /// devices' ids.
  private(set) var latest: [Stamp]

  /// Every change stamped up to `stamp` (what a change stamped `stamp` that records nothing
  /// is taken to have seen: every change but those after it).
  package init(before stamp: Stamp) {
    before = stamp
    latest = []
  }

  /// Whether a change that had seen this had seen the change stamped `stamp`.
  ///
  /// - Complexity: O(*d*) for the *d* devices seen.
  package func covers(_ stamp: Stamp) -> Bool {
    stamp <= before || latest.contains { $0.device == stamp.device && stamp <= $0 }
  }

  /// Adds `stamp`, a change seen, and what it covers is unchanged otherwise.
  package mutating func insert(_ stamp: Stamp) {
    guard stamp > before else { return }
    if let place = latest.firstIndex(where: { $0.device == stamp.device }) {
      latest[place] = max(latest[place], stamp)
    } else {
      let place = latest.firstIndex { stamp.device.text < $0.device.text } ?? latest.endIndex
      latest.insert(stamp, at: place)
    }
  }

  /// Adds what `other` saw: the join, commutative, associative and idempotent.
  package mutating func formUnion(_ other: SeenStamps) {
    before = max(before, other.before)
    for stamp in other.latest { insert(stamp) }
    // A device's latest up to `before` says nothing more.
    latest.removeAll { $0 <= before }
  }

  /// The join of `self` and `other` (see ``formUnion(_:)``).
  package func union(_ other: SeenStamps) -> SeenStamps {
    var result = self
    result.formUnion(other)
    return result
  }

  /// The text written in the file for the record of the change stamped `stamp`: a change
  /// saw its own device's earlier changes — the record holds its own stamp — so the stamp is
  /// left out, implied; a record without it (a hand edit's, which saw only what it replaced)
  /// ends with `-` instead.
  package func text(of stamp: Stamp) -> String {
    var text: [UInt8] = []
    before.append(to: &text)
    for seen in latest where seen != stamp {
      text.append(UInt8(ascii: " "))
      seen.append(to: &text)
    }
    if !latest.contains(stamp) { text.append(contentsOf: " -".utf8) }
    return String(decoding: text, as: UTF8.self)
  }

  /// What `text` (see ``text(of:)``) records of the change stamped `stamp`, or `nil` when it
  /// is not such a text. A record written before changes implied their own stamp, without
  /// `-`, is read as one that saw its own device's earlier changes.
  package init?(_ text: Substring, of stamp: Stamp) {
    var words = text.split(separator: " ", omittingEmptySubsequences: false)
    let isHandEdit = words.last == "-"
    if isHandEdit { words.removeLast() }
    guard let first = words.first, let before = Stamp(first) else { return nil }
    self.init(before: before)
    for word in words.dropFirst() {
      guard let seen = Stamp(word) else { return nil }
      insert(seen)
    }
    if !isHandEdit { insert(stamp) }
  }
}

extension SeenStamps {
  /// Adds what each of `changes` (of one field) that this covers had seen, until none adds
  /// more: what a change saw is closed under what the changes it saw had seen, so that a
  /// change that replaces a kept value knowingly takes what that value's change had seen.
  ///
  /// - Complexity: O(*k*² *d*) for *k* changes of *d* devices — a few.
  mutating func close(over changes: [FieldChange]) {
    var grew = true
    while grew {
      grew = false
      for change in changes where covers(change.stamp) {
        let grown = union(change.seen)
        if grown != self {
          self = grown
          grew = true
        }
      }
    }
  }
}

extension FieldChange {
  /// Settles the changes of one field — or settings key — that met in a merge: the winner,
  /// the change of the field's current stamp, and `changes`, the others kept or lost (one per
  /// stamp, in order of stamps). Returns what the winner saw, and whether each of `changes`
  /// stays a conflict: stamped before the winner, and seen neither by it nor by another of
  /// `changes`.
  ///
  /// What a change saw is closed under what the changes it saw had seen: a change that lost
  /// to the winner and is not kept still tells what the winner had seen through it, for the
  /// merges to come (where that change is gone) — so a merge keeps the same conflicts in
  /// whatever order versions meet. `changes` take their records so grown.
  ///
  /// - Complexity: O(*k*³ *d*) for *k* changes of *d* devices — a few.
  static func settle(winner: FieldChange, changes: inout [FieldChange]) -> (
    winner: SeenStamps, kept: [Bool]
  ) {
    let earlier = changes.indices.filter { changes[$0].stamp < winner.stamp }
    var records = [winner] + earlier.map { changes[$0] }
    var grew = true
    while grew {
      grew = false
      for index in records.indices {
        for other in records
        where other.stamp != records[index].stamp && records[index].seen.covers(other.stamp) {
          let grown = records[index].seen.union(other.seen)
          if grown != records[index].seen {
            records[index].seen = grown
            grew = true
          }
        }
      }
    }
    for (index, record) in zip(earlier, records.dropFirst()) { changes[index] = record }
    let winnerSeen = records[0].seen
    let kept = changes.map { change in
      change.stamp < winner.stamp && !winnerSeen.covers(change.stamp)
        && !changes.contains { $0.stamp != change.stamp && $0.seen.covers(change.stamp) }
    }
    return (winnerSeen, kept)
  }
}
