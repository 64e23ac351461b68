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
    declaration(keyPath).key
  }

  /// The key at `keyPath`, made once per process (see ``declared(_:)``), and the number of
  /// its declaration: 0 for the first key path used in the process, 1 for the next, … — what
  /// a store remembers of the keys it met, without comparing them. O(1) after the first use.
  package static func declaration<Value>(
    _ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>
  ) -> (key: SettingsKey<Value>, number: Int) {
    if let declared = declaredKeys.key(at: keyPath, as: Value.self) { return declared }
    // Evaluated outside the lock: a property may use another key path.
    return declaredKeys.keep(SettingsKeys()[keyPath: keyPath], at: keyPath)
  }

  /// The keys made from key paths so far.
  private static let declaredKeys = DeclaredKeys()
}

/// The keys ``SettingsKeys/declared(_:)`` made, by key path, with their numbers.
private final class DeclaredKeys: @unchecked Sendable {
  private let lock = Lock()
  /// Guarded by `lock`. Each key is the `SettingsKey` of its key path's value type.
  private var keys: [AnyKeyPath: (key: any Sendable, number: Int)] = [:]

  func key<Value>(at keyPath: AnyKeyPath, as _: Value.Type) -> (
    key: SettingsKey<Value>, number: Int
  )? {
    lock.withLock {
      guard let kept = keys[keyPath], let key = kept.key as? SettingsKey<Value> else { return nil }
      return (key, kept.number)
    }
  }

  /// `key` kept for `keyPath` with the next number, or the key kept before it.
  func keep<Value>(_ key: SettingsKey<Value>, at keyPath: AnyKeyPath) -> (
    key: SettingsKey<Value>, number: Int
  ) {
    lock.withLock {
      if let kept = keys[keyPath], let keptKey = kept.key as? SettingsKey<Value> {
        return (keptKey, kept.number)
      }
      let number = keys.count
      keys[keyPath] = (key, number)
      return (key, number)
    }
  }
}
