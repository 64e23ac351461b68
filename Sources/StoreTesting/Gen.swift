/// A generator of random test inputs that can also *shrink* them.
///
/// A `Gen` is a recipe: it draws a sequence of recorded choices from a source and turns them
/// into a value. Because every value is described by its choices, `check` can shrink a failing
/// input by editing those choices and re-running the recipe, so anything built from the
/// combinators in this module (`map`, `flatMap`, `filter`, `zip`, `oneOf`, `array`, …) shrinks
/// without extra work.
///
/// Generators are immutable `Sendable` values, so they can be stored in `static let`s and
/// shared between tests. Closures passed to combinators must be `@Sendable` and should be pure:
/// the same choices must always produce the same value.
public struct Gen<Value>: Sendable {
  let run: @Sendable (inout ChoiceSource) throws -> Value

  init(_ run: @escaping @Sendable (inout ChoiceSource) throws -> Value) {
    self.run = run
  }

  /// Generates the value of a single case from a case seed, exactly as `check` generates the
  /// case printed as `replay: STORES_PROPERTY_SEED=<seed>`. O(size of the value).
  /// - Throws: `GenerationError` if the generator cannot produce a value (e.g. a too-strict
  ///   `filter`).
  public func generate(seed: UInt64) throws -> Value {
    var source = ChoiceSource(seed: seed, size: CaseSchedule.size(ofCaseSeed: seed))
    return try run(&source)
  }

  /// Generates `count` values with the same case seeds and sizes that
  /// `check(gen, iterations: count, seed: seed)` would use, in order. O(total size).
  /// - Throws: `GenerationError` if a value cannot be generated.
  public func sample(count: Int, seed: UInt64) throws -> [Value] {
    precondition(count >= 0, "Gen.sample(count:seed:) needs a non-negative count")
    return try (0..<count).map { index in
      try generate(
        seed: CaseSchedule.caseSeed(
          index: index, size: CaseSchedule.size(index: index, iterations: count), runSeed: seed))
    }
  }

}

/// An error raised while generating a value, for example when `Gen.filter` rejects too many
/// candidates in a row. A property check that hits it stops and reports the description.
public struct GenerationError: Error, CustomStringConvertible, Sendable {
  /// A human-readable explanation of why no value could be generated.
  public let description: String

  /// Creates an error with the given explanation.
  public init(_ description: String) {
    self.description = description
  }
}

/// How a run's seed is turned into one seed (and one size) per test case.
///
/// The top 7 bits of a case seed hold the case's size (0...100, larger values read as 100), the
/// rest feed the random generator. Case 0 uses the run seed itself, so a printed case seed fed
/// back as the run seed replays that case first. Sizes grow from 0 to 100 over a run of up to
/// 101 cases; longer runs cycle through 0...100 so small and large cases keep alternating.
enum CaseSchedule {
  /// The largest size; generators scale collection lengths and small-value ranges by it.
  static let maxSize = 100
  private static let sizeShift: UInt64 = 57
  private static let randomBitsMask: UInt64 = (1 << 57) - 1

  /// The size encoded in a case seed.
  static func size(ofCaseSeed seed: UInt64) -> Int {
    Swift.min(maxSize, Int(seed >> sizeShift))
  }

  /// The size of case `index` in a run of `iterations` cases.
  static func size(index: Int, iterations: Int) -> Int {
    if iterations <= maxSize + 1 {
      return iterations <= 1 ? 0 : index * maxSize / (iterations - 1)
    }
    return index % (maxSize + 1)
  }

  /// The seed of the case generated `index`-th in a run with the given run seed, with the given
  /// size (see `size(index:iterations:)`; it counts only cases not discarded). Case 0 is the run
  /// seed itself.
  static func caseSeed(index: Int, size: Int, runSeed: UInt64) -> UInt64 {
    if index == 0 {
      return runSeed
    }
    var mixer = SplitMix64(state: runSeed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return (UInt64(size) << sizeShift) | (mixer.next() & randomBitsMask)
  }

  /// A fresh run seed from the system's random source, with size 0 (so the first case is small).
  static func freshRunSeed() -> UInt64 {
    var system = SystemRandomNumberGenerator()
    return system.next() & randomBitsMask
  }
}
