import Foundation
import Testing

@testable import StoreTesting

/// Runs a property without recording an issue and returns the shrunk counterexample.
private func shrunk<Value>(
  _ gen: Gen<Value>, seed: UInt64, iterations: Int = 100,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ property: (Value) throws -> Bool
) throws -> Value {
  let result = Property.run(
    gen, iterations: iterations, seed: seed, environment: [:], property)
  let counterexample = try #require(
    result.counterexample, "expected a failure", sourceLocation: sourceLocation)
  return counterexample.shrunk
}

@Suite struct ShrinkingTests {
  @Test(arguments: 1...50 as ClosedRange<UInt64>)
  func arraySumShrinksToExactly100(seed: UInt64) throws {
    let gen = Gen<Int>.integer(in: 0...1_000).array(maxCount: 30)
    #expect(try shrunk(gen, seed: seed) { $0.reduce(0, +) < 100 } == [100])
  }

  @Test(arguments: 1...20 as ClosedRange<UInt64>)
  func stringShrinksToThreeSimplestCharacters(seed: UInt64) throws {
    #expect(try shrunk(Gen<String>.string(maxCount: 20), seed: seed) { $0.count < 3 } == "aaa")
    #expect(
      try shrunk(Gen<String>.asciiString(maxCount: 20), seed: seed) { $0.count < 3 } == "aaa")
  }

  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func integersShrinkToTheBoundary(seed: UInt64) throws {
    #expect(try shrunk(Gen<Int>.integer(in: 0...10_000), seed: seed) { $0 < 1_234 } == 1_234)
    #expect(
      try shrunk(Gen<Int>.integer(in: -10_000...10_000), seed: seed) { $0 > -1_234 } == -1_234)
    #expect(try shrunk(Gen<UInt64>.integer(), seed: seed) { $0 < 1_234 } == 1_234)
    #expect(try shrunk(Gen<Int64>.integer(), seed: seed) { $0 < 1_234 } == 1_234)
    #expect(try shrunk(Gen<Int>.integer(), seed: seed) { $0 > -77 } == -77)
  }

  @Test func integersOutsideZeroShrinkTowardTheBoundNearestZero() throws {
    #expect(try shrunk(Gen<Int>.integer(in: 500...1_000), seed: 1) { _ in false } == 500)
    #expect(try shrunk(Gen<Int>.integer(in: 500...10_000), seed: 1) { $0 < 1_234 } == 1_234)
    #expect(try shrunk(Gen<Int>.integer(in: -1_000 ... -500), seed: 1) { _ in false } == -500)
  }

  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func mappedAndFlatMappedGeneratorsShrink(seed: UInt64) throws {
    let doubled = Gen<Int>.integer(in: 0...10_000).map { $0 * 2 }
    #expect(try shrunk(doubled, seed: seed) { $0 < 1_000 } == 1_000)

    let sized = Gen<Int>.integer(in: 0...10).flatMap { count in
      Gen<Int>.integer(in: 0...100).array(count: count...count)
    }
    #expect(try shrunk(sized, seed: seed) { $0.allSatisfy { $0 < 50 } } == [50])

    let even = Gen<Int>.integer(in: 0...1_000).filter { $0 % 2 == 0 }
    #expect(try shrunk(even, seed: seed) { $0 < 101 } == 102)
  }

  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func tuplesAndAlternativesShrink(seed: UInt64) throws {
    let pair = Gen<(Int, Int)>.zip(.integer(in: 0...100), .integer(in: 0...100))
    let sum = try shrunk(pair, seed: seed) { $0 + $1 < 10 }
    #expect(sum == (0, 10))

    let flagged = Gen<(Bool, Int)>.zip(.bool, .integer(in: 0...100))
    let flag = try shrunk(flagged, seed: seed) { $1 < 5 }
    #expect(flag == (false, 5))

    let alternatives = Gen<Int>.oneOf(.constant(1), .constant(2), .constant(3))
    #expect(try shrunk(alternatives, seed: seed) { $0 == 1 } == 2)
    let weighted = Gen<Int>.frequency([(1, .constant(1)), (5, .constant(2)), (5, .constant(3))])
    #expect(try shrunk(weighted, seed: seed) { $0 == 1 } == 2)

    let optional = Gen<Int>.integer(in: 0...100).optional
    #expect(try shrunk(optional, seed: seed) { ($0 ?? 0) < 10 } == 10)
  }

  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func arraysShrinkStructurally(seed: UInt64) throws {
    let gen = Gen<Int>.integer(in: 0...1_000).array(maxCount: 20)
    #expect(try shrunk(gen, seed: seed) { Set($0).count == $0.count } == [0, 0])
    #expect(try shrunk(gen, seed: seed) { $0 == $0.sorted() } == [1, 0])
    #expect(try shrunk(gen, seed: seed) { $0.count < 4 } == [0, 0, 0, 0])
  }

  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func doublesShrinkTowardSimpleValues(seed: UInt64) throws {
    let gen = Gen<Double>.double(in: -1_000...1_000)
    #expect(try shrunk(gen, seed: seed) { $0 < 12.5 } == 13)
    #expect(try shrunk(gen, seed: seed) { $0 >= 0 } == -1)
    #expect(try shrunk(gen, seed: seed) { $0 == $0.rounded() } == 0.5)
    let shifted = Gen<Double>.double(in: 2.5...100)
    #expect(try shrunk(shifted, seed: seed) { _ in false } == 3)
    #expect(try shrunk(shifted, seed: seed) { $0 == $0.rounded() } == 2.5)
    let fractional = Gen<Double>.double(in: 0.25...0.75)
    #expect(try shrunk(fractional, seed: seed) { _ in false } == 0.25)
  }

  @Test(arguments: 1...5 as ClosedRange<UInt64>)
  func foundationValuesShrink(seed: UInt64) throws {
    let date = try shrunk(Gen<Date>.date(), seed: seed) {
      $0.timeIntervalSinceReferenceDate < 100.5
    }
    #expect(date == Date(timeIntervalSinceReferenceDate: 101))

    let offsets = try shrunk(Gen<IndexSet>.offsets(in: 10), seed: seed) { !$0.contains(7) }
    #expect(offsets == IndexSet(integer: 7))

    let outside = try shrunk(Gen<IndexSet>.offsets(in: 10, includingOutOfRange: true), seed: seed) {
      $0.allSatisfy { $0 < 10 }
    }
    #expect(outside == IndexSet(integer: 10))

    let unicode = try shrunk(Gen<String>.string(maxCount: 20), seed: seed) {
      $0.unicodeScalars.allSatisfy(\.isASCII)
    }
    #expect(unicode == "\u{C0}")
  }

  @Test func shrinkingIsBoundedAndCanBeDisabled() throws {
    let gen = Gen<String>.string(maxCount: 30).array(maxCount: 50)
    let result = Property.run(gen, iterations: 100, seed: 3, environment: [:]) { _ in false }
    let counterexample = try #require(result.counterexample)
    #expect(counterexample.shrunk == [])
    #expect(counterexample.shrinkAttempts <= Property.defaultMaxShrinkAttempts)

    let bounded = Property.run(
      gen, iterations: 100, seed: 4, maxShrinkAttempts: 5, environment: [:]
    ) { $0.count < 2 }
    #expect(try #require(bounded.counterexample).shrinkAttempts <= 5)

    let unshrunk = Property.run(
      Gen<Int>.integer(in: 0...1_000_000), seed: 5, maxShrinkAttempts: 0, environment: [:]
    ) { $0 < 10 }
    let example = try #require(unshrunk.counterexample)
    #expect(example.shrunk == example.original && example.shrinkSteps == 0)
  }

  @Test func shortlexOrder() {
    #expect(Shrinker<Int>.shortlexPrecedes([9], [0, 0]))
    #expect(Shrinker<Int>.shortlexPrecedes([0, 1], [1, 0]))
    #expect(!Shrinker<Int>.shortlexPrecedes([1, 0], [1, 0]))
  }
}
