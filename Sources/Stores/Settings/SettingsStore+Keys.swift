import Foundation

extension SettingsStore {
  /// The value of `key`: the stored one when it is set and valid, else the default.
  ///
  /// Reading it in a SwiftUI view (or `withObservationTracking`) tracks this key alone: the
  /// view is told when the value it reads changes — here, in another store on the file, or
  /// in another process through `watch()` — and not when other keys change, nor when the
  /// stored value changes to another that reads as the same (two values the key's rule
  /// refuses both read as the default).
  ///
  /// A key no key of its name was registered for is registered now (see ``register(_:)``).
  public func value<Value>(for key: SettingsKey<Value>) -> Value {
    noteUse(of: key)
    return storedValue(for: key)
  }

  /// The value of `key`, as ``value(for:)`` reads it, `key` registered already.
  private func storedValue<Value>(for key: SettingsKey<Value>) -> Value {
    let stored = core.storedState.values[key.name]
    keyObservation.access(key, value: stored)
    return State.value(for: key, stored: stored)
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
    noteUse(of: key)
    let json = key.json(value)
    if let problem = key.form.storageProblem(value, json: json) {
      throw SettingsError.invalidValue(
        key: key.name, value: key.form.storageText(value, json: json), problem: problem)
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

  /// Removes the value of every setting in ``keys`` — the built-in ones and the app's — in one
  /// transaction. Values of keys that no registered key knows are kept.
  ///
  /// - Throws: The ``StoreFileError`` of a failed write.
  public func reset() throws {
    try trySend(.remove(keys: keys.map(\.name)))
  }

  /// The setting in ``keys`` called exactly `name` (the same Unicode scalars), or `nil`.
  public func key(named name: String) -> AnySettingsKey? {
    keys.first { $0.name.utf8.elementsEqual(name.utf8) }
  }

  /// Every setting in ``keys`` — the built-in ones, then the app's in the order registered —
  /// with what the file holds for it.
  public var entries: [SettingsEntry] {
    let values = state.values
    return keys.map { SettingsEntry(key: $0, storedValue: values[$0.name]) }
  }

  /// The keys set in the file that no registered key knows, sorted by their UTF-8 bytes.
  /// They are kept as they are by every change.
  public var unknownKeys: [String] {
    let known = Set(keys.map { State.Name($0.name) })
    return state.values.keys.filter { !known.contains(State.Name($0)) }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// A setting, read and written as a property: `settings.sleepGoal = 7.5`.
  ///
  /// Reading gives the stored value, or the default when none is set (or the stored one
  /// is invalid). Setting validates the value and writes it at once. The setter cannot
  /// throw, so a value that is not valid (say, a sleep goal of 30) is refused: nothing is
  /// stored and the ``SettingsError`` is kept in ``Store/lastError``, as is the error
  /// of a failed write. Use ``set(_:to:)`` to get the error thrown instead.
  public subscript<Value>(dynamicMember keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>)
    -> Value
  {
    get { storedValue(for: declaredKey(keyPath)) }
    set {
      do {
        try set(keyPath, to: newValue)
      } catch {
        core.lastError = error
      }
    }
  }

  /// Stores `value` for the setting at `keyPath`, as one transaction.
  ///
  /// - Throws: ``SettingsError/invalidValue(key:value:problem:)`` when `value` is not valid
  ///   (nothing is stored), or the ``StoreFileError`` of a failed write (the file and the
  ///   value in memory stay as they were).
  public func set<Value>(_ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>, to value: Value)
    throws
  {
    try set(value, for: declaredKey(keyPath))
  }

  /// Puts the setting at `keyPath` back to its default by removing its value from the file.
  ///
  /// - Throws: The ``StoreFileError`` of a failed write.
  public func reset<Value>(_ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>) throws {
    try remove([declaredKey(keyPath).name])
  }
}
