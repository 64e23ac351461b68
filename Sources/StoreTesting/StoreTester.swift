import Stores

/// Tests a store exhaustively, as TCA's `TestStore` does: each action sent and each action its
/// effects send back is asserted with the state change it makes, and the test fails on an
/// action nobody asserted and on effects still running at the end.
///
/// ```swift
/// let clock = TestClock()
/// let tester = StoreTester(SearchStore(environment: .test(clock: clock)))
/// await tester.send(.search("milk")) { $0.query = "milk" }
/// await clock.advance(by: .milliseconds(300))
/// await tester.receive(.showResults(["MILK"])) { $0.results = ["MILK"] }
/// await tester.finish()
/// ```
///
/// Each failure is recorded as an issue at the line of the call (Swift Testing or XCTest).
@MainActor
public final class StoreTester<S: Store> where S.Action: Equatable {
  /// The store under test.
  public let store: S
  /// The actions effects sent, with the state after each, not yet asserted with `receive`.
  private var received: [(action: S.Action, state: S.State)] = []
  /// The state the next assertion starts from.
  private var expected: S.State

  /// Tests `store` from its current state.
  public init(_ store: S) {
    self.store = store
    expected = store.state
    store.core.onEffectAction = { [weak self] action in
      guard let self else { return }
      received.append((action, self.store.state))
    }
  }

  /// Sends `action` and checks that the state becomes the previous one changed by `update`
  /// (no change when `update` is `nil`). Fails if effects sent actions not yet received.
  public func send(
    _ action: S.Action, _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    failOnUnreceived(before: "sending \(Report.describe(action))", at: location)
    store.send(action)
    check(store.state, after: "sending \(Report.describe(action))", update, at: location)
  }

  /// Waits (up to `timeout`) for the next action an effect sends, checks it is `action` and
  /// that the state becomes the previous one changed by `update`. (The timeout only bounds a
  /// test that fails: effects need the main actor and the thread pool, which tests running
  /// beside may keep busy for long.)
  public func receive(
    _ action: S.Action, timeout: Duration = .seconds(120),
    _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    let deadline = ContinuousClock.now + timeout
    while received.isEmpty && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    guard !received.isEmpty else {
      fail(
        "expected to receive \(Report.describe(action)), but no action arrived within \(timeout)",
        location)
      return
    }
    let next = received.removeFirst()
    guard next.action == action else {
      fail(
        "expected to receive \(Report.describe(action)), received \(Report.describe(next.action))",
        location)
      expected = next.state
      return
    }
    check(next.state, after: "receiving \(Report.describe(action))", update, at: location)
  }

  /// Ends the test: fails on actions received but not asserted, and on effects still running
  /// after `timeout` (advance the clock, or cancel them).
  public func finish(
    timeout: Duration = .seconds(120), fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    let deadline = ContinuousClock.now + timeout
    while store.core.isRunningEffects && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    failOnUnreceived(before: "finishing", at: location)
    if store.core.isRunningEffects {
      fail("effects are still running at the end of the test", location)
    }
  }

  private func check(
    _ actual: S.State, after step: String, _ update: ((inout S.State) throws -> Void)?,
    at location: Location
  ) {
    var wanted = expected
    do {
      try update?(&wanted)
    } catch {
      fail("the expected state after \(step) threw \(error)", location)
    }
    if actual != wanted {
      fail(
        "the state after \(step) is \(Report.describe(actual)), expected \(Report.describe(wanted))",
        location)
    }
    expected = actual
  }

  private func failOnUnreceived(before step: String, at location: Location) {
    guard !received.isEmpty else { return }
    let actions = received.map { Report.describe($0.action) }.joined(separator: ", ")
    fail("effects sent actions that were not received before \(step): \(actions)", location)
    expected = received.last?.state ?? expected
    received.removeAll()
  }

  private struct Location {
    var fileID: String
    var filePath: StaticString
    var line: UInt
    var column: UInt
  }

  private func fail(_ message: String, _ location: Location) {
    recordFailure(
      message, fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  }
}
