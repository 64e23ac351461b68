import Foundation

/// Totals over a list of workouts: a query computed from a state, never stored. Distances
/// are in kilometres; ``DistanceUnit/convert(kilometers:)`` shows them in miles. Times are in
/// seconds: a workout's elapsed time, counted where it has one.
public struct WorkoutStatistics: Equatable, Sendable {
  /// The distance, time and number of workouts of one ISO 8601 week.
  public struct Week: Equatable, Sendable {
    /// The ISO week-numbering year, which can differ from the calendar year near January 1.
    public var year: Int
    /// The ISO week number, 1...53.
    public var week: Int
    /// How many workouts the week has.
    public var count: Int
    /// Their total distance in kilometres.
    public var distance: Double
    /// Their total elapsed time in seconds (of those that have a time).
    public var duration: TimeInterval = 0
  }

  /// The totals of one sport: what a training log shows per sport, with its pace or speed.
  public struct SportTotals: Equatable, Sendable {
    /// The sport, or `nil` for the workouts that have none.
    public var sport: Sport?
    /// How many workouts of the sport there are.
    public var count: Int = 0
    /// Their total distance in kilometres.
    public var distance: Double = 0
    /// Their total elapsed time in seconds (of those that have a time).
    public var duration: TimeInterval = 0
    /// The distance in kilometres of those that have both a time and a distance…
    public var timedDistance: Double = 0
    /// … and their time in seconds: moving where it was measured, else elapsed (a pause
    /// does not slow a pace down). What ``secondsPerKilometer`` is made of.
    public var timedDuration: TimeInterval = 0

    /// The totals of `sport`, nothing counted yet.
    public init(sport: Sport?) {
      self.sport = sport
    }

    /// The pace over the workouts with a time and a distance, in seconds per kilometre;
    /// `nil` when there are none. Speed is its inverse: 3,600 / pace in km/h.
    public var secondsPerKilometer: Double? {
      timedDistance > 0 && timedDuration > 0 ? timedDuration / timedDistance : nil
    }

    /// Adds `workout` to the totals.
    mutating func add(_ workout: Workout) {
      count += 1
      distance += workout.distance
      guard let time = workout.duration else { return }
      duration += time.elapsed
      guard workout.meters > 0 else { return }
      timedDistance += workout.distance
      timedDuration += time.moving ?? time.elapsed
    }
  }

  /// How many workouts there are.
  public var count: Int
  /// Their total distance in kilometres.
  public var totalDistance: Double
  /// Their total elapsed time in seconds (of those that have a time).
  public var totalDuration: TimeInterval
  /// The longest distance in kilometres, or `nil` when there are no workouts.
  public var longestDistance: Double?
  /// How many workouts there are of each complexity (every complexity is present).
  public var countByComplexity: [Workout.Complexity: Int]
  /// The totals of each sport that has workouts: the known sports in ``Sport/known``'s
  /// order, then the sports of their own by name, then the workouts without a sport.
  public var sports: [SportTotals]
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
    totalDuration = workouts.reduce(0) { $0 + ($1.duration?.elapsed ?? 0) }
    longestDistance = workouts.map(\.distance).max()
    countByComplexity = Dictionary(
      uniqueKeysWithValues: Workout.Complexity.allCases.map { ($0, 0) })
    var weeks: [Int: Week] = [:]
    var sports: [Sport?: SportTotals] = [:]
    for workout in workouts {
      countByComplexity[workout.complexity, default: 0] += 1
      sports[workout.sport, default: SportTotals(sport: workout.sport)].add(workout)
      let components = calendar.dateComponents(
        [.yearForWeekOfYear, .weekOfYear], from: workout.date)
      let year = components.yearForWeekOfYear ?? 0
      let week = components.weekOfYear ?? 0
      weeks[year * 100 + week, default: Week(year: year, week: week, count: 0, distance: 0)]
        .count += 1
      weeks[year * 100 + week]?.distance += workout.distance
      weeks[year * 100 + week]?.duration += workout.duration?.elapsed ?? 0
    }
    self.weeks = weeks.sorted { $0.key < $1.key }.map(\.value)
    self.sports = sports.values.sorted { Self.precedes($0.sport, $1.sport) }
  }

  /// The order of ``sports``: known sports first, in their order, then the others by name
  /// (case-insensitively, then exactly), then no sport.
  private static func precedes(_ a: Sport?, _ b: Sport?) -> Bool {
    guard let a else { return false }
    guard let b else { return true }
    let (knownA, knownB) = (Sport.known.firstIndex(of: a), Sport.known.firstIndex(of: b))
    switch (knownA, knownB) {
    case (let x?, let y?): return x < y
    case (.some, nil): return true
    case (nil, .some): return false
    case (nil, nil):
      let (lowerA, lowerB) = (a.name.lowercased(), b.name.lowercased())
      return lowerA != lowerB ? lowerA < lowerB : a.name < b.name
    }
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
