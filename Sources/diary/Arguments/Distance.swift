import Stores

/// A distance as typed: a number, and the unit when one was typed after it (`5km`,
/// `3.1 mi`); without one it is in the unit the settings show (`distanceUnit`).
struct TypedDistance: Equatable, Sendable {
  /// The number typed, 0 to `DistanceText.limit`.
  var value: Double
  /// The unit typed, or `nil` for the unit of the settings.
  var unit: DistanceUnit?

  /// The distance in kilometres, taking `shownUnit` when no unit was typed.
  func kilometers(shownIn shownUnit: DistanceUnit) -> Double {
    (unit ?? shownUnit).kilometers(from: value)
  }
}

extension DistanceUnit: Choice {
  var names: [String] { spellings }
}

extension ValueType where Value == TypedDistance {
  /// A distance such as `5`, `.5`, `5.2km`, `3.1mi` or `5 km`, as ``DistanceText/parse(_:allowsDecimalComma:)``
  /// reads it.
  static var distance: Self {
    ValueType(
      placeholder: "DISTANCE",
      expected:
        "a distance from 0 to 100,000 in your distance unit, or with a unit such as 5km or 3.1mi",
      valuesHelp: "a number in your distance unit, or with a unit: 5km, 3.1mi, 5 km",
      read: { text, _ in
        DistanceText.parse(text).map { TypedDistance(value: $0.value, unit: $0.unit) }
      },
      format: { distance in
        numberText(distance.value) + (distance.unit.map { $0.symbol } ?? "")
      })
  }
}
