import Foundation
import StoreTesting
import Stores
import Testing

// The port of sindresorhus/Defaults' own tests to `SettingsStore` (issue 38). Each test names
// the Defaults test it adapts in a doc comment line "Defaults: File.testName"; count them with
// grep -rhoE '^ */// Defaults: [A-Za-z]+\.test[A-Za-z]+' Tests/StoresTests/Settings/DefaultsPort \
//   | sed 's/^ *//' | sort -u | wc -l
//
// Where Defaults reads a fresh `UserDefaults` suite, a test here opens a store on a file in a
// fresh folder, and reads back from a second store on that file what it checks in the first:
// a value that only lived in memory fails there.

/// A fresh settings file, as Defaults' tests take a fresh suite: the stores on it and a
/// second reader.
@MainActor
final class PortFile {
  let folder = TemporaryFolder()
  var url: URL { folder.file("settings.json") }

  /// A store on the file, the app's `keys` registered.
  func store(keys: [AnySettingsKey] = []) throws -> SettingsStore {
    try SettingsStore(contentsOf: url, keys: keys)
  }

  /// The value of `key` as a new store on the file reads it.
  func reread<Value>(_ key: SettingsKey<Value>) throws -> Value {
    try store().value(for: key)
  }

  /// The JSON the file holds for the key `name`, or `nil` when it holds none.
  func stored(_ name: String) throws -> JSONValue? {
    try store().state.values[name]
  }
}

extension SettingsStore {
  /// Defaults' `Defaults[key].x = y`: reads the value of `key`, changes it and sets it back.
  func update<Value>(_ key: SettingsKey<Value>, _ change: (inout Value) -> Void) throws {
    var value = value(for: key)
    change(&value)
    try set(value, for: key)
  }
}

/// Records what callbacks and streams hand over, on the main actor.
@MainActor
final class Received<Element> {
  var items: [Element] = []
  func add(_ item: Element) { items.append(item) }
}
