import Testing

/// A Swift Testing trait for tests that call `check`: the issues that the cases tried while
/// searching and shrinking record (a failed `#expect` inside a property or a state machine)
/// are caught silently, so a failure is reported once — the report at the `check` line and
/// the shrunk case's own issues at their lines — with no "known issue" line per case tried.
///
/// ```swift
/// @Suite(.propertyChecks) struct TodosTests {
///   @Test func reversing() {
///     check(Gen<Int>.integer(in: 0...9).array()) { #expect($0.reversed().reversed() == $0) }
///   }
/// }
/// ```
///
/// Without it, `check` still fails a test once for the shrunk case, but catches the cases'
/// issues with `withKnownIssue`, which lists each as a known issue. Applied to a suite, it
/// applies to every test in it. Issues recorded outside a property's evaluation pass
/// through unchanged.
public struct PropertyChecksTrait: TestTrait, SuiteTrait, TestScoping {
  public var isRecursive: Bool { true }

  /// Scopes each test case (not the suite, nor a function around its cases, which would
  /// handle each issue twice).
  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await IssueCapture.$isAvailable.withValue(true) {
      try await Self.capture.provideScope(for: test, testCase: testCase, performing: function)
    }
  }

  /// Hands each issue recorded while a case is evaluated to that evaluation's collector.
  private static let capture = IssueHandlingTrait.compactMapIssues { issue in
    guard let collector = IssueCapture.collector else { return issue }
    collector.append(issue)
    return nil
  }
}

extension Trait where Self == PropertyChecksTrait {
  /// Catches the issues of the cases `check` tries without listing them (see
  /// ``PropertyChecksTrait``).
  public static var propertyChecks: Self { Self() }
}

/// Where the issues of one property evaluation go (see `Property.issues(recordedBy:)`).
enum IssueCapture {
  /// Whether the running test has the ``PropertyChecksTrait``.
  @TaskLocal static var isAvailable = false
  /// The issues of the evaluation running now, when the trait catches them.
  @TaskLocal static var collector: RecordedIssues?
}
