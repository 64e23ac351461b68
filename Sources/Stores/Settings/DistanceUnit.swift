/// The unit distances are shown in, and read in when typed without one. Workouts keep their
/// distances in metres whatever the unit (see ``Workout/meters``).
public enum DistanceUnit: String, CaseIterable, Codable, Sendable, SettingValue {
  case kilometers
  case miles
  /// For swims in a metre pool.
  case meters
  /// For swims in a yard pool.
  case yards

  /// Kilometres in one mile, exactly (the international mile).
  public static let kilometersPerMile = 1.609344

  /// Metres in one unit, exactly: 1,000, 1,609.344, 1 or 0.9144.
  public var metersPerUnit: Double {
    switch self {
    case .kilometers: 1_000
    case .miles: 1_609.344
    case .meters: 1
    case .yards: 0.9144
    }
  }

  /// `kilometers` expressed in this unit.
  public func convert(kilometers: Double) -> Double {
    switch self {
    case .kilometers: kilometers
    case .miles: kilometers / Self.kilometersPerMile
    case .meters, .yards: kilometers * 1_000 / metersPerUnit
    }
  }

  /// `meters` expressed in this unit.
  public func convert(meters: Double) -> Double {
    self == .meters ? meters : meters / metersPerUnit
  }

  /// The distance `value`, expressed in this unit, in kilometres.
  public func kilometers(from value: Double) -> Double {
    switch self {
    case .kilometers: value
    case .miles: value * Self.kilometersPerMile
    case .meters, .yards: value * metersPerUnit / 1_000
    }
  }

  /// The metres in `value` of this unit, exactly: the decimal is multiplied by the unit's
  /// exact length (`1650` yd is 1,508.76 m; `3.1` mi is 4,988.9664 m), then rounded once to
  /// the nearest `Double`.
  package func meters(of value: ScaledDecimal) -> Double {
    switch self {
    case .kilometers: value.scaled(by: 3).double
    case .miles: value.multiplied(by: 1_609_344).scaled(by: -3).double
    case .meters: value.double
    case .yards: value.multiplied(by: 9_144).scaled(by: -4).double
    }
  }

  /// The unit's short symbol: "km", "mi", "m" or "yd".
  public var symbol: String {
    switch self {
    case .kilometers: "km"
    case .miles: "mi"
    case .meters: "m"
    case .yards: "yd"
    }
  }
}
