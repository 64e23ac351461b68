import Testing
import XCTest

/// Checks that `property` holds for generated inputs; on failure, shrinks the input and records
/// one issue at the caller's location.
///
/// The property either returns a `Bool` (`false` is a failure) or returns nothing and throws to
/// fail, typically with `require(_:_:)`; a thrown error is a failure in both forms, and its
/// description goes into the report. (This is one generic function rather than a `Bool` and a
/// `Void` overload, so multi-statement closures without `return` are not ambiguous; any other
/// return type aborts the check with an explanation.) A failed `#expect` or `#require` in the
/// property fails the case too, and shrinks like any failure: the issues of the cases tried
/// while searching and shrinking are caught — silently with the ``PropertyChecksTrait``
/// (`@Test(.propertyChecks)`), else as known issues, which Swift Testing lists; then the
/// shrunk case runs once more, so that its expectations are recorded as issues at their
/// lines, next to the report: the failure is reported once.
///
/// Runs 100 cases (or `iterations`; `STORES_PROPERTY_ITERATIONS` raises either), small ones
/// first; cases discarded with `assume(_:)` do not count. The first failure is shrunk to a
/// minimal counterexample, and the report — location, cases run, original and shrunk input,
/// shrink steps, failure reason and a `replay: STORES_PROPERTY_SEED=0x…` line — is recorded
/// with `Issue.record` inside a Swift Testing test, or with `XCTFail` otherwise (XCTest).
///
/// The property runs synchronously on the caller's actor, so a `@MainActor` test can touch
/// main-actor state (such as a store) in it.
///
/// ```swift
/// check(Gen<Int>.integer(in: 0...100).array()) { $0.reversed().reversed() == $0 }
/// check(actions) { actions in
///   let store = Store()
///   for action in actions { store.send(action) }
///   try require(store.count >= 0, "count went negative")
/// }
/// ```
///
/// - Parameters:
///   - gen: The generator of inputs.
///   - iterations: The number of cases, 100 by default; `STORES_PROPERTY_ITERATIONS` raises it.
///   - seed: The run seed; defaults to `STORES_PROPERTY_SEED` or a fresh random seed. The
///     replay seed of a report, passed here, runs the failing case first.
///   - fileID: The file named in a report: the caller's by default.
///   - filePath: The caller's file path, for the test framework's report.
///   - line: The line named in a report: the caller's by default.
///   - column: The column named in a report: the caller's by default.
///   - property: Returns whether the property holds (`Bool`), or nothing and throws on failure.
/// - Returns: The result, for callers that want to inspect it.
@discardableResult
public func check<Value, Verdict>(
  _ gen: Gen<Value>,
  iterations: Int? = nil,
  seed: UInt64? = nil,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ property: (Value) throws -> Verdict
) -> CheckResult<Value> {
  let result = Property.run(
    gen, iterations: iterations, seed: seed, fileID: fileID, line: Int(line), column: Int(column),
    property)
  if let message = result.message {
    recordFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  if let counterexample = result.counterexample, counterexample.isIssue {
    replayShrunk(fileID: fileID, filePath: filePath, line: line, column: column) {
      _ = try? property(counterexample.shrunk)
    }
  }
  return result
}

/// Runs `replay` — the property on its shrunk counterexample — once more, outside the search's
/// capture of issues, so that the property's own issues are recorded at their lines next to
/// the report (given at `fileID`…); where a recorder replaces the test framework, they go to
/// it instead.
func replayShrunk(
  fileID: String, filePath: StaticString, line: UInt, column: UInt, _ replay: () -> Void
) {
  guard let recorder = FailureRecording.recorder else {
    replay()
    return
  }
  let report = SourceLocation(
    fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  for issue in Property.issues(recordedBy: replay) {
    let comments = issue.comments.map { ": \($0.rawValue)" }.joined()
    recorder("\(issue.kind)\(comments)", issue.sourceLocation ?? report)
  }
}

/// Where failures go instead of the test framework while the library's own tests replace it.
enum FailureRecording {
  @TaskLocal static var recorder: (@Sendable (String, SourceLocation) -> Void)?
}

/// The failures StoreTesting reports while `body` runs — a ``StoreTester``'s, a `check`'s, a
/// state machine's — returned in order instead of recorded as issues: to test that a mistake
/// fails, and with which message, in a test that passes and prints no known issue.
///
/// ```swift
/// let failures = await failuresReported {
///   await tester.send(.addTodo(milk)) { $0.todos = [] }  // a deliberate mistake
/// }
/// #expect(failures.count == 1)
/// ```
///
/// Only StoreTesting's own failures are taken: an `#expect` in `body` records its issue as
/// usual.
public func failuresReported(
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> [String] {
  let failures = Protected<[String]>([])
  let record: @Sendable (String, SourceLocation) -> Void = { message, _ in
    failures.withLock { $0.append(message) }
  }
  try await FailureRecording.$recorder.withValue(record) { try await body() }
  return failures.withLock { $0 }
}

/// Records `message` as a Swift Testing issue at the given place when a test is running,
/// otherwise with `XCTFail`.
func recordFailure(
  _ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt
) {
  let location = SourceLocation(
    fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  if let recorder = FailureRecording.recorder {
    recorder(message, location)
  } else if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: location)
  } else {
    XCTFail(message, file: filePath, line: line)
  }
}
