import Observation

/// The machinery behind every ``Store``: holds the state, runs the reducer, tells
/// Observation, change callbacks and change streams what changed, and talks to the
/// persistence (a ``StoreBacking``) of a store opened on a file.
///
/// The state is mutated in place, so an action costs what the reducer costs: appending to a
/// list of 100,000 items costs what appending to a list of 10 does. "Really changed" comes
/// from the reducer's result, never from comparing an old copy of the state with the new
/// one.
///
/// ## Delivery order
/// After a change, Observation is told first, then the callbacks run in registration order.
/// A callback may send actions to the store: such an action is applied at once, and its
/// callbacks run after the current round has reached every callback, so every callback sees
/// the changes in the order they happened (the state passed is always the current one).
@MainActor
public final class StoreCore<Owner: Store>: Observable {
  public typealias State = Owner.State
  public typealias Action = Owner.Action

  private var storedState: State
  private var storedLastError: (any Error)?
  private let backing: (any StoreBacking<State>)?
  private let observers = ObserverRegistry<StoreChange<Action>, State>()
  private let registrar = ObservationRegistrar()
  private var isDelivering = false
  private var pendingChanges: [StoreChange<Action>] = []

  /// A core holding `state` in memory only.
  public init(state: State) {
    storedState = state
    backing = nil
  }

  /// A core whose state lives in `backing`, starting from `state` (the state `backing` read).
  public init(state: State, backing: any StoreBacking<State>) {
    storedState = state
    self.backing = backing
  }

  /// The current state. Tracked by Observation.
  public var state: State {
    registrar.access(self, keyPath: \.state)
    return storedState
  }

  /// The error of the latest action that could not be saved, or `nil` once a later action
  /// was saved. Tracked by Observation, so a SwiftUI view can show it. Always `nil` for a
  /// store in memory.
  public var lastError: (any Error)? {
    registrar.access(self, keyPath: \.lastError)
    return storedLastError
  }

  /// See ``Store/send(_:)``.
  public func send(_ action: Action) {
    guard backing != nil else {
      if Owner.reduce(&storedState, action) { didChange(.action(action)) }
      return
    }
    do {
      try trySend(action)
    } catch {
      registrar.withMutation(of: self, keyPath: \.lastError) { storedLastError = error }
    }
  }

  /// See ``Store/trySend(_:)``.
  public func trySend(_ action: Action) throws {
    guard let backing else {
      if Owner.reduce(&storedState, action) { didChange(.action(action)) }
      return
    }
    let outcome = try backing.transaction(from: storedState) { Owner.reduce(&$0, action) }
    if storedLastError != nil {
      registrar.withMutation(of: self, keyPath: \.lastError) { storedLastError = nil }
    }
    guard let outcome else { return }
    if outcome.reloaded {
      replaceState(with: outcome.state, as: .reload)
    }
    if outcome.changed {
      storedState = outcome.state
      didChange(.action(action))
    }
  }

  /// See ``Store/refresh()``.
  public func refresh() throws {
    guard let backing, let reloaded = try backing.reloadIfChanged() else { return }
    replaceState(with: reloaded, as: .reload)
  }

  /// Starts watching the store's file for changes made by others (another process, another
  /// store on the same file): each one is reloaded and delivered as ``StoreChange/reload``
  /// within about a second. Does nothing for a store in memory. The watch lasts as long as
  /// the store, or until ``stopWatching()``.
  ///
  /// When a reload fails (the file was made invalid), the state is kept and the error is
  /// kept in ``lastError``.
  ///
  /// - Throws: When the watch cannot be set up.
  public func watch() throws {
    try backing?.watch { [weak self] in
      guard let self else { return }
      do {
        try refresh()
      } catch {
        registrar.withMutation(of: self, keyPath: \.lastError) { storedLastError = error }
      }
    }
  }

  /// Stops the watch started by ``watch()``.
  public func stopWatching() {
    backing?.stopWatching()
  }

  /// See ``Store/onChange(_:)``.
  public func onChange(
    _ callback: @escaping @MainActor (StoreChange<Action>, State) -> Void
  ) -> ObserverToken {
    observers.register(callback)
  }

  /// See ``Store/changes``.
  public var changes: AsyncStream<StoreChange<Action>> { observers.stream() }

  private func replaceState(with newState: State, as change: StoreChange<Action>) {
    guard newState != storedState else { return }
    storedState = newState
    didChange(change)
  }

  /// Tells Observation and the callbacks about a change already made to `storedState`.
  private func didChange(_ change: StoreChange<Action>) {
    registrar.willSet(self, keyPath: \.state)
    registrar.didSet(self, keyPath: \.state)
    if isDelivering {
      pendingChanges.append(change)
      return
    }
    isDelivering = true
    observers.notify(change) { storedState }
    while !pendingChanges.isEmpty {
      observers.notify(pendingChanges.removeFirst()) { storedState }
    }
    isDelivering = false
  }
}
