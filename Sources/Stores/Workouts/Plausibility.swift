import Foundation

extension Sport {
  /// What people do in a sport: the speeds of a whole workout, from a walk with stops to a
  /// world record, and the longest workout. A workout outside them is not refused — records
  /// fall, and a watch left running is still a workout — but an import flags it (see
  /// ``Workout/implausibility``), as a value typed in the wrong unit (a 1,500 km swim that
  /// was 1,500 m) or in the wrong column (a 4-minute marathon) usually is.
  public struct Plausible: Equatable, Sendable {
    /// The average speeds of a workout, in metres per second: its distance over its moving
    /// time, or its elapsed time when it has no moving time.
    public var speeds: ClosedRange<Double>
    /// The longest workout, in metres.
    public var longest: Double

    public init(speeds: ClosedRange<Double>, longest: Double) {
      self.speeds = speeds
      self.longest = longest
    }
  }

  /// What people do in the sport, for the sports the diary knows that cover a distance:
  ///
  /// | Sport | Slowest | Fastest | Longest |
  /// |-------|---------|---------|---------|
  /// | run | 0.5 m/s (33:20 /km) | 10.5 m/s (1:35 /km) | 350 km |
  /// | ride | 0.8 m/s (2.9 km/h) | 25 m/s (90 km/h) | 1,000 km |
  /// | swim | 0.1 m/s (16:40 /100 m) | 2.5 m/s (0:40 /100 m) | 50 km |
  /// | walk | 0.2 m/s (83:20 /km) | 4.5 m/s (3:42 /km) | 200 km |
  /// | hike | 0.1 m/s (166:40 /km) | 3.5 m/s (4:46 /km) | 200 km |
  ///
  /// `nil` for strength, other and sports of their own: nothing tells what is usual there.
  public var plausible: Plausible? {
    switch self {
    case .run: Plausible(speeds: 0.5...10.5, longest: 350_000)
    case .ride: Plausible(speeds: 0.8...25, longest: 1_000_000)
    case .swim: Plausible(speeds: 0.1...2.5, longest: 50_000)
    case .walk: Plausible(speeds: 0.2...4.5, longest: 200_000)
    case .hike: Plausible(speeds: 0.1...3.5, longest: 200_000)
    default: nil
    }
  }

  /// `metersPerSecond` as the sport counts speed: a pace per kilometre for runs, walks and
  /// hikes (`5:00 /km`), per 100 m for swims (`1:45 /100 m`), else kilometres per hour
  /// (`27.5 km/h`).
  public func speedText(_ metersPerSecond: Double) -> String {
    func pace(per meters: Double, _ label: String) -> String {
      guard metersPerSecond > 0, (meters / metersPerSecond).isFinite else { return "– " + label }
      return DurationText.format((meters / metersPerSecond).rounded()) + " " + label
    }
    switch self {
    case .run, .walk, .hike: return pace(per: 1_000, "/km")
    case .swim: return pace(per: 100, "/100 m")
    default: return String(format: "%.1f km/h", metersPerSecond * 3.6)
    }
  }
}

extension Workout {
  /// Why the workout is outside what people do in its sport (``Sport/plausible``), or `nil`:
  /// longer than the longest, or faster or slower than the speeds. An import flags such a
  /// workout in its summary (``WorkoutsImportSummary/flagged``).
  ///
  /// - Complexity: O(1); no allocation for a plausible workout.
  public var implausibility: String? {
    guard let sport, let plausible = sport.plausible, meters > 0 else { return nil }
    let kilometres = String(format: "%.1f km", meters / 1_000)
    if meters > plausible.longest {
      return "\(sport.name) of \(kilometres): longer than any \(sport.name) people do "
        + "(\(String(format: "%.0f", plausible.longest / 1_000)) km at most) — is the unit right?"
    }
    guard let duration else { return nil }
    let seconds = duration.moving ?? duration.elapsed
    guard seconds > 0 else { return nil }
    let speed = meters / seconds
    guard !plausible.speeds.contains(speed) else { return nil }
    let isFast = speed > plausible.speeds.upperBound
    let bound = isFast ? plausible.speeds.upperBound : plausible.speeds.lowerBound
    return "\(sport.name) of \(kilometres) in \(DurationText.format(seconds)), "
      + "\(sport.speedText(speed)): \(isFast ? "faster" : "slower") than any \(sport.name) "
      + "people do (\(isFast ? "the fastest" : "the slowest") is \(sport.speedText(bound))) — "
      + "is the distance or the time right?"
  }
}
