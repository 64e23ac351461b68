import Foundation

/// Workouts that stood together in the order they were added, and where: for putting them
/// back.
public typealias WorkoutRun = ListRun<Workout>

extension WorkoutsStore.State {
  /// The workout with `id`, if any. O(*n*).
  func workout(withID id: UUID) -> Workout? {
    guard ids.contains(id) else { return nil }
    return workouts.first { $0.id == id }
  }

  /// The positions, in the order added, of the workouts that discarding `discarded` removes:
  /// those still exactly as given. O(*n* + *k*).
  func discardedPositions(_ discarded: [Workout]) -> Set<Int> {
    guard !discarded.isEmpty else { return [] }
    var wanted: [Workout: Int] = [:]
    for workout in discarded { wanted[workout, default: 0] += 1 }
    var positions: Set<Int> = []
    let added = workoutsInAddedOrder
    for index in added.indices.reversed() {
      guard let count = wanted[added[index]], count > 0 else { continue }
      wanted[added[index]] = count - 1
      positions.insert(index)
    }
    return positions
  }

  /// See ``WorkoutsStore/Action/discardWorkouts(_:)``. O(*n* + *k*).
  mutating func discard(_ discarded: [Workout]) -> Bool {
    let positions = discardedPositions(discarded)
    guard !positions.isEmpty else { return false }
    let added = workoutsInAddedOrder
    let kept = added.indices.filter { !positions.contains($0) }.map { added[$0] }
    for position in positions { ids.remove(added[position].id) }
    guard sortType != nil else {
      storedWorkouts = kept
      return true
    }
    // The same workouts leave the sorted list.
    var wanted: [Workout: Int] = [:]
    for position in positions { wanted[added[position], default: 0] += 1 }
    var shown: [Workout] = []
    shown.reserveCapacity(kept.count)
    for workout in workouts.reversed() {
      if let count = wanted[workout], count > 0 {
        wanted[workout] = count - 1
      } else {
        shown.append(workout)
      }
    }
    addedOrder = kept
    storedWorkouts = shown.reversed()
    return true
  }

  /// See ``WorkoutsStore/Action/restoreWorkouts(_:)``. O(*n* + *k*), plus O(*n* log *n*) to
  /// sort while sorted.
  mutating func restore(_ runs: [WorkoutRun]) -> Bool {
    var added = workoutsInAddedOrder
    var taken = ids
    guard WorkoutRun.restore(runs, in: &added, where: { taken.insert($0.id).inserted }) else {
      return false
    }
    ids = taken
    guard let sortType else {
      storedWorkouts = added
      return true
    }
    addedOrder = added
    storedWorkouts = WorkoutsStore.sorted(added, by: sortType)
    return true
  }
}

extension WorkoutsStore {
  /// The action that reverses `action` on `state`, by identity: an addition's (an import's)
  /// removes the workouts it added if they are still as added, a removal's puts them back
  /// next to the neighbours they had in the order added, an update's changes back the fields
  /// it changed, a sort's restores the previous sort. `nil` for the actions that change only
  /// the import's progress, kept in memory.
  ///
  /// - Complexity: O(1) for an addition; O(*n* + *k*) for the others.
  public nonisolated static func inverse(of action: Action, in state: State) -> Action? {
    switch action {
    case .addWorkout(let workout):
      return .discardWorkout(workout)
    case .addWorkouts(let workouts):
      var taken = state.ids
      return .discardWorkouts(workouts.filter { taken.insert($0.id).inserted })
    case .updateWorkout(let workout):
      guard let old = state.workout(withID: workout.id), old != workout else { return nil }
      return .editWorkout(WorkoutEdit(from: workout, to: old))
    case .removeWorkouts(let ids):
      return .restoreWorkouts(
        WorkoutRun.runs(in: state.workoutsInAddedOrder) { ids.contains($1.id) })
    case .removeWorkoutsAtOffsets:
      return inverse(of: resolve(action, in: state), in: state)
    case .sort(let sortType):
      return .restoreSort(state.sortType, replacing: sortType)
    case .finishImport(let imported):
      return .discardWorkouts(state.newWorkouts(of: imported).new)
    case .importWorkouts, .cancelImport, .importProgress, .failImport:
      return nil
    case .restoreWorkouts(let runs):
      var taken = state.ids
      return .discardWorkouts(WorkoutRun.elements(of: runs).filter { taken.insert($0.id).inserted })
    case .discardWorkout(let workout):
      return inverse(of: .discardWorkouts([workout]), in: state)
    case .discardWorkouts(let workouts):
      let positions = state.discardedPositions(workouts)
      return .restoreWorkouts(
        WorkoutRun.runs(in: state.workoutsInAddedOrder) { index, _ in positions.contains(index) })
    case .editWorkout(let edit):
      guard let current = state.workout(withID: edit.to.id) else { return nil }
      return .editWorkout(WorkoutEdit(from: edit.applied(to: current), to: current))
    case .restoreSort(let sortType, let replacing):
      return .restoreSort(replacing, replacing: sortType)
    }
  }

  /// What an undo action could not put back in `state`, one description per workout or
  /// sort: a workout removed or changed meanwhile, or a sort changed meanwhile.
  ///
  /// - Complexity: O(*n* + *k*).
  public nonisolated static func skippedParts(of action: Action, in state: State) -> [String] {
    switch action {
    case .restoreWorkouts(let runs):
      return WorkoutRun.elements(of: runs).filter { state.ids.contains($0.id) }.map {
        "\(quoted($0.name)) (already in the diary)"
      }
    case .discardWorkouts(let workouts):
      let positions = state.discardedPositions(workouts)
      let removed = positions.map { state.workoutsInAddedOrder[$0] }
      var left: [Workout: Int] = [:]
      for workout in removed { left[workout, default: 0] += 1 }
      return workouts.compactMap { workout in
        if let count = left[workout], count > 0 {
          left[workout] = count - 1
          return nil
        }
        return "\(quoted(workout.name)) "
          + (state.ids.contains(workout.id) ? "(changed meanwhile)" : "(removed meanwhile)")
      }
    case .discardWorkout(let workout):
      return skippedParts(of: .discardWorkouts([workout]), in: state)
    case .editWorkout(let edit):
      guard let current = state.workout(withID: edit.to.id) else {
        return ["\(quoted(edit.from.name)) (removed meanwhile)"]
      }
      let fields = edit.conflicts(with: current)
      return fields.isEmpty
        ? [] : ["\(quoted(current.name)) (its \(fields.joined(separator: ", ")) changed meanwhile)"]
    case .restoreSort(let sortType, let replacing):
      return state.sortType == replacing || state.sortType == sortType
        ? [] : ["the sort (changed meanwhile)"]
    default:
      return []
    }
  }

  /// The action's name for an Undo menu: "Add Workout", "Remove Workouts", "Sort", ….
  public nonisolated static func actionName(of action: Action) -> String {
    switch action {
    case .addWorkout: "Add Workout"
    case .addWorkouts, .restoreWorkouts: "Add Workouts"
    case .updateWorkout, .editWorkout: "Edit Workout"
    case .removeWorkouts(let ids): ids.count == 1 ? "Remove Workout" : "Remove Workouts"
    case .removeWorkoutsAtOffsets(let offsets):
      offsets.count == 1 ? "Remove Workout" : "Remove Workouts"
    case .discardWorkout: "Remove Workout"
    case .discardWorkouts(let workouts):
      workouts.count == 1 ? "Remove Workout" : "Remove Workouts"
    case .sort, .restoreSort: "Sort"
    case .importWorkouts, .finishImport, .cancelImport, .importProgress, .failImport: "Import"
    }
  }
}
