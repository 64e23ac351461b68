import Foundation

extension SettingsStore {
  /// The values of `key` as they change: the current value first (unless `initial` is
  /// `false`), then each new one — from an action here, a reload, or another process through
  /// `watch()` — skipping repeats. The sequence finishes when the store is deallocated, and
  /// stops watching when its consumer stops iterating.
  public func updates<Value>(of key: SettingsKey<Value>, initial: Bool = true)
    -> AsyncStream<Value>
  {
    noteUse(of: key)
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    var last = core.storedState.value(for: key)
    if initial { continuation.yield(last) }
    // Each value as it is when it changes, not when the consumer gets to it.
    let token = onChange { _, state in
      let value = state.value(for: key)
      guard !key.form.same(value, last) else { return }
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
    noteUse(of: key)
    var last = core.storedState.value(for: key)
    return onChange { [weak self] _, state in
      let value = state.value(for: key)
      guard !key.form.same(value, last), let self else { return }
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

  /// The values of the setting at `keyPath` as they change: the current value first
  /// (unless `initial` is `false`), then each new one, from any source; finishes with the
  /// store, as `updates(of:initial:)` with the ``SettingsKey`` does.
  ///
  /// ```swift
  /// for await goal in settings.updates(of: \.sleepGoal) { print(goal) }
  /// ```
  public func updates<Value>(
    of keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>, initial: Bool = true
  ) -> AsyncStream<Value> {
    updates(of: declaredKey(keyPath), initial: initial)
  }

  /// Registers `callback` to run with the new value whenever the value of the setting at
  /// `keyPath` really changes, here or in the file; not for a change it makes itself.
  ///
  /// - Returns: A token that unregisters the callback when cancelled or released.
  public func onChange<Value>(
    of keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>,
    _ callback: @escaping @MainActor (Value) -> Void
  ) -> ObserverToken {
    onChange(of: declaredKey(keyPath), callback)
  }

  /// Registers `callback` to run with the old and the new value whenever the value of the
  /// setting at `keyPath` really changes, here or in the file; not for a change it makes
  /// itself.
  ///
  /// - Returns: A token that unregisters the callback when cancelled or released.
  public func onChange<Value>(
    of keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>,
    _ callback: @escaping @MainActor (_ old: Value, _ new: Value) -> Void
  ) -> ObserverToken {
    onChange(of: declaredKey(keyPath), callback)
  }
}
