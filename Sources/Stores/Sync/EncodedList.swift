import Foundation

/// The text of a list file's items and of their stamps as a backing last wrote them, so that
/// its next write copies the text of each item that did not change instead of encoding it
/// again: a write after an action that changed *k* of *n* items encodes *k* items and copies
/// the others' bytes, O(*n*) in the size of the file with a small constant.
///
/// An item's text is reused when the item is the one written before bit for bit (see
/// ``SyncedList/hasSameBits(_:_:)``), and so are its stamps. The list holds the values it
/// wrote, so that the strings and arrays they point to stay alive, unchanged: the same bits
/// are then the same value, written the same. A value equal but not identical (read again
/// from the file) is encoded again, never taken for another — so the bytes are always those
/// a fresh encoding writes.
///
/// Kept by a ``JSONFileBacking`` between its writes (about the file's size in memory).
package final class EncodedList<List: SyncedList> {
  /// The items of the last write, in order, with their text as elements of the list (from
  /// `{` to `}`).
  private var items = Texts<List.Item>()
  /// Their stamps, with their text as elements of `"items"` (quoted).
  private var stamps = Texts<ItemStamps>()
  /// How many items' text, and how many items' stamps' text, the last write copied.
  package var reused: (items: Int, stamps: Int) { (items.reused, stamps.reused) }

  package init() {}

  /// For each of `items`, the offset of the item with its id in the last write, or -1 when
  /// it was not in it. O(*n*): the two lists are walked together while their ids agree, an
  /// item added or removed between them is stepped over, and anything else (a sort, many
  /// removals) is looked up by id, in an index made at the first such item.
  // Specialised for the package's lists (a generic method copies each item through its
  // type's metadata, many times slower): the generic entry dispatches to these.
  @_specialize(where List == TodosStore.State)
  @_specialize(where List == WorkoutsStore.State)
  func matches(for list: [List.Item]) -> [Int] {
    let old = items.values
    var result: [Int] = []
    result.reserveCapacity(list.count)
    var index: [UUID: Int]?
    var next = 0
    list.withUnsafeBufferPointer { new in
      old.withUnsafeBufferPointer { old in
        for offset in new.indices {
          let id = new[offset].id
          if next < old.count, old[next].id == id {
            result.append(next)
            next += 1
          } else if next + 1 < old.count, old[next + 1].id == id {
            result.append(next + 1)  // old[next] was removed
            next += 2
          } else if index == nil, offset + 1 < new.count, next < old.count,
            new[offset + 1].id == old[next].id
          {
            result.append(-1)  // new[offset] was added
          } else {
            if index == nil {
              var ids = [UUID: Int](minimumCapacity: old.count)
              for (offset, item) in old.enumerated() { ids[item.id] = offset }
              index = ids
            }
            result.append(index![id] ?? -1)
          }
        }
      }
    }
    return result
  }

  /// Writes `stamps` as the elements of the open `"items"` array — the text of the last
  /// write for those unchanged (`matches` from ``matches(for:)``), the others anew — and keeps
  /// them for the next write.
  @_specialize(where List == TodosStore.State)
  @_specialize(where List == WorkoutsStore.State)
  func writeStamps(
    _ stamps: [ItemStamps], matches: [Int], names: [[UInt8]], to writer: inout JSONWriter
  ) {
    self.stamps = self.stamps.writing(
      stamps, matches: matches, to: &writer, isSame: hasSameBits
    ) { stamps, text in
      // Letters, digits, `.`, `=` and spaces: nothing to escape.
      text.append(UInt8(ascii: "\""))
      stamps.pointee.append(names: names, to: &text)
      text.append(UInt8(ascii: "\""))
    }
  }

  /// Writes `items` as the file's list, the array from `[` to `]`, as
  /// ``writeStamps(_:matches:names:to:)`` writes their stamps.
  ///
  /// - Throws: A ``JSONCodingError`` at the item's index when an item cannot be written.
  @_specialize(where List == TodosStore.State)
  @_specialize(where List == WorkoutsStore.State)
  func writeItems(
    _ items: [List.Item], matches: [Int], to writer: inout JSONWriter
  ) throws(JSONCodingError) {
    writer.beginArray()
    var encoder = JSONWriter(depth: writer.depth)
    var failure: JSONCodingError?
    let written = self.items.writing(
      items, matches: matches, to: &writer, isSame: List.hasSameBits
    ) { item, text in
      guard failure == nil else { return }
      encoder.removeAll()
      do throws(JSONCodingError) {
        try List.Item.write(item, to: &encoder)
      } catch {
        failure = error.at(.index(items.withUnsafeBufferPointer { item - $0.baseAddress! }))
      }
      encoder.withWrittenBytes { text.append(contentsOf: $0) }
    }
    if let failure { throw failure }
    writer.endArray()
    self.items = written
  }
}

/// Values as a list file last held them, each with its text there.
private struct Texts<Value> {
  var values: [Value] = []
  /// The text of each value, one after another, and where each one ends.
  var text: [UInt8] = []
  var ends: [Int] = []
  /// How many values' text the write that made these copied from the one before.
  var reused = 0

  /// Writes `values` as elements of `writer`'s open array, and returns them with their text:
  /// for each value that is bit for bit (`isSame`) the one `matches` names here (-1: none),
  /// the text it had; for the others, what `encode` appends. O(*n*) in the length of the text.
  @inline(__always)
  func writing(
    _ values: [Value], matches: [Int], to writer: inout JSONWriter,
    isSame: (UnsafePointer<Value>, UnsafePointer<Value>) -> Bool,
    encode: (UnsafePointer<Value>, inout [UInt8]) -> Void
  ) -> Texts {
    var result = Texts(values: values)
    result.text.reserveCapacity(text.count + 256)
    result.ends.reserveCapacity(values.count)
    values.withUnsafeBufferPointer { new in
      self.values.withUnsafeBufferPointer { old in
        text.withUnsafeBufferPointer { oldText in
          ends.withUnsafeBufferPointer { oldEnds in
            matches.withUnsafeBufferPointer { matches in
              for offset in new.indices {
                let match = matches[offset]
                writer.element()
                if match >= 0, match < old.count,
                  isSame(new.baseAddress! + offset, old.baseAddress! + match)
                {
                  let from = match == 0 ? 0 : oldEnds[match - 1]
                  let text = UnsafeBufferPointer(rebasing: oldText[from..<oldEnds[match]])
                  writer.writeWritten(text)
                  result.text.append(contentsOf: text)
                  result.reused += 1
                } else {
                  let start = result.text.count
                  encode(new.baseAddress! + offset, &result.text)
                  result.text.withUnsafeBufferPointer {
                    writer.writeWritten(UnsafeBufferPointer(rebasing: $0[start...]))
                  }
                }
                result.ends.append(result.text.count)
              }
            }
          }
        }
      }
    }
    return result
  }
}

/// Whether the values at `a` and `b` are the same bits: for a value without padding between
/// its fields (``ItemStamps``, ``Stamp``; a test checks them), the same value while one of
/// them is held — the strings and arrays they point to cannot change then (see
/// ``EncodedList``). O(1): the characters of a string are not compared.
@inline(__always)
func hasSameBits<Value>(_ a: UnsafePointer<Value>, _ b: UnsafePointer<Value>) -> Bool {
  memcmp(a, b, MemoryLayout<Value>.size) == 0
}

/// Whether the `field`s of the values at `a` and `b` are the same bits (see
/// ``hasSameBits(_:_:)``): for a value with padding, compared field by field; the key path
/// is a constant, its offset folded when the code is optimised.
@inline(__always)
func hasSameBits<Value, Field>(
  _ a: UnsafePointer<Value>, _ b: UnsafePointer<Value>, at field: KeyPath<Value, Field>
) -> Bool {
  let offset = MemoryLayout<Value>.offset(of: field)!
  return memcmp(
    UnsafeRawPointer(a) + offset, UnsafeRawPointer(b) + offset, MemoryLayout<Field>.size) == 0
}
