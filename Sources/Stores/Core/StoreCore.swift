import Observation

/// The machinery behind every ``Store``: holds the state, runs the reducer, tells
/// Observation, change callbacks and change streams what changed, and talks to the
/// persistence (a `StoreBacking`) of a store opened on a file.
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
  private var storedSyncStatus = SyncStatus()
  @usableFromInline let backing: (any StoreBacking<State>)?
  /// What saving in the background keeps; `nil` while the store saves before returning (see
  /// ``saveMode``).
  @usableFromInline @exclusivity(unchecked) var background: BackgroundSaving<State, Action>?
  @usableFromInline let observers = ObserverRegistry<StoreChange<Action>, State>()
  @usableFromInline let registrar = ObservationRegistrar()
  // Key paths into a generic class are built at run time, slowly: build them once.
  @usableFromInline let stateKeyPath = \StoreCore<Owner>.state
  private let lastErrorKeyPath = \StoreCore<Owner>.lastError
  private let syncStatusKeyPath = \StoreCore<Owner>.syncStatus
  @usableFromInline let unsavedKeyPath = \StoreCore<Owner>.hasUnsavedChanges
  /// Whether `state` was read since Observation was last told of a change. Observation's
  /// trackers are one-shot — each is removed when told of a change and installed again by
  /// the next read — so while this is false nobody is tracking, and a change can skip the
  /// registrar (two locks and lookups per action).
  @usableFromInline @exclusivity(unchecked) var isStateTracked = false
  @usableFromInline @exclusivity(unchecked) var isDelivering = false
  @usableFromInline @exclusivity(unchecked) var pendingChanges: [StoreChange<Action>] = []
  /// How many changes were told: a change of `storedState` during delivery moves it.
  @usableFromInline @exclusivity(unchecked) var version = 0
  /// The undo and redo steps (see ``undoHistory``).
  @usableFromInline @exclusivity(unchecked) var history = UndoHistory<Action>()
  /// Whether the history was read since Observation was last told of a change to it.
  @usableFromInline @exclusivity(unchecked) var isHistoryTracked = false
  @usableFromInline let historyKeyPath = \StoreCore<Owner>.undoHistory
  /// Names the actions of recorded steps when their names are read (see
  /// ``UndoHistory/Step/name``): ``Store/actionName(of:)``.
  @usableFromInline let actionNamer = ActionNamer(of: Owner.self)
  /// Where new steps are registered too (see ``Store/undoRegistrar``).
  @usableFromInline @exclusivity(unchecked) weak var undoRegistrar: (any UndoRegistrar)? {
    didSet { hasUndoRegistrar = undoRegistrar != nil }
  }
  /// Whether an `undoRegistrar` was set: the weak reference is loaded only then.
  @usableFromInline @exclusivity(unchecked) var hasUndoRegistrar = false

  /// What the store's effects use from the outside world.
  public let environment: StoreEnvironment
  /// The running effects; created by the first effect, so stores without any pay nothing.
  private var effects: EffectRunner<Action>?

  /// A core holding `state` in memory only, whose effects use `environment`.
  public init(state: State, environment: StoreEnvironment = .live) {
    storedState = state
    backing = nil
    self.environment = environment
  }

  /// A core whose state lives in `backing`, starting from `state` (the state `backing` read),
  /// whose effects use `environment`.
  package init(
    state: State, backing: any StoreBacking<State>, environment: StoreEnvironment = .live
  ) {
    storedState = state
    self.backing = backing
    self.environment = environment
    // The conflicts the file keeps, when opening read them.
    if let conflicts = (backing as? any MergeReporting<State>)?.openConflicts(in: state) {
      storedSyncStatus.conflicts = conflicts
    }
  }

  /// The current state. Tracked by Observation.
  @inlinable
  public var state: State {
    registrar.access(self, keyPath: stateKeyPath)
    isStateTracked = true
    return storedState
  }

  /// See ``Store/lastError``.
  public internal(set) var lastError: (any Error)? {
    get {
      registrar.access(self, keyPath: lastErrorKeyPath)
      return storedLastError
    }
    set {
      registrar.withMutation(of: self, keyPath: lastErrorKeyPath) { storedLastError = newValue }
    }
  }

  /// See ``Store/syncStatus``.
  public var syncStatus: SyncStatus {
    registrar.access(self, keyPath: syncStatusKeyPath)
    return storedSyncStatus
  }

  /// See ``Store/send(_:)``.
  @inlinable
  public func send(_ action: consuming Action) {
    guard backing != nil, !Owner.isMemoryOnly(action) else {
      sendInMemory(action, recording: .action)
      return
    }
    if background != nil {
      sendInBackground(Owner.resolve(action, in: storedState), recording: .action)
    } else {
      sendThroughBackingKeepingError(action)
    }
  }

  /// Runs the reducer on `state` and, when `recordingInverse`, puts in `inverse` the inverse
  /// of `action` (see ``Store/reduce(_:_:inverse:)``). The state is lent to the inverse in
  /// place: read from the stored property instead, it would be copied, retaining all it holds.
  @inlinable
  static func reduce(
    _ state: inout State, _ action: Action, recordingInverse: Bool, in inverse: inout Action?
  ) -> Bool {
    recordingInverse
      ? Owner.reduce(&state, action, inverse: &inverse) : Owner.reduce(&state, action)
  }

  /// Applies `action` to the state in memory, records its inverse as `recording` says, tells
  /// who watches and starts its effect; returns whether the state changed.
  @inlinable @discardableResult
  func sendInMemory(_ action: consuming Action, recording: Recording) -> Bool {
    var inverse: Action?
    let changed = Self.reduce(
      &storedState, action, recordingInverse: history.limit > 0, in: &inverse)
    let effect = Owner.effect(for: action, state: storedState, environment: environment)
    if changed {
      if let inverse = inverse.take() { record(inverse, of: action, recording) }
      didChange(.action(consume action))
    }
    if !effect.isNone { start(effect) }
    return changed
  }

  /// See ``Store/trySend(_:)``.
  @inlinable
  public func trySend(_ action: consuming Action) throws {
    guard backing != nil, !Owner.isMemoryOnly(action) else {
      send(action)
      return
    }
    _ = try sendThroughBacking(action) { _ in }
  }

  /// See ``Store/trySend(_:requiring:)``.
  public func trySend(_ action: Action, requiring condition: (State) throws -> Void) throws {
    guard backing != nil, !Owner.isMemoryOnly(action) else {
      try condition(storedState)
      send(action)
      return
    }
    _ = try sendThroughBacking(action, requiring: condition)
  }

  /// ``sendThroughBacking(_:requiring:)``, keeping its error in ``lastError`` instead of
  /// throwing.
  @usableFromInline
  func sendThroughBackingKeepingError(_ action: Action) {
    do {
      _ = try sendThroughBacking(action) { _ in }
    } catch {
      lastError = error
    }
  }

  /// Runs `action` as a transaction of the backing, then notifies and starts its effect. A
  /// store saving in the background first waits for the actions it has not saved yet.
  ///
  /// Positions in `action` are resolved to identities against the state in memory — the state
  /// the caller saw — before the transaction can reload a newer one.
  ///
  /// The inverse of the action is computed inside the transaction, against the state the
  /// action meets there, and recorded as `recording` says; returns whether the state changed.
  @usableFromInline @discardableResult
  func sendThroughBacking(
    _ action: Action, recording: Recording = .action,
    requiring condition: (State) throws -> Void
  ) throws -> Bool {
    guard let backing else { return false }
    let action = Owner.resolve(action, in: storedState)
    writeQueuedActions()
    let outcome: BackingTransaction<State>?
    var inverse: Action?
    do {
      outcome = try backing.transaction(from: storedState) { state in
        try condition(state)
        return Self.reduce(&state, action, recordingInverse: history.limit > 0, in: &inverse)
      }
    } catch let error as StoreFileError {
      if let failure = Owner.failedSave(of: action, error: error) { send(failure) }
      throw error
    }
    if let outcome {
      storedState = outcome.state
      background?.fileState = outcome.state
    }
    reportCopiesNotMerged()
    if let outcome {
      if outcome.reloaded { didChange(.reload) }
      if outcome.changed {
        if let inverse = inverse.take() { record(inverse, of: action, recording) }
        didChange(.action(action))
      }
    }
    let effect = Owner.effect(for: action, state: storedState, environment: environment)
    if !effect.isNone { start(effect) }
    return outcome?.changed ?? false
  }

  // MARK: Undo

  @usableFromInline typealias Recording = UndoRecording

  /// See ``Store/undoHistory``.
  public internal(set) var undoHistory: UndoHistory<Action> {
    get {
      registrar.access(self, keyPath: historyKeyPath)
      isHistoryTracked = true
      return history
    }
    set {
      history = newValue
      historyDidChange()
    }
  }

  /// Records `inverse`, the inverse of `action`, as `recording` says.
  @inlinable
  func record(_ inverse: consuming Action, of action: Action, _ recording: Recording) {
    switch recording {
    case .action:
      if Owner.isNamedByItsInverse(action) {
        assert(
          Owner.actionName(of: inverse) == Owner.actionName(of: action),
          "isNamedByItsInverse(_:) is true, but \(Owner.self) names the inverse otherwise")
        history.record(UndoHistory.Step(action: inverse, namedByItself: actionNamer))
      } else {
        history.record(
          UndoHistory.Step(action: inverse, reversing: action, namer: actionNamer))
      }
      if hasUndoRegistrar { registerUndo(named: Owner.actionName(of: action)) }
    case .undo(let name):
      history.pushRedo(UndoHistory.Step(action: inverse, name: name))
    case .redo(let name):
      history.pushUndo(UndoHistory.Step(action: inverse, name: name))
    }
    historyDidChange()
  }

  /// Tells Observation that the history changed, when someone reads it.
  @inlinable
  func historyDidChange() {
    guard isHistoryTracked else { return }
    isHistoryTracked = false
    registrar.willSet(self, keyPath: historyKeyPath)
    registrar.didSet(self, keyPath: historyKeyPath)
  }

  /// See ``Store/tryUndo()``; ``Store/undo()`` when not `durably`.
  func undo(durably: Bool = true) throws -> UndoOutcome? {
    if !durably { noteHistoryBeforeQueuing() }
    guard let step = history.popUndo() else { return nil }
    historyDidChange()
    do {
      return try apply(step, recording: .undo(name: step.name), durably: durably)
    } catch {
      history.pushUndo(step)
      historyDidChange()
      throw error
    }
  }

  /// See ``Store/tryUndo(_:)``.
  func undo(_ step: UndoHistory<Action>.Step) throws -> UndoOutcome {
    try apply(step, recording: .undo(name: step.name))
  }

  /// See ``Store/tryRedo()``; ``Store/redo()`` when not `durably`.
  func redo(durably: Bool = true) throws -> UndoOutcome? {
    if !durably { noteHistoryBeforeQueuing() }
    guard let step = history.popRedo() else { return nil }
    historyDidChange()
    do {
      return try apply(step, recording: .redo(name: step.name), durably: durably)
    } catch {
      history.pushRedo(step)
      historyDidChange()
      throw error
    }
  }

  /// Sends the action of `step` — through the file's transaction on a store opened on a
  /// file, or to the background writer when the store saves in the background and it need
  /// not be `durably` saved on return — recording its inverse as `recording` says, and
  /// reports what it skipped.
  private func apply(
    _ step: UndoHistory<Action>.Step, recording: Recording, durably: Bool = true
  ) throws -> UndoOutcome {
    var skipped: [String] = []
    let changed: Bool
    if backing == nil || Owner.isMemoryOnly(step.action) {
      skipped = Owner.skippedParts(of: step.action, in: storedState)
      changed = sendInMemory(step.action, recording: recording)
    } else if background != nil, !durably {
      skipped = Owner.skippedParts(of: step.action, in: storedState)
      changed = sendInBackground(step.action, recording: recording)
    } else {
      changed = try sendThroughBacking(step.action, recording: recording) { state in
        skipped = Owner.skippedParts(of: step.action, in: state)
      }
    }
    return UndoOutcome(name: step.name, skipped: skipped, changed: changed)
  }

  /// See ``Store/refresh()``.
  public func refresh() throws {
    guard let backing else { return }
    if let background {
      background.needsReload = true
      scheduleWrite()
      return
    }
    let reloaded = try backing.reloadIfChanged(from: storedState)
    // The file reads well: an error kept from before (a reload that failed) is over. Told
    // with the state reloaded, which the conflicts are of.
    guard let reloaded, reloaded != storedState else { return reportCopiesNotMerged() }
    storedState = reloaded
    reportCopiesNotMerged()
    didChange(.reload)
  }

  /// Keeps in ``lastError`` the first conflict copy beside the file that the backing's latest
  /// transaction or reload could not merge (it stays where it is), or clears it; and updates
  /// ``syncStatus`` with what it merged and read (Observation is told only of a change).
  func reportCopiesNotMerged() {
    let reporting = backing as? any MergeReporting<State>
    let problem = reporting?.mergeReport.notMerged.first
    if storedLastError != nil || problem != nil { lastError = problem }
    guard let reporting else { return }
    let report = reporting.mergeReport
    let conflicts = reporting.openConflicts(in: background?.fileState ?? storedState)
    publish(
      storedSyncStatus.updated(
        with: report, skew: reporting.largestClockSkew, conflicts: conflicts))
  }

  /// See ``Store/resolve(_:choosing:)``.
  @discardableResult
  public func resolve(_ conflict: SyncConflict, choosing choice: SyncConflict.Choice) throws
    -> Bool
  {
    guard let reporting = backing as? any MergeReporting<State> else { return false }
    writeQueuedActions()
    let outcome = try reporting.resolve(conflict, choosing: choice, from: storedState)
    if let outcome {
      storedState = outcome.state
      background?.fileState = outcome.state
    }
    reportCopiesNotMerged()
    // Not an action of the store's: observers see it as a change from elsewhere.
    if outcome != nil { didChange(.reload) }
    return outcome?.changed ?? false
  }

  /// ``syncStatus`` with the stamps of the file as opened counted too (a store decodes them
  /// only when an action or a reload needs them): for `diary sync status`.
  ///
  /// - Throws: ``StoreFileError`` when the file's stamps are not valid.
  package func syncStatusReadingStamps() throws -> SyncStatus {
    writeQueuedActions()
    guard let reporting = backing as? any MergeReporting<State> else { return syncStatus }
    try reporting.readStampsNow()
    var status = storedSyncStatus
    status.largestClockSkew = .milliseconds(max(reporting.largestClockSkew, 0))
    status.conflicts = reporting.openConflicts(in: background?.fileState ?? storedState) ?? []
    publish(status)
    return status
  }

  /// Keeps `status` as ``syncStatus``, telling Observation only of a change.
  private func publish(_ status: SyncStatus) {
    guard status != storedSyncStatus else { return }
    registrar.withMutation(of: self, keyPath: syncStatusKeyPath) { storedSyncStatus = status }
  }

  /// The conflict copies the backing's latest transaction or reload merged into the file (and
  /// removed), and the errors of those it could not merge: for `diary`, which says so.
  package var mergeReport: MergeReport {
    background?.writer.waitUntilIdle()
    return (backing as? any MergeReporting)?.mergeReport ?? MergeReport()
  }

  /// See ``Store/watch()``.
  public func watch() throws {
    // The backing is the writer's while a batch is written (its file presenter, say).
    background?.writer.waitUntilIdle()
    try backing?.watch { [weak self] in
      guard let self else { return }
      do {
        try refresh()
      } catch {
        lastError = error
      }
    }
  }

  /// See ``Store/stopWatching()``.
  public func stopWatching() {
    background?.writer.waitUntilIdle()
    backing?.stopWatching()
  }

  /// See ``Store/settle()``.
  public func settle() async {
    await effects?.settle()
  }

  /// Whether an effect of the store is running: for tests, which fail on effects left
  /// running.
  package var isRunningEffects: Bool { !(effects?.isIdle ?? true) }

  /// The effects running now, in the order they started: for tests that name them.
  package var runningEffects: [RunningEffect] { effects?.effects ?? [] }

  /// Called instead of applying each action an effect sends, when set: for tests that apply
  /// them themselves as they assert them.
  package var holdEffectAction: (@MainActor (Action) -> Void)?

  /// Called after an effect starts or ends, for tests that keep track of running effects.
  package var onEffectsChanged: (@MainActor () -> Void)?

  /// Told of each change, with the new state, before the callbacks are: for an observation of
  /// parts of the state (see `KeyObservation`); `nil` for most stores.
  @usableFromInline @exclusivity(unchecked) package var partsChanged:
    (@MainActor (StoreChange<Action>, State) -> Void)?

  /// Runs `effect`, creating the runner on first use.
  @usableFromInline
  func start(_ effect: Effect<Action>) {
    let runner =
      effects
      ?? EffectRunner(
        send: Send { [weak self] action in
          guard let self else { return }
          if let hold = holdEffectAction { return hold(action) }
          send(action)
        },
        fail: { [weak self] error in self?.lastError = error },
        contexts: environment.effectContexts,
        changed: { [weak self] in self?.onEffectsChanged?() }
      )
    effects = runner
    runner.start(effect)
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
    version &+= 1
    if isStateTracked {
      isStateTracked = false
      registrar.willSet(self, keyPath: stateKeyPath)
      registrar.didSet(self, keyPath: stateKeyPath)
    }
    partsChanged?(change, storedState)
    if isDelivering {
      pendingChanges.append(change)
      return
    }
    isDelivering = true
    observers.notify(change, version: { version }, state: { storedState })
    while !pendingChanges.isEmpty {
      observers.notify(pendingChanges.removeFirst(), version: { version }, state: { storedState })
    }
    isDelivering = false
  }
}
