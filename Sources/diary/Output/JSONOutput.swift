import Foundation
import Stores

/// The `--json` output: pretty-printed with sorted keys, dates as in the data files.
enum JSONOutput {
  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601Timestamp.string(from: date) ?? "\(date)")
    }
    // Everything printed is made of strings, numbers and dates, which always encode.
    return String(decoding: try! encoder.encode(value), as: UTF8.self)
  }
}

/// A todo with the number `diary todos list` shows.
struct NumberedTodo: Encodable {
  var number: Int
  var todo: Todo

  private enum CodingKeys: String, CodingKey {
    case number, id, title, date, isDone, priority
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(number, forKey: .number)
    try container.encode(todo.id, forKey: .id)
    try container.encode(todo.title, forKey: .title)
    try container.encode(todo.date, forKey: .date)
    try container.encode(todo.isDone, forKey: .isDone)
    try container.encode(todo.priority, forKey: .priority)
  }
}

/// A workout with the number `diary workouts list` shows; its distance in kilometres.
struct NumberedWorkout: Encodable {
  var number: Int
  var workout: Workout

  private enum CodingKeys: String, CodingKey {
    case number, id, name, distance, date, complexity
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(number, forKey: .number)
    try container.encode(workout.id, forKey: .id)
    try container.encode(workout.name, forKey: .name)
    try container.encode(workout.distance, forKey: .distance)
    try container.encode(workout.date, forKey: .date)
    try container.encode(workout.complexity, forKey: .complexity)
  }
}
