import Foundation

/// What a store's effects depend on from the outside world — the time, new identities,
/// waiting — injected per store so that tests can replace them (a manual clock, sequential
/// UUIDs, a fixed date).
///
/// ```swift
/// let store = SearchStore(environment: .live)   // the real clock and UUID()
/// ```
///
/// An app adds its own dependencies (an API client, a file location) as keys, each with a
/// live value and a test value, and reads and overrides them like the built-in ones:
///
/// ```swift
/// enum APIClientKey: StoreDependencyKey {
///   static let liveValue = APIClient.network
///   static let testValue = APIClient.unimplemented
/// }
/// extension StoreEnvironment {
///   var apiClient: APIClient {
///     get { self[APIClientKey.self] }
///     set { self[APIClientKey.self] = newValue }
///   }
/// }
/// var environment = StoreEnvironment.test(clock: clock)  // apiClient: .unimplemented
/// environment.apiClient = .returning(["milk"])
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
  /// The values of the app's dependencies set on this environment, by key type.
  private var dependencies: [ObjectIdentifier: any Sendable] = [:]
  /// Whether a dependency not set reads its test value (environments made for tests) rather
  /// than its live value.
  public var usesTestValues = false

  /// The app's dependency named by `key`: the value set on this environment, else the key's
  /// test value in an environment for tests, else its live value. O(1).
  public subscript<Key: StoreDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = dependencies[ObjectIdentifier(key)] as? Key.Value { return value }
      return usesTestValues ? Key.testValue : Key.liveValue
    }
    set { dependencies[ObjectIdentifier(key)] = newValue }
  }

  /// An environment whose effects take the time from `now`, ids from `uuid` and wait with
  /// `sleep`.
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

/// A dependency an app adds to ``StoreEnvironment``: the type of its value, the value the
/// app uses, and the value tests get unless they set another (typically one that fails the
/// test when used, so that a test names every dependency it relies on).
public protocol StoreDependencyKey {
  associatedtype Value: Sendable
  /// The value of ``StoreEnvironment/live`` and of environments that do not set one.
  static var liveValue: Value { get }
  /// The value of environments for tests (such as `StoreEnvironment.test(clock:now:)`).
  static var testValue: Value { get }
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
