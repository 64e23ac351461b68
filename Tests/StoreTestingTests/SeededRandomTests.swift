import Testing

@testable import StoreTesting

@Suite struct SeededRandomTests {
  // Pinned once from an independent (Python) implementation of SplitMix64 + xoshiro256**.
  @Test(
    arguments: [
      (
        0,
        [
          0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0,
          0x6AA5_94F1_262D_2D2C, 0xBBA5_AD4A_1F84_2E59,
        ]
      ),
      (
        42,
        [
          0x1578_0B2E_0C2E_C716, 0x6104_D986_6D11_3A7E, 0xAE17_5332_39E4_99A1,
          0xECB8_AD47_03B3_60A1, 0xFDE6_DC7F_E2EC_5E64,
        ]
      ),
      (
        0x0123_4567_89AB_CDEF,
        [
          0xA2C2_A420_38D4_EC3D, 0x05FC_25D0_738E_7B0F, 0x625E_7BFF_938E_701E,
          0x1BA4_DDC6_FE2B_5726, 0xDF0A_2482_AC92_54CF,
        ]
      ),
    ] as [(UInt64, [UInt64])])
  func knownAnswers(seed: UInt64, expected: [UInt64]) {
    var random = SeededRandom(seed: seed)
    #expect((0..<5).map { _ in random.next() } == expected)
  }

  @Test func splitMixKnownAnswer() {
    var mixer = SplitMix64(state: 0)
    #expect(mixer.next() == 0xE220_A839_7B1D_CDAF)
  }

  @Test func boundedKnownAnswers() {
    var random = SeededRandom(seed: 42)
    #expect((0..<10).map { _ in random.next(below: 6) } == [0, 2, 4, 5, 5, 4, 4, 5, 4, 3])
    random = SeededRandom(seed: 42)
    #expect(
      (0..<5).map { _ in random.next(below: 1_000_000_000) } == [
        83_862_971, 378_980_250, 680_043_411, 924_692_945, 991_803_914,
      ])
  }

  @Test func copiesReplayAndSplitsDiverge() {
    var original = SeededRandom(seed: 7)
    var copy = original
    #expect((0..<100).map { _ in original.next() } == (0..<100).map { _ in copy.next() })

    var parent = SeededRandom(seed: 7)
    var sameParent = SeededRandom(seed: 7)
    var child = parent.split()
    var sameChild = sameParent.split()
    var secondChild = parent.split()
    let childValues = (0..<50).map { _ in child.next() }
    #expect(childValues == (0..<50).map { _ in sameChild.next() })
    #expect(childValues != (0..<50).map { _ in secondChild.next() })
    #expect(childValues != (0..<50).map { _ in parent.next() })
  }

  @Test func boundedDrawsAreInRangeAndRoughlyUniform() {
    var random = SeededRandom(seed: 1)
    var counts = [Int](repeating: 0, count: 6)
    for _ in 0..<60_000 {
      counts[Int(random.next(below: 6))] += 1
    }
    #expect(counts.allSatisfy { abs($0 - 10_000) < 400 }, "\(counts)")

    // A bound just above 2^63 is the worst case for rejection; results stay below it.
    let bound: UInt64 = (1 << 63) + 1
    var high = 0
    for _ in 0..<10_000 {
      let value = random.next(below: bound)
      #expect(value < bound)
      if value >= bound / 2 { high += 1 }
    }
    #expect(abs(high - 5_000) < 300)
    #expect((0..<100).allSatisfy { _ in random.next(below: 1) == 0 })
  }

  @Test func fullWidthAndSingleValueRanges() {
    var random = SeededRandom(seed: 3)
    let ints = (0..<1_000).map { _ in random.next(in: Int.min...Int.max) }
    #expect(ints.contains { $0 < 0 } && ints.contains { $0 > 0 })
    let unsigned = (0..<1_000).map { _ in random.next(in: UInt64.min...UInt64.max) }
    #expect(unsigned.contains { $0 > UInt64.max / 2 } && unsigned.contains { $0 < UInt64.max / 2 })
    #expect((0..<100).allSatisfy { _ in random.next(in: 5...5) == 5 })
    #expect((0..<100).allSatisfy { _ in random.next(in: Int.min...Int.min) == Int.min })
    #expect((0..<100).allSatisfy { _ in random.next(in: UInt64.max...UInt64.max) == .max })

    var seen = Set<Int8>()
    for _ in 0..<20_000 {
      seen.insert(random.next(in: Int8.min...Int8.max))
    }
    #expect(seen.count == 256)

    for _ in 0..<1_000 {
      let value = random.next(in: -3..<4)
      #expect((-3..<4).contains(value))
      let wide = random.next(in: Int64(-1_000_000_000_000)...1_000_000_000_000)
      #expect((-1_000_000_000_000...1_000_000_000_000).contains(wide))
    }
  }

  @Test func signedRangeIsRoughlyUniform() {
    var random = SeededRandom(seed: 11)
    var counts = [Int](repeating: 0, count: 5)
    for _ in 0..<50_000 {
      counts[random.next(in: -2...2) + 2] += 1
    }
    #expect(counts.allSatisfy { abs($0 - 10_000) < 400 }, "\(counts)")
  }

  @Test func widerThan64BitRanges() {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    var random = SeededRandom(seed: 5)
    let range = UInt128(UInt64.max) - 5...UInt128(UInt64.max) + 5
    let values = (0..<1_000).map { _ in random.next(in: range) }
    #expect(values.allSatisfy { range.contains($0) })
    #expect(Set(values).count == 11)
    let full = (0..<100).map { _ in random.next(in: Int128.min...Int128.max) }
    #expect(full.contains { $0 < Int128(Int64.min) } && full.contains { $0 > Int128(Int64.max) })
  }

  @Test func unitDoublesAreInHalfOpenRange() {
    var random = SeededRandom(seed: 9)
    let values = (0..<10_000).map { _ in random.nextDouble() }
    #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
    #expect(values.contains { $0 < 0.01 } && values.contains { $0 > 0.99 })
    let mean = values.reduce(0, +) / Double(values.count)
    #expect(abs(mean - 0.5) < 0.01)
  }
}
