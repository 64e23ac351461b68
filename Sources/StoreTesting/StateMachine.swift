import Foundation

/// A stateful test: a system — usually a store, often with a plain model beside it — driven
/// by a generated program of commands, in the manner of Hypothesis's `RuleBasedStateMachine`.
///
/// A conforming type holds the system and the model and says:
/// - how to start (`init()`, once per program),
/// - which commands can run now: its ``rules``, each with a precondition and a generator of
///   commands built from the current state (toggle a todo *that exists*),
/// - how to run one (``perform(_:)``: send the action, update the model),
/// - what must hold after every step (``checkInvariants()``).
///
/// ```swift
/// @MainActor struct TodosMachine: StateMachine {
///   let store = TodosStore()
///   var model: [Todo] = []
///
///   var rules: [Rule<TodosStore.Action>] {
///     let ids = store.todos.map(\.id)
///     return [
///       Rule("add", Gen<Todo>.todo(id: .id(among: 8)).map { .add($0) }),
///       Rule("toggle", when: !ids.isEmpty, Gen.element(of: ids).map { .toggle(id: $0) }),
///     ]
///   }
///
///   mutating func perform(_ action: TodosStore.Action) throws {
///     store.send(action)
///     model = … // the same change, done plainly
///   }
///
///   func checkInvariants() throws {
///     try requireEqual(store.todos, model)
///   }
/// }
///
/// check(TodosMachine.self)
/// ```
///
/// `check(_:steps:iterations:seed:)` runs programs of up to `steps` commands; a failure (a
/// thrown error, or a failed `#expect`, in any of the four) is shrunk to a minimal program —
/// fewer steps, simpler arguments — and reported as Swift code that replays it:
/// `try TodosMachine.replay([.add(…), .toggle(id: …)])`.
@MainActor
public protocol StateMachine {
  /// One step of a program: usually the store's `Action`, or an enum of your own when a step
  /// can do more than send an action (use a second store, reopen a file, refresh).
  associatedtype Command

  /// A fresh system and model, as each program starts.
  init() throws

  /// The rules, in a fixed order: each names a kind of command, whether it can run in the
  /// current state, and how to generate one from that state. Read before every step.
  var rules: [Rule<Command>] { get }

  /// Runs `command` on the system, and on the model if there is one. Throwing (for example
  /// with `require`) fails the program.
  mutating func perform(_ command: Command) throws

  /// Checks what must hold in every state; called after `init()` and after every step.
  /// Throw (for example with `require` or `requireEqual`) when it does not. The default
  /// checks nothing.
  func checkInvariants() throws

  /// What the search takes for the machine's state, to steer programs towards states it has
  /// reached rarely: `nil` (no steering) by default, the machine itself when it is
  /// `Hashable`; return the store's state when it is `Hashable` (`store.state`). Read before
  /// and after every step while searching, so it should cost little next to a step.
  var coverage: AnyHashable? { get }
}

extension StateMachine {
  public func checkInvariants() throws {}

  public var coverage: AnyHashable? { nil }

  /// Runs `commands` as `check` runs a program: a fresh machine, its invariants, then each
  /// command followed by the invariants. Throws the first failure. Paste the program a failed
  /// check prints into a test to replay it.
  ///
  /// - Complexity: O(*n*) steps for *n* commands.
  public static func replay(_ commands: [Command]) throws {
    var machine = try Self()
    try machine.checkInvariants()
    for command in commands {
      try machine.perform(command)
      try machine.checkInvariants()
    }
  }
}

extension StateMachine where Self: Hashable {
  public var coverage: AnyHashable? { AnyHashable(self) }
}

/// A kind of command of a ``StateMachine``: a name for reports, a precondition, and a
/// generator of commands built from the current state.
///
/// ```swift
/// Rule("remove an existing todo", when: !ids.isEmpty, Gen.element(of: ids).map { .remove(ids: [$0]) })
/// ```
public struct Rule<Command> {
  /// What the rule does, as the failure report names it.
  public let name: String
  /// The generator of commands, `nil` when the precondition does not hold.
  let commands: Gen<Command>?

  /// A rule whose commands come from `commands`, which is only evaluated when `precondition`
  /// holds (so it may assume it, e.g. pick from a list that is not empty).
  public init(
    _ name: String, when precondition: Bool = true, _ commands: @autoclosure () -> Gen<Command>
  ) {
    self.name = name
    self.commands = precondition ? commands() : nil
  }
}

/// Tests a ``StateMachine`` with generated programs; on failure, shrinks the program and
/// records one issue at the caller's location, with the minimal program as Swift code.
///
/// Each program starts a fresh machine, checks its invariants, then runs up to `steps`
/// commands (lengths and rules vary per program, see `ProgramPlan`: swarm testing, and
/// steering towards rarely reached states for a machine with a ``StateMachine/coverage``):
/// before each, one of the rules whose precondition holds is picked, its generator makes the
/// command from the current state, the machine performs it and the invariants are checked. A program fails at
/// the first error thrown or issue recorded. Shrinking deletes steps and simplifies their
/// arguments (the rules' generators are re-run on the states the shorter program reaches); a
/// candidate that picks a rule whose precondition no longer holds is skipped.
///
/// The report holds the failing step (its number and rule), the minimal program as
/// `try Machine.replay([…])` (see `SwiftCode` for how values are written) and the
/// `replay: STORES_PROPERTY_SEED=…` line that reruns the same programs.
///
/// - Parameters:
///   - machine: The state machine type.
///   - steps: The most commands in one program; 50 by default.
///   - iterations: The number of programs, 100 by default; `STORES_PROPERTY_ITERATIONS`
///     raises it.
///   - seed: The run seed; defaults to `STORES_PROPERTY_SEED` or a fresh random seed.
///   - fileID: The file named in a report: the caller's by default.
///   - filePath: The caller's file path, for the test framework's report.
///   - line: The line named in a report: the caller's by default.
///   - column: The column named in a report: the caller's by default.
/// - Returns: The result; its counterexample holds the original and the minimal program.
/// - Complexity: O(iterations × steps) commands, plus the shrinking budget.
@MainActor @discardableResult
public func check<Machine: StateMachine>(
  _ machine: Machine.Type,
  steps: Int = 50,
  iterations: Int? = nil,
  seed: UInt64? = nil,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> CheckResult<[Machine.Command]> {
  let result = Property.run(
    machine, steps: steps, iterations: iterations, seed: seed, fileID: fileID, line: Int(line),
    column: Int(column))
  return report(result, of: machine, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Tests a ``StateMachine`` as ``check(_:steps:iterations:seed:fileID:filePath:line:column:)-9mvog``
/// does — the same programs for the same seed, the same shrinking and report — but lets the
/// main actor go between steps: the machine holds it for one step at a time (its `init()`,
/// `rules`, `perform(_:)` and `checkInvariants()`), so the other tests of the process that wait
/// for it run meanwhile. Use it from an `async` test; a long machine — one on files — should.
///
/// Shrinking a failure runs its programs without a break (at most the shrinking budget).
///
/// - Complexity: O(iterations × steps) commands, plus the shrinking budget.
@MainActor @discardableResult
public func check<Machine: StateMachine>(
  _ machine: Machine.Type,
  steps: Int = 50,
  iterations: Int? = nil,
  seed: UInt64? = nil,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async -> CheckResult<[Machine.Command]> {
  let result = await Property.run(
    machine, steps: steps, iterations: iterations, seed: seed, fileID: fileID, line: Int(line),
    column: Int(column))
  return report(result, of: machine, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Records `result`'s failure, if any, at the caller's place, and replays its shrunk program
/// so that its expectations are recorded at their lines; returns `result`.
@MainActor
private func report<Machine: StateMachine>(
  _ result: CheckResult<[Machine.Command]>, of machine: Machine.Type, fileID: String,
  filePath: StaticString, line: UInt, column: UInt
) -> CheckResult<[Machine.Command]> {
  if let message = result.message {
    recordFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  if let counterexample = result.counterexample, counterexample.isIssue {
    replayShrunk(fileID: fileID, filePath: filePath, line: line, column: column) {
      try? Machine.replay(counterexample.shrunk)
    }
  }
  return result
}

extension Property {
  /// Tests a ``StateMachine`` like `check(_:steps:iterations:seed:)`, but records nothing:
  /// returns the result, for inspection.
  @MainActor
  public static func run<Machine: StateMachine>(
    _ machine: Machine.Type,
    steps: Int = 50,
    iterations: Int? = nil,
    seed: UInt64? = nil,
    maxShrinkAttempts: Int = defaultMaxShrinkAttempts,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: String = #fileID,
    line: Int = #line,
    column: Int = #column
  ) -> CheckResult<[Machine.Command]> {
    precondition(steps >= 0, "a state machine needs a non-negative number of steps")
    let exploration = Exploration()
    return run(
      iterations: iterations, seed: seed, maxShrinkAttempts: maxShrinkAttempts,
      environment: environment, location: "\(fileID):\(line):\(column)", subject: "program",
      describe: { program(Machine.self, $0) },
      replaysWholeRun: { exploration.isSteering },
      search: { best, budget in
        shorterProgram(Machine.self, steps: steps, than: best, budget: budget)
      },
      runCase: { source in
        runProgram(Machine.self, steps: steps, exploration: exploration, from: &source)
      })
  }

  /// Tests a ``StateMachine`` like `check(_:steps:iterations:seed:) async`, letting the main
  /// actor go between steps, but records nothing: returns the result, for inspection.
  @MainActor
  public static func run<Machine: StateMachine>(
    _ machine: Machine.Type,
    steps: Int = 50,
    iterations: Int? = nil,
    seed: UInt64? = nil,
    maxShrinkAttempts: Int = defaultMaxShrinkAttempts,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: String = #fileID,
    line: Int = #line,
    column: Int = #column
  ) async -> CheckResult<[Machine.Command]> {
    precondition(steps >= 0, "a state machine needs a non-negative number of steps")
    let exploration = Exploration()
    return await run(
      iterations: iterations, seed: seed, maxShrinkAttempts: maxShrinkAttempts,
      environment: environment, location: "\(fileID):\(line):\(column)", subject: "program",
      describe: { program(Machine.self, $0) },
      replaysWholeRun: { exploration.isSteering },
      search: { best, budget in
        shorterProgram(Machine.self, steps: steps, than: best, budget: budget)
      },
      shrinkCase: { source in
        runProgram(Machine.self, steps: steps, exploration: exploration, from: &source)
      },
      runCase: { source in
        await runProgramYielding(
          Machine.self, steps: steps, exploration: exploration, from: &source)
      })
  }

  /// Breadth-first search for a failing program whose choices precede `best` (in shortlex
  /// order), among the programs made of each rule's simplest command (its generator's choices
  /// all 0), over the states the machine's ``StateMachine/coverage`` tells apart: a program
  /// that ends in a state a program of fewer steps reached is not extended. It finds the
  /// shortest failure that no edit of the shrunk program reaches, such as the water jugs' 6
  /// steps from their 8-step solution.
  ///
  /// Returns the failing program's choices (`nil` when none was found, or the machine has no
  /// coverage) and the number of programs run, at most `budget`: the search runs whole levels
  /// (all programs of *k* steps before those of *k* + 1), and stops before a level that does
  /// not fit in what is left of the budget.
  ///
  /// - Complexity: O(`budget` × `steps`) steps; O(states × rules) programs when every state
  ///   reachable in fewer steps than `best`'s fits in the budget.
  @MainActor
  static func shorterProgram<Machine: StateMachine>(
    _: Machine.Type, steps: Int, than best: [UInt64], budget: Int
  ) -> (choices: [UInt64]?, attempts: Int) {
    var attempts = 0
    var reached: Set<Int> = []
    let exploration = Exploration()  // Unused: replayed programs are not steered.
    /// Runs the program `choices` (then no more steps); returns its choices when it fails,
    /// else the node it ends in, if that state is new.
    func run(_ choices: [UInt64]) -> (failure: [UInt64]?, node: SearchNode?) {
      attempts += 1
      var source = ChoiceSource(replaying: choices)
      var end: (state: Int, enabled: [Int])?
      let outcome = runProgram(Machine.self, steps: steps, exploration: exploration, from: &source)
      { machine, enabled in
        end = machine.coverage.map { ($0.hashValue, enabled) }
      }
      if case .failed = outcome { return (source.choices, nil) }
      guard case .passed = outcome, let end, reached.insert(end.state).inserted else {
        return (nil, nil)
      }
      // The program ended by drawing "no more steps": its last choice.
      return (nil, SearchNode(choices: source.choices.dropLast(), enabled: end.enabled))
    }
    guard budget > 0, case (nil, let start?) = run([]) else { return (nil, attempts) }
    var level = [start]
    // Only whole levels, so that what it finds has the fewest steps; a level too wide for the
    // budget left ends the search (the machine has too many states for it).
    while !level.isEmpty, level.reduce(0, { $0 + $1.enabled.count }) <= budget - attempts {
      var next: [SearchNode] = []
      for node in level {
        for rule in node.enabled {
          let candidate = node.choices + [1, UInt64(rule)]
          guard Shrinker<[Machine.Command]>.shortlexPrecedes(candidate, best) else { continue }
          let (failure, end) = run(candidate)
          if let failure, Shrinker<[Machine.Command]>.shortlexPrecedes(failure, best) {
            return (failure, attempts)
          }
          if let end { next.append(end) }
        }
      }
      level = next
    }
    return (nil, attempts)
  }

  /// Runs one program drawn from `source`; `ended`, when the program ends by drawing "no more
  /// steps", gets the machine and the rules whose preconditions hold then.
  @MainActor
  private static func runProgram<Machine: StateMachine>(
    _: Machine.Type, steps: Int, exploration: Exploration, from source: inout ChoiceSource,
    ended: (Machine, _ enabled: [Int]) -> Void = { _, _ in }
  ) -> CaseOutcome<[Machine.Command]> {
    var program = ProgramRun<Machine>(steps: steps, exploration: exploration)
    while true {
      if let outcome = program.next(from: &source, ended: ended) { return outcome }
    }
  }

  /// Runs one program drawn from `source` as ``runProgram(_:steps:exploration:from:ended:)``
  /// does, letting the main actor go between its steps (`Task.yield()`), so that other work
  /// waiting for it — other tests — runs meanwhile.
  @MainActor
  private static func runProgramYielding<Machine: StateMachine>(
    _: Machine.Type, steps: Int, exploration: Exploration, from source: inout ChoiceSource
  ) async -> CaseOutcome<[Machine.Command]> {
    var program = ProgramRun<Machine>(steps: steps, exploration: exploration)
    while true {
      if let outcome = program.next(from: &source) { return outcome }
      await Task.yield()
    }
  }

  /// The program as Swift code that replays it.
  static func program<Machine: StateMachine>(_: Machine.Type, _ commands: [Machine.Command])
    -> String
  {
    let steps = commands.map { "  \(SwiftCode.expression($0))," }
    let call = "try \(SwiftCode.typeName(Machine.self)).replay("
    guard !steps.isEmpty else { return call + "[])" }
    return ([call + "["] + steps + ["])"]).joined(separator: "\n")
  }
}

/// One program of a ``StateMachine``, run a step at a time: first the machine is made and its
/// invariants checked, then each call to ``next(from:ended:)`` runs one step.
@MainActor
private struct ProgramRun<Machine: StateMachine> {
  let steps: Int
  let exploration: Exploration
  /// The commands run so far.
  private var program: [Machine.Command] = []
  /// The machine, once made.
  private var machine: Machine?
  /// How the program is generated (`nil` when replaying).
  private var plan: ProgramPlan?
  /// The machine's state (its coverage's hash value) while the program is steered.
  private var state: Int?

  init(steps: Int, exploration: Exploration) {
    self.steps = steps
    self.exploration = exploration
  }

  /// Makes the machine (on the first call) or runs the next step, drawing from `source`;
  /// returns how the program ended, or `nil` when it goes on. `ended`, when the program ends
  /// by drawing "no more steps", gets the machine and the rules whose preconditions hold then.
  /// O(1) steps.
  mutating func next(
    from source: inout ChoiceSource, ended: (Machine, _ enabled: [Int]) -> Void = { _, _ in }
  ) -> CaseOutcome<[Machine.Command]>? {
    guard var machine else { return start(from: &source) }
    // Out of `self` while it runs, so that the step changes the only copy of the model.
    self.machine = nil
    defer { self.machine = machine }
    do {
      guard program.count < steps else { return .passed }
      let rules = machine.rules
      let enabled = rules.indices.filter { rules[$0].commands != nil }
      guard !enabled.isEmpty else { return .passed }
      let intended = program.count < (plan?.length ?? 0)
      var isDisabled = false
      var plan = self.plan
      defer { self.plan = plan }
      let (state, exploration) = (state, exploration)
      let step = try source.element { source -> (Int, Machine.Command)? in
        guard try source.drawBool(intended: intended) else { return nil }
        let pick = source.random { random, _ in
          plan?.pick(
            among: enabled, ruleCount: rules.count, from: state, exploration: exploration,
            using: &random) ?? enabled[0]
        }
        let index = try source.drawIndex(count: rules.count, intended: pick ?? 0)
        guard let commands = rules[index].commands else {
          isDisabled = true  // Only when replaying an edited program.
          return nil
        }
        return (index, try commands.run(&source))
      }
      guard !isDisabled else { return .discarded }
      guard let (index, command) = step else {
        ended(machine, enabled)
        return .passed
      }
      program.append(command)
      let outcome = Property.judge(program) {
        try machine.perform(command)
        try machine.checkInvariants()
        return true
      }
      if let before = state, let after = machine.coverage?.hashValue {
        exploration.record(from: before, rule: index, to: after)
        self.state = after
      }
      let rule = rules[index]
      guard case .passed = outcome else {
        return outcome.failing { "step \(program.count) (\(rule.name)): \($0)" }
      }
      return nil
    } catch {
      return .invalid("\(error)")
    }
  }

  /// Makes the machine, checks its invariants and draws the program's plan; the outcome when
  /// that fails, else `nil`.
  private mutating func start(from source: inout ChoiceSource) -> CaseOutcome<[Machine.Command]>? {
    var made: Machine?
    let start = Property.judge(program) {
      made = try Machine()
      try made?.checkInvariants()
      return true
    }
    guard case .passed = start, let made else {
      return start.failing { "before the first step: \($0)" }
    }
    machine = made
    plan = source.random { random, size in ProgramPlan(steps: steps, size: size, using: &random) }
    state = plan == nil ? nil : made.coverage?.hashValue
    return nil
  }
}

/// A program of `Property.shorterProgram`'s search that ended in a state no program of fewer
/// steps reached: its choices, and the rules whose preconditions hold there.
private struct SearchNode {
  let choices: [UInt64]
  let enabled: [Int]
}

/// How one program is generated (random mode only; the choices it leads to are recorded as
/// usual, so shrinking and replay do not depend on it): its intended length and its *swarm*,
/// the subset of rules it picks from.
///
/// Lengths vary widely — half the programs run the full number of steps, a quarter a length
/// uniform in `0...steps`, a quarter a length that grows with the case size (small programs
/// first) — since a bug that needs 30 steps is never found by programs of 13. Each program but
/// one in four enables each rule with probability 1/2 (at least one), and picks uniformly
/// among the enabled rules whose precondition holds (among all whose precondition holds when
/// none of those does): a rule that undoes progress (clears, resets, empties) is then absent
/// from many programs, which can go deep, as in swarm testing (Groce et al., 2012).
struct ProgramPlan {
  /// The number of steps the program intends to run.
  let length: Int
  /// Whether the rule at each index is in the swarm, drawn on first use (the number of rules is
  /// known once the machine exists); `nil` when every rule is.
  private var swarm: [Bool]?
  private let isSwarming: Bool

  init(steps: Int, size: Int, using random: inout SeededRandom) {
    switch random.next(below: 4) {
    case 0, 1: length = steps
    case 2: length = random.next(in: 0...steps)
    default: length = pickCount(in: 0...steps, size: size, using: &random)
    }
    isSwarming = random.next(below: 4) != 0
  }

  /// One of `enabled` (indices of rules whose precondition holds, not empty): among those in
  /// the swarm (else among all of them), uniformly, or — when the machine is in a known
  /// `state` (its coverage's hash value) — weighted by how rarely the run reached the state
  /// each rule led to from there (see ``Exploration``). O(rules).
  mutating func pick(
    among enabled: [Int], ruleCount: Int, from state: Int?, exploration: Exploration,
    using random: inout SeededRandom
  ) -> Int {
    if isSwarming && swarm == nil {
      var subset = (0..<ruleCount).map { _ in random.next(below: 2) == 0 }
      if !subset.contains(true) && ruleCount > 0 {
        subset[Int(random.next(below: UInt64(ruleCount)))] = true
      }
      swarm = subset
    }
    var candidates = enabled
    if let swarm {
      let inSwarm = enabled.filter { $0 < swarm.count && swarm[$0] }
      if !inSwarm.isEmpty { candidates = inSwarm }
    }
    guard let state else { return candidates[Int(random.next(below: UInt64(candidates.count)))] }
    let weights = candidates.map { exploration.weight(from: state, rule: $0) }
    var target = random.nextDouble() * weights.reduce(0, +)
    for (candidate, weight) in zip(candidates, weights) {
      target -= weight
      if target < 0 { return candidate }
    }
    return candidates[candidates.count - 1]
  }
}

/// What the programs of one run learnt about a machine whose ``StateMachine/coverage`` is not
/// `nil`: which state each rule led to from each state, and how often each state was reached.
/// Programs prefer the rules that lead to rarely reached states (or that were never tried
/// from the current one), so a rule that changes nothing, or leads back to where programs
/// always go, is tried less and the run spreads over the states it can reach — the way a
/// puzzle whose answer is a precise sequence of moves (the water jugs) gets solved.
///
/// Since a program's choices then depend on the programs before it, a failure found this way
/// is replayed by the run's seed (which reruns the same programs), not by its case's seed.
final class Exploration {
  /// States are kept as their hash values: memory stays small whatever the states hold, and
  /// a collision only misleads the steering a little.
  private struct Transition: Hashable {
    let state: Int
    let rule: Int
  }
  private var targets: [Transition: Int] = [:]
  private var visits: [Int: Int] = [:]
  /// Whether any program was steered (the machine has a coverage).
  private(set) var isSteering = false

  /// The weight of `rule` from `state` (a coverage's hash value): 1 when it was never tried there, else 1 / (1 + the
  /// visits of the state it led to)². O(1).
  func weight(from state: Int, rule: Int) -> Double {
    guard let target = targets[Transition(state: state, rule: rule)] else { return 1 }
    let visited = Double(visits[target, default: 0] + 1)
    return 1 / (visited * visited)
  }

  /// Records that `rule` led from `state` to `target` (hash values of coverages). O(1).
  func record(from state: Int, rule: Int, to target: Int) {
    isSteering = true
    targets[Transition(state: state, rule: rule)] = target
    visits[target, default: 0] += 1
  }
}

extension CaseOutcome {
  /// This outcome with its failure reason rewritten by `reason`.
  fileprivate func failing(_ reason: (String) -> String) -> CaseOutcome {
    guard case .failed(let value, let failure, let isIssue) = self else { return self }
    return .failed(value, reason(failure), isIssue: isIssue)
  }
}
