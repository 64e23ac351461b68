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
  /// multi-statement closures without `return` are not ambiguous.) Inside a Swift Testing test,
  /// an issue the property records (a failed `#expect` or `#require`) is a failure too; it is
  /// not recorded here (see `check`).
  ///
  /// A case the property discards with `assume(_:)` does not count: the run goes on until
  /// `iterations` cases were tested, and aborts once it has discarded 10 times as many.
  ///
  /// Case *k* of *n* has size `k * 100 / (n - 1)`, so small cases come first (runs longer than
  /// 101 cases cycle through sizes 0...100). The first failure is shrunk with at most
  /// `maxShrinkAttempts` further evaluations of the property. O(iterations + discarded cases +
  /// shrink attempts) property evaluations.
  ///
  /// - Parameters:
  ///   - gen: The generator of inputs.
  ///   - iterations: The number of cases; defaults to `STORES_PROPERTY_ITERATIONS` or 100.
  ///   - seed: The run seed; defaults to `STORES_PROPERTY_SEED` or a fresh random seed.
  ///   - maxShrinkAttempts: The shrinking budget.
  ///   - environment: Where the variables are read from (injectable for tests).
  ///   - fileID: The file named in the report: the caller's by default.
  ///   - line: The line named in the report: the caller's by default.
  ///   - column: The column named in the report: the caller's by default.
  ///   - property: The property; it runs synchronously on the caller's actor.
  public static func run<Value, Verdict>(
    _ gen: Gen<Value>,
    iterations: Int? = nil,
    seed: UInt64? = nil,
    maxShrinkAttempts: Int = defaultMaxShrinkAttempts,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: String = #fileID,
    line: Int = #line,
    column: Int = #column,
    _ property: (Value) throws -> Verdict
  ) -> CheckResult<Value> {
    let location = "\(fileID):\(line):\(column)"
    guard Verdict.self == Bool.self || Verdict.self == Void.self else {
      return .aborted(
        "the property returns \(Verdict.self); return a Bool (false fails) "
          + "or nothing (throw to fail)",
        at: location, seed: seed ?? 0)
    }
    return withoutActuallyEscaping(property) { property in
      run(
        iterations: iterations, seed: seed, maxShrinkAttempts: maxShrinkAttempts,
        environment: environment, location: location, subject: "input",
        describe: Report.describe
      ) { source in
        let value: Value
        do {
          value = try gen.run(&source)
        } catch {
          return .invalid("\(error)")
        }
        return judge(value) { try property(value) as? Bool != false }
      }
    }
  }

  /// The engine behind every run: resolves the configuration, runs cases until one fails,
  /// `iterations` pass or too many are discarded, and shrinks the failure. `runCase` runs one
  /// case from a source (random for new cases, replaying while shrinking). When
  /// `replaysWholeRun` says so at the failure (cases depend on the cases before them), the
  /// replay seed is the run's seed rather than the failing case's. `search` is the shrinker's
  /// last resort (see `Shrinker`).
  static func run<Value>(
    iterations: Int?, seed: UInt64?, maxShrinkAttempts: Int, environment: [String: String],
    location: String, subject: String, describe: (Value) -> String,
    replaysWholeRun: () -> Bool = { false }, search: Shrinker<Value>.Search? = nil,
    runCase: @escaping (inout ChoiceSource) -> CaseOutcome<Value>
  ) -> CheckResult<Value> {
    var cases: CaseRun<Value>
    switch CaseRun<Value>.start(iterations: iterations, seed: seed, environment: environment) {
    case .success(let started): cases = started
    case .failure(let invalid): return .aborted(invalid.description, at: location, seed: seed ?? 0)
    }
    while var source = cases.nextSource() {
      let outcome = runCase(&source)
      if let result = cases.result(
        after: outcome, from: source, maxShrinkAttempts: maxShrinkAttempts, location: location,
        subject: subject, describe: describe, replaysWholeRun: replaysWholeRun, search: search,
        runCase: runCase)
      {
        return result
      }
    }
    return cases.passed
  }

  /// The engine of ``run(iterations:seed:maxShrinkAttempts:environment:location:subject:describe:replaysWholeRun:search:runCase:)``
  /// for cases that run asynchronously (`runCase`; a state machine's programs, which let the
  /// main actor go between steps); the failing case is shrunk with the synchronous
  /// `shrinkCase`, which runs a case just as `runCase` does. On the main actor, where machines
  /// run.
  @MainActor
  static func run<Value>(
    iterations: Int?, seed: UInt64?, maxShrinkAttempts: Int, environment: [String: String],
    location: String, subject: String, describe: (Value) -> String,
    replaysWholeRun: () -> Bool = { false }, search: Shrinker<Value>.Search? = nil,
    shrinkCase: @escaping (inout ChoiceSource) -> CaseOutcome<Value>,
    runCase: (inout ChoiceSource) async -> CaseOutcome<Value>
  ) async -> CheckResult<Value> {
    var cases: CaseRun<Value>
    switch CaseRun<Value>.start(iterations: iterations, seed: seed, environment: environment) {
    case .success(let started): cases = started
    case .failure(let invalid): return .aborted(invalid.description, at: location, seed: seed ?? 0)
    }
    while var source = cases.nextSource() {
      let outcome = await runCase(&source)
      if let result = cases.result(
        after: outcome, from: source, maxShrinkAttempts: maxShrinkAttempts, location: location,
        subject: subject, describe: describe, replaysWholeRun: replaysWholeRun, search: search,
        runCase: shrinkCase)
      {
        return result
      }
    }
    return cases.passed
  }

  /// Runs `body`, the property on `value`, and judges it: it fails when it returns `false`,
  /// throws or (inside a Swift Testing test) records an issue; it is discarded when it calls
  /// `assume` with a false condition. Issues are caught (see `issues(recordedBy:)`), so that
  /// only the report of the shrunk case is recorded.
  static func judge<Value>(_ value: Value, _ body: () throws -> Bool) -> CaseOutcome<Value> {
    var outcome = CaseOutcome<Value>.passed
    func evaluate() {
      do {
        if try !body() {
          outcome = .failed(value, "property returned false", isIssue: false)
        }
      } catch is Discarded {
        outcome = .discarded
      } catch let failure as PropertyFailure {
        outcome = .failed(value, failure.description, isIssue: false)
      } catch {
        outcome = .failed(value, "threw \(String(reflecting: error))", isIssue: false)
      }
    }
    if let issue = issues(recordedBy: evaluate).first {
      if case .discarded = outcome { return outcome }
      return .failed(value, describe(issue), isIssue: true)
    }
    return outcome
  }

  /// The issues `body` records, caught rather than failing the test: silently under the
  /// ``PropertyChecksTrait``, else as known issues; outside a Swift Testing test, `body` just
  /// runs and nothing is caught.
  static func issues(recordedBy body: () -> Void) -> [Issue] {
    guard Test.current != nil else {
      body()
      return []
    }
    let issues = RecordedIssues()
    if IssueCapture.isAvailable {
      IssueCapture.$collector.withValue(issues, operation: body)
      return issues.values
    }
    withKnownIssue(
      isIntermittent: true, body,
      matching: { issue in
        issues.append(issue)
        return true
      })
    return issues.values
  }

  /// `issue` for a report: where it was recorded, its kind and its comments.
  static func describe(_ issue: Issue) -> String {
    let place = issue.sourceLocation.map { " at \($0.fileID):\($0.line)" } ?? ""
    let comments = issue.comments.map { ": \($0.rawValue)" }.joined()
    return "issue recorded\(place): \(issue.kind)\(comments)"
  }
}

/// How one test case ended.
enum CaseOutcome<Value> {
  /// The property held.
  case passed
  /// The property failed for `value`, for the reason given; `isIssue` when the reason is an
  /// issue the property recorded (a failed `#expect`).
  case failed(Value, String, isIssue: Bool)
  /// The property discarded the case (`assume`).
  case discarded
  /// No value could be generated (e.g. a too-strict `filter`); the reason.
  case invalid(String)
}

/// The cases of one run, one at a time: the source of each new case, and what its outcome
/// means for the run — go on, stop with a passed run, abort (too many discarded, a case that
/// could not be generated), or shrink a failure.
struct CaseRun<Value> {
  let iterations: Int
  let runSeed: UInt64
  private var casesPassed = 0
  private var discarded = 0
  private var index = 0
  /// The seed of the case last handed out.
  private var caseSeed: UInt64 = 0

  /// The run of `iterations` cases (or what the environment or the defaults say; see
  /// ``RunConfiguration``), or why the configuration is invalid.
  static func start(iterations: Int?, seed: UInt64?, environment: [String: String])
    -> Result<CaseRun, RunConfiguration.Invalid>
  {
    do {
      let configuration = try RunConfiguration(
        iterations: iterations, seed: seed, environment: environment)
      return .success(CaseRun(iterations: configuration.iterations, runSeed: configuration.seed))
    } catch {
      return .failure(error)
    }
  }

  private init(iterations: Int, runSeed: UInt64) {
    self.iterations = iterations
    self.runSeed = runSeed
  }

  /// The source of the next case, random (small cases first); `nil` once `iterations` passed.
  mutating func nextSource() -> ChoiceSource? {
    guard casesPassed < iterations else { return nil }
    caseSeed = CaseSchedule.caseSeed(
      index: index, size: CaseSchedule.size(index: casesPassed, iterations: iterations),
      runSeed: runSeed)
    index += 1
    return ChoiceSource(seed: caseSeed, size: CaseSchedule.size(ofCaseSeed: caseSeed))
  }

  /// The run's result after the case drawn from `source` ended with `outcome`, or `nil` when
  /// the run goes on. A failure is shrunk here, with `runCase` (at most `maxShrinkAttempts`
  /// cases).
  mutating func result(
    after outcome: CaseOutcome<Value>, from source: ChoiceSource, maxShrinkAttempts: Int,
    location: String, subject: String, describe: (Value) -> String, replaysWholeRun: () -> Bool,
    search: Shrinker<Value>.Search?, runCase: @escaping (inout ChoiceSource) -> CaseOutcome<Value>
  ) -> CheckResult<Value>? {
    switch outcome {
    case .passed:
      casesPassed += 1
      return nil
    case .discarded:
      discarded += 1
      guard discarded >= 10 * iterations else { return nil }
      let reason =
        "discarded \(discarded) cases and tested only \(casesPassed) of \(iterations); "
        + "generate the inputs the property assumes (with a narrower range, flatMap or "
        + "filter) instead of discarding most of them"
      return .aborted(
        reason, at: location, seed: runSeed, iterations: iterations, casesRun: casesPassed,
        discardedCases: discarded)
    case .invalid(let error):
      let reason =
        "could not generate case \(index): \(error)\n"
        + "replay: \(Property.seedVariable)=\(Report.hex(caseSeed))"
      return .aborted(
        reason, at: location, seed: runSeed, iterations: iterations, casesRun: casesPassed,
        discardedCases: discarded)
    case .failed(let value, let failure, let isIssue):
      var shrinker = Shrinker(
        failing: .init(source, value: value, failure: failure, isIssue: isIssue),
        maxAttempts: maxShrinkAttempts, search: search, run: runCase)
      shrinker.shrink()
      let counterexample = Counterexample(
        original: value, shrunk: shrinker.best.value, originalFailure: failure,
        failure: shrinker.best.failure, replaySeed: replaysWholeRun() ? runSeed : caseSeed,
        passedCases: casesPassed,
        shrinkSteps: shrinker.steps, shrinkAttempts: shrinker.attempts,
        isIssue: shrinker.best.isIssue)
      return CheckResult(
        outcome: .failed(counterexample), seed: runSeed, iterations: iterations,
        casesRun: casesPassed + 1, discardedCases: discarded,
        message: Report.failure(
          counterexample, at: location, iterations: iterations, discardedCases: discarded,
          subject: subject, describe: describe))
    }
  }

  /// The result of a run whose every case passed.
  var passed: CheckResult<Value> {
    CheckResult(
      outcome: .passed, seed: runSeed, iterations: iterations, casesRun: iterations,
      discardedCases: discarded, message: nil)
  }
}

/// The issues recorded while a property ran.
final class RecordedIssues: @unchecked Sendable {
  private let lock = NSLock()
  private var issues: [Issue] = []

  var values: [Issue] { lock.withLock { issues } }

  func append(_ issue: Issue) {
    lock.withLock { issues.append(issue) }
  }
}

extension CheckResult {
  static func aborted(
    _ reason: String, at location: String, seed: UInt64, iterations: Int = 0, casesRun: Int = 0,
    discardedCases: Int = 0
  ) -> CheckResult {
    CheckResult(
      outcome: .aborted(reason: reason), seed: seed, iterations: iterations, casesRun: casesRun,
      discardedCases: discardedCases, message: "Property check aborted at \(location): \(reason)")
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
