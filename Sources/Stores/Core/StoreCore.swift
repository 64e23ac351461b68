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

  // The hot path — an action on a store in memory — is inlinable, so that it is specialised
  // for each store in the module that sends (generic code that is not runs many times
  // slower there); what it touches is `@usableFromInline`. The properties it touches are
  // only used on the main actor and never accessed overlapping (the reducer cannot reach
  // the store), so the dynamic exclusivity checks, a fifth of an action's cost, are off.
  @usableFromInline @exclusivity(unchecked) var storedState: State
  private var storedLastError: (any Error)?
  @usableFromInline let backing: (any StoreBacking<State>)?
  @usableFromInline let observers = ObserverRegistry<StoreChange<Action>, State>()
  @usableFromInline let registrar = ObservationRegistrar()
  // Key paths into a generic class are built at run time, slowly: build them once.
  @usableFromInline let stateKeyPath = \StoreCore<Owner>.state
  private let lastErrorKeyPath = \StoreCore<Owner>.lastError
  /// Whether `state` was read since Observation was last told of a change. Observation's
  /// trackers are one-shot — each is removed when told of a change and installed again by
  /// the next read — so while this is false nobody is tracking, and a change can skip the
  /// registrar (two locks and lookups per action).
  @usableFromInline @exclusivity(unchecked) var isStateTracked = false
  @usableFromInline @exclusivity(unchecked) var isDelivering = false
  @usableFromInline @exclusivity(unchecked) var pendingChanges: [StoreChange<Action>] = []

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
  @inlinable
  public var state: State {
    registrar.access(self, keyPath: stateKeyPath)
    isStateTracked = true
    return storedState
  }

  /// The error of the latest action that could not be saved, or `nil` once a later action
  /// was saved. Tracked by Observation, so a SwiftUI view can show it. Always `nil` for a
  /// store in memory.
  public internal(set) var lastError: (any Error)? {
    get {
      registrar.access(self, keyPath: lastErrorKeyPath)
      return storedLastError
    }
    set {
      registrar.withMutation(of: self, keyPath: lastErrorKeyPath) { storedLastError = newValue }
    }
  }

  /// See ``Store/send(_:)``.
  @inlinable
  public func send(_ action: consuming Action) {
    guard backing != nil else {
      if Owner.reduce(&storedState, action) { didChange(.action(consume action)) }
      return
    }
    sendThroughBackingKeepingError(action)
  }

  /// See ``Store/trySend(_:)``.
  @inlinable
  public func trySend(_ action: consuming Action) throws {
    guard backing != nil else {
      if Owner.reduce(&storedState, action) { didChange(.action(consume action)) }
      return
    }
    try sendThroughBacking(action)
  }

  /// ``sendThroughBacking(_:)``, keeping its error in ``lastError`` instead of throwing.
  @usableFromInline
  func sendThroughBackingKeepingError(_ action: Action) {
    do {
      try sendThroughBacking(action)
    } catch {
      lastError = error
    }
  }

  /// Runs `action` as a transaction of the backing, then notifies.
  @usableFromInline
  func sendThroughBacking(_ action: Action) throws {
    guard let backing else { return }
    let outcome = try backing.transaction(from: storedState) { Owner.reduce(&$0, action) }
    if storedLastError != nil { lastError = nil }
    guard let outcome else { return }
    storedState = outcome.state
    if outcome.reloaded { didChange(.reload) }
    if outcome.changed { didChange(.action(action)) }
  }

  /// See ``Store/refresh()``.
  public func refresh() throws {
    guard let backing, let reloaded = try backing.reloadIfChanged(), reloaded != storedState
    else { return }
    storedState = reloaded
    didChange(.reload)
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
        lastError = error
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

  /// Tells Observation and the callbacks about a change already made to `storedState`.
  @inlinable
  func didChange(_ change: consuming StoreChange<Action>) {
    if isStateTracked {
      isStateTracked = false
      registrar.willSet(self, keyPath: stateKeyPath)
      registrar.didSet(self, keyPath: stateKeyPath)
    }
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
