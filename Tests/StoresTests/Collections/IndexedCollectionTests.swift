import Stores
import Testing

@Suite("IndexedCollection")
struct IndexedCollectionTests {
  @Test("pairs each index of an array with its element")
  func array() {
    let pairs = ["a", "b", "c"].indexed().map { ($0.index, $0.element) }
    #expect(pairs.map(\.0) == [0, 1, 2])
    #expect(pairs.map(\.1) == ["a", "b", "c"])
  }

  @Test("uses the slice's own indices, not offsets")
  func sliceStartingAtFive() {
    let slice = Array(0..<10)[5..<8]
    let indexed = slice.indexed()
    #expect(indexed.map(\.index) == [5, 6, 7])
    #expect(indexed.map(\.element) == [5, 6, 7])
    #expect(indexed.startIndex == 5)
    #expect(indexed[6].element == 6)
    for (index, element) in indexed { #expect(slice[index] == element) }
  }

  @Test("works with String, Substring, Dictionary and Set indices")
  func nonIntegerIndices() {
    let word = "héllo👋🏽"
    let indexed = word.indexed()
    #expect(indexed.count == 6)
    #expect(indexed.map(\.element) == Array(word))
    for (index, character) in indexed { #expect(word[index] == character) }
    #expect(indexed.last?.element == "👋🏽")

    let substring = word.dropFirst(2)
    #expect(substring.indexed().map(\.element) == Array("llo👋🏽"))
    #expect(substring.indexed().first?.index == substring.startIndex)

    let dictionary = ["one": 1, "two": 2, "three": 3]
    for (index, element) in dictionary.indexed() { #expect(dictionary[index] == element) }
    #expect(dictionary.indexed().count == 3)

    let set: Set = [3, 1, 4]
    #expect(Set(set.indexed().map { set[$0.index] }) == set)
  }

  @Test("an empty collection gives nothing")
  func empty() {
    let empty = [Int]().indexed()
    #expect(empty.isEmpty)
    #expect(empty.count == 0)
    #expect(empty.startIndex == empty.endIndex)
    #expect(Array(empty).isEmpty)
  }

  @Test("is bidirectional and random-access when the base is")
  func traversal() {
    let indexed = [10, 20, 30, 40].indexed()
    #expect(indexed.reversed().map(\.element) == [40, 30, 20, 10])
    #expect(indexed.index(before: 3) == 2)
    #expect(indexed.index(0, offsetBy: 3) == 3)
    #expect(indexed.index(0, offsetBy: 5, limitedBy: 4) == nil)
    #expect(indexed.index(0, offsetBy: 4, limitedBy: 4) == 4)
    #expect(indexed.distance(from: 1, to: 4) == 3)
    #expect(indexed.indices == 0..<4)
    #expect(indexed.base == [10, 20, 30, 40])

    let characters = "abc".indexed()
    #expect(characters.reversed().map(\.element) == ["c", "b", "a"])
    requireRandomAccess(indexed)
    requireBidirectional(characters)
  }

  @Test("index and element types are the base's")
  func types() {
    let indexed = "ab".indexed()
    let index: String.Index = indexed.startIndex
    let element: (index: String.Index, element: Character) = indexed[index]
    #expect(element.element == "a")
    requireSendable(indexed)
  }

  @Test("finds first and last pairs, whose indices subscript the base (swift-algorithms' cases)")
  func firstAndLast() throws {
    let letters = "ABCDEFGHIJKLMNOP"
    let indexed = letters.indexed()
    #expect(try #require(indexed.first).index == letters.startIndex)
    #expect(try #require(indexed.first).element == "A")
    #expect(try #require(indexed.last).index == letters.index(before: letters.endIndex))
    #expect(try #require(indexed.last).element == "P")
    #expect(letters[try #require(indexed.first { $0.element == "G" }).index] == "G")
    #expect(letters[try #require(indexed.last { $0.element == "I" }).index] == "I")
  }

  @Test("over a lazy base it is lazy: map and filter compute nothing until iterated")
  func lazy() {
    let lazy = "ABCD".lazy.indexed()
    requireLazy(lazy)
    var calls = 0
    let mapped = [1, 2, 3].lazy.indexed().map { pair in
      calls += 1
      return pair.element * 10
    }
    #expect(calls == 0)
    #expect(Array(mapped) == [10, 20, 30])
    #expect(calls == 3)
    #expect(String(lazy.map(\.element)) == "ABCD")
  }

  private func requireLazy<C: LazyCollectionProtocol>(_: C) {}
  private func requireRandomAccess<C: RandomAccessCollection>(_: C) {}
  private func requireBidirectional<C: BidirectionalCollection>(_: C) {}
  private func requireSendable<C: Sendable>(_: C) {}
}
