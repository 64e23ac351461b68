import Foundation
import StoreTesting
import Stores
import Testing

/// Plain, obviously correct reference models of the offset operations.
enum OffsetReference {
  static func remove<Element>(_ elements: [Element], atOffsets offsets: IndexSet) -> [Element] {
    elements.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
  }

  static func move<Element>(
    _ elements: [Element], fromOffsets offsets: IndexSet, toOffset destination: Int
  ) -> [Element] {
    let moved = elements.enumerated().filter { offsets.contains($0.offset) }.map(\.element)
    let before = elements.enumerated()
      .filter { $0.offset < destination && !offsets.contains($0.offset) }.map(\.element)
    let after = elements.enumerated()
      .filter { $0.offset >= destination && !offsets.contains($0.offset) }.map(\.element)
    return before + moved + after
  }
}

@Suite("Collection properties")
struct CollectionPropertyTests {
  static let arrays = Gen<Int>.integer(in: -50...50).array(maxCount: 40)

  /// An array, offsets into it and a destination in `0...count`.
  static let arraysWithOffsets = arrays.flatMap { array in
    Gen.zip(Gen.offsets(in: array.count), Gen<Int>.integer(in: 0...array.count))
      .map { (array, $0.0, $0.1) }
  }

  @Test("indexed() pairs the same indices and elements as zip(indices, self)")
  func indexedMatchesZip() {
    check(Self.arrays) { array in
      Array(array.indexed()).map { "\($0.index):\($0.element)" }
        == zip(array.indices, array).map { "\($0):\($1)" }
    }
  }

  @Test("indexed() on slices with random bounds keeps the slice's indices")
  func indexedSlices() {
    let slices = Self.arrays.flatMap { array in
      Gen.zip(Gen<Int>.integer(in: 0...array.count), Gen<Int>.integer(in: 0...array.count))
        .map { array[min($0.0, $0.1)..<max($0.0, $0.1)] }
    }
    check(slices) { slice in
      slice.indexed().map(\.index) == Array(slice.indices)
        && slice.indexed().map(\.element) == Array(slice)
        && slice.indexed().reversed().map(\.index) == slice.indices.reversed()
    }
  }

  @Test("indexed() on Unicode strings gives each character at its index")
  func indexedStrings() {
    check(Gen<String>.string(maxCount: 30)) { string in
      string.indexed().allSatisfy { string[$0.index] == $0.element }
        && string.indexed().map(\.element) == Array(string)
        && string.indexed().count == string.count
    }
  }

  @Test("remove(atOffsets:) equals the reference model")
  func removeMatchesReference() {
    check(Self.arraysWithOffsets) { array, offsets, _ in
      var removed = array
      removed.remove(atOffsets: offsets)
      return removed == OffsetReference.remove(array, atOffsets: offsets)
    }
  }

  @Test("move(fromOffsets:toOffset:) equals the reference model")
  func moveMatchesReference() {
    check(Self.arraysWithOffsets) { array, offsets, destination in
      var moved = array
      moved.move(fromOffsets: offsets, toOffset: destination)
      return moved == OffsetReference.move(array, fromOffsets: offsets, toOffset: destination)
    }
  }

  @Test("the offset operations agree with the reference on a non-contiguous collection")
  func nonContiguousMatchesReference() {
    check(Self.arraysWithOffsets) { array, offsets, destination in
      var moved = NonContiguous(array)
      moved.move(fromOffsets: offsets, toOffset: destination)
      var removed = NonContiguous(array)
      removed.remove(atOffsets: offsets)
      return moved.storage
        == OffsetReference.move(array, fromOffsets: offsets, toOffset: destination)
        && removed.storage == OffsetReference.remove(array, atOffsets: offsets)
    }
  }
}
