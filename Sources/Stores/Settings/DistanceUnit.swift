/// The unit distances are shown in. Distances are always stored in kilometres.
public enum DistanceUnit: String, CaseIterable, Codable, Sendable, SettingValue {
  case kilometers
  case miles

  /// Kilometres in one mile, exactly (the international mile).
  public static let kilometersPerMile = 1.609344

  /// `kilometers` expressed in this unit.
  public func convert(kilometers: Double) -> Double {
    switch self {
    case .kilometers: kilometers
    case .miles: kilometers / Self.kilometersPerMile
    }
  }

  /// The distance `value`, expressed in this unit, in kilometres.
  public func kilometers(from value: Double) -> Double {
    switch self {
    case .kilometers: value
    case .miles: value * Self.kilometersPerMile
    }
  }

  /// The unit's short symbol: "km" or "mi".
  public var symbol: String {
    switch self {
    case .kilometers: "km"
    case .miles: "mi"
    }
  }
}
