import Foundation

/// What a store's effects depend on from the outside world — the time, new identities,
/// waiting — injected per store so that tests can replace them (a manual clock, sequential
/// UUIDs, a fixed date).
///
/// ```swift
/// let store = SearchStore(environment: .live)   // the real clock and UUID()
/// ```
public struct StoreEnvironment: Sendable {
  /// The current date.
  public var now: @Sendable () -> Date
  /// A new unique identity.
  public var uuid: @Sendable () -> UUID
  /// Waits for a duration; throws `CancellationError` when the waiting task is cancelled.
  public var sleep: @Sendable (Duration) async throws -> Void
  /// Told when each effect of a store with this environment starts and ends: a test clock
  /// uses it to know when every effect is asleep on it.
  package var effects: (any EffectTracking)?

  public init(
    now: @escaping @Sendable () -> Date, uuid: @escaping @Sendable () -> UUID,
    sleep: @escaping @Sendable (Duration) async throws -> Void
  ) {
    self.now = now
    self.uuid = uuid
    self.sleep = sleep
  }

  /// The real world: `Date()`, `UUID()` and `Task.sleep(for:)`.
  public static var live: StoreEnvironment {
    StoreEnvironment(
      now: { Date() }, uuid: { UUID() }, sleep: { try await Task.sleep(for: $0) })
  }
}

/// Learns when effects start and end (see ``StoreEnvironment``).
package protocol EffectTracking: Sendable {
  func effectStarted()
  func effectEnded()
}
