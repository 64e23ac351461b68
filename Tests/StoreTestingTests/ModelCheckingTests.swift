import Observation
import StoreTesting
import Stores
import Testing

/// A counter whose `add(0)` changes nothing; with `isSloppy`, its reducer says it changed
/// anyway, so its callbacks run for a no-op.
@MainActor @Observable
final class ModelCounterStore: Store {
  enum Action: Sendable {
    case add(Int)
    case addSloppily(Int)
  }

  nonisolated static func reduce(_ count: inout Int, _ action: Action) -> Bool {
    switch action {
    case .add(let amount):
      count += amount
      return amount != 0
    case .addSloppily(let amount):
      count += amount
      return true
    }
  }

  @ObservationIgnored let core = StoreCore<ModelCounterStore>(state: 0)
}

@MainActor
@Suite("requireAgreement")
struct ModelCheckingTests {
  static func actions(_ make: @escaping @Sendable (Int) -> ModelCounterStore.Action)
    -> Gen<[ModelCounterStore.Action]>
  {
    Gen<Int>.integer(in: -3...3).map(make).array(maxCount: 10)
  }

  static func sum(_ action: ModelCounterStore.Action, _ count: Int) -> Int {
    switch action {
    case .add(let amount), .addSloppily(let amount): count + amount
    }
  }

  @Test("a store that agrees with its model passes")
  func agreeing() {
    let result = Property.run(Self.actions { .add($0) }, seed: 1, environment: [:]) { actions in
      try requireAgreement(
        of: ModelCounterStore(), with: 0, after: actions, apply: Self.sum, observe: \.state)
    }
    #expect(result.passed)
  }

  @Test("a wrong state fails, shrunk to one action")
  func wrongState() {
    let result = Property.run(Self.actions { .add($0) }, seed: 1, environment: [:]) { actions in
      try requireAgreement(
        of: ModelCounterStore(), with: 0, after: actions,
        apply: { action, count in Self.sum(action, count) * 2 }, observe: \.state)
    }
    #expect(!result.passed)
    #expect(result.counterexample?.shrunk.count == 1)
    #expect(result.message?.contains("the state after") == true)
  }

  @Test("a disagreement points at the line that called requireAgreement")
  func callersLine() {
    let line = #line + 1  // Inside #expect, a call's #line is the line of the #expect.
    let failure = #expect(throws: PropertyFailure.self) {
      try requireAgreement(
        of: ModelCounterStore(), with: 0, after: [.add(1)], apply: { _, count in count },
        observe: \.state)
    }
    #expect(failure?.location == "StoreTestingTests/ModelCheckingTests.swift:\(line)")
  }

  @Test("callbacks for a no-op fail, shrunk to that one action")
  func callbacksForNoOp() {
    let result = Property.run(Self.actions { .addSloppily($0) }, seed: 1, environment: [:]) {
      actions in
      try requireAgreement(
        of: ModelCounterStore(), with: 0, after: actions, apply: Self.sum, observe: \.state)
    }
    #expect(!result.passed)
    #expect(result.counterexample?.shrunk.count == 1)
    #expect(
      result.message?.contains("the change callbacks after addSloppily(0): 1 is not equal to 0")
        == true)
  }
}
