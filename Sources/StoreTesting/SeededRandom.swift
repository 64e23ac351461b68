/// A deterministic, splittable pseudo-random number generator: xoshiro256** seeded through
/// SplitMix64.
///
/// The generator *and* its range reductions are implemented here instead of being delegated to
/// the standard library, so a seed produces the same stream of values on every platform and with
/// every Swift version. That is what makes a failing property replayable from its printed seed.
///
/// `SeededRandom` is a value type: a copy continues from the same position and produces the same
/// values as the original. It conforms to `RandomNumberGenerator`, so it can also drive the
/// standard library's `random(in:using:)`, but those reductions are not guaranteed to be stable
/// across Swift versions; use `next(below:)`, `next(in:)` and
/// `nextDouble()` when reproducibility matters.
///
/// All operations are O(1) (the bounded ones in expectation: rejection happens with probability
/// below 1/2 per draw, and almost never for small bounds).
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Creates a generator whose 256-bit state is expanded from `seed` with SplitMix64.
  ///
  /// Every seed, including 0, yields a valid (non-zero) state, and nearby seeds yield unrelated
  /// streams.
  public init(seed: UInt64) {
    var mixer = SplitMix64(state: seed)
    s0 = mixer.next()
    s1 = mixer.next()
    s2 = mixer.next()
    s3 = mixer.next()
  }

  /// Returns the next 64 uniformly distributed bits and advances the state (xoshiro256**).
  public mutating func next() -> UInt64 {
    let result = rotateLeft(s1 &* 5, by: 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotateLeft(s3, by: 45)
    return result
  }

  /// Derives an independent child generator and advances this one by one step.
  ///
  /// The child is seeded (through SplitMix64) with the next output of this generator, so
  /// splitting is deterministic: the same parent state always yields the same child, and
  /// successive splits yield different children.
  public mutating func split() -> SeededRandom {
    SeededRandom(seed: next())
  }

  /// Returns a uniformly distributed value in `0..<bound`.
  ///
  /// Uses Lemire's nearly divisionless multiply-and-reject reduction, which is exactly unbiased.
  /// - Precondition: `bound > 0`.
  public mutating func next(below bound: UInt64) -> UInt64 {
    precondition(bound > 0, "SeededRandom.next(below:) needs a positive bound")
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold {
        product = next().multipliedFullWidth(by: bound)
      }
    }
    return product.high
  }

  /// Returns a uniformly distributed value in `range`, for any fixed-width integer type
  /// (including full-width ranges such as `Int.min...Int.max`, single-value ranges and types
  /// wider than 64 bits).
  public mutating func next<T: FixedWidthInteger>(in range: ClosedRange<T>) -> T {
    let span = T.Magnitude(truncatingIfNeeded: range.upperBound &- range.lowerBound)
    return range.lowerBound &+ T(truncatingIfNeeded: nextMagnitude(upTo: span))
  }

  /// Returns a uniformly distributed value in the half-open `range`.
  /// - Precondition: `range` is not empty.
  public mutating func next<T: FixedWidthInteger>(in range: Range<T>) -> T {
    precondition(!range.isEmpty, "SeededRandom.next(in:) needs a non-empty range")
    return next(in: range.lowerBound...(range.upperBound - 1))
  }

  /// Returns a uniformly distributed `Double` in `0..<1` built from 53 random bits.
  public mutating func nextDouble() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// Returns `true` with the given probability (clamped to `0...1`).
  public mutating func nextBool(probability: Double = 0.5) -> Bool {
    nextDouble() < probability
  }

  /// Returns a uniformly distributed unsigned value in `0...max`.
  mutating func nextMagnitude<M: FixedWidthInteger & UnsignedInteger>(upTo max: M) -> M {
    if max == M.max {
      return nextFullWidth()
    }
    if M.bitWidth <= 64 {
      return M(truncatingIfNeeded: next(below: UInt64(truncatingIfNeeded: max) + 1))
    }
    // Wider than 64 bits: mask to the bit length of `max`, reject values above it (< 1/2 odds).
    let mask = M.max >> max.leadingZeroBitCount
    while true {
      let candidate: M = nextFullWidth() & mask
      if candidate <= max {
        return candidate
      }
    }
  }

  private mutating func nextFullWidth<M: FixedWidthInteger>() -> M {
    var result = M(truncatingIfNeeded: next())
    var filled = 64
    while filled < M.bitWidth {
      result |= M(truncatingIfNeeded: next()) << filled
      filled += 64
    }
    return result
  }

  private func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
    (value << amount) | (value >> (64 - amount))
  }
}

/// SplitMix64 (Steele, Lea & Flood): used to expand seeds and to derive per-case seeds.
struct SplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
