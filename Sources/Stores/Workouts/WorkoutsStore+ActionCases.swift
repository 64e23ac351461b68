import Foundation

/// The cases of ``WorkoutsStore/Action`` as properties, one per case, named as the case: the case's
/// payload for an action of that case, `nil` for any other (`()` for a case without payload;
/// a tuple for a case with several values). So `action.finishImport` reads the payload without
/// a `switch`, and `\.finishImport` is a case path: `StoreTester.receive(\.finishImport)` receives
/// an action of that case, whatever its payload. O(1) each (a payload is copied, not
/// computed).
extension WorkoutsStore.Action {
  /// The payload of ``addWorkout(_:)``; `nil` for any other action.
  public var addWorkout: Workout? {
    guard case .addWorkout(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``addWorkouts(_:)``; `nil` for any other action.
  public var addWorkouts: [Workout]? {
    guard case .addWorkouts(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``updateWorkout(_:)``; `nil` for any other action.
  public var updateWorkout: Workout? {
    guard case .updateWorkout(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``removeWorkouts(ids:)``; `nil` for any other action.
  public var removeWorkouts: Set<UUID>? {
    guard case .removeWorkouts(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``removeWorkoutsAtOffsets(_:)``; `nil` for any other action.
  public var removeWorkoutsAtOffsets: IndexSet? {
    guard case .removeWorkoutsAtOffsets(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``sort(by:)``; `nil` for any other action.
  public var sort: WorkoutsStore.SortType?? {
    guard case .sort(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``importWorkouts(from:options:)``; `nil` for any other action.
  public var importWorkouts: (from: URL, options: WorkoutsImportOptions)? {
    guard case .importWorkouts(let from, let options) = self else { return nil }
    return (from: from, options: options)
  }

  /// The payload of ``finishImport(_:)``; `nil` for any other action.
  public var finishImport: WorkoutsImport? {
    guard case .finishImport(let payload) = self else { return nil }
    return payload
  }

  /// `()` for ``cancelImport-swift.enum.case``; `nil` for any other action.
  public var cancelImport: Void? {
    guard case .cancelImport = self else { return nil }
    return ()
  }

  /// The payload of ``importProgress(_:)``; `nil` for any other action.
  public var importProgress: WorkoutsImportProgress? {
    guard case .importProgress(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``failImport(_:)``; `nil` for any other action.
  public var failImport: WorkoutsImportError? {
    guard case .failImport(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``restoreWorkouts(_:)``; `nil` for any other action.
  public var restoreWorkouts: [WorkoutRun]? {
    guard case .restoreWorkouts(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``discardWorkouts(_:)``; `nil` for any other action.
  public var discardWorkouts: [Workout]? {
    guard case .discardWorkouts(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``discardWorkout(_:)``; `nil` for any other action.
  public var discardWorkout: Workout? {
    guard case .discardWorkout(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``editWorkout(_:)``; `nil` for any other action.
  public var editWorkout: WorkoutEdit? {
    guard case .editWorkout(let payload) = self else { return nil }
    return payload
  }

  /// The payload of ``restoreSort(_:replacing:)``; `nil` for any other action.
  public var restoreSort: (sort: WorkoutsStore.SortType?, replacing: WorkoutsStore.SortType?)? {
    guard case .restoreSort(let sort, let replacing) = self else { return nil }
    return (sort: sort, replacing: replacing)
  }
}
