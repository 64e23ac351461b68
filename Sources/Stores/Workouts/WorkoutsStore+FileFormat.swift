extension WorkoutsStore.State {
  /// The workouts file's own keys: `"sortType"` (left out when there is none) and
  /// `"workouts"`, in the order they were added (the list shown is them sorted).
  public static func jsonFields<Coder: JSONFieldCoder<Self> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let sortType = try coder.field("sortType", \.sortType)
    let workouts = try coder.field("workouts", \.workoutsInAddedOrder)
    return try coder.object { Self(workouts: workouts, sortType: sortType) }
  }

  /// Version 0 is a bare list of workouts.
  public static func migrate(
    fromVersion version: Int, reader: inout JSONReader
  ) throws(JSONCodingError) -> Self {
    Self(workouts: try [Workout](from: &reader))
  }
}
