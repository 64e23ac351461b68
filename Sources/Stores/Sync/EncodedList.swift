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
  /// The items of the last write, in order, with their text as elements of the list.
  private var items = Texts<List.Item>()
  /// Their stamps, with their text as elements of `"items"`.
  private var stamps = Texts<ItemStamps>()
  /// How many items' text, and how many items' stamps' text, the last write copied.
  package var reused: (items: Int, stamps: Int) { (items.reused, stamps.reused) }

  package init() {}

  /// For each item of `list`, the offset of the item with its id in the last write, or -1
  /// when it was not in it (or, moved, is not looked for: its text is then made anew). O(*n*): the two lists are walked together while their ids agree, an
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

/// Values as a list file last held them, with their text there: the elements of an array,
/// each after its separator (a line break, after a comma but for the first, and the
/// indentation), as ``JSONWriter/element()`` and the value write them.
private struct Texts<Value> {
  var values: [Value] = []
  /// The text of the elements, one after another, and where each value's text ends.
  var text: [UInt8] = []
  var ends: [Int] = []
  /// The indentation of the elements.
  var indentation = 0
  /// How many values' text the write that made these copied from the one before.
  var reused = 0

  /// Where the text of the value at `offset` is, after its separator.
  @inline(__always)
  func span(_ offset: Int, ends: UnsafeBufferPointer<Int>) -> Range<Int> {
    (offset == 0 ? 1 + indentation : ends[offset - 1] + 2 + indentation)..<ends[offset]
  }

  /// Writes `values` as the elements of `writer`'s open array, which is empty, and returns
  /// them with their text: for each value that is bit for bit (`isSame`) the one `matches`
  /// names here (-1: none), the text it had; for the others, what `encode` appends. The
  /// values encoded anew first, then the text in one piece: O(*n*) in its length, in one copy
  /// of the text kept (and one to the writer).
  @inline(__always)
  func writing(
    _ values: [Value], matches: [Int], to writer: inout JSONWriter,
    isSame: (UnsafePointer<Value>, UnsafePointer<Value>) -> Bool,
    encode: (UnsafePointer<Value>, inout [UInt8]) -> Void
  ) -> Texts {
    var result = Texts(values: values, indentation: 2 * writer.depth)
    let reusable = result.indentation == indentation
    // The offset in the text here of each value's text, or -1, then the values' lengths.
    var sources = [Int](repeating: -1, count: values.count)
    var lengths = [Int](repeating: 0, count: values.count)
    var fresh: [UInt8] = []
    values.withUnsafeBufferPointer { new in
      self.values.withUnsafeBufferPointer { old in
        ends.withUnsafeBufferPointer { oldEnds in
          for offset in new.indices {
            let match = matches[offset]
            if reusable, match >= 0, match < old.count,
              isSame(new.baseAddress! + offset, old.baseAddress! + match)
            {
              let span = span(match, ends: oldEnds)
              (sources[offset], lengths[offset]) = (span.lowerBound, span.count)
              result.reused += 1
            } else {
              let start = fresh.count
              encode(new.baseAddress! + offset, &fresh)
              lengths[offset] = fresh.count - start
            }
          }
        }
      }
    }
    let separators = values.isEmpty ? 0 : values.count * (2 + result.indentation) - 1
    let total = lengths.reduce(separators, +)
    result.ends = [Int](repeating: 0, count: values.count)
    result.text = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
      text.withUnsafeBufferPointer { oldText in
        fresh.withUnsafeBufferPointer { fresh in
          let output = buffer.baseAddress!
          var freshStart = 0
          for offset in values.indices {
            if offset > 0 {
              output[count] = UInt8(ascii: ",")
              count += 1
            }
            output[count] = UInt8(ascii: "\n")
            (output + count + 1).initialize(repeating: UInt8(ascii: " "), count: result.indentation)
            count += 1 + result.indentation
            let length = lengths[offset]
            if sources[offset] >= 0 {
              (output + count).initialize(
                from: oldText.baseAddress! + sources[offset], count: length)
            } else {
              (output + count).initialize(from: fresh.baseAddress! + freshStart, count: length)
              freshStart += length
            }
            count += length
            result.ends[offset] = count
          }
        }
      }
    }
    result.text.withUnsafeBufferPointer { writer.writeElements($0, count: values.count) }
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
