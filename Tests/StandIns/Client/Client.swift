import AlgorithmsStandIn
import Foundation
import Stores
import SwiftUIStandIn

// An app's file that imports Stores beside SwiftUI and swift-algorithms (here their
// stand-ins) and calls the operations they all declare: it compiles, and the platform's own
// operations are the ones that run.

/// What the calls gave, and which module served them.
public struct CollisionResults: Equatable, Sendable {
  public var removed: [String]
  public var moved: [String]
  public var indexed: [Int]
  /// How many of the two offset calls SwiftUI's stand-in served.
  public var swiftUICalls: Int
  /// Whether `indexed()` gave the Algorithms stand-in's collection.
  public var algorithmsServedIndexed: Bool
}

public func collideWithThePlatform(_ letters: [String]) -> CollisionResults {
  let callsBefore = swiftUICalls.value
  var removed = letters
  removed.remove(atOffsets: [1, 3])
  var moved = letters
  moved.move(fromOffsets: [0, 2], toOffset: letters.count)
  let pairs = letters.indexed()
  return CollisionResults(
    removed: removed, moved: moved, indexed: pairs.map(\.index),
    swiftUICalls: swiftUICalls.value - callsBefore,
    algorithmsServedIndexed: type(of: pairs) == AlgorithmsStandIn.IndexedCollection<[String]>.self)
}
