import Foundation
import Stores

/// A clock that only moves when a test says so: effects that sleep on it wait until
/// ``advance(by:)`` passes their deadline, so a debounce or a timeout is tested without
/// waiting and without flakiness.
///
/// ```swift
/// let clock = TestClock()
/// let store = SearchStore(environment: .test(clock: clock))
/// store.send(.search("milk"))        // its effect sleeps 300 ms on the clock
/// await clock.advance(by: .milliseconds(300))
/// ```
public final class TestClock: EffectTracking {
  private struct Sleeper {
    var deadline: Duration
    var id: UInt64
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct Timeline {
    var now: Duration = .zero
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// The effects running in stores whose environment uses this clock.
    var runningEffects = 0
  }

  private let timeline = Protected(Timeline())

  public init() {}

  /// How far the clock has advanced since it was made.
  public var now: Duration { timeline.withLock { $0.now } }

  /// Waits until the clock has advanced `duration` past now; throws `CancellationError` when
  /// the waiting task is cancelled first.
  public func sleep(for duration: Duration) async throws {
    let id = timeline.withLock { timeline in
      defer { timeline.nextID += 1 }
      return timeline.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let isDue = timeline.withLock { timeline in
          guard duration > .zero else { return true }
          timeline.sleepers.append(
            Sleeper(deadline: timeline.now + duration, id: id, continuation: continuation))
          return false
        }
        if isDue { continuation.resume() }
        if Task.isCancelled { self.cancel(id) }
      }
    } onCancel: {
      cancel(id)
    }
  }

  /// Moves the clock forward by `duration`, waking every sleeper whose deadline it passes, in
  /// deadline order. First it waits until every effect running with this clock (see
  /// ``StoreEnvironment/test(clock:now:)``) is asleep on it or done, so that effects just
  /// started have reached their sleep; then it lets the woken ones run to their next sleep.
  /// An effect that waits on something else is waited for at most a second.
  public func advance(by duration: Duration) async {
    await settle()
    let woken = timeline.withLock { timeline in
      timeline.now += duration
      let due = timeline.sleepers.filter { $0.deadline <= timeline.now }
        .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
      timeline.sleepers.removeAll { $0.deadline <= timeline.now }
      return due
    }
    for sleeper in woken { sleeper.continuation.resume() }
    await settle()
  }

  /// Waits until every running effect is asleep on the clock or done, for at most a second.
  private func settle() async {
    let deadline = ContinuousClock.now + .seconds(1)
    while timeline.withLock({ $0.runningEffects > $0.sleepers.count }),
      ContinuousClock.now < deadline
    {
      await Task.yield()
      try? await Task.sleep(for: .microseconds(50))
    }
  }

  package func effectStarted() {
    timeline.withLock { $0.runningEffects += 1 }
  }

  package func effectEnded() {
    timeline.withLock { $0.runningEffects -= 1 }
  }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

  private func cancel(_ id: UInt64) {
    let cancelled = timeline.withLock { timeline -> Sleeper? in
      guard let index = timeline.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
      return timeline.sleepers.remove(at: index)
    }
    cancelled?.continuation.resume(throwing: CancellationError())
  }
}

extension StoreEnvironment {
  /// An environment for tests: `sleep` on `clock`, `now` fixed at `now` plus the clock's
  /// time, and `uuid` giving `Gen.testID(0)`, `(1)`, … in order.
  public static func test(
    clock: TestClock = TestClock(),
    now: Date = Date(timeIntervalSinceReferenceDate: 817_600_000)
  ) -> StoreEnvironment {
    let counter = Protected(0)
    var environment = StoreEnvironment(
      now: {
        let elapsed = clock.now.components
        return now.addingTimeInterval(
          Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
      },
      uuid: {
        Gen<UUID>.testID(
          counter.withLock { count in
            defer { count += 1 }
            return count
          })
      },
      sleep: { try await clock.sleep(for: $0) })
    environment.effects = clock
    return environment
  }
}

/// A value behind a lock, for state shared between tasks.
final class Protected<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
