import Observation

/// Observation of a key-value store key by key, as `@AppStorage` has it: reading a setting
/// tracks that setting alone, and a change — an action of the store, a reload of its file,
/// another process through `watch()` — tells exactly the trackers of the keys whose stored
/// values changed. A SwiftUI view that shows `sleepGoal` is not redrawn when `distanceUnit`
/// changes.
///
/// Every ``KeyValueStore`` has one. It remembers the value of each key read since that key
/// last changed, and after each change of the store compares those the change can have
/// touched: O(1) per key an action sets or removes, O(*r*) for a reload with *r* keys read,
/// and never a copy of the values.
@MainActor
public final class KeyObservation: Observable {
  private let registrar = ObservationRegistrar()
  /// The keys read since they last changed, with the stored value they had then: few, so a
  /// list, searched faster than a dictionary hashes.
  // Only used on the main actor, never overlapping: the dynamic exclusivity checks are off.
  @exclusivity(unchecked) private var read: [(name: String, value: JSONValue?)] = []
  /// The key path that stands for each key in Observation, made once per key.
  private var keyPaths: [String: KeyPath<KeyObservation, JSONValue?>] = [:]

  public nonisolated init() {}

  /// The stored value of the key `name` when it was last read: the identity of that key for
  /// Observation.
  public subscript(key name: String) -> JSONValue? {
    read.first { $0.name == name }?.value ?? nil
  }

  /// Starts telling of the changes of `store`.
  func start<Store: KeyValueStore>(_ store: Store) {
    // The store holds this observation and its core; the core's hook holds it too.
    store.core.partsChanged = { change, state in self.changed(change, to: state.values) }
  }

  /// Records that the key `name`, whose stored value is `value`, is being read.
  func access(_ name: String, value: JSONValue?) {
    registrar.access(self, keyPath: keyPath(name))
    if let index = read.firstIndex(where: { $0.name == name }) {
      read[index].value = value
    } else {
      read.append((name, value))
    }
  }

  private func changed(_ change: StoreChange<KeyValueAction>, to values: [String: JSONValue]) {
    guard !read.isEmpty else { return }
    switch change {
    case .action(.set(let name, _)):
      check(name, in: values)
    case .action(.remove(let names)):
      for name in names { check(name, in: values) }
    case .reload:
      for (name, _) in read { check(name, in: values) }
    }
  }

  /// Tells the trackers of `name` when its value in `values` is not the one read.
  private func check(_ name: String, in values: [String: JSONValue]) {
    var found: Int?
    for index in read.indices where read[index].name == name {
      found = index
      break
    }
    guard let index = found, values[name] != read[index].value else { return }
    read.remove(at: index)
    let keyPath = keyPath(name)
    registrar.willSet(self, keyPath: keyPath)
    registrar.didSet(self, keyPath: keyPath)
  }

  private func keyPath(_ name: String) -> KeyPath<KeyObservation, JSONValue?> {
    if let keyPath = keyPaths[name] { return keyPath }
    let keyPath = \KeyObservation.[key: name]
    keyPaths[name] = keyPath
    return keyPath
  }
}
