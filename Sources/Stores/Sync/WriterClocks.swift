import Foundation

/// The wall clock of each device at its latest write of a file — the file's `"writers"`
/// member — which bounds how early tombstones may be dropped: only once *every* device that
/// ever wrote the file has written it, by its own clock, more than ``Stamp/tombstoneLifetime``
/// after the removal. So no single clock, however far ahead, drops a removal that another
/// device's copy could still undo.
///
/// Wall clocks, not stamps: a hybrid logical clock follows the latest stamp it saw, so one
/// device running ahead would carry every clock that read its stamps along with it.
///
/// In the file: `"writers" : { "k3j5q8x1z0" : "mip1k3c0" }`, each device's milliseconds since
/// 1970 in base 36. Merged device by device, keeping the later: commutative, associative and
/// idempotent.
package struct WriterClocks: Equatable, Sendable {
  /// Each device's wall clock at its latest write, in milliseconds since 1970.
  package private(set) var clocks: [DeviceID: Int64] = [:]

  package init() {}

  /// Notes a write by `device` when its wall clock read `milliseconds`: the device's clock
  /// becomes the later of that and one more than its latest write's, so that every write
  /// changes the writers — two writes within one millisecond too — and a version with the
  /// writers of the version a store wrote is one that no stamping program wrote since (a
  /// backup of an earlier version is not). A burst of writes faster than one a millisecond
  /// runs the clock ahead by at most their number of milliseconds.
  package mutating func noteWrite(by device: DeviceID, at milliseconds: Int64) {
    let milliseconds = min(max(milliseconds, 0), Stamp.latestMilliseconds)
    let next = clocks[device].map { min($0 + 1, Stamp.latestMilliseconds) } ?? milliseconds
    clocks[device] = max(next, milliseconds)
  }

  /// The earliest of the writers' clocks: tombstones stamped more than
  /// ``Stamp/tombstoneLifetime`` before it may be dropped; `nil` when no device wrote yet.
  package var horizon: Int64? { clocks.values.min() }

  /// Whether these are `known`'s writers exactly, and some device wrote: then no program
  /// that stamps wrote since the version `known` belongs to — a program that does not stamp
  /// leaves the writers as they were, while a device that stamps notes its clock on every
  /// change it writes (see ``StateSync/isCovered(_:by:)``).
  package func isUnchanged(since known: WriterClocks) -> Bool {
    !clocks.isEmpty && self == known
  }

  /// Whether these clocks are at least `known`'s, device by device, and some device wrote:
  /// a version with these writers was made from the version `known` belongs to, or from a
  /// later one — a device notes a later clock on every change it writes, and clocks only
  /// travel with the versions they were merged from. What that version held and this one
  /// does not was removed since (by hand, when no tombstone says so), not lost.
  package func includes(_ known: WriterClocks) -> Bool {
    !known.clocks.isEmpty
      && known.clocks.allSatisfy { device, clock in clocks[device].map { $0 >= clock } ?? false }
  }

  /// These clocks and `other`'s, the later of each device's.
  package func merged(with other: WriterClocks) -> WriterClocks {
    var result = self
    result.clocks.merge(other.clocks) { max($0, $1) }
    return result
  }
}

extension WriterClocks: JSONCodable {
  package init(from reader: inout JSONReader) throws(JSONCodingError) {
    var clocks: [DeviceID: Int64] = [:]
    try reader.readMembers { name, reader throws(JSONCodingError) in
      let text = try reader.readString()
      guard let device = DeviceID(Substring(name)) else {
        throw JSONCodingError("expected a device id, not \(quoted(name))")
      }
      guard text.utf8.count <= 12, let milliseconds = Int64(text, radix: 36),
        (0...Stamp.latestMilliseconds).contains(milliseconds)
      else { throw JSONCodingError("expected milliseconds in base 36, not \(quoted(text))") }
      clocks[device] = milliseconds
    }
    self.clocks = clocks
  }

  package func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    writer.beginObject()
    for (device, milliseconds) in clocks.sorted(by: {
      $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8)
    }) {
      writer.member(device.text)
      writer.writeString(String(milliseconds, radix: 36))
    }
    writer.endObject()
  }
}
