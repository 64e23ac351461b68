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
}

extension WorkoutsStore.State {
  /// The statistics of the workouts, with weeks as they fall in `timeZone`.
  public func statistics(timeZone: TimeZone = .current) -> WorkoutStatistics {
    WorkoutStatistics(workouts, timeZone: timeZone)
  }
}
