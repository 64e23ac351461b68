import Foundation
import Stores
import Testing

@Suite("Offset operations")
struct OffsetOperationsTests {
  // Apple's documented example for move(fromOffsets:toOffset:).
  static let appleLetters = Array("ABcDefgHIJKlmNO")
  static let lowercaseOffsets = IndexSet(
    appleLetters.indices.filter { appleLetters[$0].isLowercase })

  @Test("Apple's example: lowercase letters moved to 2 and to 15")
  func appleExample() {
    var letters = Self.appleLetters
    letters.move(fromOffsets: Self.lowercaseOffsets, toOffset: 2)
    #expect(String(letters) == "ABcefglmDHIJKNO")
    letters = Self.appleLetters
    letters.move(fromOffsets: Self.lowercaseOffsets, toOffset: 15)
    #expect(String(letters) == "ABDHIJKNOcefglm")
  }

  @Test("moving one element to its own offset or the next is a no-op")
  func singleElementNoOp() {
    for offset in 0..<5 {
      for destination in [offset, offset + 1] {
        var numbers = Array(0..<5)
        numbers.move(fromOffsets: [offset], toOffset: destination)
        #expect(numbers == Array(0..<5))
      }
    }
  }

  @Test("toOffset counts positions before the move")
  func destinationBeforeTheMove() {
    var numbers = Array(0..<5)
    numbers.move(fromOffsets: [0], toOffset: 3)
    #expect(numbers == [1, 2, 0, 3, 4])
    numbers = Array(0..<5)
    numbers.move(fromOffsets: [4], toOffset: 0)
    #expect(numbers == [4, 0, 1, 2, 3])
    numbers = Array(0..<5)
    numbers.move(fromOffsets: [1, 3], toOffset: 5)
    #expect(numbers == [0, 2, 4, 1, 3])
    numbers = Array(0..<6)
    numbers.move(fromOffsets: [1, 2, 3, 4], toOffset: 3)
    #expect(numbers == [0, 1, 2, 3, 4, 5])
  }

  @Test("empty offsets change nothing")
  func emptyOffsets() {
    var numbers = [3, 1, 2]
    numbers.move(fromOffsets: [], toOffset: 1)
    numbers.remove(atOffsets: [])
    #expect(numbers == [3, 1, 2])
    var empty: [Int] = []
    empty.move(fromOffsets: [], toOffset: 0)
    empty.remove(atOffsets: [])
    #expect(empty.isEmpty)
  }

  @Test("remove keeps the other elements in order")
  func removeExamples() {
    var letters = Array("abcdef")
    letters.remove(atOffsets: [1, 2, 4])
    #expect(String(letters) == "adf")
    letters = Array("abcdef")
    letters.remove(atOffsets: IndexSet(integersIn: 0..<6))
    #expect(letters.isEmpty)
    letters = Array("abcdef")
    letters.remove(atOffsets: [0, 5])
    #expect(String(letters) == "bcde")
  }

  @Test("works on slices, strings of elements and non-contiguous collections")
  func otherCollections() {
    var slice = Array(0..<10)[4..<9]
    slice.remove(atOffsets: [0, 2])
    #expect(Array(slice) == [5, 7, 8])
    #expect(slice.startIndex == 4)

    var moved = Array(0..<10)[4..<9]
    moved.move(fromOffsets: [0, 1], toOffset: 5)
    #expect(Array(moved) == [6, 7, 8, 4, 5])

    var bits = NonContiguous(Array("ABcDefgHIJKlmNO"))
    bits.move(fromOffsets: Self.lowercaseOffsets, toOffset: 2)
    #expect(String(bits.storage) == "ABcefglmDHIJKNO")
  }

  @Test("class elements survive with the right reference counts")
  func referenceElements() {
    final class Box {}
    let boxes = (0..<8).map { _ in Box() }
    var moved = boxes
    moved.move(fromOffsets: [1, 2, 6], toOffset: 4)
    #expect(
      moved.map { ObjectIdentifier($0) }
        == [0, 3, 1, 2, 6, 4, 5, 7].map { ObjectIdentifier(boxes[$0]) })
    var removed = boxes
    removed.remove(atOffsets: [0, 7])
    #expect(removed.map { ObjectIdentifier($0) } == boxes[1..<7].map { ObjectIdentifier($0) })
    weak let dropped = moved[0]
    moved = []
    removed = []
    #expect(dropped != nil)  // still held by `boxes`
  }

  @Test("an offset out of range traps")
  func removeOutOfRange() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      var numbers = [1, 2, 3]
      numbers.remove(atOffsets: [1, 3])
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("offset 3 is out of range for a collection of 3 elements"))
  }

  @Test("a move offset out of range traps")
  func moveOffsetOutOfRange() async {
    await #expect(processExitsWith: .failure) {
      var numbers = [1, 2, 3]
      numbers.move(fromOffsets: [3], toOffset: 0)
    }
  }

  @Test("a destination out of range traps")
  func moveDestinationOutOfRange() async {
    await #expect(processExitsWith: .failure) {
      var numbers = [1, 2, 3]
      numbers.move(fromOffsets: [0], toOffset: 4)
    }
  }
}

/// A mutable collection without contiguous storage, to exercise the generic paths.
struct NonContiguous<Element>: MutableCollection, RangeReplaceableCollection {
  var storage: [Element]
  init() { storage = [] }
  init(_ elements: [Element]) { storage = elements }
  var startIndex: Int { storage.startIndex }
  var endIndex: Int { storage.endIndex }
  func index(after i: Int) -> Int { i + 1 }
  subscript(position: Int) -> Element {
    get { storage[position] }
    set { storage[position] = newValue }
  }
  mutating func replaceSubrange<C: Collection<Element>>(_ range: Range<Int>, with new: C) {
    storage.replaceSubrange(range, with: new)
  }
}
