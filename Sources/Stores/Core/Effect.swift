/// Asynchronous work a store starts from an action — a search, a timer, an import — whose
/// results come back as actions through ``Send``.
///
/// A store returns effects from ``Store/effect(for:state:environment:)``; the store runs
/// them, cancels them on request and when it is released, and ``StoreCore/settle()`` waits
/// for them:
///
/// ```swift
/// nonisolated static func effect(
///   for action: Action, state: State, environment: StoreEnvironment
/// ) -> Effect<Action> {
///   guard case .search(let text) = action else { return .none }
///   return .run(id: "search", cancelInFlight: true) { send in
///     try await environment.sleep(.milliseconds(300))   // debounce
///     await send(.showResults(for: text))
///   }
/// }
/// ```
public struct Effect<Action: Sendable>: Sendable {
  /// The work, boxed: ``none`` is `nil`, so that making and dropping it costs nothing.
  @usableFromInline
  enum Kind: Sendable {
    case run(
      id: EffectID?, cancelInFlight: Bool,
      operation: @Sendable (Send<Action>) async throws -> Void)
    case cancel(id: EffectID)
    case merge([Effect])
  }

  @usableFromInline
  final class Work: Sendable {
    let kind: Kind

    init(_ kind: Kind) {
      self.kind = kind
    }
  }

  @usableFromInline let work: Work?

  @usableFromInline
  init(work: Work?) {
    self.work = work
  }

  init(kind: Kind) {
    work = Work(kind)
  }

  /// No work: what a store without effects returns for every action. It costs nothing.
  @inlinable
  public static var none: Effect { Effect(work: nil) }

  /// Runs `operation` in a task of its own, off the main actor; `await send(action)` sends an
  /// action back to the store (through its file transaction, for a store on a file).
  ///
  /// - Parameters:
  ///   - id: Names the effect, so that ``cancel(id:)`` or a later `run` with
  ///     `cancelInFlight` can cancel it. Effects without an id are cancelled only with the
  ///     store.
  ///   - cancelInFlight: Cancel the running effect with the same `id` first: the latest
  ///     one wins (debouncing, a search that replaces the previous one).
  ///   - operation: The work. Cancellation is cooperative: `environment.sleep` throws when
  ///     cancelled, and actions sent after cancellation are dropped. An error other than
  ///     `CancellationError` ends the effect and is kept in the store's `lastError`.
  public static func run(
    id: (any Hashable & Sendable)? = nil, cancelInFlight: Bool = false,
    _ operation: @escaping @Sendable (Send<Action>) async throws -> Void
  ) -> Effect {
    Effect(
      kind: .run(id: id.map(EffectID.init), cancelInFlight: cancelInFlight, operation: operation))
  }

  /// Cancels the running effects named `id`, if any.
  public static func cancel(id: any Hashable & Sendable) -> Effect {
    Effect(kind: .cancel(id: EffectID(id)))
  }

  /// All of `effects`, started in order.
  public static func merge(_ effects: Effect...) -> Effect {
    merge(effects)
  }

  /// All of `effects`, started in order.
  public static func merge(_ effects: [Effect]) -> Effect {
    let work = effects.filter { !$0.isNone }
    return work.count == 1 ? work[0] : work.isEmpty ? .none : Effect(kind: .merge(work))
  }

  /// Whether this is ``none``.
  @inlinable
  public var isNone: Bool { work == nil }
}

/// Sends actions from an effect back to its store: `await send(.loaded(items))`.
///
/// It holds the store weakly, so a running effect never keeps its store alive; once the store
/// is gone, or the effect was cancelled, sending does nothing.
public struct Send<Action: Sendable>: Sendable {
  private let deliver: @MainActor @Sendable (Action) -> Void

  /// A `Send` that passes each action to `deliver` while the sending task is not cancelled.
  init(_ deliver: @escaping @MainActor @Sendable (Action) -> Void) {
    self.deliver = deliver
  }

  /// Sends `action` to the store, on the main actor, unless the effect was cancelled.
  @MainActor
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }
}

/// The name of an effect, whatever its type.
@usableFromInline
struct EffectID: Hashable, @unchecked Sendable {
  // The value was `Sendable` when it was wrapped; `AnyHashable` only forgets it.
  private let value: AnyHashable

  init(_ value: any Hashable & Sendable) {
    self.value = AnyHashable(value)
  }

  /// The id as written: `search`, `42`.
  var description: String { String(describing: value.base) }
}
