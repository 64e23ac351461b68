import Foundation
import Observation

/// Every setting of the app: each is one declaration here, and becomes a property of
/// ``SettingsStore``, a line of `diary settings list` and a key of the settings file.
///
/// An app adds its own settings in an extension, each a typed key with its default, what it
/// is for and, if it likes, a rule for valid values — of any ``SettingValue`` type — and
/// registers them once, where it opens the store:
///
/// ```swift
/// extension SettingsKeys {
///   /// The colour scheme: light or dark.
///   var theme: SettingsKey<String> {
///     SettingsKey("theme", default: "light", summary: "The colour scheme") {
///       ["light", "dark"].contains($0) ? nil : "must be light or dark"
///     }
///   }
///   /// The keys of the app.
///   static let app: [AnySettingsKey] = [.key(\.theme)]
/// }
/// let settings = try SettingsStore(contentsOf: url, keys: SettingsKeys.app)
/// settings.theme = "dark"   // validated, written to the same file, observed on its own
/// ```
///
/// A registered key is first-class: it is in ``SettingsStore/keys`` and
/// ``KeyValueStore/entries`` with its rule, ``KeyValueStore/reset()`` resets it, and a stored
/// value its rule refuses is reported like a built-in key's. (An extension can only add
/// computed properties, which no reflection finds: hence the registration.)
///
/// A store on a file describes its registered keys in the key catalog beside the file, and
/// `diary settings` reads it: it lists such a key after the built-in ones with its default
/// and summary, checks what it sets against the key's type, range or cases, and resets it.
/// A rule of code (the `problem` closure) cannot be described: the app checks it when it
/// reads, so a value the rule refuses reads as the default in the app.
public struct SettingsKeys: Sendable {
  /// Hours of sleep to aim for each night: a number in 0...24, 8 by default.
  public let sleepGoal = SettingsKey<Double>(
    "sleepGoal", default: 8, in: 0...24, summary: "Hours of sleep to aim for each night")

  /// Whether the app may send notifications: true by default.
  public let isNotificationsEnabled = SettingsKey<Bool>(
    "isNotificationsEnabled", default: true, summary: "Whether the app may send notifications")

  /// The unit distances are shown in: kilometers by default.
  public let distanceUnit = SettingsKey<DistanceUnit>(
    "distanceUnit", default: .kilometers, summary: "The unit distances are shown in")

  public init() {}

  /// Every key declared above, in order.
  static let builtIn: [AnySettingsKey] = [
    .key(\.sleepGoal), .key(\.isNotificationsEnabled), .key(\.distanceUnit),
  ]
}

/// The app's settings, backed by a `UserDefaults`-like key-value file (see
/// ``KeyValueStore``), as observable properties SwiftUI can bind to.
///
/// ```swift
/// let settings = try SettingsStore(contentsOf: url)   // a missing file is all defaults
/// settings.sleepGoal                // 8.0 until set
/// settings.sleepGoal = 7.5          // validated, written at once, observed
/// try settings.set(\.sleepGoal, to: 30)   // throws: out of range 0...24
/// try settings.reset()              // back to the defaults
/// ```
///
/// Each setting is a property named after its key in ``SettingsKeys``: `sleepGoal`
/// (hours, 0...24, default 8), `isNotificationsEnabled` (default true) and `distanceUnit`
/// (default kilometers). Only settings set explicitly are written to the file; a stored
/// value that is not valid reads as the default, and ``KeyValueStore/entries`` reports it.
@MainActor @Observable @dynamicMemberLookup
public final class SettingsStore: KeyValueStore {
  /// The declarations of every setting.
  public static let definitions = SettingsKeys()

  /// Every setting: the built-in ones in the order ``SettingsKeys`` declares them, then the
  /// app's registered keys in the order registered.
  public var keys: [AnySettingsKey] { SettingsKeys.builtIn + appKeys }

  /// The app's own keys, registered with the store (see ``register(_:)``).
  @ObservationIgnored public private(set) var appKeys: [AnySettingsKey] = []

  @ObservationIgnored public let core: StoreCore<SettingsStore>
  @ObservationIgnored public let keyObservation = KeyObservation()
  /// The settings file, for a store opened on one: the key catalog is beside it.
  @ObservationIgnored private let url: URL?
  /// While the app's keys wait to be recorded in the key catalog: the callback that tries
  /// again after each change of the store.
  @ObservationIgnored private var catalogRetry: ObserverToken?

  /// Settings in memory, with `values` set explicitly and the app's own `keys` registered.
  public init(values: [String: JSONValue] = [:], keys: [AnySettingsKey] = []) {
    core = StoreCore(state: KeyValues(values))
    url = nil
    keyObservation.start(self)
    register(keys, recordingInCatalog: false)
  }

  /// The settings in the file at `url`; a missing file is all defaults.
  ///
  /// An action waits at most `lockTimeout` for another process that holds the file's lock,
  /// then fails with ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)``.
  ///
  /// The app's own `keys` are registered (see ``register(_:)``) and described in the key
  /// catalog beside the file (`settings.keys.json`), so that `diary` treats them as its own
  /// keys: written only when the description changes, and only when the file exists and
  /// this process may write it — else with the store's first change (see "The key catalog"
  /// in the Settings article).
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public init(
    contentsOf url: URL, keys: [AnySettingsKey] = [], lockTimeout: Duration = .defaultLockTimeout
  ) throws {
    core = try SettingsStore.fileCore(contentsOf: url, lockTimeout: lockTimeout)
    self.url = url
    keyObservation.start(self)
    register(keys, recordingInCatalog: true)
  }

  /// Registers one of the app's keys — `settings.register(.key(\.theme))` — so that it is in
  /// ``keys`` and ``KeyValueStore/entries``, ``KeyValueStore/reset()`` resets it and its
  /// stored value is checked. It replaces an app key of the same name; a key named as a
  /// built-in one is not registered (the built-in one stays). Registering writes no setting;
  /// on a file, it records the key in the key catalog as `init(contentsOf:keys:)` does (pass
  /// the keys there to record them all at once).
  public func register(_ key: AnySettingsKey) {
    register([key], recordingInCatalog: true)
  }

  /// Registers `keys` (see ``register(_:)``); with `recordingInCatalog`, a store on a file
  /// records them in the key catalog. Another program that registers the keys the catalog
  /// describes (`diary`) records nothing. O(registered keys) per key, plus the catalog's
  /// size.
  package func register(_ keys: [AnySettingsKey], recordingInCatalog: Bool) {
    for key in keys {
      guard !SettingsKeys.builtIn.contains(where: { $0.name.utf8.elementsEqual(key.name.utf8) })
      else { continue }
      appKeys.removeAll { $0.name.utf8.elementsEqual(key.name.utf8) }
      appKeys.append(key)
    }
    if recordingInCatalog, !keys.isEmpty { recordCatalog() }
  }

  /// Records the app's keys in the key catalog beside the file; when that cannot be done
  /// now, tries again after each change of the store until it is done.
  private func recordCatalog() {
    guard let url else { return }
    if SettingsCatalog.record(appKeys.map(\.keyDescription), besideSettingsAt: url) {
      catalogRetry = nil
    } else if catalogRetry == nil {
      catalogRetry = onChange { [weak self] _, _ in self?.recordCatalog() }
    }
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
    get { value(for: Self.definitions[keyPath: keyPath]) }
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
    try set(value, for: Self.definitions[keyPath: keyPath])
  }

  /// Puts the setting at `keyPath` back to its default by removing its value from the file.
  ///
  /// - Throws: The ``StoreFileError`` of a failed write.
  public func reset<Value>(_ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>) throws {
    try remove([Self.definitions[keyPath: keyPath].name])
  }

  /// The values of the setting at `keyPath` as they change: the current value first
  /// (unless `initial` is `false`), then each new one, from any source; finishes with the
  /// store. See `KeyValueStore.updates(of:initial:)`.
  ///
  /// ```swift
  /// for await goal in settings.updates(of: \.sleepGoal) { print(goal) }
  /// ```
  public func updates<Value>(
    of keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>, initial: Bool = true
  ) -> AsyncStream<Value> {
    updates(of: Self.definitions[keyPath: keyPath], initial: initial)
  }

  /// Registers `callback` to run with the new value whenever the value of the setting at
  /// `keyPath` really changes, here or in the file; not for a change it makes itself.
  ///
  /// - Returns: A token that unregisters the callback when cancelled or released.
  public func onChange<Value>(
    of keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>,
    _ callback: @escaping @MainActor (Value) -> Void
  ) -> ObserverToken {
    onChange(of: Self.definitions[keyPath: keyPath], callback)
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
    onChange(of: Self.definitions[keyPath: keyPath], callback)
  }
}
