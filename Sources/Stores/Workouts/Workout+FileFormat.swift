import Foundation

extension Workout: JSONObjectCodable {
  /// A workout in a file:
  /// `{ "complexity" : "high", "date" : "2026-11-22T08:00:00Z", "distance" : 21.1,
  /// "duration" : { "elapsed" : 6120, "moving" : 6050 }, "id" : "0B5E…",
  /// "name" : "Half marathon", "sport" : "run" }` — the distance in kilometres (`Meters`),
  /// times in seconds; `"duration"` and `"sport"` are left out when not known (files of
  /// format 2 and older have neither). A name that is empty or not one line, trimmed, and a
  /// distance that is negative are refused (`Workout.problem(withName:meters:)`).
  public static func jsonFields<Coder: JSONFieldCoder<Workout> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let complexity = try coder.field(Field.complexity)
    let date = try coder.field(Field.date)
    let distance = try coder.field(Field.distance)
    let duration = try coder.field(Field.duration)
    let id = try coder.field("id", \.id)
    let name = try coder.field(Field.name)
    let sport = try coder.field(Field.sport)
    return try coder.object { () throws(JSONCodingError) in
      do throws(WorkoutError) {
        return try Workout(
          id: id, validating: name, distance: distance, date: date, complexity: complexity,
          duration: duration, sport: sport)
      } catch {
        throw JSONCodingError(key: error.field, error.description)
      }
    }
  }
}

/// Stored by name: `"low"`, `"medium"` or `"high"`.
extension Workout.Complexity: JSONNamedCases {
  public var jsonName: String { name }
}

/// Stored by name: `"distance"`, `"complexity"`, ….
extension WorkoutsStore.SortType: JSONNamedCases {}
