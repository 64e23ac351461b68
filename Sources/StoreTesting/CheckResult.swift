/// What a property run found. Returned by `check` and `Property.run`.
public struct CheckResult<Value> {
  /// How a property run ended.
  public enum Outcome {
    /// Every case satisfied the property.
    case passed
    /// A case failed; the counterexample holds the original and the shrunk input.
    case failed(Counterexample<Value>)
    /// The run stopped before finding a counterexample: a generator could not produce a value
    /// (e.g. a too-strict `filter`) or the configuration (arguments or environment) was invalid.
    case aborted(reason: String)
  }

  /// How the run ended.
  public let outcome: Outcome
  /// The run seed: case 0 was generated from it (see `Counterexample.replaySeed` for the seed
  /// that replays a failure).
  public let seed: UInt64
  /// The number of cases the run was configured for.
  public let iterations: Int
  /// The number of cases generated and tested, including the failing one, but not the
  /// discarded ones.
  public let casesRun: Int
  /// The number of cases the property discarded with `assume(_:)`.
  public let discardedCases: Int
  /// The full human-readable report recorded by `check`; `nil` when the property passed.
  public let message: String?

  /// Whether every case passed.
  public var passed: Bool {
    if case .passed = outcome { return true }
    return false
  }

  /// The counterexample when a case failed, `nil` otherwise.
  public var counterexample: Counterexample<Value>? {
    if case .failed(let counterexample) = outcome { return counterexample }
    return nil
  }
}

/// A failing input found by a property run, before and after shrinking.
public struct Counterexample<Value> {
  /// The generated input that failed first.
  public let original: Value
  /// The smallest failing input the shrinker found (equal to `original` if nothing smaller
  /// failed).
  public let shrunk: Value
  /// Why `original` failed: `"property returned false"` or the thrown error's description.
  public let originalFailure: String
  /// Why `shrunk` failed, in the same form as `originalFailure`.
  public let failure: String
  /// The case seed of the original failure. Passing it as `seed:` or as
  /// `STORES_PROPERTY_SEED` makes the failing case the very first case of a run. (For a
  /// state machine with a `coverage`, whose programs depend on the programs before them, it
  /// is the run's seed: passing it reruns the same programs up to the failing one.)
  public let replaySeed: UInt64
  /// The number of cases that passed before the failing one.
  public let passedCases: Int
  /// How many smaller failing inputs the shrinker accepted on the way to `shrunk`.
  public let shrinkSteps: Int
  /// How many candidate inputs the shrinker evaluated.
  public let shrinkAttempts: Int
  /// Whether `failure` is an issue the property recorded (a failed `#expect`), which `check`
  /// replays so that the issue shows at its line.
  let isIssue: Bool
}

extension CheckResult: Sendable where Value: Sendable {}
extension CheckResult.Outcome: Sendable where Value: Sendable {}
extension Counterexample: Sendable where Value: Sendable {}
