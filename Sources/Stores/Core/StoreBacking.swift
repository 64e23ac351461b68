/// Where a store keeps its state beyond memory: the seam that persistence plugs into.
///
/// ``StoreCore`` calls a backing for every action of a store opened on a file; the backing
/// decides how the state is loaded, locked and saved (see `JSONFileBacking`).
///
/// A backing is used by one thread at a time, never two: by the store on the main actor, or
/// — for a store saving in the background — by its ``BackgroundWriter`` while a write runs,
/// during which the store leaves it alone. That is why its classes are `@unchecked
/// Sendable`. Watching (``watch(onChange:)``, ``stopWatching()``) happens on the main actor
/// only.
@usableFromInline
package protocol StoreBacking<State>: AnyObject, Sendable {
  associatedtype State

  /// Runs `update` as one transaction on the freshest state: the state in memory, or the
  /// stored one if something else changed it since this backing last read or wrote it.
  /// Saves the result when `update` reports a change.
  ///
  /// - Parameters:
  ///   - current: The state in memory, the starting point unless the stored one is newer.
  ///   - update: The reducer applied to the action; returns whether it changed the state. It
  ///     throws to refuse the transaction (see ``Store/trySend(_:requiring:)``).
  /// - Returns: The state after the transaction, or `nil` when the stored state was not
  ///   reloaded and `update` changed nothing.
  /// - Throws: When the stored state cannot be read, is invalid, or the new one cannot be
  ///   saved, or what `update` threw. Nothing is saved then.
  func transaction(
    from current: State, _ update: (inout State) throws -> Bool
  ) throws -> BackingTransaction<State>?

  /// The stored state if something else changed it since this backing last read or wrote
  /// it, else `nil`; `current` is the state in memory, whose memory-only parts the stored
  /// state keeps (see `PersistentState.keepMemoryOnlyState(from:)`).
  func reloadIfChanged(from current: State) throws -> State?

  /// Gives `state`, read from the file, what `memory` — the state in memory — keeps only in
  /// memory (see `PersistentState.keepMemoryOnlyState(from:)`).
  func keepMemoryOnlyState(_ state: inout State, from memory: State)

  /// Starts noticing changes made by others (another process, another store on the same
  /// file) and calls `onChange` on the main actor after each; the watch lasts as long as
  /// the backing or until ``stopWatching()``.
  @MainActor func watch(onChange: @escaping @MainActor () -> Void) throws

  /// Stops the watch started by ``watch(onChange:)``.
  @MainActor func stopWatching()
}

/// What a `StoreBacking` transaction did.
@usableFromInline
package struct BackingTransaction<State> {
  /// The state after the transaction.
  package var state: State
  /// Whether the stored state differed from the one in memory and was reloaded first.
  package var reloaded: Bool
  /// Whether the update changed the state (and so the new state was saved).
  package var changed: Bool

  package init(state: State, reloaded: Bool, changed: Bool) {
    self.state = state
    self.reloaded = reloaded
    self.changed = changed
  }
}

extension BackingTransaction: Sendable where State: Sendable {}
