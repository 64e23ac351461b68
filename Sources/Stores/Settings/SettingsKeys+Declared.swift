extension SettingsKeys {
  /// The key at `keyPath`, made once per process: the first use of a key path evaluates the
  /// property — its default too, `UUID()` or `Date()` — and every later use, in any store,
  /// gets that same key. A property of an extension can only be computed, so without this a
  /// default such as `UUID()` would be another value at each read.
  ///
  /// Two threads that use a key path for the first time at once may both evaluate it; both
  /// get the key stored first. O(1) after the first use.
  package static func declared<Value>(
    _ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>
  ) -> SettingsKey<Value> {
    if let key = declaredKeys.key(at: keyPath, as: Value.self) { return key }
    // Evaluated outside the lock: a property may use another key path.
    return declaredKeys.keep(SettingsKeys()[keyPath: keyPath], at: keyPath)
  }

  /// The keys made from key paths so far.
  private static let declaredKeys = DeclaredKeys()
}

/// The keys ``SettingsKeys/declared(_:)`` made, by key path.
private final class DeclaredKeys: @unchecked Sendable {
  private let lock = Lock()
  /// Guarded by `lock`. Each value is the `SettingsKey` of its key path's value type.
  private var keys: [AnyKeyPath: any Sendable] = [:]

  func key<Value>(at keyPath: AnyKeyPath, as _: Value.Type) -> SettingsKey<Value>? {
    lock.withLock { keys[keyPath] as? SettingsKey<Value> }
  }

  /// `key` kept for `keyPath`, or the key kept before it.
  func keep<Value>(_ key: SettingsKey<Value>, at keyPath: AnyKeyPath) -> SettingsKey<Value> {
    lock.withLock {
      if let kept = keys[keyPath] as? SettingsKey<Value> { return kept }
      keys[keyPath] = key
      return key
    }
  }
}
