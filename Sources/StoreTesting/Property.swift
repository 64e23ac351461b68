import Foundation
import Testing

/// Runs properties without recording anything: the engine behind `check`.
///
/// Use `Property.run` to inspect a result (for instance, to assert on a shrunk counterexample)
/// without failing the current test; use `check` to record a failure.
public enum Property {
  /// The number of cases run when neither `iterations:` nor `STORES_PROPERTY_ITERATIONS` is set.
  public static let defaultIterations = 100
  /// The default cap on candidate inputs evaluated while shrinking one failure.
  public static let defaultMaxShrinkAttempts = 2_000
  /// Environment variable that raises the number of cases of every check (e.g. `10000` for a
  /// deep run): a check runs the larger of this and its `iterations:` (or the default).
  public static let iterationsVariable = "STORES_PROPERTY_ITERATIONS"
  /// Environment variable holding a seed (decimal or `0x` hex) to replay: the first case of the
  /// run is exactly the case printed with that seed. An explicit `seed:` argument takes
  /// precedence.
  public static let seedVariable = "STORES_PROPERTY_SEED"

  /// Tests `property` on generated cases and shrinks the first failure; records nothing.
  ///
  /// The property returns `Bool` (`false` is a failure) or nothing (`Void`; a thrown error is a
  /// failure, e.g. from `require`); a thrown error is a failure in both forms. Any other return
  /// type aborts the run. (One generic function instead of two overloads, so that
  /// multi-statement closures without `return` are not ambiguous.)
  ///
  /// Case *k* of *n* has size `k * 100 / (n - 1)`, so small cases come first (runs longer than
  /// 101 cases cycle through sizes 0...100). The first failure is shrunk with at most
  /// `maxShrinkAttempts` further evaluations of the property. O(iterations + shrink attempts)
  /// property evaluations.
  ///
  /// - Parameters:
  ///   - gen: The generator of inputs.
  ///   - iterations: The number of cases; defaults to `STORES_PROPERTY_ITERATIONS` or 100.
  ///   - seed: The run seed; defaults to `STORES_PROPERTY_SEED` or a fresh random seed.
  ///   - maxShrinkAttempts: The shrinking budget.
  ///   - environment: Where the variables are read from (injectable for tests).
  ///   - sourceLocation: The location named in the report.
  ///   - property: The property; it runs synchronously on the caller's actor.
  public static func run<Value, Verdict>(
    _ gen: Gen<Value>,
    iterations: Int? = nil,
    seed: UInt64? = nil,
    maxShrinkAttempts: Int = defaultMaxShrinkAttempts,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ property: (Value) throws -> Verdict
  ) -> CheckResult<Value> {
    let location = "\(sourceLocation.fileID):\(sourceLocation.line):\(sourceLocation.column)"
    guard Verdict.self == Bool.self || Verdict.self == Void.self else {
      return .aborted(
        "the property returns \(Verdict.self); return a Bool (false fails) "
          + "or nothing (throw to fail)",
        at: location, seed: seed ?? 0, iterations: 0, casesRun: 0)
    }
    let configuration: RunConfiguration
    do {
      configuration = try RunConfiguration(
        iterations: iterations, seed: seed, environment: environment)
    } catch {
      return .aborted(error.description, at: location, seed: seed ?? 0, iterations: 0, casesRun: 0)
    }
    return withoutActuallyEscaping(property) { property in
      runCases(
        gen, configuration, maxShrinkAttempts: maxShrinkAttempts, location: location,
        evaluate: { value in evaluate(property, on: value) })
    }
  }

  private static func runCases<Value>(
    _ gen: Gen<Value>, _ configuration: RunConfiguration, maxShrinkAttempts: Int,
    location: String, evaluate: @escaping (Value) -> String?
  ) -> CheckResult<Value> {
    let iterations = configuration.iterations
    let runSeed = configuration.seed
    for index in 0..<iterations {
      let caseSeed = CaseSchedule.caseSeed(index: index, iterations: iterations, runSeed: runSeed)
      var source = ChoiceSource(seed: caseSeed, size: CaseSchedule.size(ofCaseSeed: caseSeed))
      let value: Value
      do {
        value = try gen.run(&source)
      } catch {
        let reason =
          "could not generate case \(index + 1): \(error)\n"
          + "replay: \(Property.seedVariable)=\(Report.hex(caseSeed))"
        return .aborted(
          reason, at: location, seed: runSeed, iterations: iterations, casesRun: index)
      }
      guard let failure = evaluate(value) else { continue }
      var shrinker = Shrinker(
        gen: gen, failing: .init(choices: source.choices, value: value, failure: failure),
        maxAttempts: maxShrinkAttempts, evaluate: evaluate)
      shrinker.shrink()
      let counterexample = Counterexample(
        original: value, shrunk: shrinker.best.value, originalFailure: failure,
        failure: shrinker.best.failure, replaySeed: caseSeed, passedCases: index,
        shrinkSteps: shrinker.steps, shrinkAttempts: shrinker.attempts)
      return CheckResult(
        outcome: .failed(counterexample), seed: runSeed, iterations: iterations,
        casesRun: index + 1,
        message: Report.failure(counterexample, at: location, iterations: iterations))
    }
    return CheckResult(
      outcome: .passed, seed: runSeed, iterations: iterations, casesRun: iterations, message: nil)
  }

  /// `nil` when the property holds for `value`, otherwise why it failed.
  private static func evaluate<Value, Verdict>(
    _ property: (Value) throws -> Verdict, on value: Value
  ) -> String? {
    do {
      return try property(value) as? Bool == false ? "property returned false" : nil
    } catch let failure as PropertyFailure {
      return failure.description
    } catch {
      return "threw \(String(reflecting: error))"
    }
  }
}

extension CheckResult {
  fileprivate static func aborted(
    _ reason: String, at location: String, seed: UInt64, iterations: Int, casesRun: Int
  ) -> CheckResult {
    CheckResult(
      outcome: .aborted(reason: reason), seed: seed, iterations: iterations, casesRun: casesRun,
      message: "Property check aborted at \(location): \(reason)")
  }
}

/// The resolved number of cases and run seed: explicit arguments, then the environment, then
/// the defaults (100 cases, a fresh random seed).
struct RunConfiguration {
  struct Invalid: Error, CustomStringConvertible {
    let description: String
  }

  let iterations: Int
  let seed: UInt64

  init(iterations: Int?, seed: UInt64?, environment: [String: String]) throws(Invalid) {
    if let iterations, iterations <= 0 {
      throw Invalid(description: "iterations must be positive, got \(iterations)")
    }
    var deep = 0
    if let text = environment[Property.iterationsVariable] {
      guard let parsed = Int(text.trimmingCharacters(in: .whitespaces)), parsed > 0 else {
        throw Invalid(
          description: "\(Property.iterationsVariable) must be a positive integer, got '\(text)'")
      }
      deep = parsed
    }
    // The environment raises the number of cases for deep runs; it never lowers it.
    self.iterations = max(iterations ?? Property.defaultIterations, deep)

    if let seed {
      self.seed = seed
    } else if let text = environment[Property.seedVariable] {
      guard let parsed = Self.parseSeed(text) else {
        throw Invalid(
          description: "\(Property.seedVariable) must be a decimal or 0x-hex UInt64, got '\(text)'"
        )
      }
      self.seed = parsed
    } else {
      self.seed = CaseSchedule.freshRunSeed()
    }
  }

  /// Parses a decimal or `0x`-prefixed hexadecimal `UInt64` (underscores allowed).
  static func parseSeed(_ text: String) -> UInt64? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")
    if trimmed.lowercased().hasPrefix("0x") {
      return UInt64(trimmed.dropFirst(2), radix: 16)
    }
    return UInt64(trimmed)
  }
}
