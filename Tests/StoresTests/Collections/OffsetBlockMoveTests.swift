import Foundation
import StoreTesting
import Stores
import Testing

/// The offset operations on contiguous storage move runs of elements in blocks: long runs,
/// short runs, elements that are trivial (`Int`) and elements that are reference counted
/// (`String`, class instances), all against the reference models.
@Suite("Offset operations in blocks")
struct OffsetBlockMoveTests {
  /// A count up to 300 — runs of 16 and more are moved in one block — offsets into it and a
  /// destination in `0...count`.
  static let layouts = Gen<Int>.integer(in: 0...300).flatMap { count in
    Gen.zip(Gen.offsets(in: count), Gen<Int>.integer(in: 0...count)).map { (count, $0.0, $0.1) }
  }

  @Test("Int elements: the same result as the reference models")
  func trivialElements() {
    check(Self.layouts, iterations: 300) { count, offsets, destination in
      let array = Array(0..<count)
      var removed = array
      removed.remove(atOffsets: offsets)
      var moved = array
      moved.move(fromOffsets: offsets, toOffset: destination)
      try requireEqual(removed, OffsetReference.remove(array, atOffsets: offsets))
      try requireEqual(
        moved, OffsetReference.move(array, fromOffsets: offsets, toOffset: destination))
    }
  }

  @Test("String elements: the same result as the reference models")
  func countedElements() {
    check(Self.layouts, iterations: 300) { count, offsets, destination in
      let array = (0..<count).map { "element \($0), long enough to live on the heap" }
      var removed = array
      removed.remove(atOffsets: offsets)
      var moved = array
      moved.move(fromOffsets: offsets, toOffset: destination)
      try requireEqual(removed, OffsetReference.remove(array, atOffsets: offsets))
      try requireEqual(
        moved, OffsetReference.move(array, fromOffsets: offsets, toOffset: destination))
    }
  }

  /// Counts the instances alive.
  final class Tracked: @unchecked Sendable {
    nonisolated(unsafe) static var alive = 0
    let number: Int

    init(_ number: Int) {
      self.number = number
      Self.alive += 1
    }

    deinit {
      Self.alive -= 1
    }
  }

  @Test("class elements: removed ones are released once, moved ones kept, none leaked")
  func referenceCounts() {
    check(Self.layouts, iterations: 200) { count, offsets, destination in
      Tracked.alive = 0
      do {
        var removed = (0..<count).map(Tracked.init)
        removed.remove(atOffsets: offsets)
        try requireEqual(Tracked.alive, count - offsets.count, "alive after removing")
        try requireEqual(
          removed.map(\.number), OffsetReference.remove(Array(0..<count), atOffsets: offsets))
      }
      try requireEqual(Tracked.alive, 0, "alive after releasing the array")
      do {
        var moved = (0..<count).map(Tracked.init)
        moved.move(fromOffsets: offsets, toOffset: destination)
        try requireEqual(Tracked.alive, count, "alive after moving")
        try requireEqual(
          moved.map(\.number),
          OffsetReference.move(Array(0..<count), fromOffsets: offsets, toOffset: destination))
      }
      try requireEqual(Tracked.alive, 0, "alive after releasing the array")
    }
  }
}
