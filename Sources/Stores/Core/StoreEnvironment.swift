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
  /// Gives each effect of a store with this environment a context of its own: a test clock
  /// keeps each effect's own time in it.
  package var effectContexts: (any EffectContextProviding)?

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

/// Makes the context of each effect as it starts (see ``StoreEnvironment``).
package protocol EffectContextProviding: Sendable {
  /// Called on the main actor as an effect starts; its task sees the result as
  /// ``EffectContext/current``.
  func makeEffectContext() -> any Sendable
  /// Called when the effect whose context is `context` has ended.
  func effectEnded(_ context: any Sendable)
}

/// The context of the effect that the current task runs, if any.
package enum EffectContext {
  @TaskLocal package static var current: (any Sendable)?
}
