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

  /// The action that means what `action` meant to someone looking at `state`: an action that
  /// names items by position (an offset, as SwiftUI's `onDelete` and `onMove` give) turned into
  /// one that names them by identity. Every other action is returned as it is.
  ///
  /// A store opened on a file calls it on the state in memory — the state its user saw —
  /// before the transaction, which may reload a file that another process changed meanwhile:
  /// identities then reach the same items, or none if they were removed, never others. The
  /// default returns `action` unchanged, right for stores whose actions name no positions.
  nonisolated static func resolve(_ action: Action, in state: State) -> Action

  /// The asynchronous work `action` starts, if any: called for every action sent — whether or
  /// not it changed the state — right after the reducer, with the state after it. The
  /// effect's actions come back through ``send(_:)`` like any other.
  ///
  /// The default returns ``Effect/none``: a store without effects pays nothing for them.
  nonisolated static func effect(
    for action: Action, state: State, environment: StoreEnvironment
  ) -> Effect<Action>

  /// Whether `action` changes only what the state keeps in memory and never writes to a file
  /// (an import's progress, say): a store on a file then applies it at once, without a
  /// transaction. The default is `false`: every action is a transaction.
  nonisolated static func isMemoryOnly(_ action: Action) -> Bool

  /// The memory-only action (see ``isMemoryOnly(_:)``) that records that `action` could not
  /// be saved, with `error`: sent at once when that happens, so that a status an effect
  /// keeps — an import's — ends as failed rather than stays in progress. The default is
  /// `nil`: nothing to record.
  nonisolated static func failedSave(of action: Action, error: StoreFileError) -> Action?

  /// The action that reverses `action`, computed against `state`, the state the action is
  /// about to be applied to — or `nil` when `action` cannot be undone (the default: a store
  /// that declares no inverses has no undo).
  ///
  /// The inverse names items by identity and changes only what is still as `action` left it
  /// (a field still holding the value `action` set, an item still there), so that undoing
  /// after someone else wrote keeps what they wrote: never an old state restored whole.
  /// Called for every action sent while the store records history (see
  /// ``Store/undoHistory``), before the reducer; only its result for an action that changed
  /// the state is kept. It must cost no more than the reducer, and keep no more than what
  /// `action` touches (the previous order, for a sort).
  nonisolated static func inverse(of action: Action, in state: State) -> Action?

  /// Applies `action` to `state` as ``reduce(_:_:)`` does, and puts in `inverse` the action
  /// that reverses it: the one ``inverse(of:in:)`` gives against the state before (what it
  /// puts there when the state did not change is ignored). What a store calls instead of the
  /// reducer while it records history.
  ///
  /// The default calls ``inverse(of:in:)``, then ``reduce(_:_:)``. A store implements it when
  /// what the reducer did tells the inverse for less than the state before does: an
  /// ordering's inverse names the order it makes, which ``inverse(of:in:)`` learns only by
  /// ordering a copy, while here it is read from the state after. It must give the inverse
  /// that ``inverse(of:in:)`` gives, at no more than the reducer's cost.
  nonisolated static func reduce(_ state: inout State, _ action: Action, inverse: inout Action?)
    -> Bool

  /// What an inverse `action` could not put back in `state` because someone changed it after
  /// the action it reverses — one description per part ("“Buy milk” (changed meanwhile)").
  /// Called by ``undo()`` and ``redo()`` on the state they apply to; the default is none.
  nonisolated static func skippedParts(of action: Action, in state: State) -> [String]

  /// The name of `action` for an Undo menu, in title case: "Remove Todo" gives "Undo Remove
  /// Todo". The default is empty (the menu then says "Undo").
  nonisolated static func actionName(of action: Action) -> String

  /// Whether ``actionName(of:)`` gives the inverse of `action` the name it gives `action`
  /// ("Change sleepGoal" for a setting's change and for the change that undoes it). The undo
  /// step of such an action is named by its inverse and keeps no copy of `action`, so
  /// recording it copies and frees less. The default is `false`: a step keeps the action it
  /// reverses, to name it when its name is read. Debug builds check the names alike on every
  /// step recorded this way.
  nonisolated static func isNamedByItsInverse(_ action: Action) -> Bool

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
  /// ``Store/lastError``. Use ``trySend(_:)`` to get the error thrown instead.
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
  public nonisolated static func resolve(_ action: Action, in state: State) -> Action { action }

  @inlinable
  public nonisolated static func effect(
    for action: Action, state: State, environment: StoreEnvironment
  ) -> Effect<Action> {
    .none
  }

  @inlinable
  public nonisolated static func isMemoryOnly(_ action: Action) -> Bool { false }

  @inlinable
  public nonisolated static func inverse(of action: Action, in state: State) -> Action? { nil }

  public nonisolated static func skippedParts(of action: Action, in state: State) -> [String] {
    []
  }

  @inlinable
  public nonisolated static func reduce(
    _ state: inout State, _ action: Action, inverse: inout Action?
  ) -> Bool {
    inverse = Self.inverse(of: action, in: state)
    return reduce(&state, action)
  }

  public nonisolated static func actionName(of action: Action) -> String { "" }

  @inlinable
  public nonisolated static func isNamedByItsInverse(_ action: Action) -> Bool { false }

  @inlinable
  public nonisolated static func failedSave(of action: Action, error: StoreFileError) -> Action? {
    nil
  }
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

  /// Applies `action` like ``trySend(_:)`` if `condition` accepts the state it is about to be
  /// applied to; when `condition` throws, nothing changes and its error is thrown.
  ///
  /// For a store opened on a file, `condition` runs inside the transaction, on the freshest
  /// state (after reloading what another process wrote): a compare-and-set. Use it to refuse
  /// an action whose premise no longer holds, such as removing an item another process already
  /// removed.
  public func trySend(
    _ action: consuming Action, requiring condition: (State) throws -> Void
  ) throws {
    try core.trySend(action, requiring: condition)
  }

  /// The error of the latest action, reload or effect that failed — a write that could not
  /// be saved, a file made invalid by someone else — or `nil` once a later action was saved
  /// or a later reload (``refresh()``, or one the watch made) read the file.
  /// Tracked by Observation, so a view can show it. Always `nil` for a store in memory that
  /// runs no effects.
  public var lastError: (any Error)? { core.lastError }

  /// For a store opened on a file that a sync engine shares with other devices: how it stands
  /// with them — its latest merge of the copies the engine left, the copies it could not
  /// merge and why, the old copies it merged, and how far ahead of this device's clock the
  /// changes it read were stamped (see ``SyncStatus``). Updated by each action and reload;
  /// tracked by Observation, so a view can show it. The empty status for a store in memory.
  public var syncStatus: SyncStatus { core.syncStatus }

  /// For a store opened on a synced file: settles `conflict`, one of
  /// ``SyncStatus/conflicts``, keeping its value (`.conflict`: the field takes it, or a
  /// removal removes the item) or the current one (`.current`). The resolution is a change
  /// like any other, stamped, saved and synced; every device drops the conflict — and any
  /// other kept value of the same field — once it reads it. Observers see it as
  /// ``StoreChange/reload``; it is not recorded for undo.
  ///
  /// - Returns: Whether it was resolved: `false` when the conflict is not open any more (a
  ///   device resolved it, or the item is gone), or the store is in memory.
  /// - Throws: The persistence error when the file cannot be read or written; nothing
  ///   changes then.
  @discardableResult
  public func resolve(_ conflict: SyncConflict, choosing choice: SyncConflict.Choice) throws
    -> Bool
  {
    try core.resolve(conflict, choosing: choice)
  }

  /// For a store opened on a file: starts noticing writes by others (another process, such as
  /// `diary`, or another store on the same file) and reloads each one within about a second,
  /// delivering it as ``StoreChange/reload``. Does nothing for a store in memory. The watch
  /// lasts as long as the store, or until ``stopWatching()``. A reload that fails keeps the
  /// state and puts the error in ``lastError``.
  ///
  /// - Throws: When the watch cannot be set up.
  public func watch() throws { try core.watch() }

  /// Stops the watch started by ``watch()``.
  public func stopWatching() { core.stopWatching() }

  /// The undo and redo steps: each the inverse of an action, by identity (see
  /// ``UndoHistory``). Tracked by Observation. Set ``UndoHistory/limit`` to keep more or
  /// fewer steps (100 by default, 0 records none).
  public var undoHistory: UndoHistory<Action> {
    get { core.undoHistory }
    set { core.undoHistory = newValue }
  }

  /// Whether there is a step to undo. Tracked by Observation.
  public var canUndo: Bool { core.undoHistory.canUndo }
  /// Whether there is a step to redo. Tracked by Observation.
  public var canRedo: Bool { core.undoHistory.canRedo }

  /// Undoes the latest step: sends its inverse as an ordinary action — through the reducer,
  /// the file's transaction, Observation and the callbacks — and records what reverses the
  /// undo as the step to redo.
  ///
  /// On a file the inverse applies to the file as it is now: what others wrote since stays,
  /// and a part someone else removed or changed meanwhile is skipped and named in the
  /// outcome's ``UndoOutcome/skipped``. When the change cannot be saved, nothing changes, the
  /// step stays and the error is kept in ``lastError``; ``tryUndo()`` throws it instead.
  ///
  /// - Returns: What was undone, or `nil` when there was nothing to undo (or it failed).
  @discardableResult
  public func undo() -> UndoOutcome? {
    do {
      return try core.undo(durably: false)
    } catch {
      core.lastError = error
      return nil
    }
  }

  /// Redoes the latest step undone, as ``undo()`` undoes one.
  ///
  /// - Returns: What was redone, or `nil` when there was nothing to redo (or it failed).
  @discardableResult
  public func redo() -> UndoOutcome? {
    do {
      return try core.redo(durably: false)
    } catch {
      core.lastError = error
      return nil
    }
  }

  /// ``undo()``, throwing the error of a change that cannot be saved (the file, the state and
  /// the history then stay as they were).
  public func tryUndo() throws -> UndoOutcome? { try core.undo() }

  /// ``redo()``, throwing the error of a change that cannot be saved.
  public func tryRedo() throws -> UndoOutcome? { try core.redo() }

  /// Undoes `step`, a step kept outside the store's history — a history of the app's own, or
  /// of another process (`diary` keeps its commands' steps across its runs): sends its action
  /// as ``undo()`` sends the latest step's, skipping what someone else removed or changed
  /// meanwhile, and records what reverses it as the step to redo (on top of the steps to redo
  /// the store holds; an attached `UndoManager` is not told).
  ///
  /// - Throws: The error of a change that cannot be saved (the file, the state and the
  ///   history then stay as they were).
  @discardableResult
  public func tryUndo(_ step: UndoHistory<Action>.Step) throws -> UndoOutcome {
    try core.undo(step)
  }

  /// When an action reaches the file, for a store opened on a file: before `send` returns
  /// (``SaveMode/beforeReturning``, the default) or in the background
  /// (``SaveMode/inBackground``, so the main actor never waits on the disk). Without effect
  /// on a store in memory.
  ///
  /// Saving in the background, an action is applied in memory at once — observers, SwiftUI
  /// and undo see it in the same turn — and queued; at the end of the main actor's turn a
  /// writer of the store's own runs the file's transaction off the main actor — lock, catch up
  /// with other writers, apply the queued actions by identity, encode, write, flush — and the
  /// actions sent while it writes go in its next write, together (group commit). When the
  /// writer finds that someone else changed the file, or its write fails (the error goes to
  /// ``lastError``), the state in memory catches up with the file, observers are told of a
  /// ``StoreChange/reload``, and the actions still queued apply again on top (a failed write's
  /// actions leave the undo history too, and `failedSave(of:error:)` is sent). A crash loses
  /// the actions not yet saved, and only those: wait for ``saved``, or call ``save()``, where
  /// that matters — before an app goes to the background, say.
  ///
  /// In either mode, ``trySend(_:)``, ``trySend(_:requiring:)``, ``tryUndo()`` and
  /// ``tryRedo()`` return once the action is in the file (saving what was queued before it
  /// first) and throw its error; ``refresh()`` in the background mode asks the writer to
  /// read the file and returns (an error goes to ``lastError``). Setting the mode back to
  /// ``SaveMode/beforeReturning`` saves what is queued first.
  public var saveMode: SaveMode {
    get { core.saveMode }
    set { core.saveMode = newValue }
  }

  /// Returns once every action sent before is saved in the file (or its write failed, see
  /// ``lastError``). Returns at once for a store that saves before returning, or in memory.
  public var saved: Void {
    get async { await core.waitUntilSaved() }
  }

  /// Whether actions sent are not saved in the file yet: always `false` unless the store
  /// saves in the background. Tracked by Observation, so a view can show "Saving…".
  public var hasUnsavedChanges: Bool { core.hasUnsavedChanges }

  /// Blocks until every action sent before is saved in the file, and throws the error of the
  /// first write that failed since `save()` last threw (its actions were lost: the state and
  /// the undo history went back to the file's). Does nothing unless the store saves in the
  /// background.
  public func save() throws { try core.saveInBackground() }

  /// Returns when none of the store's effects is running any more — including the effects
  /// started meanwhile by the actions they sent. Returns at once for a store without effects.
  public func settle() async { await core.settle() }
}
