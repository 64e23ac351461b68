import StandInClient
import Stores
import Testing

/// Next to SwiftUI and swift-algorithms, which declare the same operations, an app's code
/// compiles (the module `StandInClient` is such a file) and the platform's own operations
/// run; alone, ours give the same results.
@Suite("Safe next to SwiftUI and swift-algorithms")
struct CollisionTests {
  @Test("the platform's operations are picked, and ours agree with them")
  func platformWins() {
    let letters = ["a", "b", "c", "d", "e"]
    let platform = collideWithThePlatform(letters)
    #expect(platform.swiftUICalls == 2)
    #expect(platform.algorithmsServedIndexed)

    var removed = letters
    removed.remove(atOffsets: [1, 3])
    var moved = letters
    moved.move(fromOffsets: [0, 2], toOffset: letters.count)
    #expect(platform.removed == removed)
    #expect(platform.moved == moved)
    #expect(platform.indexed == letters.indexed().map(\.index))
    #expect(moved == ["b", "d", "e", "a", "c"])
  }
}
