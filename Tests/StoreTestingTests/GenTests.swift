import Foundation
import Testing

@testable import StoreTesting

@Suite struct GenTests {
  /// A composite generator touching most primitives, rendered to a comparable string.
  static let composite = Gen<(Int, String, [Double], (Date, Bool?))>.zip(
    Gen<Int>.integer(in: -1_000...1_000),
    Gen<String>.string(maxCount: 8),
    Gen<Double>.double(in: -1...1).array(maxCount: 4),
    Gen<(Date, Bool?)>.zip(Gen<Date>.date(), Gen<Bool>.bool.optional)
  ).map { String(reflecting: $0) }

  @Test func sameSeedSameCases() throws {
    let first = try Self.composite.sample(count: 1_000, seed: 0xDEAD_BEEF)
    let second = try Self.composite.sample(count: 1_000, seed: 0xDEAD_BEEF)
    #expect(first == second)
    #expect(Set(first).count > 900)
  }

  @Test func differentSeedsDifferentCases() throws {
    let first = try Self.composite.sample(count: 100, seed: 1)
    let second = try Self.composite.sample(count: 100, seed: 2)
    #expect(zip(first, second).filter { $0 != $1 }.count > 90)
  }

  @Test func generateMatchesTheCaseSchedule() throws {
    let gen = Gen<Int>.integer(in: 0...1_000_000).array(maxCount: 20)
    let samples = try gen.sample(count: 50, seed: 99)
    for index in [0, 1, 17, 49] {
      let caseSeed = CaseSchedule.caseSeed(
        index: index, size: CaseSchedule.size(index: index, iterations: 50), runSeed: 99)
      #expect(try gen.generate(seed: caseSeed) == samples[index])
    }
  }

  @Test func integerEdgesAndBounds() throws {
    let small = try Gen<Int>.integer(in: -50...50).sample(count: 1_000, seed: 1)
    #expect(small.allSatisfy { (-50...50).contains($0) })
    #expect(small.contains(-50) && small.contains(50) && small.contains(0))

    let positive = try Gen<Int64>.integer(in: 10...20_000).sample(count: 1_000, seed: 2)
    #expect(positive.allSatisfy { (10...20_000).contains($0) })
    #expect(positive.contains(10) && positive.contains(20_000))

    let negative = try Gen<Int>.integer(in: -900 ... -100).sample(count: 1_000, seed: 3)
    #expect(negative.allSatisfy { (-900 ... -100).contains($0) })
    #expect(negative.contains(-900) && negative.contains(-100))

    let full = try Gen<Int>.integer().sample(count: 1_000, seed: 4)
    #expect(full.contains(.min) && full.contains(.max) && full.contains(0))
    #expect(full.contains { $0 > 1_000_000 } && full.contains { $0 < -1_000_000 })

    let unsigned = try Gen<UInt64>.integer().sample(count: 1_000, seed: 5)
    #expect(unsigned.contains(0) && unsigned.contains(.max))

    let bytes = try Gen<Int8>.integer().sample(count: 5_000, seed: 6)
    #expect(Set(bytes).count > 200 && bytes.contains(.min) && bytes.contains(.max))

    #expect(try Gen<Int>.integer(in: 7...7).sample(count: 20, seed: 7).allSatisfy { $0 == 7 })
  }

  @Test func widerThan64BitIntegers() throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let values = try Gen<Int128>.integer().sample(count: 1_000, seed: 8)
    #expect(values.contains(.min) && values.contains(.max) && values.contains(0))
    #expect(values.contains { $0 > Int128(UInt64.max) })
  }

  @Test func doubleEdgesAndRange() throws {
    let values = try Gen<Double>.double(in: -10...10).sample(count: 2_000, seed: 1)
    #expect(values.allSatisfy { (-10...10).contains($0) })
    #expect(values.contains { $0 == 0 && $0.sign == .plus })
    #expect(values.contains { $0 == 0 && $0.sign == .minus })
    #expect(values.contains(-10) && values.contains(10))
    #expect(values.contains { $0 != $0.rounded() })
    #expect(values.contains { $0 != 0 && $0 == $0.rounded() })

    let shifted = try Gen<Double>.double(in: 0.25...0.75).sample(count: 500, seed: 2)
    #expect(shifted.allSatisfy { (0.25...0.75).contains($0) })
    #expect(shifted.contains(0.25) && shifted.contains(0.75))

    let huge = try Gen<Double>.double(in: -.greatestFiniteMagnitude ... .greatestFiniteMagnitude)
      .sample(count: 500, seed: 3)
    #expect(huge.allSatisfy { $0.isFinite })
    #expect(huge.contains(.greatestFiniteMagnitude))
  }

  @Test func boolsAndDates() throws {
    let bools = try Gen<Bool>.bool.sample(count: 100, seed: 1)
    #expect(bools.contains(true) && bools.contains(false))

    let range = Gen<Date>.defaultDateRange
    #expect(range.lowerBound == DateComponents.utc(year: 1990))
    #expect(range.upperBound == DateComponents.utc(year: 2060))
    let dates = try Gen<Date>.date().sample(count: 1_000, seed: 2)
    #expect(dates.allSatisfy { range.contains($0) })
    #expect(dates.contains(range.lowerBound) && dates.contains(range.upperBound))
    let seconds = dates.map(\.timeIntervalSinceReferenceDate)
    #expect(seconds.contains { $0 != $0.rounded() }, "sub-second precision")
    #expect(Set(seconds.map { Int($0 / 31_536_000) }).count > 50, "spread over the years")
  }

  @Test func combinatorDistributions() throws {
    let picks = try Gen<String>.frequency([
      (1, .constant("rare")), (9, .constant("common")),
    ]).sample(count: 1_000, seed: 1)
    let rare = picks.filter { $0 == "rare" }.count
    #expect((50...150).contains(rare))

    let alternatives = try Gen<Int>.oneOf(.constant(1), .constant(2), .constant(3))
      .sample(count: 300, seed: 2)
    #expect(Set(alternatives) == [1, 2, 3])

    let elements = try Gen<String>.element(of: ["x", "y"]).sample(count: 100, seed: 3)
    #expect(Set(elements) == ["x", "y"])

    let optionals = try Gen<Int>.integer(in: 0...9).optional.sample(count: 200, seed: 4)
    #expect(optionals.contains(nil) && optionals.contains { $0 != nil })

    let evens = try Gen<Int>.integer(in: 0...100).filter { $0 % 2 == 0 }
      .sample(count: 200, seed: 5)
    #expect(evens.allSatisfy { $0 % 2 == 0 })

    let sets = try Gen<Set<Int>>.set(of: .integer(in: 0...5), maxCount: 10)
      .sample(count: 100, seed: 6)
    #expect(sets.allSatisfy { $0.count <= 6 } && sets.contains { $0.count >= 4 })

    let dictionaries = try Gen<[String: Int]>.dictionary(
      keys: .element(of: ["a", "b", "c"]), values: .integer(in: 0...9), maxCount: 5
    ).sample(count: 100, seed: 7)
    #expect(dictionaries.contains { $0.isEmpty } && dictionaries.contains { $0.count == 3 })

    let fixed = try Gen<Int>.integer(in: 0...9).array(count: 3...5).sample(count: 100, seed: 8)
    #expect(fixed.allSatisfy { (3...5).contains($0.count) })
  }

  @Test func impossibleFilterFailsClearly() {
    let gen = Gen<Int>.integer(in: 0...10).filter { $0 > 10 }
    #expect(throws: GenerationError.self) { try gen.generate(seed: 1) }
    do {
      _ = try gen.generate(seed: 1)
    } catch let error as GenerationError {
      #expect(error.description.contains("rejected 100 candidates"))
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func sizesGrowOverARun() throws {
    let lengths = try Gen<Int>.integer(in: 0...9).array(maxCount: 100)
      .sample(count: 100, seed: 1).map(\.count)
    #expect(lengths[0] <= 1)
    #expect(lengths.prefix(10).allSatisfy { $0 <= 10 })
    #expect(lengths.suffix(30).contains { $0 >= 50 })
    #expect(lengths.contains(0))

    let deep = try Gen<Int>.integer(in: 0...9).array(maxCount: 100)
      .sample(count: 1_000, seed: 2).map(\.count)
    #expect(deep.filter { $0 <= 5 }.count > 100 && deep.filter { $0 >= 50 }.count > 100)
  }

  @Test func unicodeStringsCoverTheInterestingCases() throws {
    let strings = try Gen<String>.string(maxCount: 12).sample(count: 1_000, seed: 1)
    #expect(strings.allSatisfy { $0.count <= 12 })
    #expect(strings.contains(""))
    let scalars = strings.flatMap(\.unicodeScalars).map(\.value)
    #expect(scalars.contains { (0x300...0x36F).contains($0) }, "combining marks")
    #expect(scalars.contains { (0x1F600...0x1F64F).contains($0) }, "emoji")
    #expect(scalars.contains { (0x1F1E6...0x1F1FF).contains($0) }, "flags")
    #expect(scalars.contains(0x200D), "ZWJ sequences")
    #expect(scalars.contains { (0x4E00...0x9FFF).contains($0) }, "CJK")
    #expect(scalars.contains { (0x5D0...0x5EA).contains($0) }, "Hebrew")
    #expect(scalars.contains { (0x621...0x64A).contains($0) }, "Arabic")
    #expect(scalars.contains { $0 < 0x80 }, "ASCII")

    let ascii = try Gen<String>.asciiString(maxCount: 5).sample(count: 500, seed: 2)
    #expect(ascii.allSatisfy { $0.count <= 5 })
    #expect(ascii.flatMap(\.unicodeScalars).allSatisfy { (0x20...0x7E).contains($0.value) })
    #expect(ascii.contains(""))

    let custom = try Gen<String>.string(from: Alphabet("xy"), count: 2...2)
      .sample(count: 100, seed: 3)
    #expect(Set(custom) == ["xx", "xy", "yx", "yy"])
  }

  /// The built-in alphabets promise that characters never merge with their neighbours, so a
  /// string's `count` is the number of characters drawn.
  @Test func builtInCharactersNeverMerge() {
    let blocks = Alphabet.unicode.blocks
    var random = SeededRandom(seed: 1)
    let samples = blocks.map { block in
      (0..<40).map { _ in block.character(Int(random.next(below: UInt64(block.count)))) }
        + [block.character(0), block.character(block.count - 1)]
    }
    for left in samples.joined() {
      for right in samples.map({ $0[Int(random.next(below: UInt64($0.count)))] }) {
        #expect((String(left) + String(right)).count == 2, "\(left.unicodeScalars.map(\.value))")
      }
    }
  }

  @Test func offsetsStayInRangeAndVaryInShape() throws {
    for count in [1, 2, 7, 40] {
      let sets = try Gen<IndexSet>.offsets(in: count).sample(count: 500, seed: UInt64(count))
      #expect(sets.allSatisfy { $0.allSatisfy { (0..<count).contains($0) } })
      #expect(sets.contains { $0.isEmpty })
      #expect(sets.contains { $0.count == count })
      if count >= 7 {
        #expect(sets.contains { $0.rangeView.count == 1 && (2..<count).contains($0.count) })
        #expect(sets.contains { $0.rangeView.count >= 2 })
      }
    }
    #expect(
      try Gen<IndexSet>.offsets(in: 0).sample(count: 50, seed: 1).allSatisfy { $0.isEmpty })
  }

  @Test func outOfRangeOffsetsAppear() throws {
    let sets = try Gen<IndexSet>.offsets(in: 5, includingOutOfRange: true)
      .sample(count: 500, seed: 1)
    #expect(sets.contains { $0.contains { $0 >= 5 } })
    #expect(sets.contains { !$0.isEmpty && $0.allSatisfy { $0 < 5 } })
    #expect(sets.allSatisfy { $0.allSatisfy { (0...105).contains($0) } })
  }
}

extension DateComponents {
  fileprivate static func utc(year: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
  }
}
