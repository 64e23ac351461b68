import Foundation
import Stores

extension Gen where Value == JSONValue {
  /// Any JSON value, nested up to `depth` levels: what a settings file may hold for a key.
  public static func json(depth: Int = 2) -> Gen<JSONValue> {
    let scalar = Gen<JSONValue>.oneOf(
      .constant(.null),
      Gen<Bool>.bool.map { .bool($0) },
      Gen<Double>.double(in: -1e6...1e6).map { .number(JSONNumber($0)) },
      Gen<String>.string(maxCount: 8).map { .string($0) }
    )
    guard depth > 0 else { return scalar }
    let nested = Gen<JSONValue>.json(depth: depth - 1)
    return .frequency([
      (4, scalar),
      (1, nested.array(maxCount: 3).map { .array($0) }),
      (
        1,
        Gen<[String: JSONValue]>.dictionary(
          keys: .string(maxCount: 4), values: nested, maxCount: 3
        )
        .map { .object($0) }
      ),
    ])
  }
}

extension Gen where Value == String {
  /// What a person might type as a setting's value: valid numbers, booleans and units in
  /// every accepted spelling, and near misses (`nan`, `7.5h`, ` 8`, `0x10`, `1e999`, …).
  public static var settingText: Gen<String> {
    .oneOf(
      .element(of: [
        "8", "7.5", "0", "24", "-1", "24.5", "1e1", "nan", "inf", "-inf", "7.5h", " 8", "0x10",
        "1e999", "", "yes", "no", "on", "off", "true", "FALSE", "1", "maybe", "miles",
        "Kilometers", "km", "furlongs",
      ]),
      Gen<Double>.double(in: -50...50).map { String($0) },
      Gen<String>.string(maxCount: 6)
    )
  }
}

extension Gen where Value == SettingsStore.Action {
  /// Any settings action on the keys `keys` and a few unknown ones: setting any JSON value
  /// (valid for the key or not), removing a few keys, or restoring a few (from a value or
  /// from not set, which many keys are).
  public static func settingsAction(keys: [String]) -> Gen<SettingsStore.Action> {
    let names = Gen<String>.element(of: keys + ["theme", "window"])
    let values = Gen<JSONValue?>.frequency([
      (1, .constant(nil)), (1, Gen<JSONValue>.json().map { $0 }),
    ])
    return .oneOf(
      Gen<(String, JSONValue)>.zip(names, .json()).map { .set(key: $0, value: $1) },
      names.array(maxCount: 3).map { .remove(keys: $0) },
      Gen<(String, JSONValue?, JSONValue?)>.zip(names, values, values).map {
        SettingsStore.ValueChange(key: $0, from: $1, to: $2)
      }.array(maxCount: 3).map { .restore(SettingsStore.ValueChanges($0)) }
    )
  }
}
