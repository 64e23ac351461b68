import Stores

/// A distance as typed: a number, and the unit when one was typed after it (`5km`,
/// `3.1 mi`); without one it is in the unit the settings show (`distanceUnit`).
struct TypedDistance: Equatable, Sendable {
  /// The number typed, 0 to ``limit``.
  var value: Double
  /// The unit typed, or `nil` for the unit of the settings.
  var unit: DistanceUnit?

  /// The largest number a distance can be typed with, in any unit: no workout is longer,
  /// and totals stay far from overflowing.
  static let limit = 100_000.0

  /// The distance in kilometres, taking `shownUnit` when no unit was typed.
  func kilometers(shownIn shownUnit: DistanceUnit) -> Double {
    (unit ?? shownUnit).kilometers(from: value)
  }
}

extension DistanceUnit: Choice {
  var names: [String] {
    switch self {
    case .kilometers: ["kilometers", "kilometres", "km"]
    case .miles: ["miles", "mi"]
    }
  }
}

extension ValueType where Value == TypedDistance {
  /// A distance such as `5`, `.5`, `5.2km`, `3.1mi` or `5 km`: digits with an optional
  /// decimal part, from 0 to 100,000, then optionally a unit (any spelling of
  /// `distanceUnit`, in any case).
  static var distance: Self {
    ValueType(
      placeholder: "DISTANCE",
      expected:
        "a distance from 0 to 100,000 in your distance unit, or with a unit such as 5km or 3.1mi",
      valuesHelp: "a number in your distance unit, or with a unit: 5km, 3.1mi, 5 km",
      read: { text, _ in
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let rest = text[number.endIndex...].drop { $0 == " " }
        guard number.contains(where: \.isNumber), number.filter({ $0 == "." }).count <= 1,
          let value = Double(number), (0...TypedDistance.limit).contains(value)
        else { return nil }
        guard !rest.isEmpty else { return TypedDistance(value: value, unit: nil) }
        let unit = rest.lowercased()
        guard let match = DistanceUnit.allCases.first(where: { $0.names.contains(unit) }) else {
          return nil
        }
        return TypedDistance(value: value, unit: match)
      },
      format: { distance in
        numberText(distance.value) + (distance.unit.map { $0.symbol } ?? "")
      })
  }
}
