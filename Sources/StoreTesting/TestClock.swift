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
/// clock (``StoreEnvironment/test(clock:now:)``) keeps a time of its own, which starts at the
/// clock's time when the effect starts — when its action is sent — and moves to each deadline
/// it wakes at. A sleep's deadline is counted from that time, so an effect that reaches its
/// sleep only after the test advanced the clock still wakes exactly when it should.
public final class TestClock: EffectContextProviding {
  private struct Sleeper {
    var deadline: Duration
    var id: UInt64
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct Timeline {
    var now: Duration = .zero
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
  }

  /// An effect's own time.
  private final class EffectTime: Sendable {
    let now: Protected<Duration>

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
              Sleeper(deadline: deadline, id: id, continuation: continuation))
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

  /// Moves the clock forward by `duration`, waking every sleeper whose deadline it passes, in
  /// deadline order, and gives the woken tasks a moment to run.
  public func advance(by duration: Duration) async {
    let woken = timeline.withLock { timeline in
      timeline.now += duration
      let due = timeline.sleepers.filter { $0.deadline <= timeline.now }
        .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
      timeline.sleepers.removeAll { $0.deadline <= timeline.now }
      return due
    }
    for sleeper in woken { sleeper.continuation.resume() }
    for _ in 0..<10 { await Task.yield() }
  }

  package func makeEffectContext() -> any Sendable {
    EffectTime(now)
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
    environment.effectContexts = clock
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
