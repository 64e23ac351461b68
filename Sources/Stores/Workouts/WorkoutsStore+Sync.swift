import Foundation

extension Workout: ListItem {
  /// A workout's fields besides its id, each declared once (see ``FieldTable``).
  package enum Field {
    package static let complexity = ItemField("complexity", \Workout.complexity) {
      $1 = $1.with(complexity: $0)
    }
    package static let date = ItemField("date", \Workout.date) { $1 = $1.with(date: $0) }
    package static let distance = ItemField("distance", \Workout.distance) {
      $1 = $1.with(distance: $0)
    }
    package static let name = ItemField("name", \Workout.name) { $1 = $1.with(name: $0) }
  }

  package static let fieldTable = FieldTable(
    id: \.id,
    Field.complexity, Field.date, Field.distance, Field.name)
}

extension WorkoutsStore.State: SyncedList {
  package static var itemsName: StaticString { "workouts" }
  package var syncedItems: [Workout] { workoutsInAddedOrder }

  package static let stateFields: [SyncField<Self>] = [
    SyncField("sortType", \.sortType) { $1 = Self(workouts: $1.workoutsInAddedOrder, sortType: $0) }
  ]

  package static func itemsInPlace(_ old: [Workout], _ new: [Workout])
    -> (count: Int, changed: [Int])
  {
    sameIDsInPlace(old, new)
  }

  package func replacingItems(_ items: [Workout]) -> Self {
    var state = Self(workouts: items, sortType: sortType)
    state.keepMemoryOnlyState(from: self)
    return state
  }
}

extension Workout {
  /// This workout with the fields given changed; the values are this package's own, valid.
  fileprivate func with(
    name: String? = nil, distance: Double? = nil, date: Date? = nil,
    complexity: Complexity? = nil
  ) -> Workout {
    (try? Workout(
      id: id, name: name ?? self.name, distance: distance ?? self.distance,
      date: date ?? self.date, complexity: complexity ?? self.complexity)) ?? self
  }
}
