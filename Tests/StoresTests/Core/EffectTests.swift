import Foundation
import Stores
import Testing

@testable import StoreTesting

/// Effects: started for every action with the state after it, cancellable by id and in
/// flight, cancelled with their store (which they never keep alive), their errors kept, their
/// actions sent like any other — through the file of a store on a file.
@MainActor
@Suite("Effects")
struct EffectTests {
  let clock = TestClock()
  var environment: StoreEnvironment { .test(clock: clock) }

  @Test("an effect starts after the reducer, with the state after it, and its action comes back")
  func debouncedSearch() async {
    let tester = StoreTester(SearchStore(environment: environment))
    await tester.send(.search("milk")) { $0.query = "milk" }
    await clock.advance(by: .milliseconds(299))
    await tester.send(.nothing)  // fails if the effect sent anything before its time
    await clock.advance(by: .milliseconds(1))
    await tester.receive(.showResults(["MILK", "milk!"])) { $0.results = ["MILK", "milk!"] }
    await tester.finish()
  }

  @Test("run(id:cancelInFlight:) cancels the running effect with the id: the latest wins")
  func cancelInFlight() async {
    let tester = StoreTester(SearchStore(environment: environment))
    await tester.send(.search("m")) { $0.query = "m" }
    await clock.advance(by: .milliseconds(200))
    await tester.send(.search("mi")) { $0.query = "mi" }
    await clock.advance(by: .milliseconds(200))
    await tester.send(.search("mil")) { $0.query = "mil" }
    await clock.advance(by: SearchStore.debounce)
    await tester.receive(.showResults(["MIL", "mil!"])) { $0.results = ["MIL", "mil!"] }
    await tester.finish()
  }

  @Test("effects start for actions that change nothing, and cancel(id:) stops them")
  func cancelByID() async {
    let tester = StoreTester(SearchStore(environment: environment))
    await tester.send(.startTimer)
    for tick in 1...3 {
      await clock.advance(by: .seconds(1))
      await tester.receive(.tick) { $0.ticks = tick }
    }
    await tester.send(.stopTimer)
    await clock.advance(by: .seconds(10))
    await tester.finish()
    #expect(tester.store.state.ticks == 3)
  }

  @Test("releasing a store cancels its effects, and a running effect never keeps it alive")
  func release() async throws {
    let cancelled = Flag()
    var environment = environment
    let sleep = environment.sleep
    environment.sleep = { duration in
      do {
        try await sleep(duration)
      } catch {
        cancelled.set()
        throw error
      }
    }
    var store: SearchStore? = SearchStore(environment: environment)
    weak let weakStore = store
    store?.send(.startTimer)
    await Task.yield()
    store = nil
    #expect(weakStore == nil, "the effect does not keep the store alive")
    #expect(await eventually { cancelled.isSet }, "the effect was cancelled")
  }

  @Test("an error thrown by an effect ends it and is kept in lastError")
  func errors() async {
    let store = SearchStore(environment: environment)
    store.send(.fail)
    await store.settle()
    #expect(store.lastError as? SearchStore.Failure == SearchStore.Failure())
  }

  @Test("settle returns when every effect is done, also those started by their actions")
  func settle() async {
    let store = SearchStore(environment: environment)
    await store.settle()
    store.send(.burst(50))
    await store.settle()
    #expect(store.state.results.count == 1)
    #expect(!store.core.isRunningEffects)
  }

  @Test("an effect's action goes through the transaction of a store on a file")
  func throughTheFile() async throws {
    let folder = TemporaryFolder()
    let url = folder.file("notes.json")
    let store = try NotesStore(contentsOf: url, environment: environment)
    let note = NotesStore.Note(text: "later", date: Date(timeIntervalSinceReferenceDate: 0))
    try store.trySend(.addLater(note))
    #expect(!FileManager.default.fileExists(atPath: url.path), "nothing yet")
    let other = try NotesStore(contentsOf: url)
    try other.trySend(.add(.init(text: "meanwhile", date: note.date)))
    await clock.advance(by: .seconds(1))
    await store.settle()
    #expect(store.state.notes.map(\.text) == ["meanwhile", "later"])
    #expect(try NotesStore(contentsOf: url).state == store.state)
  }

  @Test("the tester fails on an action nobody received and on effects left running")
  func exhaustive() async {
    let failures = Protected<[String]>([])
    let record: @Sendable (String, SourceLocation) -> Void = { message, _ in
      failures.withLock { $0.append(message) }
    }
    await FailureRecording.$recorder.withValue(record) {
      let tester = StoreTester(SearchStore(environment: environment))
      await tester.send(.search("x")) { $0.query = "x" }
      await clock.advance(by: SearchStore.debounce)
      await tester.store.settle()
      await tester.send(.startTimer)
      await tester.send(.nothing) { $0.query = "wrong" }
      await tester.finish(timeout: .seconds(600))  // Not waited for: the timer sleeps on the clock.
    }
    let messages = failures.withLock { $0 }
    #expect(messages.count == 3, "\(messages)")
    #expect(messages.first?.contains("not received before sending .startTimer") == true)
    #expect(messages.dropFirst().first?.contains("the state after sending .nothing") == true)
    #expect(
      messages.last?.hasPrefix(
        "effects are still running at the end of the test, asleep on the TestClock: "
          + "effect 'timer' sleeps until 1.3 seconds") == true, "\(messages)")
  }
}

/// Random programs of actions with effects and clock advances, checked exhaustively against
/// a plain model of what each effect sends and when.
@MainActor
@Suite("Effects, model-based")
struct EffectModelTests {
  enum Step: Sendable, CustomStringConvertible {
    case search(String)
    case startTimer
    case stopTimer
    case advance(milliseconds: Int)

    var description: String {
      switch self {
      case .search(let query): ".search(\(query.debugDescription))"
      case .startTimer: ".startTimer"
      case .stopTimer: ".stopTimer"
      case .advance(let milliseconds): "advance \(milliseconds) ms"
      }
    }
  }

  static let programs = Gen<Step>.frequency([
    (3, Gen<String>.element(of: ["a", "ab", "b"]).map { .search($0) }),
    (1, .constant(.startTimer)),
    (1, .constant(.stopTimer)),
    (4, Gen<Int>.integer(in: 0...1_500).map { .advance(milliseconds: $0) }),
  ]).array(maxCount: 16)

  @Test("every action an effect sends arrives, in the order and at the time the model says")
  func programsAgreeWithTheModel() async throws {
    // An async property: `check` runs synchronous ones, so this samples its cases.
    let seed = UInt64(ProcessInfo.processInfo.environment["STORES_PROPERTY_SEED"] ?? "") ?? 7
    for (index, program) in try Self.programs.sample(count: 40, seed: seed).enumerated() {
      let failures = Protected<[String]>([])
      let record: @Sendable (String, SourceLocation) -> Void = { message, _ in
        failures.withLock { $0.append(message) }
      }
      await FailureRecording.$recorder.withValue(record) { await run(program) }
      for failure in failures.withLock({ $0 }) {
        Issue.record(
          "\(failure)\nprogram \(index) of STORES_PROPERTY_SEED=\(seed): \(program)")
      }
    }
  }

  /// Runs `program` on a search store, checking each action against the model.
  func run(_ program: [Step]) async {
    do {
      let clock = TestClock()
      let tester = StoreTester(SearchStore(environment: .test(clock: clock)))
      // The model: the time, when the pending search fires, and when the timer ticks next.
      var now = 0
      var search: (due: Int, query: String)?
      var nextTick: Int?
      var state = SearchStore.State()
      for step in program {
        switch step {
        case .search(let query):
          // A closure that changes nothing fails: none when the query is the same.
          await tester.send(.search(query), state.query == query ? nil : { $0.query = query })
          state.query = query
          search = (now + 300, query)
        case .startTimer:
          await tester.send(.startTimer)
          if nextTick == nil { nextTick = now + 1_000 }
        case .stopTimer:
          await tester.send(.stopTimer)
          nextTick = nil
        case .advance(let milliseconds):
          await clock.advance(by: .milliseconds(milliseconds))
          now += milliseconds
          // What fires, in time order: the search and the ticks up to now.
          var events: [(time: Int, action: SearchStore.Action)] = []
          if let pending = search, pending.due <= now {
            events.append(
              (pending.due, .showResults([pending.query.uppercased(), "\(pending.query)!"])))
            search = nil
          }
          while let tick = nextTick, tick <= now {
            events.append((tick, .tick))
            nextTick = tick + 1_000
          }
          for event in events.sorted(by: { $0.time < $1.time }) {
            let before = state
            if case .showResults(let results) = event.action { state.results = results }
            if case .tick = event.action { state.ticks += 1 }
            let expected = state
            await tester.receive(event.action, expected == before ? nil : { $0 = expected })
          }
        }
      }
      await tester.send(.stopTimer)
      await clock.advance(by: .seconds(1))
      let pending = search
      if let pending {
        let before = state
        state.results = [pending.query.uppercased(), "\(pending.query)!"]
        let expected = state
        await tester.receive(
          .showResults(state.results), expected == before ? nil : { $0 = expected })
      }
      await tester.finish()
    }
  }
}

/// A flag that tasks can set.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
