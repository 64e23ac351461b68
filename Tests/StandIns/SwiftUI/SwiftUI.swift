import Foundation

// Stand-ins for SwiftUI's public offset operations, with their exact signatures, so that the
// package's tests prove a file importing both SwiftUI and Stores compiles (no "ambiguous
// use") on Linux, where SwiftUI does not exist. Each call is counted, to show it was picked.

/// How many times the stand-ins ran.
public let swiftUICalls = CallCount()

extension RangeReplaceableCollection where Self: MutableCollection {
  public mutating func remove(atOffsets offsets: IndexSet) {
    swiftUICalls.increment()
    for offset in offsets.reversed() { remove(at: index(startIndex, offsetBy: offset)) }
  }
}

extension MutableCollection {
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    swiftUICalls.increment()
    let elements = Array(self)
    let moved = source.map { elements[$0] }
    let before = elements.indices.filter { $0 < destination && !source.contains($0) }
    let after = elements.indices.filter { $0 >= destination && !source.contains($0) }
    let result = before.map { elements[$0] } + moved + after.map { elements[$0] }
    for (position, element) in zip(indices, result) { self[position] = element }
  }
}

/// A thread-safe counter.
public final class CallCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  public var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}
