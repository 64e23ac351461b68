import Foundation

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
    Self.value(for: key, stored: values[key.name])
  }

  /// The value of `key` when the file holds `stored` for it (`nil`: not set).
  static func value<Value>(for key: SettingsKey<Value>, stored: JSONValue?) -> Value {
    guard let json = stored, let value = Value(json: json), key.problem(with: value) == nil
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
