import Foundation

/// Totals over a list of workouts: a query computed from a state, never stored. Distances
/// are in kilometres; ``DistanceUnit/convert(kilometers:)`` shows them in miles.
public struct WorkoutStatistics: Equatable, Sendable {
  /// The distance and number of workouts of one ISO 8601 week.
  public struct Week: Equatable, Sendable {
    /// The ISO week-numbering year, which can differ from the calendar year near January 1.
    public var year: Int
    /// The ISO week number, 1...53.
    public var week: Int
    /// How many workouts the week has.
    public var count: Int
    /// Their total distance in kilometres.
    public var distance: Double
  }

  /// How many workouts there are.
  public var count: Int
  /// Their total distance in kilometres.
  public var totalDistance: Double
  /// The longest distance in kilometres, or `nil` when there are no workouts.
  public var longestDistance: Double?
  /// How many workouts there are of each complexity (every complexity is present).
  public var countByComplexity: [Workout.Complexity: Int]
  /// The weeks that have workouts, earliest first.
  public var weeks: [Week]

  /// The statistics of `workouts`, with weeks as they fall in `timeZone`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* workouts.
  public init(_ workouts: [Workout], timeZone: TimeZone = .current) {
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = timeZone
    count = workouts.count
    totalDistance = workouts.reduce(0) { $0 + $1.distance }
    longestDistance = workouts.map(\.distance).max()
    countByComplexity = Dictionary(
      uniqueKeysWithValues: Workout.Complexity.allCases.map { ($0, 0) })
    var weeks: [Int: Week] = [:]
    for workout in workouts {
      countByComplexity[workout.complexity, default: 0] += 1
      let components = calendar.dateComponents(
        [.yearForWeekOfYear, .weekOfYear], from: workout.date)
      let year = components.yearForWeekOfYear ?? 0
      let week = components.weekOfYear ?? 0
      weeks[year * 100 + week, default: Week(year: year, week: week, count: 0, distance: 0)]
        .count += 1
      weeks[year * 100 + week]?.distance += workout.distance
    }
    self.weeks = weeks.sorted { $0.key < $1.key }.map(\.value)
  }

  /// The `count` ISO weeks that end with the one `now` falls in, in `timeZone`, earliest
  /// first — weeks without workouts too, with a count and distance of 0: what a chart of the
  /// recent weeks shows. O(`count` + weeks).
  public func recentWeeks(_ count: Int, endingAt now: Date, timeZone: TimeZone = .current)
    -> [Week]
  {
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = timeZone
    let byKey = Dictionary(uniqueKeysWithValues: weeks.map { ($0.year * 100 + $0.week, $0) })
    guard count > 0, let start = calendar.dateInterval(of: .weekOfYear, for: now)?.start else {
      return []
    }
    return (0..<count).reversed().compactMap { back in
      // Noon on the week's Monday, away from any change of the clocks.
      guard
        let day = calendar.date(byAdding: .day, value: -7 * back, to: start)?
          .addingTimeInterval(12 * 3_600)
      else { return nil }
      let components = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: day)
      let year = components.yearForWeekOfYear ?? 0
      let week = components.weekOfYear ?? 0
      return byKey[year * 100 + week] ?? Week(year: year, week: week, count: 0, distance: 0)
    }
  }
}

extension WorkoutsStore.State {
  /// The statistics of the workouts, with weeks as they fall in `timeZone`.
  public func statistics(timeZone: TimeZone = .current) -> WorkoutStatistics {
    WorkoutStatistics(workouts, timeZone: timeZone)
  }
}
