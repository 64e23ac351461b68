extension Gen where Value: FixedWidthInteger & Sendable {
  /// A generator of integers in `range`, for any fixed-width integer type.
  ///
  /// About 1 in 16 values each is the lower bound, the upper bound, the simplest value (0 when
  /// in range) and a small value near it (within the case size). Once the case holds values of
  /// this type (drawn by any generator), about 1 in 16 each repeats one of them, is next to one
  /// (±1) and is near one (within the case size), so failures that need two equal or close
  /// values are found. The rest are uniform.
  ///
  /// Shrinks toward 0 when the range contains it, otherwise toward the bound nearest to 0 (the
  /// lower bound of a positive range). Every value is recorded the same way whatever the range:
  /// a side choice (0: at or above the simplest value, 1: below it) and the distance from the
  /// simplest value (one choice for types up to 64 bits). So when an earlier choice moves this
  /// range (say from `-1...` to `0...`), the choices after it keep their meaning, and shrinking
  /// goes on.
  public static func integer(in range: ClosedRange<Value> = Value.min...Value.max) -> Gen<Value> {
    let layout = IntegerLayout(range)
    return Gen { source in
      try source.value { source in
        let earlier = source.earlierValue(of: Value.self).flatMap { range.contains($0) ? $0 : nil }
        let intended = source.random { random, size in
          pickInteger(in: range, size: size, earlier: earlier, using: &random)
        }
        return try layout.draw(from: &source, intended: intended ?? layout.origin)
      }
    }
  }

  private static func pickInteger(
    in range: ClosedRange<Value>, size: Int, earlier: Value?, using random: inout SeededRandom
  ) -> Value {
    let lower = range.lowerBound
    let upper = range.upperBound
    let simplest: Value = lower > 0 ? lower : (upper < 0 ? upper : 0)
    let reach = Value.Magnitude(truncatingIfNeeded: size)
    switch (random.next(below: 16), earlier) {
    case (0, _):
      return lower
    case (1, _):
      return upper
    case (2, _):
      return simplest
    case (3, _):
      // A small value: within `size` of the simplest one.
      let span = Value.Magnitude(truncatingIfNeeded: upper &- lower)
      if lower >= 0 {
        return lower
          &+ Value(truncatingIfNeeded: random.nextMagnitude(upTo: Swift.min(span, reach)))
      }
      if upper <= 0 {
        return upper
          &- Value(truncatingIfNeeded: random.nextMagnitude(upTo: Swift.min(span, reach)))
      }
      let low = lower.magnitude <= reach ? lower : 0 &- Value(truncatingIfNeeded: reach)
      let high = upper.magnitude <= reach ? upper : Value(truncatingIfNeeded: reach)
      return random.next(in: low...high)
    case (4, let earlier?):
      return earlier
    case (5, let earlier?):
      return step(from: earlier, by: 1, up: random.nextBool(), in: range)
    case (6, let earlier?):
      let distance = random.nextMagnitude(upTo: Swift.max(reach, 1) - 1) + 1
      return step(from: earlier, by: distance, up: random.nextBool(), in: range)
    default:
      return random.next(in: range)
    }
  }

  /// `value` moved up or down by `distance`, stopping at the bounds of `range`.
  private static func step(
    from value: Value, by distance: Value.Magnitude, up: Bool, in range: ClosedRange<Value>
  ) -> Value {
    if up {
      let room = Value.Magnitude(truncatingIfNeeded: range.upperBound &- value)
      return distance >= room ? range.upperBound : value &+ Value(truncatingIfNeeded: distance)
    }
    let room = Value.Magnitude(truncatingIfNeeded: value &- range.lowerBound)
    return distance >= room ? range.lowerBound : value &- Value(truncatingIfNeeded: distance)
  }
}

/// How integers in a range are encoded as choices: `[side, distance]`, where the *origin* is 0
/// when the range contains it, otherwise the bound nearest to 0; side 0 is `origin + distance`
/// and side 1 is `origin - distance`. The side choice can only be 1 when the range reaches
/// below the origin, and each side's distance is bounded by the room on that side.
private struct IntegerLayout<Value: FixedWidthInteger & Sendable>: Sendable {
  let lower: Value
  let upper: Value
  let origin: Value

  init(_ range: ClosedRange<Value>) {
    lower = range.lowerBound
    upper = range.upperBound
    origin = lower > 0 ? lower : (upper < 0 ? upper : 0)
  }

  func draw(from source: inout ChoiceSource, intended: Value) throws -> Value {
    let up = Value.Magnitude(truncatingIfNeeded: upper &- origin)
    let down = Value.Magnitude(truncatingIfNeeded: origin &- lower)
    let below = try source.draw(max: down > 0 ? 1 : 0, intended: intended < origin ? 1 : 0) == 1
    let distance = try source.drawMagnitude(
      max: below ? down : up,
      intended: Value.Magnitude(
        truncatingIfNeeded: below ? origin &- intended : intended &- origin))
    return below
      ? origin &- Value(truncatingIfNeeded: distance)
      : origin &+ Value(truncatingIfNeeded: distance)
  }
}

extension Gen where Value == Double {
  /// A generator of finite doubles in `range`.
  ///
  /// About 1 in 16 values each is 0, -0.0 (both when 0 is in range), the lower bound and the
  /// upper bound; 1 in 8 is a small whole number; 1 in 16 repeats a double drawn earlier in the
  /// case (when one is in range); the rest are uniform across the range (with a resolution of
  /// 2^-52 near 0). Shrinks toward 0 when in range, preferring whole numbers, then
  /// smaller magnitudes, then short binary fractions (`0.5` before `0.25` before `0.1`). When 0
  /// is outside the range, shrinks toward the whole number nearest to the bound nearest to 0
  /// (`3.0` in `2.5...100`), or that bound if the range holds no whole number.
  /// - Precondition: both bounds are finite.
  public static func double(in range: ClosedRange<Double>) -> Gen<Double> {
    precondition(
      range.lowerBound.isFinite && range.upperBound.isFinite,
      "Gen.double(in:) needs finite bounds")
    let layout = DoubleLayout(range)
    return Gen { source in
      try source.value { source in
        let earlier = source.earlierValue(of: Double.self).flatMap { range.contains($0) ? $0 : nil }
        let intended = source.random { random, size in
          layout.pick(size: size, earlier: earlier, using: &random)
        }
        return try layout.draw(from: &source, intended: intended ?? layout.origin)
      }
    }
  }
}

extension Gen where Value == Bool {
  /// A generator of `true` and `false` with equal probability. Shrinks toward `false`.
  public static var bool: Gen<Bool> {
    Gen { source in
      try source.value { source in
        let intended = source.random { random, _ in random.nextBool() } ?? false
        return try source.drawBool(intended: intended)
      }
    }
  }
}

/// How doubles in a range are encoded as choices.
///
/// The *origin* is 0 when the range contains it, otherwise the bound nearest to 0.
/// - Path 0, whole numbers: `[0, sign?, k]` encodes `base ± k`, where `base` is the first whole
///   number on the origin's side of the range.
/// - Path 1, any value: `[1, sign?, n, m]` encodes `origin ± (n + f) * scale`, where `f` is the
///   52-bit fraction whose bits are `m` reversed. Reversal makes simple fractions small choices:
///   `m = 1` is 0.5, `m = 2` is 0.25, `m = 3` is 0.75. `scale` is 1 unless the range is wider
///   than 2^53, then the power of two that keeps `n` within 2^53.
/// The sign choice exists only when 0 is in range; a negative sign with magnitude 0 is -0.0.
/// Decoded values are clamped into the range.
private struct DoubleLayout: Sendable {
  let lower: Double
  let upper: Double
  let origin: Double
  let signed: Bool
  /// +1 when values grow upward from the origin, -1 when downward (unsigned layouts only).
  let direction: Double
  /// Distance from the origin to the far bound on the positive (or only) and negative sides.
  let positiveExtent: Double
  let negativeExtent: Double
  /// The first whole number on the path-0 side; `nil` when the range has no whole number.
  let integerBase: Double?
  /// The unit of `n` on path 1 (a power of two, so scaling is exact).
  let scale: Double

  static let maxSteps: Double = 0x1p53
  static let fractionMax: UInt64 = (1 << 52) - 1

  init(_ range: ClosedRange<Double>) {
    lower = range.lowerBound
    upper = range.upperBound
    if lower <= 0 && upper >= 0 {
      origin = 0
      signed = true
      direction = 1
      positiveExtent = upper
      negativeExtent = -lower
      integerBase = 0
    } else if lower > 0 {
      origin = lower
      signed = false
      direction = 1
      positiveExtent = upper - lower
      negativeExtent = 0
      integerBase = lower.rounded(.up) <= upper ? lower.rounded(.up) : nil
    } else {
      origin = upper
      signed = false
      direction = -1
      positiveExtent = upper - lower
      negativeExtent = 0
      integerBase = upper.rounded(.down) >= lower ? upper.rounded(.down) : nil
    }
    let extent = Swift.max(positiveExtent, negativeExtent)
    scale =
      extent > Self.maxSteps
      ? Double(sign: .plus, exponent: extent.exponent - 52, significand: 1) : 1
  }

  /// The largest whole-number step from the integer base on a side (capped at 2^53).
  func integerMax(negative: Bool) -> UInt64 {
    guard let base = integerBase else { return 0 }
    let room: Double
    if signed {
      room = negative ? negativeExtent : positiveExtent
    } else {
      room = direction > 0 ? upper - base : base - lower
    }
    return UInt64(Swift.min(room.rounded(.down), Self.maxSteps))
  }

  func pick(size: Int, earlier: Double?, using random: inout SeededRandom) -> Double {
    switch (random.next(below: 16), earlier) {
    case (0, _): return signed ? 0 : lower
    case (1, _): return signed ? -0.0 : upper
    case (2, _): return lower
    case (3, _): return upper
    case (6, let earlier?): return earlier
    case (4, _), (5, _):
      let negative = signed && negativeExtent >= 1 && random.nextBool()
      let steps = random.next(in: 0...Swift.min(UInt64(size), integerMax(negative: negative)))
      return integerValue(negative: negative, steps: steps)
    default:
      let t = random.nextDouble()
      return clamp(lower * (1 - t) + upper * t)
    }
  }

  func draw(from source: inout ChoiceSource, intended: Double) throws -> Double {
    let intendedNegative = signed && intended.sign == .minus
    let intendedSteps = integerSteps(of: intended, negative: intendedNegative)
    let fractional = try source.drawBool(intended: intendedSteps == nil)
    let negative = signed ? try source.drawBool(intended: intendedNegative) : false
    if !fractional {
      let steps = try source.drawMagnitude(
        max: integerMax(negative: negative), intended: intendedSteps ?? 0)
      return integerValue(negative: negative, steps: steps)
    }
    let extent = negative ? negativeExtent : positiveExtent
    let wholeMax = UInt64(Swift.min((extent / scale).rounded(.down), Self.maxSteps))
    let distance = Swift.abs(intended - origin) / scale
    let intendedWhole = Swift.min(distance.rounded(.down), Double(wholeMax))
    let intendedFraction = Swift.min(Swift.max(distance - intendedWhole, 0), 1)
    let intendedBits = Swift.min(UInt64(intendedFraction * 0x1p52), Self.fractionMax)
    let whole = try source.drawMagnitude(max: wholeMax, intended: UInt64(intendedWhole))
    let bits = try source.drawMagnitude(max: Self.fractionMax, intended: reversed(intendedBits))
    let offset = (Double(whole) + Double(reversed(bits)) * 0x1p-52) * scale
    if signed {
      return clamp(negative ? -offset : offset)
    }
    return clamp(origin + direction * offset)
  }

  /// Reverses the low 52 bits (an involution).
  private func reversed(_ bits: UInt64) -> UInt64 {
    var input = bits
    var output: UInt64 = 0
    for _ in 0..<52 {
      output = (output << 1) | (input & 1)
      input >>= 1
    }
    return output
  }

  private func integerValue(negative: Bool, steps: UInt64) -> Double {
    guard let base = integerBase else { return origin }
    if signed {
      return negative ? -Double(steps) : Double(steps)
    }
    return clamp(base + direction * Double(steps))
  }

  /// The whole-number steps that encode `value` exactly on path 0, if any.
  private func integerSteps(of value: Double, negative: Bool) -> UInt64? {
    guard let base = integerBase, value == value.rounded() else { return nil }
    let distance = signed ? Swift.abs(value) : Swift.abs(value - base)
    guard distance <= Double(integerMax(negative: negative)) else { return nil }
    let steps = UInt64(distance)
    return integerValue(negative: negative, steps: steps).bitPattern == value.bitPattern
      ? steps : nil
  }

  private func clamp(_ value: Double) -> Double {
    Swift.min(upper, Swift.max(lower, value))
  }
}
