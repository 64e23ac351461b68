import Foundation

// SwiftUI's `remove(atOffsets:)` and `move(fromOffsets:toOffset:)`, with the same signatures
// and results, for every platform. They are disfavoured overloads: where SwiftUI is imported
// too, a call picks SwiftUI's (no "ambiguous use"), and elsewhere these serve alone, so code
// written for SwiftUI compiles and behaves the same on Linux.

extension RangeReplaceableCollection where Self: MutableCollection {
  /// Removes the elements at `offsets`, keeping the others in their order.
  ///
  /// ```swift
  /// var letters = Array("abcdef")
  /// letters.remove(atOffsets: [1, 2, 4])   // ["a", "d", "f"]
  /// ```
  ///
  /// - Parameter offsets: Offsets from the start (0 is the first element, whatever the
  ///   collection's indices are). An empty set removes nothing.
  /// - Precondition: Every offset is in `0..<count`; an offset out of range traps, as
  ///   `remove(at:)` does. Validate offsets that come from outside first.
  /// - Complexity: O(*n*) for a collection of *n* elements, in one pass that moves each
  ///   kept element at most once, whatever the number of offsets.
  @inlinable @_disfavoredOverload
  public mutating func remove(atOffsets offsets: IndexSet) {
    guard let last = offsets.last else { return }
    let count = self.count
    precondition(
      last < count,
      "remove(atOffsets:): offset \(last) is out of range for a collection of \(count) elements")
    let keptCount =
      withContiguousMutableStorageIfAvailable { $0.compactRemoving(offsets) }
      ?? compactRemoving(offsets)
    removeSubrange(index(startIndex, offsetBy: keptCount)...)
  }
}

extension MutableCollection {
  /// Moves the elements at `offsets` to `destination`, keeping their relative order.
  ///
  /// `destination` is a position in the collection *before* the move: the moved elements
  /// end up just before the element that was at `destination` (or at the end when it is
  /// `count`). Of the other elements, those before `destination` close up toward the start
  /// and the rest toward the end; all of them keep their order. This is SwiftUI's
  /// `move(fromOffsets:toOffset:)`:
  ///
  /// ```swift
  /// var letters = Array("ABcDefgHIJKlmNO")
  /// letters.move(fromOffsets: [2, 4, 5, 6, 11, 12], toOffset: 2)   // "ABcefglmDHIJKNO"
  /// letters = Array("ABcDefgHIJKlmNO")
  /// letters.move(fromOffsets: [2, 4, 5, 6, 11, 12], toOffset: 15)  // "ABDHIJKNOcefglm"
  /// ```
  ///
  /// Moving one element to its own offset or to the next one changes nothing, and so does
  /// an empty set of offsets.
  ///
  /// - Precondition: Every offset is in `0..<count` and `destination` is in `0...count`;
  ///   anything out of range traps. Validate offsets that come from outside first.
  /// - Complexity: O(*n*) for a collection of *n* elements, in one pass, plus O(*m*) extra
  ///   memory for the *m* moved elements.
  @inlinable @_disfavoredOverload
  public mutating func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
    let count = self.count
    precondition(
      (0...count).contains(destination),
      "move(fromOffsets:toOffset:): destination \(destination) is out of range 0...\(count)")
    guard let last = offsets.last else { return }
    precondition(
      last < count,
      "move(fromOffsets:toOffset:): offset \(last) is out of range for a collection of "
        + "\(count) elements")
    if withContiguousMutableStorageIfAvailable({ $0.moveInPlace(offsets, to: destination) })
      == nil
    {
      // Not contiguous: rearrange a copy, then write it back. Still O(n).
      var elements = Array(self)
      elements.withUnsafeMutableBufferPointer { $0.moveInPlace(offsets, to: destination) }
      var position = startIndex
      for element in elements {
        self[position] = element
        formIndex(after: &position)
      }
    }
  }
}

extension MutableCollection {
  /// Moves every element whose offset is not in `offsets` to the front, in order, and
  /// returns how many there are. The elements at `offsets` end up after them, in no
  /// particular order. Offsets must be in range.
  ///
  /// - Complexity: O(*n*): at most one swap per element after the first offset.
  @inlinable
  mutating func compactRemoving(_ offsets: IndexSet) -> Int {
    guard let first = offsets.first else { return count }
    var write = index(startIndex, offsetBy: first)
    var writeOffset = first
    var read = write
    var readOffset = first
    for removed in offsets.rangeView {
      while readOffset < removed.lowerBound {
        swapAt(write, read)
        formIndex(after: &write)
        writeOffset += 1
        formIndex(after: &read)
        readOffset += 1
      }
      read = index(read, offsetBy: removed.count)
      readOffset = removed.upperBound
    }
    while read != endIndex {
      swapAt(write, read)
      formIndex(after: &write)
      writeOffset += 1
      formIndex(after: &read)
    }
    return writeOffset
  }
}

extension UnsafeMutableBufferPointer {
  /// `compactRemoving(_:)` on contiguous storage: each run of kept elements moves down in one
  /// block move (short runs element by element), as a hand-written compaction does. Elements
  /// that need no reference counting are simply moved over; others have the removed elements
  /// moved aside first and put back after the kept ones.
  ///
  /// - Complexity: O(*n*), plus O(*m*) extra memory for *m* removed elements that are not
  ///   trivial.
  @inlinable
  func compactRemoving(_ offsets: IndexSet) -> Int {
    guard let first = offsets.first, let base = baseAddress else { return count }
    let isTrivial = _isPOD(Element.self)
    let aside = UnsafeMutablePointer<Element>.allocate(capacity: isTrivial ? 0 : offsets.count)
    defer { aside.deallocate() }
    var asideCount = 0
    var write = first
    var read = first
    for removed in offsets.rangeView {
      Self.moveRun(base, from: read, to: write, count: removed.lowerBound - read)
      write += removed.lowerBound - read
      if !isTrivial {
        (aside + asideCount).moveInitialize(from: base + removed.lowerBound, count: removed.count)
        asideCount += removed.count
      }
      read = removed.upperBound
    }
    Self.moveRun(base, from: read, to: write, count: count - read)
    write += count - read
    if !isTrivial {
      (base + write).moveInitialize(from: aside, count: asideCount)
    }
    return write
  }

  /// The body of `move(fromOffsets:toOffset:)`, for arguments already checked.
  ///
  /// The moved elements go aside; the runs that stay close up around the destination in one
  /// block move each — those before it toward the start, the others toward the end — and the
  /// moved ones fill the gap between them, in order.
  @inlinable
  func moveInPlace(_ offsets: IndexSet, to destination: Int) {
    guard let base = baseAddress, !offsets.isEmpty else { return }
    let moved = UnsafeMutablePointer<Element>.allocate(capacity: offsets.count)
    defer { moved.deallocate() }
    var movedCount = 0
    for range in offsets.rangeView {
      Self.moveRun(base, from: range.lowerBound, into: moved + movedCount, count: range.count)
      movedCount += range.count
    }

    // Before the destination: close up toward the start.
    var write = 0
    var read = 0
    for range in offsets.rangeView where range.lowerBound < destination {
      Self.moveRun(base, from: read, to: write, count: range.lowerBound - read)
      write += range.lowerBound - read
      read = range.upperBound
    }
    if read < destination {
      Self.moveRun(base, from: read, to: write, count: destination - read)
      write += destination - read
    }
    let gapStart = write

    // From the destination on: close up toward the end.
    var end = count
    var upper = count
    for range in offsets.rangeView.reversed() where range.upperBound > destination {
      let run = upper - range.upperBound
      Self.moveRun(base, from: range.upperBound, to: end - run, count: run)
      end -= run
      upper = Swift.max(range.lowerBound, destination)
    }
    if upper > destination {
      let run = upper - destination
      Self.moveRun(base, from: destination, to: end - run, count: run)
    }

    (base + gapStart).moveInitialize(from: moved, count: movedCount)
  }

  /// Moves the `count` elements at `source` to `destination` in the same buffer (the
  /// regions may overlap; the destination's elements must be moved out or trivial): in one
  /// block move, or element by element for a short run, where a call costs more than it
  /// saves.
  @inlinable @inline(__always)
  static func moveRun(
    _ base: UnsafeMutablePointer<Element>, from source: Int, to destination: Int, count: Int
  ) {
    guard count > 0, source != destination else { return }
    if count >= 16 {
      (base + destination).moveInitialize(from: base + source, count: count)
    } else if destination < source {
      for k in 0..<count {
        (base + destination + k).initialize(to: (base + source + k).move())
      }
    } else {
      for k in (0..<count).reversed() {
        (base + destination + k).initialize(to: (base + source + k).move())
      }
    }
  }

  /// Moves the `count` elements at `source` into the separate memory at `destination`.
  @inlinable @inline(__always)
  static func moveRun(
    _ base: UnsafeMutablePointer<Element>, from source: Int,
    into destination: UnsafeMutablePointer<Element>, count: Int
  ) {
    if count >= 16 {
      destination.moveInitialize(from: base + source, count: count)
    } else {
      for k in 0..<count {
        (destination + k).initialize(to: (base + source + k).move())
      }
    }
  }
}

extension IndexSet {
  /// The offsets that are valid in a collection of `count` elements: the set itself when
  /// all are (no allocation, the common case), else its intersection with `0..<count`.
  func valid(forCount count: Int) -> IndexSet {
    guard let first, let last, first < 0 || last >= count else { return self }
    return intersection(IndexSet(integersIn: 0..<Swift.max(count, 0)))
  }
}
