extension Gen {
  /// A generator of arrays of `element` values whose count is in `count`.
  ///
  /// The first `count.lowerBound` elements are always drawn; each further element is preceded by
  /// a "one more?" choice, so shrinking deletes elements (whole blocks first, then single ones)
  /// before it simplifies the remaining elements. Lengths grow with the case size, and about 1 in
  /// 10 arrays has the minimum count (e.g. empty). O(count) choices per value.
  /// - Precondition: `count.lowerBound >= 0`.
  public static func array<Element>(of element: Gen<Element>, count: ClosedRange<Int>)
    -> Gen<[Element]> where Value == [Element]
  {
    precondition(count.lowerBound >= 0, "Gen.array needs a non-negative count")
    return Gen<[Element]> { source in
      try drawElements(count: count, from: &source) { try element.run(&$0) }
    }
  }

  /// A generator of arrays of `element` values with at most `maxCount` elements (possibly
  /// empty). See ``array(of:count:)`` for distribution and shrinking.
  public static func array<Element>(of element: Gen<Element>, maxCount: Int = 10)
    -> Gen<[Element]> where Value == [Element]
  {
    array(of: element, count: 0...maxCount)
  }

  /// A generator of arrays of this generator's values with at most `maxCount` elements.
  /// Same as `Gen.array(of: self, maxCount: maxCount)`.
  public func array(maxCount: Int = 10) -> Gen<[Value]> {
    Gen<[Value]>.array(of: self, count: 0...maxCount)
  }

  /// A generator of arrays of this generator's values whose count is in `count`.
  /// Same as `Gen.array(of: self, count: count)`.
  public func array(count: ClosedRange<Int>) -> Gen<[Value]> {
    Gen<[Value]>.array(of: self, count: count)
  }

  /// A generator of sets built from up to `maxCount` drawn elements (duplicates collapse, so a
  /// set may be smaller). Shrinks like an array.
  public static func set<Element: Hashable & Sendable>(of element: Gen<Element>, maxCount: Int = 10)
    -> Gen<Set<Element>> where Value == Set<Element>
  {
    Gen<[Element]>.array(of: element, maxCount: maxCount).map { Set($0) }
  }

  /// A generator of dictionaries built from up to `maxCount` drawn key–value pairs (a repeated
  /// key keeps its first value). Shrinks like an array of pairs.
  public static func dictionary<Key: Hashable & Sendable, Element>(
    keys: Gen<Key>, values: Gen<Element>, maxCount: Int = 10
  ) -> Gen<[Key: Element]> where Value == [Key: Element] {
    Gen<[(Key, Element)]>.array(of: Gen<(Key, Element)>.zip(keys, values), maxCount: maxCount)
      .map { Dictionary($0, uniquingKeysWith: { first, _ in first }) }
  }
}

/// Draws a variable number of elements: the minimum unconditionally, then "one more?" choices.
/// In random mode the length is `intendedCount`, or picked with `pickCount` when `nil`.
func drawElements<Element>(
  count: ClosedRange<Int>, from source: inout ChoiceSource, intendedCount: Int? = nil,
  _ element: (inout ChoiceSource) throws -> Element
) throws -> [Element] {
  let target = source.random { random, size in
    intendedCount ?? pickCount(in: count, size: size, using: &random)
  }
  // The elements share a swarm of their own; an element's inner collections have theirs.
  let outer = source.swarm
  if !source.isReplaying { source.swarm = ChoiceSource.Swarm() }
  defer { source.swarm = outer }
  var result: [Element] = []
  result.reserveCapacity(Swift.min(count.upperBound, 64))
  while result.count < count.lowerBound {
    result.append(try element(&source))
  }
  while result.count < count.upperBound {
    let intended = result.count < (target ?? 0)
    guard
      let next = try source.element({ source in
        try source.drawBool(intended: intended) ? try element(&source) : nil
      })
    else { break }
    result.append(next)
  }
  return result
}

/// Picks a collection length: the minimum 1 time in 10, the maximum 1 time in 10 once the size is
/// at least 50, otherwise uniform up to a limit that grows with the size.
func pickCount(in count: ClosedRange<Int>, size: Int, using random: inout SeededRandom) -> Int {
  let lower = count.lowerBound
  let upper = count.upperBound
  switch random.next(below: 10) {
  case 0:
    return lower
  case 1 where size >= CaseSchedule.maxSize / 2:
    return upper
  default:
    let room = upper - lower
    let maxSize = CaseSchedule.maxSize
    let scaled = room <= Int.max / maxSize ? room * size / maxSize : room / maxSize * size
    let limit = lower + Swift.min(room, Swift.max(1, scaled))
    return random.next(in: lower...limit)
  }
}
