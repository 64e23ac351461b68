import Foundation
import Stores
import Synchronization

/// One step of a history of devices that share a synced store's file (see
/// ``checkConvergence(of:devices:from:steps:iterations:seed:fileID:filePath:line:column:actions:)->CheckResult<DeviceHistory<Owner.State,Owner.Action>>``).
public enum DeviceStep<Action: Sendable>: Sendable, CustomStringConvertible {
  /// Device `device` sends `action` to its store, which stamps what it changed.
  case act(device: Int, Action)
  /// Device `device` merges device `from`'s version of the file, as a store merges the copy a
  /// sync engine left beside its file.
  case sync(device: Int, from: Int)

  public var description: String {
    switch self {
    case .act(let device, let action): "device \(device): \(action)"
    case .sync(let device, let from): "device \(device) merges device \(from)'s file"
    }
  }
}

/// A history of devices on a synced store's file, as it was run: its steps, each device's
/// version of the file at the end, and every version a device acknowledged (after each action
/// that changed its state). What ``checkConvergence(of:devices:from:steps:iterations:seed:fileID:filePath:line:column:actions:)->CheckResult<DeviceHistory<Owner.State,Owner.Action>>``
/// generates, shrinks and checks.
public struct DeviceHistory<State: PersistentState, Action: Sendable>: CustomStringConvertible {
  /// A device's version of the file: its state, and its stamps (of the state's sync type,
  /// see ``requireConvergence(_:sync:)``).
  typealias Version = (state: State, sync: any StateSync<State>)

  /// The steps, in order.
  public let steps: [DeviceStep<Action>]
  /// How far each device's wall clock runs ahead of the others' (behind when negative), in
  /// milliseconds.
  public let clockSkews: [Int64]
  /// Each device's version at the end.
  let versions: [Version]
  /// Every version a device acknowledged: the state after each action that changed it.
  let acknowledged: [Version]

  public var description: String {
    let skews = clockSkews.enumerated().filter { $0.element != 0 }.map {
      "device \($0.offset) \($0.element > 0 ? "+" : "")\($0.element / 1000) s"
    }
    let clocks = skews.isEmpty ? "" : "clocks: \(skews.joined(separator: ", "))\n"
    return clocks + (steps.isEmpty ? "(no step)" : steps.map(\.description).joined(separator: "\n"))
  }

  /// The history of `devices` devices starting from `initial`, with clocks `skews` apart: each
  /// step drawn from `source` — which device, whether it acts or merges another's version, and
  /// its action from `actions` given the device's state as it is then — the files stamped
  /// and merged as `Sync` does.
  static func run<Sync: StateSync<State>>(
    devices: Int, from initial: State, steps: Int, skews: [Int64], sync: Sync.Type,
    reduce: Reducer<State, Action>, actions: (State) -> Gen<Action>,
    source: inout ChoiceSource
  ) throws -> DeviceHistory {
    // One wall clock, moving a millisecond at each reading, so that a history replays exactly.
    let wall = Atomic<Int64>(1_767_225_600_000)
    let clocks = (0..<devices).map { device in
      HybridClock(device: DeviceID(Substring("device\(device)"))!) {
        wall.add(1, ordering: .relaxed).newValue + skews[device]
      }
    }
    var versions = [(state: State, sync: Sync)](
      repeating: (initial, Sync(unstamped: initial)), count: devices)
    var acknowledged: [Version] = []
    var done: [DeviceStep<Action>] = []
    let count = try Gen<Int>.integer(in: 0...steps).run(&source)
    for _ in 0..<count {
      let device = try Gen<Int>.integer(in: 0...devices - 1).run(&source)
      if devices > 1, try Gen<Int>.integer(in: 0...2).run(&source) == 0 {
        let other = try Gen<Int>.integer(in: 0...devices - 2).run(&source)
        let from = other < device ? other : other + 1
        versions[device] = Sync.merge(versions[device], versions[from])
        if let latest = versions[device].sync.latest { clocks[device].observe(latest) }
        done.append(.sync(device: device, from: from))
      } else {
        let action = try actions(versions[device].state).run(&source)
        var state = versions[device].state
        if reduce.reduce(&state, action) {
          let sync = versions[device].sync.stamped(
            before: versions[device].state, after: state, stamp: clocks[device].stamp())
          versions[device] = (state, sync)
          acknowledged.append((state, sync))
        }
        done.append(.act(device: device, action))
      }
    }
    return DeviceHistory(
      steps: done, clockSkews: skews, versions: versions.map { ($0.state, $0.sync) },
      acknowledged: acknowledged)
  }
}

/// A store's reducer, to run off the main actor: ``Store/reduce(_:_:)`` is `nonisolated`,
/// pure and total, so any thread may call it.
struct Reducer<State, Action>: @unchecked Sendable {
  let reduce: (inout State, Action) -> Bool
}

/// Checks that a store's synced list converges, however its devices' versions meet: runs
/// random histories of `devices` devices — each sending actions drawn from `actions` (given
/// the device's list as it is then) or merging another device's version, as a store merges a
/// sync engine's conflict copy, their clocks up to an hour apart (the settings have an
/// overload of their own, `checkConvergence(of: SettingsStore.self)`) — and requires of each:
///
/// - **the merge laws, to the byte**: `a ∪ b` and `b ∪ a` write the same file, `(a ∪ b) ∪ c`
///   and `a ∪ (b ∪ c)` too, and `a ∪ a` is `a`;
/// - **the same file on every device**: each device merging every other's version, in its
///   own order and with duplicates, ends with the same bytes;
/// - **nothing acknowledged lost**: every version a device acknowledged (its list after each
///   action that changed it) is held by the result — each change in it, or a later change of
///   the same part that overrode it (a removal, a later edit; a value that lost so is kept as
///   a conflict where its field keeps them), and every counter's changes;
/// - **files read back as written**.
///
/// A failure is shrunk to a short history and reported like any ``check(_:iterations:seed:fileID:filePath:line:column:_:)``
/// failure, the steps one per line.
///
/// ```swift
/// @Test func cardsConverge() {
///   checkConvergence(of: CardsStore.self) { cards in
///     cards.cards.isEmpty
///       ? .constant(.add(Card()))
///       : .element(of: cards.cards.map { CardsStore.Action.view($0.id) })
///   }
/// }
/// ```
///
/// - Parameters:
///   - store: The store whose state is the synced list.
///   - devices: How many devices share the list, 3 by default.
///   - initial: The list every device starts from (as a file without stamps); empty by
///     default.
///   - steps: The most steps in a history, 30 by default.
///   - actions: The actions a device may send, given its list as it is then.
///   - iterations: The number of histories, 100 by default; `STORES_PROPERTY_ITERATIONS`
///     raises it.
///   - seed: The run seed, as for `check`.
///   - fileID: The file named in a report: the caller's by default.
///   - filePath: The caller's file path, for the test framework's report.
///   - line: The line named in a report: the caller's by default.
///   - column: The column named in a report: the caller's by default.
/// - Returns: The result, for callers that want to inspect it.
@discardableResult
public func checkConvergence<Owner: Store>(
  of store: Owner.Type, devices: Int = 3, from initial: Owner.State = Owner.State(),
  steps: Int = 30, iterations: Int? = nil, seed: UInt64? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column, actions: @escaping @Sendable (Owner.State) -> Gen<Owner.Action>
) -> CheckResult<DeviceHistory<Owner.State, Owner.Action>> where Owner.State: SyncedList {
  checkConvergence(
    Owner.self, sync: ListSync<Owner.State>.self, devices: devices, from: initial, steps: steps,
    iterations: iterations, seed: seed, fileID: fileID, filePath: filePath, line: line,
    column: column, actions: actions)
}

/// Checks that the settings converge, however devices' versions of the settings file meet:
/// as ``checkConvergence(of:devices:from:steps:iterations:seed:fileID:filePath:line:column:actions:)->CheckResult<DeviceHistory<Owner.State,Owner.Action>>``
/// does for a synced list — the merge laws to the byte, the same file on every device, every
/// change a device acknowledged held by the result or overridden by a later change of the
/// same key (the value that lost kept as a conflict), files read back as written.
///
/// ```swift
/// @Test func settingsConverge() {
///   checkConvergence(of: SettingsStore.self) { _ in .settingsAction(keys: ["sleepGoal"]) }
/// }
/// ```
@discardableResult
public func checkConvergence(
  of store: SettingsStore.Type, devices: Int = 3,
  from initial: SettingsStore.State = SettingsStore.State(), steps: Int = 30,
  iterations: Int? = nil, seed: UInt64? = nil, fileID: String = #fileID,
  filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  actions: @escaping @Sendable (SettingsStore.State) -> Gen<SettingsStore.Action>
) -> CheckResult<DeviceHistory<SettingsStore.State, SettingsStore.Action>> {
  checkConvergence(
    SettingsStore.self, sync: KeyValuesSync.self, devices: devices, from: initial, steps: steps,
    iterations: iterations, seed: seed, fileID: fileID, filePath: filePath, line: line,
    column: column, actions: actions)
}

/// The check of both `checkConvergence`s, the files stamped and merged as `Sync` does.
func checkConvergence<Owner: Store, Sync: StateSync<Owner.State>>(
  _ store: Owner.Type, sync: Sync.Type, devices: Int, from initial: Owner.State, steps: Int,
  iterations: Int?, seed: UInt64?, fileID: String, filePath: StaticString, line: UInt,
  column: UInt, actions: @escaping @Sendable (Owner.State) -> Gen<Owner.Action>
) -> CheckResult<DeviceHistory<Owner.State, Owner.Action>> {
  precondition(devices >= 1, "checkConvergence needs a device")
  let reducer = Reducer(reduce: Owner.reduce)
  let skews = Gen<Int64>.element(of: [0, 0, 0, 3_600_000, -3_600_000]).array(
    count: devices...devices)
  let histories = Gen<DeviceHistory<Owner.State, Owner.Action>> { source in
    let skews = try skews.run(&source)
    return try DeviceHistory.run(
      devices: devices, from: initial, steps: steps, skews: skews, sync: Sync.self,
      reduce: reducer,
      actions: actions, source: &source)
  }
  return check(
    histories, iterations: iterations, seed: seed, fileID: fileID, filePath: filePath,
    line: line, column: column
  ) { history in
    try requireConvergence(history, sync: Sync.self)
  }
}

/// Requires what ``checkConvergence(of:devices:from:steps:iterations:seed:fileID:filePath:line:column:actions:)->CheckResult<DeviceHistory<Owner.State,Owner.Action>>``
/// checks of one history.
func requireConvergence<State, Action, Sync: StateSync<State>>(
  _ history: DeviceHistory<State, Action>, sync: Sync.Type
) throws {
  typealias Version = (state: State, sync: Sync)
  let versions = history.versions.map { ($0.state, $0.sync as! Sync) }
  let acknowledged = history.acknowledged.map { ($0.state, $0.sync as! Sync) }
  func merged(_ a: Version, _ b: Version) -> Version { Sync.merge(a, b) }
  // The file's text: a failure shows the lines that differ.
  func bytes(_ version: Version) throws -> String {
    String(
      decoding: try StateFileCoding.encode(
        version.state, sync: version.sync, path: "\(State.self).json"), as: UTF8.self)
  }
  for (offset, a) in versions.enumerated() {
    let b = versions[(offset + 1) % versions.count]
    let c = versions[(offset + 2) % versions.count]
    try requireEqual(try bytes(merged(a, b)), try bytes(merged(b, a)), "a ∪ b = b ∪ a")
    try requireEqual(
      try bytes(merged(merged(a, b), c)), try bytes(merged(a, merged(b, c))),
      "(a ∪ b) ∪ c = a ∪ (b ∪ c)")
    try requireEqual(try bytes(merged(a, a)), try bytes(a), "a ∪ a = a")
  }
  // Each device merges every other's version: its own order, one merged twice.
  var results: [String] = []
  for device in versions.indices {
    var result = versions[device]
    let others = (1..<versions.count).map { versions[(device + $0) % versions.count] }
    for other in device.isMultiple(of: 2) ? others : others.reversed() {
      result = merged(result, other)
    }
    if let first = others.first { result = merged(result, first) }
    for known in acknowledged {
      try require(
        Sync.holdsChanges(of: known, in: result),
        "device \(device)'s merge of every version lost a change a device acknowledged")
    }
    let written = try bytes(result)
    let read = try StateFileCoding.decode(
      Data(written.utf8), path: "\(State.self).json", sync: Sync.self)
    try requireEqual(try bytes(read), written, "device \(device)'s merge, read back as written")
    results.append(written)
  }
  for (device, result) in results.enumerated().dropFirst() {
    try requireEqual(result, results[0], "device \(device)'s file and device 0's")
  }
}
