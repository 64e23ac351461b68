import Foundation

extension WorkoutsStore.State: SyncedList {
  package static var itemsName: StaticString { "workouts" }
  package var syncedItems: [Workout] { workoutsInAddedOrder }

  package static let itemFields: [SyncField<Workout>] = [
    SyncField("complexity", \.complexity) { $1 = $1.with(complexity: $0) },
    SyncField("date", \.date) { $1 = $1.with(date: $0) },
    SyncField("distance", \.distance) { $1 = $1.with(distance: $0) },
    SyncField("name", \.name) { $1 = $1.with(name: $0) },
  ]

  package static let stateFields: [SyncField<Self>] = [
    SyncField("sortType", \.sortType) { $1 = Self(workouts: $1.workoutsInAddedOrder, sortType: $0) }
  ]

  package static func itemsInPlace(_ old: [Workout], _ new: [Workout])
    -> (count: Int, changed: [Int])
  {
    sameIDsInPlace(old, new)
  }

  package static func hasSameBits(_ a: UnsafePointer<Workout>, _ b: UnsafePointer<Workout>)
    -> Bool
  {
    Stores.hasSameBits(a, b, at: \.id) && Stores.hasSameBits(a, b, at: \.name)
      && Stores.hasSameBits(a, b, at: \.distance) && Stores.hasSameBits(a, b, at: \.date)
      && Stores.hasSameBits(a, b, at: \.complexity)
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
