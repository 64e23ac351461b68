import Foundation
import Testing

@testable import StoreTesting

/// A tree of integers, for the recursive generator.
private indirect enum Tree: Equatable, Sendable {
  case leaf(Int)
  case node(Tree, Tree)

  var depth: Int {
    switch self {
    case .leaf: 0
    case .node(let left, let right): 1 + max(left.depth, right.depth)
    }
  }

  var leaves: Int {
    switch self {
    case .leaf: 1
    case .node(let left, let right): left.leaves + right.leaves
    }
  }

  static let trees = Gen<Tree>.recursive(Gen<Int>.integer(in: 0...9).map(Tree.leaf)) { child in
    Gen<(Tree, Tree)>.zip(child, child).map(Tree.node)
  }
}

/// The failures `check` reported while a test replaced the test framework with a recorder.
private final class NotedFailures: @unchecked Sendable {
  private let lock = NSLock()
  private var failures: [(message: String, location: SourceLocation)] = []

  var values: [(message: String, location: SourceLocation)] { lock.withLock { failures } }

  func note(_ message: String, _ location: SourceLocation) {
    lock.withLock { failures.append((message, location)) }
  }
}

@Suite struct AssumeTests {
  @Test func discardedCasesDoNotCount() {
    let result = Property.run(Gen<Int>.integer(in: 0...1_000), seed: 1, environment: [:]) {
      try assume($0 % 2 == 0)
      return $0 % 2 == 0
    }
    #expect(result.passed)
    #expect(result.casesRun == 100)
    #expect(result.discardedCases > 10)
  }

  @Test func shrinkingSkipsDiscardedCandidates() throws {
    let result = Property.run(Gen<Int>.integer(in: 0...1_000), seed: 1, environment: [:]) {
      try assume($0 % 2 == 1)
      return $0 < 10
    }
    #expect(try #require(result.counterexample).shrunk == 11)
    #expect(result.message?.contains("discarded)") == true)
  }

  @Test func tooManyDiscardsAbortTheRun() {
    let result = Property.run(
      Gen<Int>.integer(in: 0...1_000), iterations: 20, seed: 1, environment: [:]
    ) {
      try assume($0 == 500)
    }
    guard case .aborted(let reason) = result.outcome else {
      Issue.record("expected an aborted run, got \(result.outcome)")
      return
    }
    #expect(reason.hasPrefix("discarded 200 cases and tested only "))
    #expect(result.discardedCases == 200 && result.casesRun < 20)
  }
}

@Suite struct SizedAndRecursiveTests {
  @Test func sizedSeesTheCaseSize() throws {
    let gen = Gen<Int>.sized { size in .constant(size) }
    #expect(try gen.sample(count: 101, seed: 1) == Array(0...100))
    let shrunk = Property.run(Gen<Int>.sized { .integer(in: 0...$0) }, seed: 1, environment: [:]) {
      $0 < 20
    }
    #expect(shrunk.counterexample?.shrunk == 20)
  }

  @Test func recursiveValuesStayWithinTheirDepth() throws {
    let trees = try Tree.trees.sample(count: 1_000, seed: 1)
    #expect(trees[0].depth <= 1)
    #expect(trees.allSatisfy { $0.depth <= 10 })
    #expect(trees.contains { $0.depth >= 4 })
    #expect(trees.contains { $0.depth == 0 })
  }

  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func recursiveValuesShrinkToTheSmallestFailingShape(seed: UInt64) throws {
    let result = Property.run(Tree.trees, seed: seed, environment: [:]) { $0.leaves < 3 }
    let shrunk = try #require(result.counterexample).shrunk
    #expect(shrunk == .node(.leaf(0), .node(.leaf(0), .leaf(0))))
  }
}

@Suite struct ZipTests {
  @Test func zipTakesAnyNumberOfGenerators() throws {
    let digit = Gen<Int>.integer(in: 0...9)
    let six = Gen<(Int, Int, Int, Int, Int, Int)>.zip(digit, digit, digit, digit, digit, digit)
    let result = Property.run(six, seed: 1, environment: [:]) { a, b, c, d, e, f in
      a + b + c + d + e + f < 10
    }
    let shrunk = try #require(result.counterexample).shrunk
    #expect(shrunk == (0, 0, 0, 0, 1, 9))

    let inferred = Gen.zip(digit, Gen<Bool>.bool, Gen<String>.asciiString(maxCount: 3))
    #expect(try inferred.sample(count: 50, seed: 2).allSatisfy { $0.0 < 10 && $0.2.count <= 3 })
    #expect(try Gen<Int>.zip(digit).sample(count: 5, seed: 3).allSatisfy { $0 < 10 })
  }
}

@Suite(.propertyChecks) struct ExpectationTests {
  @Test func anExpectationInsideAPropertyFailsItAndShrinks() throws {
    let result = Property.run(Gen<Int>.integer(in: 0...1_000), seed: 1, environment: [:]) {
      #expect($0 < 10)
    }
    let counterexample = try #require(result.counterexample)
    #expect(counterexample.shrunk == 10)
    #expect(counterexample.failure.contains("issue recorded at StoreTestingTests/ToolTests.swift:"))
    #expect(counterexample.failure.hasSuffix(": Expectation failed: ($0 → 10) < 10"))

    let required = Property.run(Gen<Int>.integer(in: 0...1_000), seed: 1, environment: [:]) {
      try #require($0 < 10)
    }
    #expect(required.counterexample?.shrunk == 10)
  }

  @Test func theTraitCatchesTheCasesIssuesWithoutKnownIssues() {
    #expect(IssueCapture.isAvailable)
    let issues = Property.issues { #expect(Bool(false), "caught") }
    #expect(issues.count == 1)
  }

  @Test func checkRecordsTheReportAndTheShrunkExpectationOnce() throws {
    let recorded = NotedFailures()
    let result = FailureRecording.$recorder.withValue(recorded.note) {
      check(Gen<Int>.integer(in: 0...1_000), seed: 1) { value in
        #expect(value < 10)
      }
    }
    #expect(result.counterexample?.shrunk == 10)
    let failures = recorded.values
    #expect(failures.count == 2)
    let report = try #require(failures.first { $0.message.contains("Property falsified") })
    #expect(report.message.contains("shrunk input: 10"))
    let expectation = try #require(
      failures.first { $0.message.hasPrefix("Expectation failed") })
    #expect(expectation.message == "Expectation failed: (value → 10) < 10")
    #expect(expectation.location.line == report.location.line + 1)
  }
}
