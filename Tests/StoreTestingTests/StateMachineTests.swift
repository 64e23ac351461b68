import Foundation
import Observation
import Stores
import Testing

@testable import StoreTesting

struct Item: Equatable, Sendable {
  var id: Int
  var value: Int
}

/// A bag of items whose `remove(id:)` has a bug: it removes the first item with the same value
/// as the one named, which is another item when two have equal values.
@MainActor @Observable
final class BagStore: Store {
  enum Action: Equatable, Sendable {
    case add(Item)
    case remove(id: Int)
  }

  nonisolated static func reduce(_ items: inout [Item], _ action: Action) -> Bool {
    switch action {
    case .add(let item):
      items.append(item)
      return true
    case .remove(let id):
      guard let item = items.first(where: { $0.id == id }) else { return false }
      items.remove(at: items.firstIndex { $0.value == item.value }!)
      return true
    }
  }

  @ObservationIgnored let core = StoreCore<BagStore>(state: [])
}

/// The bag with a plain model: items are added at the end and removed by id.
@MainActor
struct BagMachine: StateMachine {
  let store = BagStore()
  var model: [Item] = []

  var rules: [Rule<BagStore.Action>] {
    let ids = store.state.map(\.id)
    let next = (ids.max() ?? -1) + 1
    return [
      Rule("add", Gen<Int>.integer(in: 0...5).map { .add(Item(id: next, value: $0)) }),
      Rule("remove", when: !ids.isEmpty, Gen.element(of: ids).map { .remove(id: $0) }),
      Rule("never", when: false, Gen.element(of: []).map { .remove(id: $0) }),
    ]
  }

  mutating func perform(_ action: BagStore.Action) throws {
    store.send(action)
    switch action {
    case .add(let item): model.append(item)
    case .remove(let id): model.removeAll { $0.id == id }
    }
  }

  func checkInvariants() throws {
    try requireEqual(store.state, model, "the items")
  }
}

/// A machine that only counts, to see how programs run.
@MainActor
struct CountingMachine: StateMachine {
  nonisolated(unsafe) static var starts = 0
  nonisolated(unsafe) static var checks = 0
  nonisolated(unsafe) static var longest = 0
  var count = 0

  init() { Self.starts += 1 }

  var rules: [Rule<Int>] { [Rule("increment", .constant(1))] }

  mutating func perform(_ amount: Int) throws {
    count += amount
    Self.longest = max(Self.longest, count)
  }

  func checkInvariants() throws {
    Self.checks += 1
    #expect(count < 1_000)
  }
}

/// A machine whose invariant is an `#expect` that fails once the count reaches 3.
@MainActor
struct ExpectingMachine: StateMachine {
  var count = 0

  var rules: [Rule<Int>] { [Rule("add", Gen<Int>.integer(in: 0...2))] }

  mutating func perform(_ amount: Int) throws { count += amount }

  func checkInvariants() throws { #expect(count < 3) }
}

/// A machine that notes, at each step, how often another main-actor task has run so far.
@MainActor
struct TickingMachine: StateMachine {
  static var ticks = 0
  static var seen: [Int] = []

  var rules: [Rule<Int>] { [Rule("note", .constant(1))] }

  mutating func perform(_: Int) throws { Self.seen.append(Self.ticks) }
}

@MainActor
@Suite(.propertyChecks) struct StateMachineTests {
  @Test func aFailingProgramShrinksToTheMinimalOneWithItsArguments() throws {
    for seed in 1...10 as ClosedRange<UInt64> {
      let result = Property.run(BagMachine.self, seed: seed, environment: [:])
      let counterexample = try #require(result.counterexample)
      #expect(
        counterexample.shrunk == [
          .add(Item(id: 0, value: 0)), .add(Item(id: 1, value: 0)), .remove(id: 1),
        ])
      #expect(counterexample.original.count >= 3)
    }
  }

  @Test func theReportNamesTheStepAndPrintsAReplayableProgram() throws {
    let result = Property.run(BagMachine.self, seed: 1, environment: [:])
    let message = try #require(result.message)
    #expect(
      message.contains(
        """
        shrunk program:
        try BagMachine.replay([
          .add(Item(id: 0, value: 0)),
          .add(Item(id: 1, value: 0)),
          .remove(id: 1),
        ])
        """))
    #expect(
      message.contains(
        "failure: step 3 (remove): requirement failed at StoreTestingTests/StateMachineTests.swift:"
      ))
    #expect(
      message.contains("the items: 1 difference from the expected value:\n  [0].id: 1, expected 0"))
    #expect(message.contains("replay: STORES_PROPERTY_SEED=0x"))
    #expect(throws: PropertyFailure.self) {
      try BagMachine.replay([
        .add(Item(id: 0, value: 0)), .add(Item(id: 1, value: 0)), .remove(id: 1),
      ])
    }
    #expect(throws: Never.self) {
      try BagMachine.replay([.add(Item(id: 0, value: 0)), .remove(id: 0)])
    }
  }

  @Test func invariantsAreCheckedAfterTheStartAndEveryStep() {
    CountingMachine.starts = 0
    CountingMachine.checks = 0
    CountingMachine.longest = 0
    let result = Property.run(CountingMachine.self, steps: 20, seed: 1, environment: [:])
    #expect(result.passed && result.casesRun == 100)
    #expect(CountingMachine.starts == 100)
    #expect(CountingMachine.longest == 20)
    #expect(CountingMachine.checks > CountingMachine.starts + CountingMachine.longest)
  }

  @Test func checkRecordsOneReportAtTheCallersLine() throws {
    let reports = Reports()
    let line = #line + 2
    FailureRecording.$recorder.withValue(reports.append) {
      check(BagMachine.self, seed: 1)
      check(CountingMachine.self, steps: 5, seed: 1)
    }
    let recorded = reports.values
    #expect(recorded.count == 1)
    #expect(recorded.first?.location.line == line)
    #expect(recorded.first?.message.contains("try BagMachine.replay([") == true)
  }

  @Test func theAsyncCheckRunsTheSameProgramsAndShrinksTheSame() async throws {
    /// The synchronous run (a synchronous function picks the synchronous overload).
    func runSynchronously(seed: UInt64) -> CheckResult<[BagStore.Action]> {
      Property.run(BagMachine.self, seed: seed, environment: [:])
    }
    for seed in 1...5 as ClosedRange<UInt64> {
      let synchronous = runSynchronously(seed: seed)
      let yielding = await Property.run(BagMachine.self, seed: seed, environment: [:])
      #expect(yielding.seed == synchronous.seed)
      #expect(yielding.counterexample?.failure == synchronous.counterexample?.failure)
      #expect(yielding.counterexample?.original == synchronous.counterexample?.original)
      #expect(yielding.counterexample?.shrunk == synchronous.counterexample?.shrunk)
    }
    CountingMachine.starts = 0
    let passing = await Property.run(CountingMachine.self, steps: 20, seed: 1, environment: [:])
    #expect(passing.passed && passing.casesRun == 100 && CountingMachine.starts == 100)
  }

  @Test func theAsyncCheckLetsOtherMainActorWorkRunBetweenSteps() async {
    TickingMachine.ticks = 0
    TickingMachine.seen = []
    // Another task on the main actor, as another test would be: it counts while it gets the
    // main actor. Each step notes the count; it must have grown between any two steps.
    let ticker = Task { @MainActor in
      while !Task.isCancelled {
        TickingMachine.ticks += 1
        await Task.yield()
      }
    }
    let result = await check(TickingMachine.self, steps: 10, iterations: 5, seed: 1)
    ticker.cancel()
    #expect(result.passed)
    // Run synchronously, every step would see the same count. Let go between steps, the other
    // task runs between them — between nearly all: a job the main actor gives priority to
    // (another test's, or this one's escalated) may run before it now and then.
    let seen = TickingMachine.seen
    #expect(seen.count > 10)
    let ran = zip(seen, seen.dropFirst()).filter { $0.1 > $0.0 }.count
    #expect(ran * 2 > seen.count, "the other task ran between \(ran) of \(seen.count) steps")
  }

  @Test func expectationsInAMachineFailItAndShrink() throws {
    let result = Property.run(ExpectingMachine.self, seed: 1, environment: [:])
    let counterexample = try #require(result.counterexample)
    #expect(counterexample.shrunk == [1, 2])
    #expect(counterexample.failure.hasPrefix("step 2 (add): issue recorded at "))
  }
}

/// The reports `check` recorded while a test replaced the recorder.
private final class Reports: @unchecked Sendable {
  private let lock = NSLock()
  private var reports: [(message: String, location: SourceLocation)] = []

  var values: [(message: String, location: SourceLocation)] { lock.withLock { reports } }

  @Sendable func append(_ message: String, _ location: SourceLocation) {
    lock.withLock { reports.append((message, location)) }
  }
}

@Suite struct SwiftCodeTests {
  enum Shape: Equatable {
    case point
    case circle(radius: Double)
    case polygon([Int], closed: Bool)
  }

  @Test func valuesRenderAsTheExpressionsThatBuildThem() {
    #expect(
      SwiftCode.expression("a \"b\" \\ c\n\t\u{200B}e\u{301}é")
        == #""a \"b\" \\ c\n\t\u{200B}e\u{301}é""#)
    #expect(SwiftCode.expression(42) == "42")
    #expect(SwiftCode.expression(Int8(-5)) == "-5")
    #expect(SwiftCode.expression(0.1) == "0.1")
    #expect(SwiftCode.expression(-0.0) == "-0.0")
    #expect(SwiftCode.expression(Double.infinity) == ".infinity")
    #expect(SwiftCode.expression(true) == "true")
    #expect(
      SwiftCode.expression(Date(timeIntervalSinceReferenceDate: 12.5))
        == "Date(timeIntervalSinceReferenceDate: 12.5)")
    #expect(
      SwiftCode.expression(Gen<UUID>.testID(1))
        == #"UUID(uuidString: "00000000-0000-0000-0000-000000000001")!"#)
    #expect(SwiftCode.expression(IndexSet([1, 3])) == "IndexSet([1, 3])")
    #expect(SwiftCode.expression(IndexSet()) == "IndexSet()")
    #expect(SwiftCode.expression(Int?.none as Any) == "nil")
    #expect(SwiftCode.expression(Int?.some(3) as Any) == "3")
    #expect(SwiftCode.expression([3, 1] as Set<Int>) == "[1, 3]")
    #expect(SwiftCode.expression(["b": 2, "a": 1]) == #"["a": 1, "b": 2]"#)
    #expect(SwiftCode.expression([String: Int]()) == "[:]")
    #expect(SwiftCode.expression((1, label: "x")) == #"(1, label: "x")"#)
    #expect(SwiftCode.expression(Shape.point) == ".point")
    #expect(SwiftCode.expression(Shape.circle(radius: 2)) == ".circle(radius: 2.0)")
    #expect(
      SwiftCode.expression(Shape.polygon([1, 2], closed: true)) == ".polygon([1, 2], closed: true)")
    #expect(SwiftCode.expression(Item(id: 1, value: 2)) == "Item(id: 1, value: 2)")
    #expect(
      SwiftCode.expression(
        Todo(id: Gen<UUID>.testID(0), title: "a", date: Date(timeIntervalSinceReferenceDate: 0)))
        == #"Todo(id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, title: "a", date: Date(timeIntervalSinceReferenceDate: 0.0), isDone: false, priority: 0)"#
    )
    #expect(
      SwiftCode.expression(SettingsStore.Action.set(key: "k", value: .number(1)))
        == #".set(key: "k", value: .number(1))"#)
  }
}
