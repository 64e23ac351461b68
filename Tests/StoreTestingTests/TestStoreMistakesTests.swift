import Foundation
import Testing

@testable import StoreTesting

/// A mistake a test of a store can make, of the kinds TCA's `TestStore` catches (its failure
/// tests and documentation: state changes not asserted or asserted wrong, closures that change
/// nothing or throw, actions received wrong or never, actions and effects left at the end), and
/// the words of the failure that names it.
struct StoreTestMistake: CustomTestStringConvertible, Sendable {
  /// The mistake, as a person would say it.
  let name: String
  /// What the failure's message must contain.
  let message: String
  /// A test making the mistake and nothing else, on a fresh `LookupStore` at the tester's
  /// defaults (its one-second timeout).
  let test: @MainActor @Sendable (TestClock) async -> Void

  var testDescription: String { name }

  /// A tester of a fresh `LookupStore` on `clock`, at its defaults.
  @MainActor
  static func tester(
    _ clock: TestClock, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line
  ) -> StoreTester<LookupStore> {
    StoreTester(
      LookupStore(environment: .test(clock: clock)), fileID: fileID, filePath: filePath,
      line: line)
  }

  /// The mistakes, in the order of a test's life: sending, receiving, ending.
  static let all: [StoreTestMistake] = [
    // Sending.
    StoreTestMistake(
      name: "a state change not asserted",
      message: "the state changed after sending .rename(item: 1, value: 5), but no closure asserts "
        + "a change (pass one that makes it): 1 difference from the expected value:\n  "
        + ".items[1].value: 5, expected 1"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.rename(item: 1, value: 5))
      await tester.finish()
    },
    StoreTestMistake(
      name: "a state change asserted with the wrong value",
      message: "items[1].value: 5, expected 6"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.rename(item: 1, value: 5)) { $0.items[1].value = 6 }
      await tester.finish()
    },
    StoreTestMistake(
      name: "a change asserted that the action does not make",
      message: "the state after sending .rename(item: 1, value: 5) differs: 1 difference from the "
        + "expected value:\n  .ticks: 0, expected 1"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.rename(item: 1, value: 5)) {
        $0.items[1].value = 5
        $0.ticks = 1
      }
      await tester.finish()
    },
    StoreTestMistake(
      name: "a closure that changes nothing, for an action that changes the state",
      message: "changes nothing (it starts from the state before the action); the state did change"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.rename(item: 1, value: 5)) { $0.items[1].value = 1 }
      await tester.finish()
    },
    StoreTestMistake(
      name: "a closure for an action that changes nothing",
      message: "the state did not change either: pass no closure"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.nothing) { $0.ticks = 0 }
      await tester.finish()
    },
    StoreTestMistake(
      name: "a closure that throws",
      message: "the expected state after sending .nothing threw"
    ) { clock in
      struct Oops: Error {}
      let tester = tester(clock)
      await tester.send(.nothing) { _ in throw Oops() }
      await tester.finish()
    },
    StoreTestMistake(
      name: "sending before receiving what effects sent",
      message: "effects sent actions that were not received before sending .nothing: .answer("
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.store.settle()
      await tester.send(.nothing)
      await tester.finish()
    },
    // Receiving.
    StoreTestMistake(
      name: "receiving when no effect runs",
      message: "expected to receive .tick, but no effect is running"
    ) { clock in
      let tester = tester(clock)
      await tester.receive(.tick)
      await tester.finish()
    },
    StoreTestMistake(
      name: "receiving another action than the one sent",
      message: "expected to receive .answer(\"b\"), received .answer(\"test meaning of a\")"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(.answer("b")) { $0.answer = "b" }
      await tester.finish()
    },
    StoreTestMistake(
      name: "a received action's state change not asserted",
      message: "the state changed after receiving .answer(\"test meaning of a\"), but no closure "
        + "asserts a change"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(.answer("test meaning of a"))
      await tester.finish()
    },
    StoreTestMistake(
      name: "a received action's state change asserted wrong",
      message: "answer: \"test meaning of a\", expected \"a\""
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(.answer("test meaning of a")) { $0.answer = "a" }
      await tester.finish()
    },
    StoreTestMistake(
      name: "a receive closure that changes nothing",
      message: "the closure asserting the state after receiving .answer(\"test meaning of a\") "
        + "changes nothing"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(.answer("test meaning of a")) { $0.answer = "" }
      await tester.finish()
    },
    StoreTestMistake(
      name: "receiving by a predicate the action does not meet",
      message: "expected to receive an action that matches { $0 == .tick }, received .answer("
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(where: { $0 == .tick })
      await tester.finish()
    },
    StoreTestMistake(
      name: "receiving by the wrong case",
      message: "expected to receive an action of the case \\.lookUp, received .answer("
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.receive(\.lookUp)
      await tester.finish()
    },
    StoreTestMistake(
      name: "receiving before advancing the test clock",
      message: "but nothing can arrive: every running effect sleeps on the TestClock — effect "
        + "'lookup' sleeps until 0.3 seconds"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await tester.receive(.answer("test meaning of a")) { $0.answer = "test meaning of a" }
      await clock.advance(by: .milliseconds(300))
      await tester.store.settle()
      tester.skipReceivedActions()
      await tester.finish()
    },
    StoreTestMistake(
      name: "receiving what an effect not on the clock does not send in time",
      message: "expected to receive .answer(\"fetched\"), but no action arrived within 1.0 "
        + "seconds; running: effect 'fetch'"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.fetch)
      await tester.receive(.answer("fetched")) { $0.answer = "fetched" }
      tester.skipInFlightEffects()
      await tester.finish()
    },
    // Ending.
    StoreTestMistake(
      name: "an action received and never asserted",
      message: "effects sent actions that were not received before finishing: .answer("
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.store.settle()
      await tester.finish()
    },
    StoreTestMistake(
      name: "a long-living effect left running on the test clock",
      message: "effects are still running at the end of the test, asleep on the TestClock: "
        + "effect 'timer'"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.startTimer)
      await tester.finish()
    },
    StoreTestMistake(
      name: "an effect not on the clock still running at the end",
      message: "effects are still running at the end of the test after 1.0 seconds: effect "
        + "'fetch'"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.fetch)
      await tester.finish()
    },
    StoreTestMistake(
      name: "a test without finish that leaves an action not received",
      message: "the test ended without calling finish(), and actions effects sent were never "
        + "received: .answer(\"test meaning of a\")"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.lookUp("a")) { $0.query = "a" }
      await clock.advance(by: .milliseconds(300))
      await tester.store.settle()
    },
    StoreTestMistake(
      name: "a test without finish that leaves an effect running",
      message: "the test ended without calling finish(), and effects were still running: "
        + "effect 'timer'"
    ) { clock in
      let tester = tester(clock)
      await tester.send(.startTimer)
    },
  ]
}

/// The mistakes TCA's `TestStore` catches, made in tests of a `StoreTester`: each fails with
/// one failure whose message names it. `STORES_MISTAKE_FIGURES=1` prints a line per mistake
/// with how long its test took to fail.
@MainActor
@Suite struct TestStoreMistakesTests {
  @Test func everyMistakeFailsOnceNamingIt() async {
    let printsFigures = ProcessInfo.processInfo.environment["STORES_MISTAKE_FIGURES"] != nil
    var caught = 0
    for mistake in StoreTestMistake.all {
      let clock = TestClock()
      let start = ContinuousClock.now
      let failures = await recordedFailures { await mistake.test(clock) }
      let elapsed = ContinuousClock.now - start
      let isCaught = failures.count == 1 && failures[0].message.contains(mistake.message)
      #expect(isCaught, "\(mistake.name): \(failures.map(\.message))")
      if isCaught { caught += 1 }
      if printsFigures {
        print("mistake \(isCaught ? "caught" : "MISSED") in \(elapsed): \(mistake.name)")
      }
    }
    if printsFigures {
      print("mistakes caught: \(caught) of \(StoreTestMistake.all.count)")
    }
    #expect(StoreTestMistake.all.count == 21)
    #expect(caught == StoreTestMistake.all.count)
  }
}
