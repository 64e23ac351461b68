import Foundation
import Observation

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
    contentsOf url: URL, keys: [AnySettingsKey] = [], lockTimeout: Duration = .defaultLockTimeout
  ) throws {
    self.keys = keys
    core = try KeyValueFile.fileCore(contentsOf: url, lockTimeout: lockTimeout)
    keyObservation.start(self)
  }

  /// Registers `key`, replacing a registered key of the same name. Registering writes
  /// nothing: the key reads as its default until set.
  public func register(_ key: AnySettingsKey) {
    keys.removeAll { $0.name.utf8.elementsEqual(key.name.utf8) }
    keys.append(key)
  }
}
