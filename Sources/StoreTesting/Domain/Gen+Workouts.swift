import Foundation
import Stores

extension Gen where Value == Workout {
  /// A valid workout: a Unicode name (never empty), a distance often equal to another's
  /// (0, 5, 10 or a marathon, in kilometres) and otherwise any in 0...100 km, a date, a
  /// complexity, often no duration and otherwise one with or without a moving time, often no
  /// sport and otherwise a known one or one of its own. Its id comes from `id`.
  public static func workout(id: Gen<UUID> = .id()) -> Gen<Workout> {
    let distance = Gen<Double>.frequency([
      (1, .element(of: [0, 5, 10, 42.195])),
      (2, .double(in: 0...100)),
    ])
    return Gen<((UUID, String), Double, Date, Workout.Complexity, (WorkoutDuration?, Sport?))>
      .zip(
        Gen<(UUID, String)>.zip(id, .string(maxCount: 12)), distance, .sometimesEqualDate,
        .element(of: Workout.Complexity.allCases),
        Gen<(WorkoutDuration?, Sport?)>.zip(
          Gen<WorkoutDuration>.workoutDuration.optional, Gen<Sport>.sport.optional)
      ).map { identity, distance, date, complexity, extra in
        let name =
          (try? Workout(id: identity.0, name: identity.1, distance: 0)) != nil ? identity.1 : "a"
        return try! Workout(
          id: identity.0, name: name, distance: distance, date: date, complexity: complexity,
          duration: extra.0, sport: extra.1)
      }
  }
}

extension Gen where Value == WorkoutDuration {
  /// A valid duration: an elapsed time often equal to another's (30 or 45 minutes, 1 hour)
  /// and otherwise any up to a day, with a moving time up to it half of the time.
  public static var workoutDuration: Gen<WorkoutDuration> {
    let elapsed = Gen<Double>.frequency([
      (1, .element(of: [1_800, 2_700, 3_600])),
      (2, .double(in: 1...86_400)),
    ])
    return Gen<(Double, Double?)>.zip(elapsed, Gen<Double>.double(in: 0.01...1).optional).map {
      elapsed, share in
      try! WorkoutDuration(elapsed: elapsed, moving: share.map { max(elapsed * $0, 0.01) })
    }
  }
}

extension Gen where Value == Sport {
  /// A sport: one the diary knows, or one of its own ("Yoga", "Rowing", "Kite surf").
  public static var sport: Gen<Sport> {
    .frequency([
      (3, .element(of: Sport.known)),
      (1, Gen<String>.element(of: ["Yoga", "Rowing", "Kite surf"]).map { Sport($0)! }),
    ])
  }
}

extension Gen where Value == [Workout] {
  /// A list of up to `maxCount` valid workouts with distinct ids, `Gen.testID(0)`, `(1)`, ….
  public static func workouts(maxCount: Int = 10) -> Gen<[Workout]> {
    Gen<Workout>.workout(id: .constant(Gen<UUID>.testID(0))).array(maxCount: maxCount).map {
      workouts in
      workouts.enumerated().map { index, workout in
        try! Workout(
          id: Gen<UUID>.testID(index), name: workout.name, meters: workout.meters,
          date: workout.date, complexity: workout.complexity, duration: workout.duration,
          sport: workout.sport)
      }
    }
  }
}

extension Gen where Value == WorkoutsStore.Action {
  /// Any workouts action, on lists of up to about `maxCount` workouts: offsets and ids are
  /// picked so that some are out of range or unknown.
  public static func workoutAction(maxCount: Int = 12) -> Gen<WorkoutsStore.Action> {
    .oneOf(
      Gen<Workout>.workout(id: .id(among: 2 * maxCount)).map { .addWorkout($0) },
      Gen<Workout>.workout(id: .id(among: 2 * maxCount)).array(maxCount: 4).map {
        .addWorkouts($0)
      },
      Gen<IndexSet>.offsets(in: maxCount, includingOutOfRange: true).map {
        .removeWorkoutsAtOffsets($0)
      },
      Gen<Set<UUID>>.set(of: .id(among: maxCount + 4), maxCount: 4).map {
        .removeWorkouts(ids: $0)
      },
      Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional.map {
        .sort(by: $0)
      },
      Gen<Workout>.workout(id: .id(among: maxCount + 4)).map { .updateWorkout($0) }
    )
  }
}
