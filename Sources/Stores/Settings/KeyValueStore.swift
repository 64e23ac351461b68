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
    case .restore(let changes):
      var changed = false
      for change in changes
      where change.from != change.to && state.values[change.key] == change.from {
        state.values[change.key] = change.to
        changed = true
      }
      return changed
    }
  }

  /// The action that reverses `action` on `state`: for each key it changes, a
  /// ``KeyValueAction/restore(_:)`` of the value it had (or of no value) that applies only
  /// while the key still holds the value `action` gave it — so a key changed by someone else
  /// meanwhile keeps their value. `nil` when `action` changes nothing.
  ///
  /// - Complexity: O(*k*) for *k* keys in the action.
  public nonisolated static func inverse(of action: KeyValueAction, in state: KeyValues)
    -> KeyValueAction?
  {
    // The values as the action leaves them, for the keys it touched, in order.
    var values = KeyValues.Values()
    var removed: Set<KeyValues.Name> = []
    var inverse: [KeyValueChange] = []
    func current(_ key: String) -> JSONValue? {
      removed.contains(KeyValues.Name(key)) ? nil : values[key] ?? state.values[key]
    }
    func change(_ key: String, to value: JSONValue?) {
      let old = current(key)
      guard old != value else { return }
      inverse.append(KeyValueChange(key: key, from: value, to: old))
      if let value {
        values[key] = value
        removed.remove(KeyValues.Name(key))
      } else {
        values[key] = nil
        removed.insert(KeyValues.Name(key))
      }
    }
    switch action {
    case .set(let key, let value):
      let old = state.values[key]
      return old == value ? nil : .restore([KeyValueChange(key: key, from: value, to: old)])
    case .remove(let keys):
      for key in keys { change(key, to: nil) }
    case .restore(let changes):
      for restored in changes
      where restored.from != restored.to && current(restored.key) == restored.from {
        change(restored.key, to: restored.to)
      }
    }
    return inverse.isEmpty ? nil : .restore(inverse.reversed())
  }

  /// The keys an undo could not put back in `state` because they were changed meanwhile:
  /// "sleepGoal (changed meanwhile)".
  public nonisolated static func skippedParts(of action: KeyValueAction, in state: KeyValues)
    -> [String]
  {
    guard case .restore(let changes) = action else { return [] }
    var values = state.values
    var skipped: [String] = []
    for change in changes where change.from != change.to {
      if values[change.key] == change.from {
        values[change.key] = change.to
      } else {
        skipped.append("\(change.key) (changed meanwhile)")
      }
    }
    return skipped
  }

  /// The action's name for an Undo menu: "Change sleepGoal", "Reset Settings", ….
  public nonisolated static func actionName(of action: KeyValueAction) -> String {
    switch action {
    case .set(let key, _): "Change \(key)"
    case .remove(let keys): keys.count == 1 ? "Reset \(keys[0])" : "Reset Settings"
    case .restore(let changes): changes.count == 1 ? "Change \(changes[0].key)" : "Change Settings"
    }
  }

  /// The value of `key`: the stored one when it is set and valid, else the default.
  ///
  /// Reading it in a SwiftUI view (or `withObservationTracking`) tracks this key alone: the
  /// view is told when the value it reads changes — here, in another store on the file, or
  /// in another process through `watch()` — and not when other keys change, nor when the
  /// stored value changes to another that reads as the same (two values the key's rule
  /// refuses both read as the default).
  public func value<Value>(for key: SettingsKey<Value>) -> Value {
    let stored = core.storedState.values[key.name]
    keyObservation.access(key, value: stored)
    return KeyValues.value(for: key, stored: stored)
  }

  /// The values of `key` as they change: the current value first (unless `initial` is
  /// `false`), then each new one — from an action here, a reload, or another process through
  /// `watch()` — skipping repeats. The sequence finishes when the store is deallocated, and
  /// stops watching when its consumer stops iterating.
  public func updates<Value>(of key: SettingsKey<Value>, initial: Bool = true)
    -> AsyncStream<Value>
  {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    var last = core.storedState.value(for: key)
    if initial { continuation.yield(last) }
    // Each value as it is when it changes, not when the consumer gets to it.
    let token = onChange { _, state in
      let value = state.value(for: key)
      guard value != last else { return }
      last = value
      continuation.yield(value)
    }
    finish(continuation, with: token)
    return stream
  }

  /// The names of the keys among `keys` whose values change, at each change of one or more
  /// of them: all their names first (unless `initial` is `false`), then, for each change of
  /// the store, those whose value read changed — as `onChange(of:_:)` for several keys
  /// tells them. Finishes when the store is deallocated.
  public func updates(of keys: [AnySettingsKey], initial: Bool = true) -> AsyncStream<[String]> {
    let (stream, continuation) = AsyncStream.makeStream(of: [String].self)
    if initial { continuation.yield(keys.map(\.name)) }
    let token = onChange(of: keys) { continuation.yield($0) }
    finish(continuation, with: token)
    return stream
  }

  /// Ends `continuation` when the store is deallocated, and cancels `token` when its
  /// consumer stops.
  private func finish<Element>(
    _ continuation: AsyncStream<Element>.Continuation, with token: ObserverToken
  ) {
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
  }

  /// Stores `value` for `key`, as one transaction. `nil` for an optional (a value whose JSON
  /// is `null`) removes the key, which then reads as its default.
  ///
  /// A value is stored only when the file can hold it so that it reads back as the same
  /// value: one with a part that has no JSON form (a `Date` outside the years 1...9999 or
  /// not a number, a `Codable` value that cannot be encoded), a number that is not finite, a
  /// list of more than ``SettingValue/maxElements`` or a value that reads back as another is
  /// refused, as is a value the key does not allow — before anything is stored, so the stored
  /// value stays.
  ///
  /// - Throws: ``SettingsError/invalidValue(key:value:problem:)`` when `value` cannot be
  ///   stored or is not valid for `key` (nothing is stored then), or the ``StoreFileError``
  ///   of a failed write (the file and the value in memory stay as they were).
  /// - Complexity: O(*n*) in the size of the value.
  public func set<Value>(_ value: Value, for key: SettingsKey<Value>) throws {
    let json = value.json
    if let problem = value.storageProblem(json: json) {
      throw SettingsError.invalidValue(
        key: key.name, value: value.storageText(json: json), problem: problem)
    }
    try key.validate(value)
    if json == .null { return try trySend(.remove(keys: [key.name])) }
    try trySend(.set(key: key.name, value: json))
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

  /// The registered key called exactly `name` (the same Unicode scalars), or `nil`.
  public func key(named name: String) -> AnySettingsKey? {
    keys.first { $0.name.utf8.elementsEqual(name.utf8) }
  }

  /// Every registered key, in registration order, with what the file holds for it.
  public var entries: [SettingsEntry] {
    let values = state.values
    return keys.map { SettingsEntry(key: $0, storedValue: values[$0.name]) }
  }

  /// The keys set in the file that no registered key knows, sorted by their UTF-8 bytes.
  /// They are kept as they are by every change.
  public var unknownKeys: [String] {
    let known = Set(keys.map { KeyValues.Name($0.name) })
    return state.values.keys.filter { !known.contains(KeyValues.Name($0)) }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// Registers `callback` to run with the new value whenever the value of `key` changes —
  /// by an action of this store or in the file (after a refresh or through the watch) —
  /// and only when the value read really changes. A change the callback makes to `key`
  /// itself does not call it again.
  ///
  /// - Returns: A token that unregisters the callback when cancelled or released.
  public func onChange<Value>(
    of key: SettingsKey<Value>, _ callback: @escaping @MainActor (Value) -> Void
  ) -> ObserverToken {
    onChange(of: key) { _, new in callback(new) }
  }

  /// Registers `callback` to run with the old and the new value whenever the value of `key`
  /// changes, as `onChange(of:_:)` with the new value does.
  ///
  /// - Returns: A token that unregisters the callback when cancelled or released.
  public func onChange<Value>(
    of key: SettingsKey<Value>,
    _ callback: @escaping @MainActor (_ old: Value, _ new: Value) -> Void
  ) -> ObserverToken {
    var last = core.storedState.value(for: key)
    return onChange { [weak self] _, state in
      let value = state.value(for: key)
      guard value != last, let self else { return }
      let old = last
      last = value
      callback(old, value)
      // What the callback itself wrote is not news to it.
      last = core.storedState.value(for: key)
    }
  }

  /// Registers `callback` to run, at each change of the store, with the names of the keys
  /// among `keys` whose values read changed (in the order of `keys`), when there are any. A
  /// change the callback makes to those keys itself does not call it again.
  ///
  /// - Complexity: O(*k*) per change of the store, for *k* keys.
  /// - Returns: A token that unregisters the callback when cancelled or released.
  public func onChange(
    of keys: [AnySettingsKey], _ callback: @escaping @MainActor (_ changed: [String]) -> Void
  ) -> ObserverToken {
    var last = keys.map { core.storedState.values[$0.name] }
    return onChange { [weak self] _, state in
      guard let self else { return }
      var changed: [String] = []
      for (index, key) in keys.enumerated() {
        let stored = state.values[key.name]
        if !key.readsSame(last[index], stored) { changed.append(key.name) }
        last[index] = stored
      }
      guard !changed.isEmpty else { return }
      callback(changed)
      last = keys.map { core.storedState.values[$0.name] }
    }
  }
}
