import Foundation

extension Gen where Value == Date {
  /// The default window for `Gen.date(in:)`: 1990-01-01 through 2060-01-01 (UTC).
  public static var defaultDateRange: ClosedRange<Date> {
    Date(
      timeIntervalSinceReferenceDate: -347_155_200)...Date(
        timeIntervalSinceReferenceDate: 1_861_833_600)
  }

  /// A generator of dates in `range` with sub-second precision (any `Double` number of seconds,
  /// not only whole ones).
  ///
  /// Built on `Gen.double(in:)` over seconds since the reference date (2001-01-01 00:00:00
  /// UTC), so bounds appear as edge values, and dates shrink toward the reference date when it
  /// is in range (otherwise toward the nearer bound) and toward whole seconds.
  public static func date(in range: ClosedRange<Date> = defaultDateRange) -> Gen<Date> {
    Gen<Double>.double(
      in: range.lowerBound
        .timeIntervalSinceReferenceDate...range.upperBound
        .timeIntervalSinceReferenceDate
    )
    .map { Date(timeIntervalSinceReferenceDate: $0) }
  }
}

extension Gen where Value == IndexSet {
  /// A generator of offsets into a collection of `count` elements, e.g. for `remove(atOffsets:)`
  /// or `move(fromOffsets:toOffset:)` actions.
  ///
  /// Every offset is in `0..<count`. About 1 in 10 sets is empty and 1 in 10 contains every
  /// offset; 3 in 10 are one to three contiguous runs; the rest are scattered offsets (up to 32,
  /// more as the case size grows). Encoded as a list of offsets, so it shrinks toward the empty
  /// set, then toward fewer and smaller offsets. O(offsets) choices per value.
  /// - Precondition: `count >= 0`.
  public static func offsets(in count: Int) -> Gen<IndexSet> {
    precondition(count >= 0, "Gen.offsets(in:) needs a non-negative count")
    guard count > 0 else { return Gen { _ in IndexSet() } }
    return Gen { source in
      let intended = source.random { random, size in
        Array(pickOffsets(in: count, size: size, using: &random))
      }
      var drawn = 0
      let offsets = try drawElements(
        count: 0...count, from: &source, intendedCount: intended?.count
      ) { source in
        defer { drawn += 1 }
        let target = intended.map { drawn < $0.count ? $0[drawn] : 0 } ?? 0
        return try source.value { try $0.drawIndex(count: count, intended: target) }
      }
      return IndexSet(offsets)
    }
  }

  private static func pickOffsets(
    in count: Int, size: Int, using random: inout SeededRandom
  ) -> IndexSet {
    switch random.next(below: 10) {
    case 0:
      return IndexSet()
    case 1:
      return IndexSet(integersIn: 0..<count)
    case 2, 3, 4:
      var runs = IndexSet()
      for _ in 0..<random.next(in: 1...3) {
        let start = random.next(in: 0..<count)
        let length = random.next(in: 1...(count - start))
        runs.insert(integersIn: start..<(start + length))
      }
      return runs
    default:
      let scattered = pickCount(in: 0...Swift.min(count, 32), size: size, using: &random)
      return IndexSet((0..<scattered).map { _ in random.next(in: 0..<count) })
    }
  }

  /// Like `offsets(in:)`, but about 7 in 10 sets also contain offsets past the end
  /// (`count...count + 100`), to test that reducers ignore out-of-range offsets instead of
  /// crashing. Shrinks toward sets without out-of-range offsets.
  public static func offsets(in count: Int, includingOutOfRange: Bool) -> Gen<IndexSet> {
    guard includingOutOfRange else { return offsets(in: count) }
    let outside = Gen<Int>.integer(in: count...(count + 100))
    let extra = Gen<[Int]>.frequency([
      (3, Gen<[Int]>.constant([])), (7, Gen<[Int]>.array(of: outside, count: 1...4)),
    ])
    return Gen<(IndexSet, [Int])>.zip(offsets(in: count), extra).map { inside, extra in
      inside.union(IndexSet(extra))
    }
  }
}
