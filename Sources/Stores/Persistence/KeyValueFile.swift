import Foundation
import Observation

/// The content of a key-value file: a JSON value for each key set explicitly. Keys that
/// are not set read as their default, which is never written.
///
/// In the file, the values sit in the versioned envelope under `"values"`:
/// `{ "values" : { "sleepGoal" : 7.5 }, "version" : 1 }`. A file that is a bare object of
/// keys and values (version 0, as a person might write it) is read too.
public struct KeyValues: PersistentState {
  /// The values set explicitly, by key name, including keys no registered key knows.
  public var values: [String: JSONValue]

  public init() {
    values = [:]
  }

  public init(_ values: [String: JSONValue]) {
    self.values = values
  }

  /// The value of `key`: the stored one when it is set and valid, else the default.
  ///
  /// - Complexity: O(1) for the lookup, plus converting the value from JSON.
  public func value<Value>(for key: SettingsKey<Value>) -> Value {
    guard let json = values[key.name], let value = Value(json: json),
      key.problem(with: value) == nil
    else { return key.defaultValue }
    return value
  }
}

/// A change to a key-value file.
public enum KeyValueAction: Equatable, Sendable {
  /// Stores `value` for `key`. This action stores whatever it is given: validate first, as
  /// ``KeyValueStore/set(_:for:)`` does.
  case set(key: String, value: JSONValue)
  /// Removes the values of `keys`, so that they read as their defaults again.
  case remove(keys: [String])
}

/// One registered key of a key-value file and what the file holds for it.
public struct SettingsEntry: Sendable {
  /// The key.
  public let key: AnySettingsKey
  /// The value stored for the key, or `nil` when it is not set.
  public let storedValue: JSONValue?

  /// Why the stored value is not valid for the key (so the default is in effect), or `nil`.
  public var problem: String? { storedValue.flatMap(key.problem(with:)) }
  /// The value in effect: the stored one when it is set and valid, else the default.
  public var value: JSONValue {
    problem == nil ? storedValue ?? key.defaultValue : key.defaultValue
  }
  /// Whether the value in effect is the default value.
  public var isDefault: Bool { value == key.defaultValue }
}

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
    keyObservation.access(key.name)
    return core.storedState.value(for: key)
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

/// A key-value file of settings: the `UserDefaults`-like layer under `SettingsStore`, for
/// any keys you register.
///
/// ```swift
/// let volume = SettingsKey<Int>("volume", default: 5, in: 0...10, summary: "Speaker volume")
/// let file = try KeyValueFile(contentsOf: url, keys: [AnySettingsKey(volume)])
/// file.value(for: volume)        // 5 until set
/// try file.set(7, for: volume)   // written at once, under a lock
/// ```
@MainActor @Observable
public final class KeyValueFile: KeyValueStore {
  /// The registered keys, whose defaults are read when they are not set.
  @ObservationIgnored public private(set) var keys: [AnySettingsKey]
  @ObservationIgnored public let core: StoreCore<KeyValueFile>
  @ObservationIgnored public let keyObservation = KeyObservation()

  /// A key-value store in memory.
  public init(values: [String: JSONValue] = [:], keys: [AnySettingsKey] = []) {
    self.keys = keys
    core = StoreCore(state: KeyValues(values))
    keyObservation.start(self)
  }

  /// The key-value file at `url`; a missing file has no values set.
  ///
  /// An action waits at most `lockTimeout` for another process that holds the file's lock,
  /// then fails with ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)``.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public init(
    contentsOf url: URL, keys: [AnySettingsKey] = [], lockTimeout: Duration = .seconds(3)
  ) throws {
    self.keys = keys
    core = try KeyValueFile.fileCore(contentsOf: url, lockTimeout: lockTimeout)
    keyObservation.start(self)
  }

  /// Registers `key`, replacing a registered key of the same name. Registering writes
  /// nothing: the key reads as its default until set.
  public func register(_ key: AnySettingsKey) {
    keys.removeAll { $0.name == key.name }
    keys.append(key)
  }
}
