import Observation

/// An observable object that owns one concern's state and changes it only through actions.
///
/// A store is a `@MainActor @Observable final class` with a value-type `State`, an `Action`
/// enum and a pure, total reducer. Conforming needs three things: the two types, the
/// `reduce(_:_:)` function and a ``StoreCore`` that holds the state:
///
/// ```swift
/// @MainActor @Observable
/// final class CounterStore: Store {
///   enum Action: Sendable { case increment, reset }
///
///   nonisolated static func reduce(_ count: inout Int, _ action: Action) -> Bool {
///     switch action {
///     case .increment: count += 1; return true
///     case .reset: defer { count = 0 }; return count != 0
///     }
///   }
///
///   @ObservationIgnored let core: StoreCore<CounterStore>
///   init(count: Int = 0) { core = StoreCore(state: count) }
/// }
/// ```
///
/// Everything else — ``send(_:)``, change callbacks, the async stream of changes,
/// Observation and persistence — comes from ``StoreCore``, written once for every store.
@MainActor
public protocol Store: AnyObject, Observable {
  /// The whole state of the store: a value type, compared to detect real changes.
  associatedtype State: Equatable & Sendable
  /// Every change a user can make, as one case each.
  associatedtype Action: Sendable

  /// The pure, total reducer: applies `action` to `state` in place and returns whether the
  /// state changed.
  ///
  /// It must not trap for any action on any state (offsets out of range are ignored), must
  /// not do I/O, and must give the same result for the same input. It returns `false` when
  /// the state is unchanged, which lets the store skip notifying anyone; returning `true` for
  /// an unchanged state is harmless but wakes observers for nothing.
  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool

  /// The machinery that holds the state and notifies observers.
  var core: StoreCore<Self> { get }

  /// The current state, read-only. Reading it inside `withObservationTracking` (or a SwiftUI
  /// view's body) tracks it.
  var state: State { get }

  /// Applies `action`: runs the reducer on the state in place and, if the state changed,
  /// notifies Observation and every change callback once.
  ///
  /// For a store opened on a file the action is a transaction (see ``StoreCore``); if it
  /// cannot be saved, the state is left as it was and the error is kept in
  /// ``StoreCore/lastError``. Use ``trySend(_:)`` to get the error thrown instead.
  ///
  /// - Complexity: The reducer's cost for `action`, plus O(*k*) for *k* change callbacks; a
  ///   store in memory never copies its state. On a file, add the transaction: O(*n*) to
  ///   encode and write the state, and to copy it so that a failed write leaves memory as it
  ///   was.
  func send(_ action: consuming Action)

  /// Applies `action` like ``send(_:)``, but throws when the change cannot be saved.
  ///
  /// A store in memory never throws. For a file-backed store, when this throws, the file
  /// and the state in memory are both as they were before the action.
  func trySend(_ action: consuming Action) throws
}

extension Store {
  @inlinable
  public var state: State { core.state }

  @inlinable
  public func send(_ action: consuming Action) { core.send(action) }

  @inlinable
  public func trySend(_ action: consuming Action) throws { try core.trySend(action) }

  /// Registers `callback` to run after every action or reload that really changed the
  /// state, once per change, with the change and the new state.
  ///
  /// Callbacks run synchronously on the main actor in the order they were registered. The
  /// returned token unregisters the callback when cancelled or released; the store does not
  /// keep it alive, so hold on to the token (and capture `self` weakly in `callback` if
  /// `self` holds the store). See ``StoreCore/onChange(_:)`` for what happens when a callback
  /// sends actions or (un)registers callbacks itself.
  ///
  /// - Complexity: O(1) amortised.
  public func onChange(
    _ callback: @escaping @MainActor (StoreChange<Action>, State) -> Void
  ) -> ObserverToken {
    core.onChange(callback)
  }

  /// An asynchronous sequence of the store's changes, one element per change, finishing
  /// when the store is deallocated. Read ``state`` for the state after a change.
  public var changes: AsyncStream<StoreChange<Action>> { core.changes }

  /// For a store opened on a file: reloads the file now if another process changed it,
  /// notifying observers with ``StoreChange/reload`` when the state differs. Does nothing for
  /// a store in memory.
  ///
  /// - Throws: The persistence error when the file cannot be read or is invalid; the state
  ///   is then left as it was.
  public func refresh() throws { try core.refresh() }
}
