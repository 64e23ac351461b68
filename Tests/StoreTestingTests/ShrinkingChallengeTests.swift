import Foundation
import Testing

@testable import StoreTesting

/// The shrunk counterexamples of runs of a property, one run per seed, at the default budget
/// (100 cases, 2,000 shrink attempts), or at `STORES_CHALLENGE_ITERATIONS` cases when set —
/// then each problem prints its figures (`STORES_CHALLENGE_ITERATIONS=1000000 swift test
/// --filter ShrinkingChallengeTests` measures the challenge at 10^6 cases).
struct SeededRuns<Value> {
  /// The cases per run when measuring the challenge deeper than the tests do.
  static var deepIterations: Int? {
    ProcessInfo.processInfo.environment["STORES_CHALLENGE_ITERATIONS"].flatMap { Int($0) }
  }

  /// The shrunk input of each run that found a failure.
  let shrunk: [Value]
  /// The problem, as its figures name it.
  let name: String

  init(
    _ gen: Gen<Value>, seeds: ClosedRange<UInt64> = 1...20, name: String = #function,
    _ property: (Value) throws -> Bool
  ) {
    self.name = name
    shrunk = seeds.compactMap { seed in
      Property.run(gen, iterations: Self.deepIterations, seed: seed, environment: [:], property)
        .counterexample?.shrunk
    }
  }

  /// How many runs found a failure.
  var found: Int { shrunk.count }

  /// How many runs shrank their failure to a minimum.
  func minimal(_ isMinimal: (Value) -> Bool) -> Int {
    let minimal = shrunk.filter(isMinimal).count
    if let iterations = Self.deepIterations {
      print("challenge \(name) at \(iterations) cases: found \(found), minimal \(minimal)")
    }
    return minimal
  }
}

/// A binary tree of integers, for the heap problem.
indirect enum Heap: Equatable, Sendable {
  case empty
  case node(Int, Heap, Heap)

  /// The values, depth first, right subtree first (the problem's `toList`).
  var values: [Int] {
    var values: [Int] = []
    var stack = [self]
    while let heap = stack.popLast() {
      guard case .node(let value, let left, let right) = heap else { continue }
      values.append(value)
      stack += [left, right]
    }
    return values
  }

  static func merge(_ first: Heap, _ second: Heap) -> Heap {
    guard case .node(let a, let aLeft, let aRight) = first else { return second }
    guard case .node(let b, let bLeft, let bRight) = second else { return first }
    return a <= b ? .node(a, merge(aRight, second), aLeft) : .node(b, merge(bRight, first), bLeft)
  }

  /// The problem's deliberately wrong conversion to a sorted list.
  var wronglySorted: [Int] {
    guard case .node(let value, let left, let right) = self else { return [] }
    return [value] + Heap.merge(left, right).values
  }

  /// Heaps of at most `depth` levels whose values are at least `lower`, each child's values at
  /// least its parent's.
  static func heaps(atLeast lower: Int, depth: Int) -> Gen<Heap> {
    guard depth > 0 else { return .constant(.empty) }
    return .oneOf(
      .constant(.empty),
      Gen<Int>.integer(in: lower...Int.max).flatMap { value in
        let child = heaps(atLeast: value, depth: depth - 1)
        return Gen<(Heap, Heap)>.zip(child, child).map { .node(value, $0, $1) }
      })
  }
}

/// An expression of the calculator problem.
indirect enum Expression: Equatable, Sendable {
  case int(Int)
  case add(Expression, Expression)
  case div(Expression, Expression)

  /// The value, with wrapping arithmetic; `nil` on a division by zero.
  var value: Int? {
    switch self {
    case .int(let value): return value
    case .add(let a, let b):
      guard let a = a.value, let b = b.value else { return nil }
      return a &+ b
    case .div(let a, let b):
      guard let a = a.value, let b = b.value, b != 0 else { return nil }
      return a.dividedReportingOverflow(by: b).partialValue
    }
  }

  var dividesByLiteralZero: Bool {
    switch self {
    case .int: false
    case .div(_, .int(0)): true
    case .add(let a, let b), .div(let a, let b): a.dividesByLiteralZero || b.dividesByLiteralZero
    }
  }

  /// Expressions of any depth, with integers of any size.
  static let expressions = Gen<Expression>.recursive(Gen<Int>.integer().map(Expression.int)) {
    child in
    let pairs = Gen<(Expression, Expression)>.zip(child, child)
    return .oneOf(pairs.map(Expression.add), pairs.map(Expression.div))
  }
}

private func wrappingSum16(_ values: [Int16]) -> Int16 { values.reduce(0, &+) }

/// The problems of the public "shrinking challenge" (github.com/jlink/shrinking-challenge),
/// written for this library, plus two that pin weaknesses of earlier versions: equal values of
/// either sign, and children bounded by their parent. Each asserts how many of 20 seeded runs
/// find a failure and reach the known minimum.
@Suite struct ShrinkingChallengeTests {
  static let int = Gen<Int>.integer()

  @Test func reverse() {
    let runs = SeededRuns(Self.int.array()) { $0 == $0.reversed() }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == [0, 1] } == 20)
  }

  @Test func largeUnionList() {
    let runs = SeededRuns(Self.int.array().array()) { Set($0.joined()).count <= 4 }
    #expect(runs.found == 20)
    let minimal = runs.minimal { lists in
      lists.count == 1 && lists[0].count == 5
        && [[0, 1, 2, 3, 4], [-2, -1, 0, 1, 2]].contains(Set(lists[0]).sorted())
    }
    #expect(minimal == 20)
  }

  @Test func bound5() {
    let list = Gen<Int16>.integer().array().filter { wrappingSum16($0) < 256 }
    let runs = SeededRuns(Gen.zip(list, list, list, list, list)) { a, b, c, d, e in
      wrappingSum16(a + b + c + d + e) < 5 * 256
    }
    #expect(runs.found == 20)
    #expect(runs.minimal { ($0.0 + $0.1 + $0.2 + $0.3 + $0.4).sorted() == [-32_768, -1] } == 20)
  }

  @Test func calculator() {
    let runs = SeededRuns(Expression.expressions) { expression in
      try assume(!expression.dividesByLiteralZero)
      return expression.value != nil
    }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == .div(.int(0), .add(.int(0), .int(0))) } == 20)
  }

  @Test func lengthList() {
    let gen = Gen<Int>.integer(in: 1...100).flatMap { count in
      Gen<Int>.integer(in: 0...1_000).array(count: count...count)
    }
    let runs = SeededRuns(gen) { $0.max()! < 900 }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == [900] } == 20)
  }

  static let naturalPairs = Gen<(Int, Int)>.zip(
    .integer(in: 0...Int.max), .integer(in: 0...Int.max))

  @Test func differenceMustNotBeZero() {
    let runs = SeededRuns(Self.naturalPairs) { x, y in x < 10 || x != y }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == (10, 10) } == 20)
  }

  @Test func differenceMustNotBeSmall() {
    let runs = SeededRuns(Self.naturalPairs) { x, y in
      x < 10 || !(1...4).contains(x > y ? x - y : y - x)
    }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == (10, 6) } == 20)
  }

  @Test func differenceMustNotBeOne() {
    let runs = SeededRuns(Self.naturalPairs) { x, y in x < 10 || (x > y ? x - y : y - x) != 1 }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == (10, 9) } == 20)
  }

  @Test func binheap() {
    let runs = SeededRuns(Heap.heaps(atLeast: .min, depth: 5)) { heap in
      let sorted = heap.wronglySorted
      return sorted == sorted.sorted() && heap.values.sorted() == sorted
    }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0.values.sorted() == [0, 0, 0, 1] } == 20)
  }

  @Test func coupling() {
    let gen = Gen<Int>.integer(in: 0...10).array().filter { list in
      list.allSatisfy { $0 < list.count }
    }
    let runs = SeededRuns(gen) { list in
      list.indices.allSatisfy { index in list[index] == index || list[list[index]] != index }
    }
    #expect(runs.found >= 19)
    // Deleting an element lowers the positions after it: [0, 2, 1] → [1, 0].
    #expect(runs.minimal { $0 == [1, 0] } >= 19)
  }

  @Test func deletion() {
    let gen = Self.int.array(count: 1...100).flatMap { list in
      Gen<Int>.element(of: list).map { (list, $0) }
    }
    let runs = SeededRuns(gen) { list, element in
      var list = list
      list.remove(at: list.firstIndex(of: element)!)
      return !list.contains(element)
    }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == ([0, 0], 0) } == 20)
  }

  @Test func distinct() {
    let runs = SeededRuns(Self.int.array()) { Set($0).count < 3 }
    #expect(runs.found == 20)
    #expect(
      runs.minimal { $0.count == 3 && [[0, 1, 2], [-1, 0, 1]].contains(Set($0).sorted()) } == 20)
  }

  @Test func nestedLists() {
    let runs = SeededRuns(Self.int.array(count: 0...20).array(count: 0...20)) {
      $0.map(\.count).reduce(0, +) <= 10
    }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == [Array(repeating: 0, count: 11)] } == 20)
  }

  @Test func noDuplicates() {
    let runs = SeededRuns(Self.int.array()) { Set($0).count == $0.count }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == [0, 0] } == 20)
  }

  @Test func boundedChildren() {
    let runs = SeededRuns(EngineWeaknessTests.boundedChildren) { _, children in
      children.allSatisfy { $0 < 50 }
    }
    #expect(runs.found == 20)
    #expect(runs.minimal { $0 == (0, [50]) } == 20)
  }
}

/// The weaknesses of earlier versions, each measured over 200 seeds, and shrunk from the inputs
/// that used to get stuck.
@Suite struct EngineWeaknessTests {
  static let seeds: ClosedRange<UInt64> = 1...200

  /// A parent and up to 5 children, each at least the parent.
  static let boundedChildren = Gen<Int>.integer(in: -10...10).flatMap { parent in
    Gen<Int>.integer(in: parent...100).array(maxCount: 5).map { (parent, $0) }
  }

  /// Shrinks the input recorded by `choices` for `gen` with the default budget.
  static func shrink<Value>(
    _ gen: Gen<Value>, from choices: [UInt64], _ property: @escaping (Value) -> Bool
  ) throws -> (start: Value, shrunk: Value) {
    let run = { (source: inout ChoiceSource) -> CaseOutcome<Value> in
      guard let value = try? gen.run(&source) else { return .invalid("") }
      return property(value) ? .passed : .failed(value, "", isIssue: false)
    }
    var source = ChoiceSource(replaying: choices)
    guard case .failed(let start, _, _) = run(&source) else {
      throw GenerationError("the start does not fail")
    }
    var shrinker = Shrinker(
      failing: .init(source, value: start, failure: "", isIssue: false),
      maxAttempts: Property.defaultMaxShrinkAttempts, run: run)
    shrinker.shrink()
    return (start, shrinker.best.value)
  }

  /// Equal values shrink together whatever their sign: a failing `[-1, -1]` becomes `[0, 0]`.
  @Test func equalValuesShrinkTogetherWhateverTheirSign() throws {
    // One more, below 0, 1; one more, below 0, 1; no more.
    let (start, shrunk) = try Self.shrink(
      Gen<Int>.integer().array(), from: [1, 1, 1, 1, 1, 1, 0]
    ) { Set($0).count == $0.count }
    #expect(start == [-1, -1])
    #expect(shrunk == [0, 0])

    let runs = SeededRuns(Gen<Int>.integer().array(), seeds: Self.seeds) {
      Set($0).count == $0.count
    }
    #expect(runs.found >= 199)
    #expect(runs.minimal { $0 == [0, 0] } == runs.found)
  }

  /// Values bounded by an earlier value keep their meaning when shrinking moves the bound across
  /// 0 (from `-1...` to `0...`).
  @Test func valuesBoundedByAnEarlierValueShrinkPastZero() throws {
    // The parent -1 (below 0, 1); one child, 70 (above 0, 70); no more.
    let (start, shrunk) = try Self.shrink(Self.boundedChildren, from: [1, 1, 1, 0, 70, 0]) {
      _, children in children.allSatisfy { $0 < 50 }
    }
    #expect(start == (-1, [70]))
    #expect(shrunk == (0, [50]))

    let runs = SeededRuns(Self.boundedChildren, seeds: Self.seeds) { _, children in
      children.allSatisfy { $0 < 50 }
    }
    #expect(runs.found == 200)
    #expect(runs.minimal { $0 == (0, [50]) } == 200)
  }

  /// Failures that need a relation between two values are found within 100 cases, and shrink
  /// keeping the relation.
  @Test func relationsBetweenValuesAreFound() {
    let pairs = ShrinkingChallengeTests.naturalPairs
    let equal = SeededRuns(pairs, seeds: Self.seeds) { $0 < 10 || $0 != $1 }
    #expect(equal.found == 200)
    #expect(equal.minimal { $0 == (10, 10) } == 200)
    let adjacent = SeededRuns(pairs, seeds: Self.seeds) {
      $0 < 10 || ($0 > $1 ? $0 - $1 : $1 - $0) != 1
    }
    #expect(adjacent.found >= 198)
    #expect(adjacent.minimal { $0 == (10, 9) } == adjacent.found)
    let near = SeededRuns(pairs, seeds: Self.seeds) {
      $0 < 10 || !(1...4).contains($0 > $1 ? $0 - $1 : $1 - $0)
    }
    #expect(near.found == 200)
    #expect(near.minimal { $0 == (10, 6) } == 200)
  }
}
