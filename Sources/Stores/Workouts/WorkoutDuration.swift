import Foundation

/// How long a workout took: its elapsed time, from start to finish, and — where the source
/// measured it — its moving time, without the pauses. Always valid: both are finite and more
/// than 0, and moving time is not more than elapsed time.
public struct WorkoutDuration: Hashable, Sendable, Codable {
  /// The time from start to finish, in seconds: finite, more than 0.
  public let elapsed: TimeInterval
  /// The time spent moving, in seconds — more than 0, at most ``elapsed`` — or `nil` when
  /// the source did not measure it.
  public let moving: TimeInterval?

  /// The longest time a workout can take, in seconds: 100 days. No workout is longer, and
  /// totals stay exact to the second.
  public static let limit: TimeInterval = 100 * 24 * 3_600

  /// A duration of `elapsed` seconds, `moving` of them moving.
  ///
  /// - Throws: ``WorkoutError/invalidDuration(elapsed:moving:)`` when a time is not more than
  ///   0, more than ``limit`` or not finite, or when `moving` is more than `elapsed`.
  public init(elapsed: TimeInterval, moving: TimeInterval? = nil) throws(WorkoutError) {
    guard Self.isValid(elapsed), moving.map(Self.isValid) ?? true, moving ?? 0 <= elapsed else {
      throw .invalidDuration(elapsed: elapsed, moving: moving)
    }
    self.elapsed = elapsed
    self.moving = moving
  }

  private static func isValid(_ time: TimeInterval) -> Bool {
    time.isFinite && time > 0 && time <= limit
  }

  private enum CodingKeys: String, CodingKey {
    case elapsed, moving
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        elapsed: container.decode(TimeInterval.self, forKey: .elapsed),
        moving: container.decodeIfPresent(TimeInterval.self, forKey: .moving))
    } catch let error as WorkoutError {
      throw DecodingError.dataCorruptedError(
        forKey: .elapsed, in: container, debugDescription: error.description)
    }
  }
}

extension WorkoutDuration: JSONObjectCodable {
  /// A duration in a file: `{ "elapsed" : 2712, "moving" : 2640 }`, in seconds; `"moving"`
  /// left out when it is not known.
  public static func jsonFields<Coder: JSONFieldCoder<WorkoutDuration> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let elapsed = try coder.field("elapsed", \.elapsed)
    let moving = try coder.field("moving", \.moving)
    return try coder.object { () throws(JSONCodingError) in
      do throws(WorkoutError) {
        return try WorkoutDuration(elapsed: elapsed, moving: moving)
      } catch {
        throw JSONCodingError(error.description)
      }
    }
  }
}
