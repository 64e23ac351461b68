import Foundation
import Testing

@testable import StoreTesting

private struct InvalidState: Error {
  let code: Int
}

@MainActor private final class Counter {
  private(set) var value = 0

  func increment(by amount: Int) {
    value += amount
  }
}

/// A store-like main-actor class, as in the README example.
@MainActor private final class ListStore {
  private(set) var items: [Int]

  init(count: Int) {
    items = Array(0..<count)
  }

  func remove(atOffsets offsets: IndexSet) {
    for offset in offsets.reversed() where items.indices.contains(offset) {
      items.remove(at: offset)
    }
  }
}

@Suite struct CheckTests {
  private static let sumGen = Gen<Int>.integer(in: 0...1_000).array(maxCount: 30)

  @Test func passingPropertyRunsEveryCase() {
    let result = check(Gen<Int>.integer(in: 0...9), iterations: 64) { $0 < 10 }
    #expect(result.passed)
    #expect(result.casesRun == 64 && result.iterations == 64)
    #expect(result.message == nil && result.counterexample == nil)
  }

  @Test func overloadsResolveForBoolAndThrowingProperties() {
    check(Gen<Int>.integer(in: 0...9)) { $0 < 10 }
    check(Gen<Int>.integer(in: 0...9)) { value in try require(value < 10) }
    check(Gen<Int>.integer(in: 0...9)) { value in
      try require(value >= 0, "non-negative")
      try requireEqual(value * 2 / 2, value)
    }
    check(Gen<(Int, Bool)>.zip(.integer(in: 0...9), .bool)) { number, flag in
      flag || number < 10
    }
  }

  @Test func typeInferenceKeepsCallSitesShort() throws {
    let actions = Gen.array(of: Gen.oneOf(Gen.constant("+"), Gen.constant("-")), maxCount: 5)
    let numbers = Gen.integer(in: 0...9).array(count: 1...3)
    let pairs = Gen.zip(Gen.integer(in: 0...9), Gen.bool)
    check(Gen.zip(actions, numbers, pairs), iterations: 10) { actions, numbers, pair in
      actions.count <= 5 && (1...3).contains(numbers.count) && pair.0 < 10
    }
  }

  @Test func reportDescribesTheFailure() throws {
    let line = #line + 1
    let result = Property.run(Self.sumGen, seed: 42, environment: [:]) { $0.reduce(0, +) < 100 }
    let counterexample = try #require(result.counterexample)
    let message = try #require(result.message)
    let lines = message.split(separator: "\n").map(String.init)
    #expect(lines[0].contains("StoreTestingTests/CheckTests.swift:\(line):"))
    #expect(lines[0].contains("after \(counterexample.passedCases) passing"))
    #expect(lines.contains("original input: \(String(reflecting: counterexample.original))"))
    #expect(lines.contains("shrunk input: [100]"))
    #expect(lines.contains { $0.hasPrefix("shrink steps: \(counterexample.shrinkSteps) (") })
    #expect(lines.contains("failure: property returned false"))
    #expect(lines.last == "replay: STORES_PROPERTY_SEED=\(Report.hex(counterexample.replaySeed))")
    #expect(result.casesRun == counterexample.passedCases + 1)
  }

  @Test func thrownErrorsAreFailuresWithTheirDescription() throws {
    let required = Property.run(Gen<Int>.integer(in: 0...1_000), seed: 1, environment: [:]) {
      try require($0 < 10, "value \($0) is too big")
    }
    let failure = try #require(required.counterexample)
    #expect(failure.shrunk == 10)
    #expect(failure.failure.contains("value 10 is too big"))
    #expect(failure.failure.contains("CheckTests.swift:"))
    #expect(try #require(required.message).contains("failure: requirement failed at"))

    let equal = Property.run(Gen<Int>.integer(in: 0...1_000), seed: 1, environment: [:]) {
      try requireEqual($0 % 7, 0, "multiple of 7")
    }
    #expect(
      try #require(equal.counterexample).failure.contains("multiple of 7: 1 is not equal to 0"))

    let thrown = Property.run(Gen<Int>.integer(in: 0...1_000), seed: 1, environment: [:]) {
      value -> Bool in
      if value > 5 { throw InvalidState(code: value) }
      return true
    }
    let thrownFailure = try #require(thrown.counterexample)
    #expect(thrownFailure.shrunk == 6)
    #expect(thrownFailure.failure == "threw \(String(reflecting: InvalidState(code: 6)))")
  }

  @Test(arguments: 1...20 as ClosedRange<UInt64>)
  func replaySeedRunsTheFailingCaseFirst(seed: UInt64) throws {
    let property: ([Int]) -> Bool = { $0.reduce(0, +) < 2_000 }
    let first = Property.run(Self.sumGen, seed: seed, environment: [:], property)
    let failure = try #require(first.counterexample)

    let replayed = Property.run(Self.sumGen, seed: failure.replaySeed, environment: [:], property)
    let again = try #require(replayed.counterexample)
    #expect(again.passedCases == 0 && replayed.casesRun == 1)
    #expect(again.original == failure.original)
    #expect(again.shrunk == failure.shrunk)

    let environment = [Property.seedVariable: Report.hex(failure.replaySeed)]
    let fromEnvironment = Property.run(Self.sumGen, environment: environment, property)
    #expect(try #require(fromEnvironment.counterexample).original == failure.original)
    #expect(fromEnvironment.casesRun == 1)

    #expect(try Self.sumGen.generate(seed: failure.replaySeed) == failure.original)
  }

  @Test func freshRunsUseDifferentSeeds() {
    let seeds = (0..<5).map { _ in
      Property.run(Gen<Int>.integer(in: 0...9), iterations: 1, environment: [:]) { _ in true }.seed
    }
    #expect(Set(seeds).count == 5)
  }

  @Test func casesMatchGenSample() throws {
    var seen: [[Int]] = []
    _ = Property.run(Self.sumGen, iterations: 50, seed: 7, environment: [:]) { value in
      seen.append(value)
      return true
    }
    #expect(seen == (try Self.sumGen.sample(count: 50, seed: 7)))
  }

  @Test func environmentControlsIterationsAndSeed() {
    let gen = Gen<Int>.integer(in: 0...9)
    let deep = Property.run(gen, environment: [Property.iterationsVariable: "137"]) { _ in true }
    #expect(deep.casesRun == 137 && deep.iterations == 137)
    let notLowered = Property.run(gen, environment: [Property.iterationsVariable: "37"]) { _ in
      true
    }
    #expect(notLowered.casesRun == 100)

    let raised = Property.run(
      gen, iterations: 5, environment: [Property.iterationsVariable: "37"]
    ) { _ in true }
    #expect(raised.casesRun == 37)
    let kept = Property.run(
      gen, iterations: 50, environment: [Property.iterationsVariable: "37"]
    ) { _ in true }
    #expect(kept.casesRun == 50)

    #expect(Property.run(gen, environment: [:]) { _ in true }.casesRun == 100)

    let seeded = Property.run(gen, environment: [Property.seedVariable: "0x2A"]) { _ in true }
    #expect(seeded.seed == 42)
    let decimal = Property.run(gen, environment: [Property.seedVariable: "42"]) { _ in true }
    #expect(decimal.seed == 42)
    let argument = Property.run(gen, seed: 7, environment: [Property.seedVariable: "42"]) { _ in
      true
    }
    #expect(argument.seed == 7)

    for (name, value) in [
      (Property.iterationsVariable, "lots"), (Property.iterationsVariable, "0"),
      (Property.seedVariable, "0xZZ"),
    ] {
      let result = Property.run(gen, environment: [name: value]) { _ in true }
      guard case .aborted(let reason) = result.outcome else {
        Issue.record("expected an aborted run for \(name)=\(value)")
        continue
      }
      #expect(reason.contains(name) && reason.contains(value))
    }
  }

  @Test func otherReturnTypesAbortTheRun() {
    let result = Property.run(Gen<Int>.integer(in: 0...9), environment: [:]) { $0 + 1 }
    guard case .aborted(let reason) = result.outcome else {
      Issue.record("expected an aborted run")
      return
    }
    #expect(reason.contains("the property returns Int"))
  }

  @Test func seedParsing() {
    #expect(RunConfiguration.parseSeed("0x0000_00FF") == 255)
    #expect(RunConfiguration.parseSeed(" 0Xff ") == 255)
    #expect(RunConfiguration.parseSeed("18446744073709551615") == .max)
    #expect(RunConfiguration.parseSeed("-1") == nil)
    #expect(RunConfiguration.parseSeed("") == nil)
    #expect(Report.hex(255) == "0x00000000000000FF")
  }

  @Test func hugeValuesAreTruncatedInReports() {
    let text = Report.describe(String(repeating: "x", count: 5_000))
    #expect(text.count < 1_100 && text.hasSuffix("(4002 more characters)"))
  }

  @Test func impossibleFilterAbortsTheRun() throws {
    let gen = Gen<Int>.integer(in: 0...10).filter { $0 > 10 }
    let result = Property.run(gen, seed: 1, environment: [:]) { _ in true }
    guard case .aborted(let reason) = result.outcome else {
      Issue.record("expected an aborted run")
      return
    }
    #expect(reason.contains("Gen.filter rejected 100 candidates"))
    #expect(reason.contains("replay: STORES_PROPERTY_SEED=0x"))
    #expect(!result.passed && result.casesRun == 0)
  }

  @Test func checkRecordsOneIssueAtTheCallersLocation() {
    let recorded = RecordedFailures()
    let expectedLine = #line + 2
    FailureRecording.$recorder.withValue(recorded.append) {
      let result = check(Self.sumGen, seed: 3) { $0.reduce(0, +) < 100 }
      #expect(result.counterexample?.shrunk == [100])
      check(Gen<Int>.integer(in: 0...10).filter { $0 > 10 }, seed: 1) { _ in true }
      check(Gen<Int>.integer(in: 0...10), seed: 1) { _ in true }
    }
    let failures = recorded.values
    #expect(failures.count == 2)
    #expect(failures.first?.location.line == expectedLine)
    #expect(failures.first?.location.fileID.hasSuffix("CheckTests.swift") == true)
    #expect(failures.first?.message.contains("shrunk input: [100]") == true)
    #expect(failures.first?.message.contains("replay: STORES_PROPERTY_SEED=0x") == true)
    #expect(failures.last?.message.contains("Property check aborted") == true)
  }

  @Test @MainActor func readmeExample() {
    let gen = Gen.integer(in: 0...20).flatMap { count in
      Gen.offsets(in: count, includingOutOfRange: true).map { (count, $0) }
    }
    let result = check(gen) { count, offsets in
      let store = ListStore(count: count)
      store.remove(atOffsets: offsets)
      try requireEqual(store.items.count, count - offsets.count(in: 0..<count))
    }
    #expect(result.passed)
  }

  @Test @MainActor func propertiesCanTouchMainActorState() {
    let counter = Counter()
    var total = 0
    let result = check(Gen<Int>.integer(in: 0...10), iterations: 50, seed: 1) { amount in
      counter.increment(by: amount)
      total += amount
      return counter.value == total
    }
    #expect(result.passed && counter.value == total)

    let failing = Property.run(Gen<Int>.integer(in: 0...100), seed: 2, environment: [:]) {
      amount in
      let local = Counter()
      local.increment(by: amount)
      return local.value < 50
    }
    #expect(failing.counterexample?.shrunk == 50)
  }
}

/// The failures `check` reported while the test replaced the recorder.
private final class RecordedFailures: @unchecked Sendable {
  private let lock = NSLock()
  private var failures: [(message: String, location: SourceLocation)] = []

  var values: [(message: String, location: SourceLocation)] { lock.withLock { failures } }

  @Sendable func append(_ message: String, _ location: SourceLocation) {
    lock.withLock { failures.append((message, location)) }
  }
}
