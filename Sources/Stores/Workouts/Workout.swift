import Foundation

/// Why a workout was refused.
public enum WorkoutError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The name is empty after trimming white space.
  case emptyName
  /// The distance is negative, not a number or infinite.
  case invalidDistance(Double)

  public var description: String {
    switch self {
    case .emptyName: "a workout needs a name"
    case .invalidDistance(let distance):
      "a distance must be a finite number of kilometres, 0 or more, not \(distance)"
    }
  }
}

/// One workout. A `Workout` is always valid: its initialiser refuses an empty name and a
/// distance that is negative, NaN or infinite, and its properties cannot be changed
/// afterwards — make a new workout with the same `id` to update one.
public struct Workout: Identifiable, Hashable, Codable, Sendable {
  /// The workout's identity, kept through updates.
  public let id: UUID
  /// What the workout was, on one line.
  public let name: String
  /// The distance in kilometres: finite, 0 or more.
  public let distance: Double
  /// When the workout took place.
  public let date: Date
  /// How hard it was.
  public let complexity: Complexity

  /// How hard a workout was. Ordered `low < medium < high`; stored in files by name.
  public enum Complexity: Int, CaseIterable, Comparable, Codable, Sendable {
    case low, medium, high

    /// The name used in files and on the command line: "low", "medium" or "high".
    public var name: String {
      switch self {
      case .low: "low"
      case .medium: "medium"
      case .high: "high"
      }
    }

    /// The complexity called `name`, or `nil`.
    public init?(name: String) {
      guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
      self = match
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let name = try container.decode(String.self)
      guard let complexity = Self(name: name) else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription: "expected \"low\", \"medium\" or \"high\", found \(quoted(name))")
      }
      self = complexity
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(name)
    }
  }

  /// A workout. `id` and `date` can be given, so that tests are deterministic. The name is
  /// normalised to one line (line breaks become spaces) and trimmed.
  ///
  /// - Throws: ``WorkoutError/emptyName`` or ``WorkoutError/invalidDistance(_:)``.
  public init(
    id: UUID = UUID(), name: String, distance: Double, date: Date = Date(),
    complexity: Complexity = .medium
  ) throws(WorkoutError) {
    let name = name.normalizedToOneLine
    guard !name.isEmpty else { throw .emptyName }
    guard distance.isFinite, distance >= 0 else { throw .invalidDistance(distance) }
    self.id = id
    self.name = name
    self.distance = distance + 0  // -0.0 becomes 0
    self.date = date
    self.complexity = complexity
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, distance, date, complexity
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let distance = try container.decode(Double.self, forKey: .distance)
    do {
      try self.init(
        id: container.decode(UUID.self, forKey: .id),
        name: container.decode(String.self, forKey: .name),
        distance: distance,
        date: container.decode(Date.self, forKey: .date),
        complexity: container.decode(Complexity.self, forKey: .complexity))
    } catch let error as WorkoutError {
      throw DecodingError.dataCorruptedError(
        forKey: error == .emptyName ? .name : .distance, in: container,
        debugDescription: error.description)
    }
  }
}
