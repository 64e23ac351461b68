import Observation

/// Observation of the settings key by key, as `@AppStorage` has it: reading a setting
/// tracks that setting alone, and a change — an action of the store, a reload of its file,
/// another process through `watch()` — tells exactly the trackers of the keys whose values
/// read changed. A SwiftUI view that shows `sleepGoal` is not redrawn when `distanceUnit`
/// changes, nor when the stored theme goes from `purple` to `5` under a rule that reads both
/// as the default.
///
/// Every ``SettingsStore`` has one. It remembers the stored value of each key read since that
/// key last changed, and after each change of the store compares those the change can have
/// touched: O(1) per key an action sets or removes, O(*r*) for a reload with *r* keys read,
/// and never a copy of the values. Only a stored value that differs is read as the key's type
/// to compare the values read.
@MainActor
final class KeyObservation: Observable {
  private let registrar = ObservationRegistrar()
  /// The keys read since they last changed, with the stored value they had then: few, so a
  /// list, searched faster than a dictionary hashes.
  // Only used on the main actor, never overlapping: the dynamic exclusivity checks are off.
  @exclusivity(unchecked) private var read: [Read] = []
  /// The key path that stands for each key in Observation, and the key, made once per key.
  private var known:
    [KeyValues.Name: (keyPath: KeyPath<KeyObservation, JSONValue?>, key: AnySettingsKey)] = [:]

  /// A key read: its name, the stored value it had then, and the key, which compares values.
  private struct Read {
    var name: String
    var value: JSONValue?
    var key: AnySettingsKey
  }

  nonisolated init() {}

  /// The stored value of the key `name` when it was last read: the identity of that key for
  /// Observation (a `KeyValues.Name`, so that two spellings of a key are two identities).
  subscript(key name: KeyValues.Name) -> JSONValue? {
    read.first { $0.name.utf8.elementsEqual(name.string.utf8) }?.value ?? nil
  }

  /// Starts telling of the changes of the store whose core is `core`.
  func start(_ core: StoreCore<SettingsStore>) {
    // The store holds this observation and its core; the core's hook holds it too.
    core.partsChanged = { change, state in self.changed(change, to: state.values) }
  }

  /// Records that `key`, whose stored value is `value`, is being read.
  func access<Value>(_ key: SettingsKey<Value>, value: JSONValue?) {
    let name = key.name
    let (keyPath, erased) = known[KeyValues.Name(name)] ?? remember(key)
    registrar.access(self, keyPath: keyPath)
    if let index = read.firstIndex(where: { $0.name.utf8.elementsEqual(name.utf8) }) {
      read[index].value = value
    } else {
      read.append(Read(name: name, value: value, key: erased))
    }
  }

  private func changed(_ change: StoreChange<SettingsStore.Action>, to values: KeyValues.Values) {
    guard !read.isEmpty else { return }
    switch change {
    case .action(.set(let name, _)):
      check(name, in: values)
    case .action(.remove(let names)):
      for name in names { check(name, in: values) }
    case .action(.restore(let changes)):
      for change in changes { check(change.key, in: values) }
    case .reload:
      for entry in read { check(entry.name, in: values) }
    }
  }

  /// Tells the trackers of `name` when its value in `values` is not the one read.
  private func check(_ name: String, in values: KeyValues.Values) {
    var found: Int?
    for index in read.indices where read[index].name.utf8.elementsEqual(name.utf8) {
      found = index
      break
    }
    guard let index = found else { return }
    let stored = values[name]
    guard stored != read[index].value else { return }
    if read[index].key.readsSame(read[index].value, stored) {
      read[index].value = stored
      return
    }
    read.remove(at: index)
    guard let keyPath = known[KeyValues.Name(name)]?.keyPath else { return }
    registrar.willSet(self, keyPath: keyPath)
    registrar.didSet(self, keyPath: keyPath)
  }

  /// Makes the key path of `key` and remembers it with the key.
  private func remember<Value>(_ key: SettingsKey<Value>)
    -> (keyPath: KeyPath<KeyObservation, JSONValue?>, key: AnySettingsKey)
  {
    let entry = (keyPath: \KeyObservation.[key: KeyValues.Name(key.name)], key: AnySettingsKey(key))
    known[KeyValues.Name(key.name)] = entry
    return entry
  }
}
