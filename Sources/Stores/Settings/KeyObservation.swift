import Observation

/// Observation of a key-value store key by key, as `@AppStorage` has it: reading a setting
/// tracks that setting alone, and a change — an action of the store, a reload of its file,
/// another process through `watch()` — tells exactly the trackers of the keys whose stored
/// values changed. A SwiftUI view that shows `sleepGoal` is not redrawn when `distanceUnit`
/// changes.
///
/// Every ``KeyValueStore`` has one; it compares the values before and after each change of
/// the store, so it costs O(*k*) per change for *k* keys set, nothing per read but a lookup.
@MainActor
public final class KeyObservation: Observable {
  private let registrar = ObservationRegistrar()
  /// The stored values as of the last change told.
  private var values: [String: JSONValue] = [:]
  /// The key path that stands for each key in Observation, made once per key.
  private var keyPaths: [String: KeyPath<KeyObservation, JSONValue?>] = [:]
  private var token: ObserverToken?

  public nonisolated init() {}

  /// The stored value of the key `name`: the identity of that key for Observation.
  public subscript(key name: String) -> JSONValue? { values[name] }

  /// Starts telling of the changes of `store`.
  func start<Store: KeyValueStore>(_ store: Store) {
    values = store.core.storedState.values
    token = store.core.onChange { [weak self] _, state in self?.changed(to: state.values) }
  }

  /// Records that the value of `name` is being read, for Observation.
  func access(_ name: String) {
    registrar.access(self, keyPath: keyPath(name))
  }

  private func changed(to new: [String: JSONValue]) {
    let old = values
    values = new
    for name in Set(old.keys).union(new.keys) where old[name] != new[name] {
      let keyPath = keyPath(name)
      registrar.willSet(self, keyPath: keyPath)
      registrar.didSet(self, keyPath: keyPath)
    }
  }

  private func keyPath(_ name: String) -> KeyPath<KeyObservation, JSONValue?> {
    if let keyPath = keyPaths[name] { return keyPath }
    let keyPath = \KeyObservation.[key: name]
    keyPaths[name] = keyPath
    return keyPath
  }
}
