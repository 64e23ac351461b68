import Foundation

extension Workout: ListItem {
  /// A workout's fields besides its id, each declared once (see ``FieldTable``).
  package enum Field {
    package static let complexity = ItemField("complexity", \Workout.complexity) {
      $1 = $1.with(complexity: $0)
    }
    package static let date = ItemField("date", \Workout.date) { $1 = $1.with(date: $0) }
    package static let distance = ItemField("distance", \Workout.storedDistance) {
      $1 = $1.with(distance: $0)
    }
    package static let duration = ItemField("duration", \Workout.duration) {
      $1 = $1.with(duration: .some($0))
    }
    package static let name = ItemField("name", \Workout.name) { $1 = $1.with(name: $0) }
    package static let sport = ItemField("sport", \Workout.sport) { $1 = $1.with(sport: .some($0)) }
  }

  public static let fieldTable = FieldTable(
    id: \.id,
    Field.complexity, Field.date, Field.distance, Field.duration, Field.name, Field.sport)
}

extension WorkoutsStore.State: SyncedList {
  public static var itemsName: StaticString { "workouts" }
  public var syncedItems: [Workout] { workoutsInAddedOrder }

  public static let stateFields: [SyncField<Self>] = [
    SyncField("sortType", \.sortType) { $1 = Self(workouts: $1.workoutsInAddedOrder, sortType: $0) }
  ]

  public static func itemsInPlace(_ old: [Workout], _ new: [Workout])
    -> (count: Int, changed: [Int])
  {
    sameIDsInPlace(old, new)
  }

  public func replacingItems(_ items: [Workout]) -> Self {
    var state = Self(workouts: items, sortType: sortType)
    state.keepMemoryOnlyState(from: self)
    return state
  }
}

extension Workout {
  /// This workout with the fields given changed (a duration or sport given as `.some(nil)`
  /// becomes unknown); the values are this package's own, valid.
  fileprivate func with(
    name: String? = nil, distance: Meters? = nil, date: Date? = nil,
    complexity: Complexity? = nil, duration: WorkoutDuration?? = nil, sport: Sport?? = nil
  ) -> Workout {
    (try? Workout(
      id: id, validating: name ?? self.name, distance: distance ?? storedDistance,
      date: date ?? self.date, complexity: complexity ?? self.complexity,
      duration: duration ?? self.duration, sport: sport ?? self.sport)) ?? self
  }
}
