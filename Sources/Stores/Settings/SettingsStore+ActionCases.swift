import Foundation

/// The cases of ``SettingsStore/Action`` as properties, one per case, named as the case: the case's
/// payload for an action of that case, `nil` for any other (`()` for a case without payload;
/// a tuple for a case with several values). So `action.set` reads the payload without
/// a `switch`, and `\.set` is a case path: `StoreTester.receive(\.set)` receives
/// an action of that case, whatever its payload. O(1) each (a payload is copied, not
/// computed).
extension SettingsStore.Action {
  /// The payload of ``set(key:value:)``; `nil` for any other action.
  public var set: (key: String, value: JSONValue)? {
    guard case .set(let key, let value) = self else { return nil }
    return (key: key, value: value)
  }

  /// The payload of ``remove(keys:)``; `nil` for any other action.
  public var remove: [String]? {
    guard case .remove(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``restore(_:)``; `nil` for any other action.
  public var restore: SettingsStore.ValueChanges? {
    guard case .restore(let payload) = self else { return nil }
    return payload
  }
}
