import Stores

/// A distance as typed: a number, and the unit when one was typed after it (`5km`,
/// `1500 m`, `3.1 mi`); without one it is in the unit the settings show (`distanceUnit`).
struct TypedDistance: Equatable, Sendable {
  /// The number typed, 0 to `DistanceText.limit`, as the decimal it was typed as.
  var value: ScaledDecimal
  /// The unit typed, or `nil` for the unit of the settings.
  var unit: DistanceUnit?

  /// The distance in metres, exactly as typed, taking `shownUnit` when no unit was typed.
  func meters(shownIn shownUnit: DistanceUnit) -> Double {
    (unit ?? shownUnit).meters(of: value)
  }
}

extension DistanceUnit: Choice {
  var names: [String] { spellings }
}

extension ValueType where Value == TypedDistance {
  /// A distance such as `5`, `.5`, `5.2km`, `1500 m`, `1650yd` or `3.1mi`, as
  /// ``DistanceText/parse(_:allowsDecimalComma:)`` reads it.
  static var distance: Self {
    ValueType(
      placeholder: "DISTANCE",
      expected:
        "a distance from 0 to 100,000 in your distance unit, or with a unit such as 5km, "
        + "1500m, 1650yd or 3.1mi",
      valuesHelp: "a number in your distance unit, or with a unit: 5km, 1500m, 1650yd, 3.1mi",
      read: { text, _ in
        DistanceText.parse(text).map { TypedDistance(value: $0.value, unit: $0.unit) }
      },
      format: { distance in
        distance.value.text + (distance.unit.map { $0.symbol } ?? "")
      })
  }
}

extension ValueType where Value == Double {
  /// A time such as `45:00`, `1:02:03`, `45m` or `1h2m`, in seconds, as `DurationText` reads
  /// it: a bare number is refused, as it could be seconds or minutes.
  static var time: Self {
    ValueType(
      placeholder: "TIME",
      expected: "a time such as 45:00, 1:02:03, 45m or 1h2m",
      valuesHelp: "m:ss, h:mm:ss, or with units: 45:00, 1:02:03, 45m, 1h2m",
      read: { text, _ in DurationText.seconds(text) },
      format: { DurationText.format($0) })
  }
}

extension ValueType where Value == Sport {
  /// A sport: one the diary knows (run, ride, swim, walk, hike, strength, other, or a name
  /// that means one, such as Running), or any other name, kept as typed.
  static var sport: Self {
    ValueType(
      placeholder: "SPORT",
      expected: "a sport, such as run, ride or swim",
      valuesHelp: Sport.known.map(\.name).joined(separator: ", ") + ", or a name of your own",
      read: { text, _ in Sport(text) },
      format: { $0.name })
  }
}
