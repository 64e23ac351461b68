extension WorkoutsStore.State {
  /// Format 2 added each workout's `"duration"` and `"sport"` (files of version 3, with
  /// stamps); format 1 files (versions 1 and 2) are read by the same fields, without them.
  public static var fileVersion: Int { 2 }
  public static var fieldsReadSince: Int { 1 }

  /// The workouts file's own keys: `"sortType"` (left out when there is none) and
  /// `"workouts"`, in the order they were added (the list shown is them sorted), no two with
  /// one id.
  public static func jsonFields<Coder: JSONFieldCoder<Self> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let sortType = try coder.field("sortType", \.sortType)
    let workouts = try coder.field("workouts", \.workoutsInAddedOrder)
    return try coder.object { () throws(JSONCodingError) in
      let state = Self(workouts: workouts, sortType: sortType)
      guard state.ids.count == workouts.count else {
        throw JSONCodingError(key: "workouts", duplicateIDs)
      }
      return state
    }
  }

  /// Version 0 is a bare list of workouts.
  public static func migrate(
    fromVersion version: Int, reader: inout JSONReader
  ) throws(JSONCodingError) -> Self {
    let workouts = try [Workout](from: &reader)
    let state = Self(workouts: workouts)
    guard state.ids.count == workouts.count else { throw JSONCodingError(duplicateIDs) }
    return state
  }
}
