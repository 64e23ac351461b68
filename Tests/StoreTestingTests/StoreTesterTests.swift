import Foundation
import Observation
import Stores
import Testing

@testable import StoreTesting

/// A store with effects for the tester's own tests: a debounced lookup through an app
/// dependency, a timer, a fetch that waits in real time, and a list of 300 items.
@MainActor @Observable
final class LookupStore: Store {
  struct State: Equatable, Sendable {
    var query = ""
    var answer = ""
    var ticks = 0
    var items = (0..<300).map { Item(id: $0, value: $0) }
  }

  enum Action: Equatable, Sendable {
    case lookUp(String)
    case answer(String)
    case startTimer
    case tick
    case rename(item: Int, value: Int)
    case fetch
    case nothing
  }

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .lookUp(let query): state.query = query
    case .answer(let answer): state.answer = answer
    case .tick: state.ticks += 1
    case .rename(let item, let value): state.items[item].value = value
    case .startTimer, .fetch, .nothing: return false
    }
    return true
  }

  nonisolated static func effect(
    for action: Action, state: State, environment: StoreEnvironment
  ) -> Effect<Action> {
    switch action {
    case .lookUp(let query):
      return .run(id: "lookup", cancelInFlight: true) { send in
        try await environment.sleep(.milliseconds(300))
        await send(.answer(environment.glossary.meaning(query)))
      }
    case .startTimer:
      return .run(id: "timer") { send in
        while true {
          try await environment.sleep(.seconds(1))
          await send(.tick)
        }
      }
    case .fetch:
      return .run(id: "fetch") { send in
        try await Task.sleep(for: .seconds(3_600))  // In real time, as a network call would.
        await send(.answer("fetched"))
      }
    default: return .none
    }
  }

  @ObservationIgnored let core: StoreCore<LookupStore>

  init(environment: StoreEnvironment) {
    core = StoreCore(state: State(), environment: environment)
  }
}

/// The cases of `LookupStore.Action` the tests receive by case path: a property per case,
/// named as the case, as an app writes them for its own actions.
extension LookupStore.Action {
  var lookUp: String? {
    guard case .lookUp(let query) = self else { return nil }
    return query
  }

  var answer: String? {
    guard case .answer(let answer) = self else { return nil }
    return answer
  }

  var tick: Void? {
    guard case .tick = self else { return nil }
    return ()
  }
}

/// An app's own dependency: where meanings are looked up.
struct Glossary: Sendable {
  var meaning: @Sendable (String) -> String
}

enum GlossaryKey: StoreDependencyKey {
  static let liveValue = Glossary { "the meaning of \($0), from the network" }
  static let testValue = Glossary { "test meaning of \($0)" }
}

extension StoreEnvironment {
  var glossary: Glossary {
    get { self[GlossaryKey.self] }
    set { self[GlossaryKey.self] = newValue }
  }
}

/// Runs `body` with the test framework replaced by a recorder; returns what it recorded.
@MainActor
func recordedFailures(_ body: () async -> Void) async -> [(message: String, line: Int)] {
  let failures = Protected<[(message: String, line: Int)]>([])
  let record: @Sendable (String, SourceLocation) -> Void = { message, location in
    failures.withLock { $0.append((message, location.line)) }
  }
  await FailureRecording.$recorder.withValue(record) { await body() }
  return failures.withLock { $0 }
}

@MainActor
@Suite struct StoreTesterTests {
  let clock = TestClock()

  func makeTester(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> StoreTester<LookupStore> {
    let tester = StoreTester(
      LookupStore(environment: .test(clock: clock)), fileID: fileID, filePath: filePath,
      line: line)
    // Waits end at once when every effect sleeps on the clock; otherwise the effects of
    // these tests are due, and may only be late when other tests keep the machine busy.
    tester.timeout = .seconds(600)
    return tester
  }

  @Test func aPassingTest() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("milk")) { $0.query = "milk" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(.answer("test meaning of milk")) { $0.answer = "test meaning of milk" }
      await tester.finish()
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test func aTestThatForgetsFinishFailsAtTheTestersRelease() async {
    var lines: [Int] = []
    let failures = await recordedFailures {
      lines.append(#line + 1)
      let unreceived = makeTester()
      await unreceived.send(.lookUp("milk")) { $0.query = "milk" }
      await clock.advance(by: .milliseconds(300))
      await unreceived.store.settle()  // The answer is in.
      lines.append(#line + 1)
      let running = makeTester()
      await running.send(.startTimer)
    }
    #expect(failures.count == 2, "\(failures)")
    #expect(failures.map(\.line).sorted() == lines.sorted())
    let messages = failures.map(\.message)
    #expect(messages.allSatisfy { $0.hasPrefix("the test ended without calling finish(), and ") })
    #expect(
      messages.contains { $0.contains("never received: .answer(\"test meaning of milk\")") },
      "\(messages)")
    #expect(messages.contains { $0.contains("still running: effect 'timer'") }, "\(messages)")
  }

  @Test func aClosureThatChangesNothingFailsNamingTheFields() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("milk")) { $0.query = "" }
      await tester.send(.nothing) { $0.ticks = 0 }
      tester.skipInFlightEffects()
      await tester.finish()
    }
    #expect(failures.count == 2, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "changes nothing (it starts from the state before the action)")
        == true)
    #expect(failures.first?.message.contains("query: \"milk\", expected \"\"") == true)
    #expect(failures.last?.message.contains("the state did not change either") == true)
  }

  @Test func assigningTheStoresStateInTheClosureAssertsNoChange() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.rename(item: 7, value: 70)) { $0 = tester.store.state }
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    #expect(failures.first?.message.contains("[7].value: 70, expected 7") == true)
  }

  @Test func assigningTheStoresStateInAReceiveClosureAssertsNoChange() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("milk")) { $0.query = "milk" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(.answer("test meaning of milk")) { $0 = tester.store.state }
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "changes nothing (it starts from the state before the action)") == true,
      "\(failures)")
  }

  @Test func aForgottenReceiveFailsAtOnceNamingTheSleepingEffect() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("milk")) { $0.query = "milk" }
      await tester.receive(.answer("test meaning of milk")) { $0.answer = "test meaning of milk" }
      await clock.advance(by: .milliseconds(300))
      await tester.finish()
    }
    #expect(failures.count == 2, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "nothing can arrive: every running effect sleeps on the TestClock — effect 'lookup' "
          + "sleeps until 0.3 seconds (the clock is at 0.0 seconds); advance the clock") == true)
    #expect(failures.last?.message.contains("not received before finishing") == true)
  }

  @Test func finishFailsAtOnceForAnEffectAsleepOnTheClock() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.startTimer)
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "asleep on the TestClock: effect 'timer' sleeps until 1.0 seconds") == true)
  }

  @Test func anEffectNotOnTheClockFailsAfterTheTestersTimeoutNamingIt() async {
    #expect(StoreTester(LookupStore(environment: .test(clock: clock))).timeout == .seconds(1))
    let failures = await recordedFailures {
      let tester = makeTester()
      tester.timeout = .milliseconds(50)
      await tester.send(.fetch)
      await tester.receive(.answer("fetched")) { $0.answer = "fetched" }
      await tester.finish()
    }
    #expect(failures.count == 2, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "expected to receive .answer(\"fetched\"), but no action arrived within 0.05 seconds; "
          + "running: effect 'fetch'") == true, "\(failures)")
    #expect(
      failures.last?.message.contains(
        "effects are still running at the end of the test after 0.05 seconds: effect 'fetch'")
        == true, "\(failures)")
  }

  @Test func skippedActionsAreAppliedAndNotAsserted() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("milk")) { $0.query = "milk" }
      await clock.advance(by: .milliseconds(300))
      await tester.store.settle()  // The answer is in.
      tester.skipReceivedActions()
      #expect(tester.store.state.answer == "test meaning of milk")
      await tester.send(.lookUp("tea")) { $0.query = "tea" }
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "asleep on the TestClock: effect 'lookup' sleeps until 0.6 seconds") == true,
      "\(failures)")
  }

  @Test func aOneFieldDifferenceInALargeStateIsShownAsThatField() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.rename(item: 299, value: -1)) { $0.items[298].value = -1 }
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    let message = failures.first?.message ?? ""
    #expect(message.contains("2 differences from the expected value:"))
    #expect(message.contains("items[298].value: 298, expected -1"))
    #expect(message.contains("items[299].value: -1, expected 299"))
    #expect(message.count < 400, "no dump of the state: \(message.count) characters")
  }

  @Test func receiveByPredicateOrCase() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(\.answer) { $0.answer = "test meaning of a" }
      await tester.send(.lookUp("b")) { $0.query = "b" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(where: { $0 == .answer("test meaning of b") }) {
        $0.answer = "test meaning of b"
      }
      await tester.finish()
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test func receiveByCasePathNeedsNoPayload() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(case: LookupStore.Action.answer) { $0.answer = "test meaning of a" }
      await tester.finish()
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test func receiveByCasePathFailsOnAnotherCaseWithTheSamePayload() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      // `.answer` and `.lookUp` both carry a String: only the case tells them apart.
      await tester.receive(case: LookupStore.Action.lookUp, timeout: .milliseconds(100))
      tester.exhaustivity = .off
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    #expect(
      failures.first?.message.contains(
        "expected to receive an action of the case LookupStore.Action.lookUp, received "
          + ".answer(\"test meaning of a\")") == true, "\(failures)")
  }

  @Test func receiveByKeyPathTakesAnyPayloadAndReturnsIt() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      let answer = await tester.receive(\.answer) { $0.answer = "test meaning of a" }
      #expect(answer == "test meaning of a")
      await tester.send(.startTimer)
      await clock.advance(by: .seconds(1))
      await tester.receive(\.tick) { $0.ticks = 1 }  // A case without payload.
      tester.skipInFlightEffects()
      await tester.finish()
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test func receiveByKeyPathOfAnotherCaseNamesBothCases() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      // `.answer` and `.lookUp` both carry a String: only the case tells them apart.
      let payload = await tester.receive(
        \LookupStore.Action.lookUp,
        timeout: .milliseconds(100))
      #expect(payload == nil)
      tester.exhaustivity = .off
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    #expect(
      failures.first?.message
        == "expected to receive an action of the case \\LookupStore.Action.lookUp, received "
        + ".answer(\"test meaning of a\")", "\(failures)")
  }

  @Test func aCallSiteNamesTheFirstArgumentAsWritten() throws {
    let folder = TemporaryFolder()
    let file = folder.write(
      """
      await tester.receive(\\.finishImport)
          await tester.receive(
            \\.showResults ,
            timeout: .seconds(1)) { $0.results = [f(x), y] }
      await tester.receive(where: { f($0, (1, 2)) })
      """, to: "Calls.swift")
    #expect(CallSite.firstArgument(filePath: file.path, line: 1, column: 1) == "\\.finishImport")
    #expect(CallSite.firstArgument(filePath: file.path, line: 2, column: 5) == "\\.showResults")
    #expect(
      CallSite.firstArgument(filePath: file.path, line: 5, column: 1)
        == "{ f($0, (1, 2)) }")
    #expect(CallSite.firstArgument(filePath: file.path, line: 9, column: 1) == nil)
    #expect(CallSite.firstArgument(filePath: folder.file("none").path, line: 1, column: 1) == nil)
  }

  @Test func aCasePathMatchesLabelledAndSeveralPayloads() {
    enum Action: Equatable {
      case one(x: Int)
      case two(a: Int, b: String)
      case three(Int, String)
    }
    #expect(StoreTester<LookupStore>.matches(Action.one(x: 1), case: Action.one))
    #expect(StoreTester<LookupStore>.matches(Action.two(a: 1, b: "b"), case: Action.two))
    #expect(StoreTester<LookupStore>.matches(Action.three(1, "b"), case: Action.three))
    #expect(!StoreTester<LookupStore>.matches(Action.three(1, "b"), case: Action.two))
  }

  @Test func nonExhaustiveTestsAssertOnlyWhatTheyName() async {
    let failures = await recordedFailures {
      let tester = makeTester()
      tester.exhaustivity = .off
      await tester.send(.startTimer)
      await tester.send(.lookUp("a"))
      await clock.advance(by: .seconds(3))
      await tester.receive(.tick) { $0.ticks = 1 }
      await tester.send(.rename(item: 1, value: 5)) { $0.items[1].value = 6 }
      await tester.finish()
    }
    #expect(failures.count == 1, "\(failures)")
    #expect(failures.first?.message.contains("items[1].value: 5, expected 6") == true)
  }

  @Test func appsAddDependenciesWithTestDefaults() {
    var environment = StoreEnvironment.test(clock: clock)
    #expect(environment.glossary.meaning("x") == "test meaning of x")
    environment.glossary = Glossary { "mock \($0)" }
    #expect(environment.glossary.meaning("x") == "mock x")
    #expect(StoreEnvironment.live.glossary.meaning("x") == "the meaning of x, from the network")
  }
}
