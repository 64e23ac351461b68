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
///
/// Time is exact whatever the threads do: each effect of a store whose environment uses the
/// clock (`StoreEnvironment.test(clock:now:)`) keeps a time of its own, which starts at the
/// clock's time when the effect starts — when its action is sent — and moves to each deadline
/// it wakes at. A sleep's deadline is counted from that time, so an effect that reaches its
/// sleep only after the test advanced the clock still wakes exactly when it should. And
/// ``advance(by:)`` wakes one effect at a time, in deadline order, and waits for it to sleep
/// again or end before waking the next, so their actions arrive in the order of their times.
public final class TestClock: EffectContextProviding {
  private struct Sleeper {
    var deadline: Duration
    var id: UInt64
    var continuation: CheckedContinuation<Void, any Error>
    var effect: EffectTime?
  }

  private struct Timeline {
    var now: Duration = .zero
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// The effects started and not ended, by identity.
    var effects: [ObjectIdentifier: EffectTime] = [:]
  }

  /// An effect's own time, and whether it is running (not asleep on the clock, not ended).
  private final class EffectTime: Sendable {
    let now: Protected<Duration>
    let isRunning = Protected(true)

    init(_ now: Duration) {
      self.now = Protected(now)
    }
  }

  private let timeline = Protected(Timeline())

  public init() {}

  /// How far the clock has advanced since it was made.
  public var now: Duration { timeline.withLock { $0.now } }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

  /// Waits until the clock reaches `duration` past the caller's time — the effect's own time
  /// in an effect, else the clock's; throws `CancellationError` when the waiting task is
  /// cancelled first.
  public func sleep(for duration: Duration) async throws {
    let effectTime = EffectContext.current as? EffectTime
    let (id, deadline, isDue) = timeline.withLock { timeline in
      defer { timeline.nextID += 1 }
      let deadline = (effectTime?.now.withLock { $0 } ?? timeline.now) + max(duration, .zero)
      return (timeline.nextID, deadline, deadline <= timeline.now)
    }
    if !isDue {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          timeline.withLock { timeline in
            timeline.sleepers.append(
              Sleeper(
                deadline: deadline, id: id, continuation: continuation, effect: effectTime))
            effectTime?.isRunning.withLock { $0 = false }
          }
          if Task.isCancelled { self.cancel(id) }
        }
      } onCancel: {
        cancel(id)
      }
    }
    try Task.checkCancellation()
    effectTime?.now.withLock { $0 = deadline }
  }

  /// Moves the clock forward by `duration`, waking every sleeper whose deadline it passes —
  /// also those that woken effects put to sleep meanwhile — one at a time in deadline order.
  /// Before each, it waits until every effect that runs with this clock sleeps on it or has
  /// ended (at most 60 s, for an effect that waits on something else), so that effects just
  /// started have reached their sleep and a woken one has done what it does next.
  public func advance(by duration: Duration) async {
    let target = timeline.withLock { $0.now } + duration
    while true {
      await settle()
      guard let sleeper = nextSleeper(dueBy: target) else { break }
      sleeper.continuation.resume()
    }
    timeline.withLock { $0.now = max($0.now, target) }
  }

  /// Takes the sleeper with the earliest deadline up to `target` off the list, moving the
  /// clock to its deadline; `nil` when none is due.
  private func nextSleeper(dueBy target: Duration) -> Sleeper? {
    timeline.withLock { timeline in
      let due = timeline.sleepers.indices.filter { timeline.sleepers[$0].deadline <= target }
      guard
        let next = due.min(by: {
          (timeline.sleepers[$0].deadline, timeline.sleepers[$0].id)
            < (timeline.sleepers[$1].deadline, timeline.sleepers[$1].id)
        })
      else { return nil }
      let sleeper = timeline.sleepers.remove(at: next)
      timeline.now = max(timeline.now, sleeper.deadline)
      sleeper.effect?.isRunning.withLock { $0 = true }
      return sleeper
    }
  }

  /// Waits until no effect that runs with this clock is running — each sleeps on it or has
  /// ended — for at most 60 s.
  private func settle() async {
    let deadline = ContinuousClock.now + .seconds(60)
    while timeline.withLock({ $0.effects.values.contains { $0.isRunning.withLock { $0 } } }),
      ContinuousClock.now < deadline
    {
      try? await Task.sleep(for: .microseconds(50))
    }
  }

  /// The deadline of the effect whose context is `context` when it sleeps on this clock;
  /// `nil` when it runs (or is not one of this clock's). O(sleepers).
  func deadline(ofSleeping context: any Sendable) -> Duration? {
    guard let effect = context as? EffectTime else { return nil }
    return timeline.withLock { timeline in
      timeline.sleepers.first { $0.effect === effect }?.deadline
    }
  }

  package func makeEffectContext() -> any Sendable {
    let effect = EffectTime(now)
    timeline.withLock { $0.effects[ObjectIdentifier(effect)] = effect }
    return effect
  }

  package func effectEnded(_ context: any Sendable) {
    guard let effect = context as? EffectTime else { return }
    timeline.withLock { $0.effects[ObjectIdentifier(effect)] = nil }
  }

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
  /// time, `uuid` giving `Gen.testID(0)`, `(1)`, … in order, and the test value of every
  /// dependency the app added (`StoreDependencyKey`), unless the test sets another.
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
    environment.effectContexts = clock
    environment.usesTestValues = true
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
