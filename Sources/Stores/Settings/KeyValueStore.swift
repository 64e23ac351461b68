import Foundation

/// A store of typed settings in a key-value file, like `UserDefaults`, with the store
/// pattern's guarantees: each change is an action and, on a file, a transaction under a
/// lock that merges per key, so two processes setting different keys never lose either.
///
/// Everything is implemented here for both ``KeyValueFile`` and `SettingsStore`.
@MainActor
public protocol KeyValueStore: Store where State == KeyValues, Action == KeyValueAction {
  /// The registered keys, whose defaults are read when they are not set.
  var keys: [AnySettingsKey] { get }
  /// The observation of the store key by key: ``value(for:)`` tracks one key.
  var keyObservation: KeyObservation { get }
}

extension KeyValueStore {
  /// Applies `action` to the values. Setting a key to the value it holds, or removing keys
  /// that are not set, changes nothing.
  ///
  /// - Complexity: O(*k*) for *k* keys in the action.
  @discardableResult
  public nonisolated static func reduce(_ state: inout KeyValues, _ action: KeyValueAction) -> Bool
  {
    switch action {
    case .set(let key, let value):
      return state.values.updateValue(value, forKey: key) != value
    case .remove(let keys):
      var changed = false
      for key in keys where state.values.removeValue(forKey: key) != nil { changed = true }
      return changed
    }
  }

  /// The value of `key`: the stored one when it is set and valid, else the default.
  ///
  /// Reading it in a SwiftUI view (or `withObservationTracking`) tracks this key alone: the
  /// view is told when its stored value changes — here, in another store on the file, or in
  /// another process through `watch()` — and not when other keys change.
  public func value<Value>(for key: SettingsKey<Value>) -> Value {
    let state = core.storedState
    keyObservation.access(key.name, value: state.values[key.name])
    return state.value(for: key)
  }

  /// The values of `key` as they change: the current value first, then each new one —
  /// from an action here, a reload, or another process through `watch()` — skipping
  /// repeats. The sequence finishes when the store is deallocated, and stops watching when
  /// its consumer stops iterating.
  public func updates<Value>(of key: SettingsKey<Value>) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    var last = core.storedState.value(for: key)
    continuation.yield(last)
    // Each value as it is when it changes, not when the consumer gets to it.
    let token = onChange { _, state in
      let value = state.value(for: key)
      guard value != last else { return }
      last = value
      continuation.yield(value)
    }
    // The store's own stream of changes ends when the store is deallocated.
    let changes = changes
    let end = Task {
      for await _ in changes {}
      continuation.finish()
    }
    continuation.onTermination = { _ in
      end.cancel()
      token.cancel()
    }
    return stream
  }

  /// Stores `value` for `key`, as one transaction.
  ///
  /// - Throws: ``SettingsError/invalidValue(key:value:problem:)`` when `value` is not valid
  ///   for `key` (nothing is stored then), or the ``StoreFileError`` of a failed write
  ///   (the file and the value in memory stay as they were).
  public func set<Value>(_ value: Value, for key: SettingsKey<Value>) throws {
    try key.validate(value)
    try trySend(.set(key: key.name, value: value.json))
  }

  /// Removes the values of `names`, in one transaction, so they read as their defaults.
  ///
  /// - Throws: The ``StoreFileError`` of a failed write.
  public func remove(_ names: [String]) throws {
    try trySend(.remove(keys: names))
  }

  /// Removes the value of every registered key, in one transaction. Values of keys that no
  /// registered key knows are kept.
  ///
  /// - Throws: The ``StoreFileError`` of a failed write.
  public func reset() throws {
    try trySend(.remove(keys: keys.map(\.name)))
  }

  /// The registered key called `name`, or `nil`.
  public func key(named name: String) -> AnySettingsKey? {
    keys.first { $0.name == name }
  }

  /// Every registered key, in registration order, with what the file holds for it.
  public var entries: [SettingsEntry] {
    let values = state.values
    return keys.map { SettingsEntry(key: $0, storedValue: values[$0.name]) }
  }

  /// The keys set in the file that no registered key knows, sorted. They are kept as they
  /// are by every change.
  public var unknownKeys: [String] {
    let known = Set(keys.map(\.name))
    return state.values.keys.filter { !known.contains($0) }.sorted()
  }

  /// Registers `callback` to run with the new value whenever the value of `key` changes —
  /// by an action of this store or in the file (after a refresh or through the watch) —
  /// and only when it really changes.
  ///
  /// - Returns: A token that unregisters the callback when cancelled or released.
  public func onChange<Value>(
    of key: SettingsKey<Value>, _ callback: @escaping @MainActor (Value) -> Void
  ) -> ObserverToken {
    var last = value(for: key)
    return onChange { _, state in
      let value = state.value(for: key)
      guard value != last else { return }
      last = value
      callback(value)
    }
  }
}
