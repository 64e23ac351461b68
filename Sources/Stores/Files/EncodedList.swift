import Foundation

/// The text of a list file's items and of their stamps as a backing last wrote them, so that
/// its next write copies the text of each item that did not change instead of encoding it
/// again: a write after an action that changed *k* of *n* items encodes *k* items and copies
/// the others' bytes, O(*n*) in the size of the file with a small constant.
///
/// An item's text is reused when the item is the one written before bit for bit (see
/// ``FieldTable/hasSameBits(_:_:)``), and so are its stamps. The list holds the values it
/// wrote, so that the strings and arrays they point to stay alive, unchanged: the same bits
/// are then the same value, written the same. A value equal but not identical (read again
/// from the file) is encoded again, never taken for another — so the bytes are always those
/// a fresh encoding writes. The stamps it wrote it may lend to their holder, to be changed in
/// place (see ``lendStamps(_:)``): it then holds them no longer, and takes those their holder
/// did not say it changed as they were.
///
/// Kept by a ``JSONFileBacking`` between its writes (about the file's size in memory), unless
/// the backing was opened to keep none (a process that writes once, such as `diary`).
package final class EncodedList<List: SyncedList> {
  /// The items of the last write, in order, with their text as elements of the list.
  private var items = Texts<List.Item>()
  /// Their stamps, with their text as elements of `"items"`.
  private var stamps = Texts<ItemStamps>()
  /// How many items' text, and how many items' stamps' text, the last write copied.
  package var reused: (items: Int, stamps: Int) { (items.reused, stamps.reused) }
  /// The stamps of the last write, lent to be changed in place (see ``lendStamps(_:)``): once
  /// their holder said what it changed, the offsets, and the stamps they are now (`nil`
  /// before). `nil` when none are lent.
  private var lent: (changed: Set<Int>, stamps: [ItemStamps]?)?
  #if DEBUG
    /// The stamps lent, as they were: a debug build checks that each one the next write
    /// takes as unchanged is.
    private var lentValues: [ItemStamps] = []
  #endif
  /// Whether each item of the list a write is writing is, bit for bit, the item of the last
  /// write its match names (see ``matches(for:)``): found by whichever of
  /// ``writeStamps(_:of:matches:names:to:)`` and ``writeItems(_:matches:to:)`` a write calls
  /// first (the order of the file's keys decides), for the other — which comes after the
  /// items of the last write were replaced, or so that it does not compare them again. With
  /// the list: for that very list only (the same buffer).
  private var sameItems: (list: [List.Item], same: [Bool])?

  package init() {}

  /// Lets go of the stamps of the last write when `stamps` are they — the same buffer, not
  /// only equal stamps — so that their holder can change them in place, with no copy; returns
  /// whether it did. The holder changes them in their places and says which
  /// (``lentStampsChanged(at:in:)``): the next write of these very stamps takes each other
  /// one whose item is the one written before, in the same place, as it was, without
  /// comparing it (a debug build checks). When that write fails or does not come, the holder
  /// has this list forget their text (``forgetLentStamps()``).
  func lendStamps(_ stamps: [ItemStamps]) -> Bool {
    guard lent == nil, !stamps.isEmpty, Self.isBuffer(stamps, of: self.stamps.values) else {
      return false
    }
    #if DEBUG
      lentValues = self.stamps.values
    #endif
    self.stamps.values = []
    lent = ([], nil)
    return true
  }

  /// Records that the stamps lent (see ``lendStamps(_:)``) are now `stamps`, changed in place
  /// at `offsets` and nowhere else — also where an item equal to none but itself (a `nan`)
  /// kept its bits. O(changes).
  func lentStampsChanged(at offsets: [Int], in stamps: [ItemStamps]) {
    guard lent != nil else { return }
    lent = (Set(offsets), stamps)
  }

  /// Forgets the text of the stamps lent (see ``lendStamps(_:)``) unless a write took them
  /// back since: the next write encodes every item's stamps.
  func forgetLentStamps() {
    guard lent != nil else { return }
    lent = nil
    stamps = Texts()
    #if DEBUG
      lentValues = []
    #endif
  }

  /// For each item of `list`, whether it is bit for bit the item of the last write,
  /// `last`, that its match names — or what the other call of this write found (see
  /// ``sameItems``), which is kept for it otherwise. O(*n*).
  private func itemsAlike(
    _ list: [List.Item], matches: [Int], last: UnsafeBufferPointer<List.Item>
  ) -> [Bool] {
    if let known = sameItems, Self.isBuffer(list, of: known.list) {
      sameItems = nil
      return known.same
    }
    let table = List.Item.fieldTable
    let same = list.withUnsafeBufferPointer { list in
      list.indices.map { offset in
        let match = matches[offset]
        return match >= 0 && match < last.count
          && table.hasSameBits(list.baseAddress! + offset, last.baseAddress! + match)
      }
    }
    sameItems = (list, same)
    return same
  }

  /// Whether `a` and `b` are one array buffer.
  private static func isBuffer<Element>(_ a: [Element], of b: [Element]) -> Bool {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
    }
  }

  /// For each item of `list`, the offset of the item with its id in the last write, or -1
  /// when it was not in it (or, moved, is not looked for: its text is then made anew). O(*n*): the two lists are walked together while their ids agree, an
  /// item added or removed between them is stepped over, and anything else (a sort, many
  /// removals) is looked up by id, in an index made at the first such item.
  // Specialised for the package's lists (a generic method copies each item through its
  // type's metadata, many times slower): the generic entry dispatches to these.
  @_specialize(where List == TodosStore.State)
  @_specialize(where List == WorkoutsStore.State)
  func matches(for list: [List.Item]) -> [Int] {
    sameItems = nil  // a write begins
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

  /// Writes `stamps`, those of the items of `list`, as the elements of the open `"items"`
  /// array, each with its item's digests — the text of the last write for those unchanged
  /// with their items (`matches` from ``matches(for:)``), the others anew — and keeps them
  /// for the next write.
  @_specialize(where List == TodosStore.State)
  @_specialize(where List == WorkoutsStore.State)
  func writeStamps(
    _ stamps: [ItemStamps], of list: [List.Item], matches: [Int], names: [[UInt8]],
    to writer: inout JSONWriter
  ) {
    var text: [UInt8] = []
    text.reserveCapacity(128)
    var digests = JSONWriter(capacity: 256)
    var previous = self.stamps
    // The stamps lent and changed in place, these very ones: those of unchanged items are
    // taken as they were. Any others: the text of the lent ones cannot be compared with them.
    var changedSinceLent: Set<Int>?
    if let lent {
      let isLent = lent.stamps.map { Self.isBuffer(stamps, of: $0) } ?? false
      if isLent { changedSinceLent = lent.changed } else { previous = Texts() }
      self.lent = nil
    }
    #if DEBUG
      let lentValues = self.lentValues
      self.lentValues = []
    #endif
    let itemsAlike = items.values.withUnsafeBufferPointer {
      self.itemsAlike(list, matches: matches, last: $0)
    }
    self.stamps = stamps.withUnsafeBufferPointer { new in
      list.withUnsafeBufferPointer { list in
        previous.values.withUnsafeBufferPointer { old in
          return previous.writing(
            stamps, matches: matches, to: &writer,
            isSame: { offset, match in
              guard itemsAlike[offset] else { return false }
              guard let changedSinceLent else {
                return hasSameBits(new.baseAddress! + offset, old.baseAddress! + match)
              }
              let isSame = match == offset && !changedSinceLent.contains(offset)
              #if DEBUG
                assert(!isSame || new[offset] == lentValues[match], "lent stamps changed unsaid")
              #endif
              return isSame
            }
          ) { offset, builder in
            // Letters, digits, `.`, `=`, `#` and spaces: nothing to escape.
            text.removeAll(keepingCapacity: true)
            text.append(UInt8(ascii: "\""))
            new[offset].append(names: names, to: &text)
            List.appendDigests(of: list[offset], to: &text, writingWith: &digests)
            text.append(UInt8(ascii: "\""))
            text.withUnsafeBufferPointer { builder.appendBytes($0) }
          }
        }
      }
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
    var failure: JSONCodingError?
    let previous = self.items
    let written = items.withUnsafeBufferPointer { new in
      previous.values.withUnsafeBufferPointer { old in
        let itemsAlike = itemsAlike(items, matches: matches, last: old)
        return previous.writing(
          items, matches: matches, to: &writer, isSame: { offset, _ in itemsAlike[offset] }
        ) { offset, builder in
          guard failure == nil else { return }
          do throws(JSONCodingError) {
            try List.Item.write(new.baseAddress! + offset, to: &builder)
          } catch {
            failure = error.at(.index(offset))
          }
        }
      }
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
  var text = Data()
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
  /// them with their text: for each value that is the one `matches` names here (-1: none),
  /// bit for bit (`isSame` of their offsets in `values` and here), the text it had — a run
  /// of them that followed each other here copied at once; for the others, what `encode`
  /// writes (of the value's offset). The text
  /// is made in one buffer, each value encoded right into it, and handed to `writer` and kept
  /// without a copy: O(*n*) in its length, and the text is held once (a streaming `writer`
  /// sends a long text on as it is) — besides this cache's previous text, while it is copied
  /// from.
  @inline(__always)
  func writing(
    _ values: [Value], matches: [Int], to writer: inout JSONWriter,
    isSame: (Int, Int) -> Bool, encode: (Int, inout JSONWriter) -> Void
  ) -> Texts {
    var result = Texts(values: values, indentation: 2 * writer.depth)
    let reusable = result.indentation == indentation
    // Room for the text copied, at least: growing a large buffer remaps it, never copies it.
    var builder = JSONWriter(
      depth: writer.depth, capacity: (reusable ? text.count : 0) + 64 * values.count)
    // `,`, the line break and the indentation: the separator before each value but the
    // first, which has it without the comma.
    let separator =
      [UInt8](",\n".utf8) + Array(repeating: UInt8(ascii: " "), count: result.indentation)
    result.ends.reserveCapacity(values.count)
    ends.withUnsafeBufferPointer { oldEnds in
      text.withUnsafeBytes { oldText in
        separator.withUnsafeBufferPointer { separator in
          func reusing(_ offset: Int) -> Bool {
            let match = matches[offset]
            return reusable && match >= 0 && match < oldEnds.count && isSame(offset, match)
          }
          var offset = 0
          while offset < values.count {
            builder.appendBytes(
              offset == 0 ? .init(rebasing: separator.dropFirst()) : separator)
            guard reusing(offset) else {
              encode(offset, &builder)
              result.ends.append(builder.byteCount)
              offset += 1
              continue
            }
            // A run of values the same as the ones that followed each other here: their text
            // and the separators between them, the same too, copied at once.
            var last = offset
            while last + 1 < values.count, matches[last + 1] == matches[last] + 1,
              reusing(last + 1)
            {
              last += 1
            }
            let start = span(matches[offset], ends: oldEnds).lowerBound
            let shift = builder.byteCount - start
            builder.appendBytes(
              UnsafeBufferPointer(
                rebasing: oldText.bindMemory(to: UInt8.self)[start..<oldEnds[matches[last]]]))
            for reused in offset...last { result.ends.append(oldEnds[matches[reused]] + shift) }
            result.reused += last - offset + 1
            offset = last + 1
          }
        }
      }
    }
    result.text = builder.finish()
    result.text.withUnsafeBytes {
      writer.writeElements($0.bindMemory(to: UInt8.self), count: values.count)
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
