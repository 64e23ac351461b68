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
/// }
/// let settings = try SettingsStore(contentsOf: url)
/// settings.theme = "dark"   // validated, written to the same file, observed on its own
/// ```
///
/// A key is registered with the store at its first use there (or ahead of it, with `keys:`
/// or ``SettingsStore/register(_:)``, so that `diary` knows it before the app uses it), and
/// is then first-class: it is in ``SettingsStore/keys`` and ``SettingsStore/entries`` with
/// its rule, ``SettingsStore/reset()`` resets it, and a stored value its rule refuses is
/// reported like a built-in key's.
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

/// The app's settings: typed keys with defaults in a `UserDefaults`-like key-value file, as
/// observable properties SwiftUI can bind to — the built-in settings of ``SettingsKeys`` and
/// any key the app declares.
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
/// (default kilometers), and the app's own keys declared in an extension of it. Only settings
/// set explicitly are written to the file; a stored value that is not valid reads as the
/// default, and ``entries`` reports it.
///
/// Any ``SettingsKey`` works without a property: ``value(for:)`` reads it, ``set(_:for:)``
/// sets it, `onChange(of:_:)` and `updates(of:initial:)` observe it.
/// Registered — at its first use, by ``register(_:)``, or by `keys:` when opening the store —
/// a key is in ``keys`` and ``entries``, ``reset()`` resets it and `diary` lists it.
///
/// Like every store, each change is an ``Action`` run by the pure reducer ``reduce(_:_:)``
/// and, on a file, a transaction under a lock that merges per key, so two processes setting
/// different keys never lose either.
@MainActor @Observable @dynamicMemberLookup
public final class SettingsStore: Store {
  /// The declarations of every setting. A key read from it is made again at each read, its
  /// default too: the store's properties and key paths (`.key(\.theme)`) use each key made
  /// once per process instead, so that a default such as `UUID()` reads the same everywhere.
  public static let definitions = SettingsKeys()

  /// Every setting: the built-in ones in the order ``SettingsKeys`` declares them, then the
  /// app's registered keys in the order registered.
  public var keys: [AnySettingsKey] { SettingsKeys.builtIn + appKeys }

  /// The app's own keys, registered with the store (see ``register(_:)``).
  @ObservationIgnored public private(set) var appKeys: [AnySettingsKey] = []
  /// The names of ``keys``.
  @ObservationIgnored private var keyNames = Set(SettingsKeys.builtIn.map { State.Name($0.name) })
  /// Which declarations of keys (by number, see ``SettingsKeys/declaration(_:)``) this store
  /// has met: their keys are registered.
  @ObservationIgnored private var metDeclarations: [Bool] = []
  /// The names and value types of the keys used as values (see ``noteUse(of:)``) whose name
  /// was registered already, each checked against the registered key once.
  @ObservationIgnored private var checkedUses: Set<KeyUse> = []

  /// A key's name and the type of its values.
  private struct KeyUse: Hashable {
    let name: State.Name
    let type: ObjectIdentifier
  }

  @ObservationIgnored public let core: StoreCore<SettingsStore>
  /// The observation of the store key by key: ``value(for:)`` tracks one key.
  @ObservationIgnored let keyObservation = KeyObservation()
  /// The settings file, for a store opened on one: the key catalog is beside it.
  @ObservationIgnored private let url: URL?
  /// While the app's keys wait to be recorded in the key catalog: the callback that tries
  /// again after each change of the store.
  @ObservationIgnored private var catalogRetry: ObserverToken?

  /// Settings in memory, with `values` set explicitly and the app's own `keys` registered.
  public init(values: [String: JSONValue] = [:], keys: [AnySettingsKey] = []) {
    core = StoreCore(state: State(values))
    url = nil
    keyObservation.start(core)
    register(keys, recordingInCatalog: false)
  }

  /// The settings in the file at `url`; a missing file is all defaults.
  ///
  /// An action waits at most `lockTimeout` for another process that holds the file's lock,
  /// then fails with ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)``.
  ///
  /// The app's own `keys` are registered (see ``register(_:)``) and described in the key
  /// catalog beside the file (`settings.keys.json`), so that `diary` treats them as its own
  /// keys: written only when the description changes, at once when this process may write
  /// the file (or, before it exists, in its folder) — else with the store's first change
  /// (see "The key catalog" in the Settings article).
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public convenience init(
    contentsOf url: URL, keys: [AnySettingsKey] = [], lockTimeout: Duration = .defaultLockTimeout
  ) throws {
    try self.init(contentsOf: url, keys: keys, lockTimeout: lockTimeout, clock: .local)
  }

  /// The settings in the file at `url`, as ``init(contentsOf:keys:lockTimeout:)`` opens them,
  /// with changes stamped by `clock` (for tests: a device of its own, or a wall clock ahead).
  package init(
    contentsOf url: URL, keys: [AnySettingsKey] = [], lockTimeout: Duration = .defaultLockTimeout,
    clock: HybridClock
  ) throws {
    core = try SettingsStore.fileCore(contentsOf: url, lockTimeout: lockTimeout, clock: clock)
    self.url = url
    keyObservation.start(core)
    register(keys, recordingInCatalog: true)
  }

  /// Registers one of the app's keys — `settings.register(.key(\.theme))`, or any
  /// ``SettingsKey`` as `AnySettingsKey(key)` — so that it is in ``keys`` and ``entries``,
  /// ``reset()`` resets it and its stored value is checked. Registering writes no setting; on
  /// a file, it records the key in the key catalog as `init(contentsOf:keys:)` does (pass
  /// the keys there to record them all at once).
  ///
  /// Registering a key again — the same name, type, default and allowed values — does
  /// nothing. A key named as a built-in setting, or as a registered key that is another
  /// (another type, default or allowed values), is a programmer error: the process stops
  /// with a message that names both keys — rename one of them. (A key's name is its place in
  /// the file: two keys of one name would read each other's values and defaults.)
  public func register(_ key: AnySettingsKey) {
    register([key], recordingInCatalog: true)
  }

  /// Registers `keys` (see ``register(_:)``); with `recordingInCatalog`, a store on a file
  /// records them in the key catalog. Another program that registers the keys the catalog
  /// describes (`diary`) records nothing. O(registered keys) per key, plus the catalog's
  /// size.
  package func register(_ keys: [AnySettingsKey], recordingInCatalog: Bool) {
    if let problem = Self.problems(registering: keys, with: appKeys).first {
      fatalError(problem)
    }
    var added = false
    for key in keys where keyNames.insert(State.Name(key.name)).inserted {
      appKeys.append(key)
      added = true
    }
    if recordingInCatalog, added { recordCatalog() }
  }

  /// The key at `keyPath`, registered with this store at its first use here (see
  /// ``register(_:)``): declaring a key in an extension of ``SettingsKeys`` and using it is
  /// enough — its name is checked against the others then, and it joins ``keys``,
  /// ``entries``, ``reset()`` and the key catalog. O(1) after its first use by this store.
  func declaredKey<Value>(
    _ keyPath: KeyPath<SettingsKeys, SettingsKey<Value>>
  ) -> SettingsKey<Value> {
    let (key, number) = SettingsKeys.declaration(keyPath)
    if number < metDeclarations.count, metDeclarations[number] { return key }
    if number >= metDeclarations.count {
      metDeclarations += repeatElement(false, count: number + 1 - metDeclarations.count)
    }
    metDeclarations[number] = true
    register([AnySettingsKey(key)], recordingInCatalog: true)
    return key
  }

  /// Registers `key` with this store at its first use here (see ``register(_:)``), when no
  /// key of its name is registered: a key used as a value, not through a key path, is known
  /// by its name. When one is, the first use of the name with each type of values checks the
  /// key against it: a key named as a built-in setting but not that setting, or as an app's
  /// key of another type, is a programmer error, as it is when registered. O(length of its
  /// name) after that first use.
  func noteUse<Value>(of key: SettingsKey<Value>) {
    let name = State.Name(key.name)
    guard keyNames.contains(name) else {
      return register([AnySettingsKey(key)], recordingInCatalog: true)
    }
    guard checkedUses.insert(KeyUse(name: name, type: ObjectIdentifier(Value.self))).inserted
    else { return }
    let used = AnySettingsKey(key)
    let isBuiltIn = SettingsKeys.builtIn.contains { State.Name($0.name) == name }
    let registered = appKeys.first { State.Name($0.name) == name }
    guard isBuiltIn || registered?.typeName != used.typeName else { return }
    if let problem = Self.problems(registering: [used], with: appKeys).first {
      fatalError(problem)
    }
  }

  /// Why registering `keys`, in order, on a store whose app keys are `registered` is a
  /// programmer error — one message for each key named as a built-in setting or as a key
  /// before it that is another — or no message when each is new or the same key again.
  /// O(*n*²) in the number of keys.
  package static func problems(
    registering keys: [AnySettingsKey], with registered: [AnySettingsKey]
  ) -> [String] {
    var known =
      SettingsKeys.builtIn.map { (key: $0, isBuiltIn: true) }
      + registered.map { (key: $0, isBuiltIn: false) }
    var problems: [String] = []
    for key in keys {
      guard let other = known.first(where: { $0.key.name.utf8.elementsEqual(key.name.utf8) })
      else {
        known.append((key, false))
        continue
      }
      if key.isSame(as: other.key) { continue }
      problems.append(
        other.isBuiltIn
          ? "settings key \(quoted(key.name)) of type \(key.declaration) takes the name of the "
            + "built-in setting of type \(other.key.declaration): rename the app's key"
          : "settings key \(quoted(key.name)) is declared twice, of type \(other.key.declaration)"
            + " and of type \(key.declaration): rename one of the keys, or declare it once")
    }
    return problems
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

  /// Applies `action` to the values. Setting a key to the value it holds, removing keys that
  /// are not set, or a restore that leaves each key as it was, changes nothing.
  ///
  /// - Complexity: O(*k*) for *k* keys in the action; O(*k*²) for a restore (an undo's, of
  ///   the few keys one action changed).
  @discardableResult
  public nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .set(let key, let value):
      return state.values.updateValue(value, forKey: key) != value
    case .remove(let keys):
      var changed = false
      for key in keys where state.values.removeValue(forKey: key) != nil { changed = true }
      return changed
    case .restore(let changes):
      // Changed only where a key ends with another value than it had: a restore that sets a
      // key and sets it back changes nothing.
      var before: [(key: String, value: JSONValue?)] = []
      for change in changes
      where change.from != change.to && state.values[change.key] == change.from {
        if !before.contains(where: { $0.key == change.key }) {
          before.append((change.key, change.from))
        }
        state.values[change.key] = change.to
      }
      return before.contains { state.values[$0.key] != $0.value }
    }
  }
}
