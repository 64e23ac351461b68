import Foundation
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
/// It cannot be fooled:
/// - a test that ends without ``finish(timeout:fileID:filePath:line:column:)`` still fails,
///   when the tester is released, for actions not received and effects still running (at the
///   line that made the tester);
/// - an assertion closure starts from the state *before* the action, and runs before the
///   action is applied — the actions effects send are held until `receive` asserts them (or
///   they are skipped) — so `$0 = tester.store.state` in it asserts no change, in `send` and
///   `receive` alike; a closure that changes nothing fails (pass no closure when the action
///   changes nothing);
/// - ``receive(_:timeout:_:fileID:filePath:line:column:)->()`` and `finish` fail at once when
///   every running effect sleeps on the ``TestClock`` (nothing can happen until the test
///   advances it), naming each effect by id and the time it waits for; otherwise they wait
///   up to ``timeout``, one second unless set;
/// - every state that differs is shown as the fields that differ (`Diff`), never as a dump.
///
/// With ``exhaustivity`` set to `.off`, it asserts only what the test names: a closure is
/// applied to the actual state (fields it does not set are not compared), `receive` skips
/// the actions before the one named, and actions not received or effects still running at
/// the end are not failures (see also ``skipReceivedActions()`` and ``skipInFlightEffects()``).
///
/// Each failure is recorded as an issue at the line of the call (Swift Testing or XCTest).
@MainActor
public final class StoreTester<S: Store> where S.Action: Equatable {
  /// Whether every change must be asserted (`.on`, the default) or only what a test names.
  public enum Exhaustivity: Sendable {
    /// Every state change, received action and running effect is asserted.
    case on
    /// Only the fields a closure sets and the actions `receive` names are asserted.
    case off
  }

  /// The store under test.
  public let store: S
  /// How long `receive` and `finish` wait for effects that do not sleep on a ``TestClock``
  /// (effects need the main actor and the thread pool, which tests running beside may keep
  /// busy); one second by default.
  public var timeout: Duration = .seconds(1)
  /// Whether every change must be asserted; `.on` by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet { updateLedger() }
  }
  /// The actions effects sent, not yet asserted with `receive`, in order: held, not applied
  /// to the store until they are asserted (or skipped), so that an assertion closure — which
  /// starts from the state before the action — sees the store in that state too.
  private var received: [S.Action] = []
  /// The state the next assertion starts from.
  private var expected: S.State
  /// Whether `finish` ran (then releasing the tester checks nothing).
  private var isFinished = false
  /// Whether effects running now are not to fail the test (``skipInFlightEffects()``).
  private var skipsRunningEffects = false
  /// Where the tester was made: failures found at its release are reported there.
  private let origin: Location

  /// Tests `store` from its current state.
  public init(
    _ store: S, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.store = store
    expected = store.state
    origin = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    store.core.holdEffectAction = { [weak self] action in
      guard let self else { return }
      received.append(action)
      if exhaustivity == .on && !isFinished {
        ledger.withLock { $0.received.append(Report.describe(action)) }
      }
    }
    store.core.onEffectsChanged = { [weak self] in self?.updateLedger() }
  }

  deinit {
    // Nonisolated, so that it runs in the test's task, whose task-local values say where
    // issues go (an isolated deinit runs without them); it reads only the ledger.
    guard let message = ledger.withLock({ $0.unfinished }) else { return }
    recordFailure(
      message, fileID: origin.fileID, filePath: origin.filePath, line: origin.line,
      column: origin.column)
  }

  /// What the release of the tester checks, kept up to date on the main actor.
  private struct Ledger {
    var isChecking = true
    var received: [String] = []
    var effects: [String] = []

    /// The failure of a test that ends now without `finish`, if any.
    var unfinished: String? {
      guard isChecking else { return nil }
      var left: [String] = []
      if !received.isEmpty {
        left.append(
          "actions effects sent were never received: \(received.joined(separator: ", "))")
      }
      if !effects.isEmpty {
        left.append("effects were still running: \(effects.joined(separator: ", "))")
      }
      guard !left.isEmpty else { return nil }
      return "the test ended without calling finish(), and " + left.joined(separator: "; ")
        + " — receive them, or await tester.finish()"
    }
  }
  private let ledger = Protected(Ledger())

  /// Brings the ledger up to date, after an assertion or when effects start or end.
  /// O(actions not yet received + running effects).
  private func updateLedger() {
    let isChecking = !isFinished && exhaustivity == .on
    let received = isChecking ? received.map { Report.describe($0) } : []
    let effects =
      isChecking && !skipsRunningEffects ? store.core.runningEffects.map(Self.name) : []
    ledger.withLock { $0 = Ledger(isChecking: isChecking, received: received, effects: effects) }
  }

  /// Sends `action` and checks that the state becomes the previous one changed by `update`,
  /// which runs before the action is sent (no change when `update` is `nil`; a closure that
  /// changes nothing fails). Fails if effects sent actions not yet received.
  public func send(
    _ action: S.Action, _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    perform(
      "sending \(Report.describe(action))", update,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column)
    ) { store.send(action) }
  }

  /// Undoes the store's latest step (`undo()` of `Store`), and checks that the state becomes the
  /// previous one changed by `update`, as ``send(_:_:fileID:filePath:line:column:)`` does.
  /// Fails, changing nothing, when there is no step to undo.
  public func undo(
    _ update: ((inout S.State) throws -> Void)? = nil, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let step = store.undoHistory.undoSteps.last else {
      return fail("expected to undo a step, but there is no step to undo", location)
    }
    perform("undoing \(Report.describe(step.name))", update, at: location) { store.undo() }
  }

  /// Redoes the store's latest step undone (`redo()` of `Store`), and checks that the state
  /// becomes the previous one changed by `update`, as ``undo(_:fileID:filePath:line:column:)``
  /// does. Fails, changing nothing, when there is no step to redo.
  public func redo(
    _ update: ((inout S.State) throws -> Void)? = nil, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let step = store.undoHistory.redoSteps.last else {
      return fail("expected to redo a step, but there is no step to redo", location)
    }
    perform("redoing \(Report.describe(step.name))", update, at: location) { store.redo() }
  }

  /// Runs `change` — a send, an undo — and checks that the state becomes the previous one
  /// changed by `update`; fails first if effects sent actions not yet received.
  private func perform(
    _ step: String, _ update: ((inout S.State) throws -> Void)?, at location: Location,
    _ change: () -> Void
  ) {
    if exhaustivity == .on {
      failOnUnreceived(before: step, at: location)
    }
    let wanted = exhaustivity == .on ? apply(update, to: expected, after: step, at: location) : nil
    change()
    check(store.state, wanted: wanted, after: step, update, at: location)
    updateLedger()
  }

  /// Waits for the next action an effect sends, checks it is `action` and that the state
  /// becomes the previous one changed by `update`. Fails at once when every running effect
  /// sleeps on the test clock, else after `timeout` (the tester's ``timeout`` by default).
  /// Non-exhaustive, it skips the received actions before one equal to `action`.
  public func receive(
    _ action: S.Action, timeout: Duration? = nil,
    _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      Report.describe(action), where: { $0 == action }, timeout: timeout, update,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Like ``receive(_:timeout:_:fileID:filePath:line:column:)->()``, for the next action for
  /// which `matches` holds: `receive(where: { if case .showResults = $0 { true } else { false } })`.
  /// A failure names the predicate as the call writes it (read from the test's source).
  public func receive(
    where matches: @escaping (S.Action) -> Bool, timeout: Duration? = nil,
    _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      "an action that matches \(location.firstArgument ?? "the predicate")", where: matches,
      timeout: timeout, update, at: location)
  }

  /// Like ``receive(_:timeout:_:fileID:filePath:line:column:)->()``, for the next action of the
  /// case `casePath` names, whatever its payload, and returns that payload:
  /// `receive(\.finishImport)`, `let results = await tester.receive(\.showResults)`.
  ///
  /// `casePath` is a key path to a property of the action named as the case, which holds the
  /// case's payload for an action of that case and `nil` for any other (`Void?` for a case
  /// without payload) — a case path, with no macro. The built-in stores' actions have one per
  /// case; for an action enum of your own, write one per case you receive:
  ///
  /// ```swift
  /// extension SearchStore.Action {
  ///   var showResults: [String]? {
  ///     guard case .showResults(let results) = self else { return nil }
  ///     return results
  ///   }
  /// }
  /// ```
  ///
  /// A failure names the case as the call writes it (`\.showResults`, read from the test's
  /// source) and the action received.
  ///
  /// - Returns: The payload of the action received, or `nil` when it was not of that case
  ///   (which fails the test).
  @discardableResult
  public func receive<Payload>(
    _ casePath: KeyPath<S.Action, Payload?>, timeout: Duration? = nil,
    _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async -> Payload? {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    let received = await receive(
      "an action of the case \(location.firstArgument ?? "\(casePath)")",
      where: { $0[keyPath: casePath] != nil }, timeout: timeout, update, at: location)
    return received?[keyPath: casePath] ?? nil
  }

  /// Like ``receive(_:timeout:_:fileID:filePath:line:column:)->()``, for the next action of the
  /// same case as `example`, whatever its payload: `receive(caseOf: .showResults([]))`.
  @available(
    *, deprecated,
    message:
      "receive the case by its case path, with no payload to make up: receive(\\.showResults)"
  )
  public func receive(
    caseOf example: S.Action, timeout: Duration? = nil,
    _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let name = Self.caseName(example)
    await receive(
      "an action .\(name)(…)", where: { Self.caseName($0) == name }, timeout: timeout, update,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Like ``receive(_:timeout:_:fileID:filePath:line:column:)->()``, for the next action of the
  /// case `make` makes, whatever its payload — a case path, with no macro: `make` is the case
  /// itself, `receive(case: SearchStore.Action.showResults)`, for any action enum.
  ///
  /// An action is of that case when `make`, given the action's own payload, makes the same
  /// action.
  public func receive<Payload>(
    case make: @escaping (Payload) -> S.Action, timeout: Duration? = nil,
    _ update: ((inout S.State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      "an action of the case \(location.firstArgument ?? "given")",
      where: { Self.matches($0, case: make) }, timeout: timeout, update, at: location)
  }

  /// Whether `action` is of the case `make` makes: `make`, given the action's own payload,
  /// makes the same action.
  package static func matches<Action: Equatable, Payload>(
    _ action: Action, case make: (Payload) -> Action
  ) -> Bool {
    payload(of: action, as: Payload.self).map(make) == action
  }

  /// The payload of `action`, if it is a `Payload`: the associated value of its case, or its
  /// associated values as a tuple (a single labelled one unwrapped).
  private static func payload<Action, Payload>(of action: Action, as: Payload.Type) -> Payload? {
    guard let value = Mirror(reflecting: action).children.first?.value else { return nil }
    if let payload = value as? Payload { return payload }
    let inner = Mirror(reflecting: value).children
    guard inner.count == 1 else { return nil }
    return inner.first?.value as? Payload
  }

  /// Ends the test: waits for running effects to end (failing at once when they all sleep on
  /// the test clock, else after `timeout`), then fails on actions received but not asserted
  /// and on effects still running. Non-exhaustive, it fails on neither.
  public func finish(
    timeout: Duration? = nil, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    isFinished = true
    updateLedger()
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard exhaustivity == .on else { return skipReceivedActions() }
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while store.core.isRunningEffects && !skipsRunningEffects && stalledEffects() == nil
      && ContinuousClock.now < deadline
    {
      try? await Task.sleep(for: .milliseconds(1))
    }
    failOnUnreceived(before: "finishing", at: location)
    guard store.core.isRunningEffects && !skipsRunningEffects else { return }
    if let stalled = stalledEffects() {
      fail(
        "effects are still running at the end of the test, asleep on the TestClock: \(stalled)"
          + " — advance the clock, or cancel them", location)
    } else {
      fail(
        "effects are still running at the end of the test after \(timeout ?? self.timeout): "
          + describeEffects(), location)
    }
  }

  /// Applies the actions received and not yet asserted without asserting them, taking the
  /// state after the last one as the state the next assertion starts from.
  public func skipReceivedActions() {
    apply(received.count)
    updateLedger()
  }

  /// Applies the first `count` actions received, in order, and starts the next assertion
  /// from the state after them.
  private func apply(_ count: Int) {
    for action in received.prefix(count) { store.send(action) }
    received.removeFirst(count)
    expected = store.state
  }

  /// Lets the effects running now (and those they start) run on: the end of the test does
  /// not fail for them.
  public func skipInFlightEffects() {
    skipsRunningEffects = true
    updateLedger()
  }

  // MARK: - Checking

  /// Waits for the next action and asserts it (see the public `receive` methods); returns it
  /// when it `matches`. `wanted`, what the test expected, is made only for a failure.
  @discardableResult
  private func receive(
    _ wanted: @autoclosure () -> String, where matches: (S.Action) -> Bool, timeout: Duration?,
    _ update: ((inout S.State) throws -> Void)?, at location: Location
  ) async -> S.Action? {
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while true {
      if exhaustivity == .off, let index = received.firstIndex(where: matches) {
        apply(index)
      }
      if !received.isEmpty && (exhaustivity == .on || matches(received[0])) { break }
      if !store.core.isRunningEffects {
        fail("expected to receive \(wanted()), but no effect is running", location)
        return nil
      }
      if let stalled = stalledEffects() {
        fail(
          "expected to receive \(wanted()), but nothing can arrive: every running effect sleeps "
            + "on the TestClock — \(stalled); advance the clock", location)
        return nil
      }
      guard ContinuousClock.now < deadline else {
        // Late because the main actor was busy? Let what waits for it run, then look again.
        for _ in 0..<10 { await Task.yield() }
        if !received.isEmpty { continue }
        fail(
          "expected to receive \(wanted()), but no action arrived within "
            + "\(timeout ?? self.timeout); running: \(describeEffects())", location)
        return nil
      }
      try? await Task.sleep(for: .milliseconds(1))
    }
    let next = received.removeFirst()
    defer { updateLedger() }
    guard matches(next) else {
      fail("expected to receive \(wanted()), received \(Report.describe(next))", location)
      store.send(next)
      expected = store.state
      return nil
    }
    let step = "receiving \(Report.describe(next))"
    // The closure runs before the action is applied: the store is in the state it starts from.
    let wantedState =
      exhaustivity == .on ? apply(update, to: expected, after: step, at: location) : nil
    store.send(next)
    check(store.state, wanted: wantedState, after: step, update, at: location)
    return next
  }

  /// `state` changed by `update` (`nil` when the closure throws or changes nothing, which are
  /// reported). `nil` `update` leaves it as it is.
  private func apply(
    _ update: ((inout S.State) throws -> Void)?, to state: S.State, after step: String,
    at location: Location
  ) -> S.State? {
    guard let update else { return state }
    var changed = state
    do {
      try update(&changed)
    } catch {
      fail("the expected state after \(step) threw \(error)", location)
      return nil
    }
    return changed
  }

  /// Checks `actual` against `wanted` (exhaustive; `nil` when the closure failed) or against
  /// itself changed by `update` (non-exhaustive), then starts the next assertion from it.
  private func check(
    _ actual: S.State, wanted: S.State?, after step: String,
    _ update: ((inout S.State) throws -> Void)?, at location: Location
  ) {
    defer { expected = actual }
    guard exhaustivity == .on else {
      guard let asserted = apply(update, to: actual, after: step, at: location) else { return }
      if asserted != actual {
        fail("the state after \(step) differs: \(difference(actual, asserted))", location)
      }
      return
    }
    guard let wanted else { return }
    if update != nil && wanted == expected {
      let change =
        actual == expected
        ? "the state did not change either: pass no closure"
        : "the state did change: \(difference(actual, expected))"
      fail(
        "the closure asserting the state after \(step) changes nothing (it starts from the "
          + "state before the action); \(change)", location)
    } else if actual != wanted && update == nil {
      fail(
        "the state changed after \(step), but no closure asserts a change (pass one that makes "
          + "it): \(difference(actual, wanted))", location)
    } else if actual != wanted {
      fail("the state after \(step) differs: \(difference(actual, wanted))", location)
    }
  }

  /// How `actual` differs from `expected`, field by field.
  private func difference(_ actual: S.State, _ expected: S.State) -> String {
    Diff.report(actual, expected)
      ?? "\(Report.describe(actual)), expected \(Report.describe(expected))"
  }

  private func failOnUnreceived(before step: String, at location: Location) {
    guard !received.isEmpty else { return }
    fail(
      "effects sent actions that were not received before \(step): \(describeReceived())",
      location)
    skipReceivedActions()
  }

  /// Every running effect, each by id and the time it sleeps until on the test clock, when
  /// they all sleep on it; `nil` when one runs (or the store's clock is not a ``TestClock``).
  private func stalledEffects() -> String? {
    let effects = store.core.runningEffects
    guard !effects.isEmpty, let clock = store.core.environment.effectContexts as? TestClock
    else { return nil }
    var descriptions: [String] = []
    for effect in effects {
      guard let context = effect.context, let deadline = clock.deadline(ofSleeping: context)
      else { return nil }
      descriptions.append("\(Self.name(effect)) sleeps until \(deadline)")
    }
    return descriptions.joined(separator: ", ") + " (the clock is at \(clock.now))"
  }

  private func describeEffects() -> String {
    let effects = store.core.runningEffects
    return effects.isEmpty ? "none" : effects.map(Self.name).joined(separator: ", ")
  }

  private func describeReceived() -> String {
    received.map { Report.describe($0) }.joined(separator: ", ")
  }

  private static func name(_ effect: RunningEffect) -> String {
    effect.id.map { "effect '\($0)'" } ?? "an effect without id"
  }

  /// The name of an enum case, without its payload.
  private static func caseName(_ action: S.Action) -> String {
    Mirror(reflecting: action).children.first?.label ?? "\(action)"
  }

  private struct Location {
    var fileID: String
    var filePath: StaticString
    var line: UInt
    var column: UInt

    /// The first argument of the call here, as the test's source writes it (see ``CallSite``).
    var firstArgument: String? {
      CallSite.firstArgument(
        filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
  }

  private func fail(_ message: String, _ location: Location) {
    recordFailure(
      message, fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  }
}
