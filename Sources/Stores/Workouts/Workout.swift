import Foundation

/// Why a workout was refused.
public enum WorkoutError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The name is empty after trimming white space.
  case emptyName
  /// The name is not one line without white space around it: a file or `Codable` data holds
  /// names as ``Workout/init(id:name:distance:date:complexity:)`` leaves them.
  case nameNotOneLine
  /// The distance is negative, not a number or infinite.
  case invalidDistance(Double)

  public var description: String {
    switch self {
    case .emptyName: "a workout needs a name"
    case .nameNotOneLine: "a name must be one line without surrounding spaces"
    case .invalidDistance(let distance):
      "a distance must be a finite number of kilometres, 0 or more, not \(distance)"
    }
  }
}

/// One workout. A `Workout` is always valid: its initialiser refuses an empty name and a
/// distance that is negative, NaN or infinite, and its properties cannot be changed
/// afterwards — make a new workout with the same `id` to update one.
///
/// Validation, as for ``Todo``: the initialiser normalises the name to one line, trimmed,
/// and refuses what cannot be valid with a ``WorkoutError``. A file or `Codable` data refuses
/// a name that is empty or not normalised, and an invalid distance, rather than change them
/// — one check, `problem(withName:distance:)`, for the initialiser, `Codable` and the file
/// format.
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
  /// normalised to one line (each line break becomes a space, as in
  /// ``Todo/init(id:title:date:isDone:priority:)``) and trimmed.
  ///
  /// - Throws: ``WorkoutError/emptyName`` or ``WorkoutError/invalidDistance(_:)``.
  public init(
    id: UUID = UUID(), name: String, distance: Double, date: Date = Date(),
    complexity: Complexity = .medium
  ) throws(WorkoutError) {
    try self.init(
      id: id, validating: name.normalizedToOneLine, distance: distance, date: date,
      complexity: complexity)
  }

  /// A workout whose `name` is taken as it is, refused unless valid: a workout read from a
  /// file or a decoder.
  ///
  /// - Throws: ``WorkoutError``.
  init(
    id: UUID, validating name: String, distance: Double, date: Date, complexity: Complexity
  ) throws(WorkoutError) {
    if let problem = Self.problem(withName: name, distance: distance) { throw problem }
    self.id = id
    self.name = name
    self.distance = distance + 0  // -0.0 becomes 0
    self.date = date
    self.complexity = complexity
  }

  /// What is wrong with `name` and `distance` as a workout's, or `nil` when the name is one
  /// line, trimmed, and not empty, and the distance is finite and 0 or more: the one check of
  /// a workout. O(length of the name).
  static func problem(withName name: String, distance: Double) -> WorkoutError? {
    if name.isEmpty || name != name.normalizedToOneLine {
      return name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        ? .emptyName : .nameNotOneLine
    }
    guard distance.isFinite, distance >= 0 else { return .invalidDistance(distance) }
    return nil
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, distance, date, complexity
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: container.decode(UUID.self, forKey: .id),
        validating: container.decode(String.self, forKey: .name),
        distance: container.decode(Double.self, forKey: .distance),
        date: container.decode(Date.self, forKey: .date),
        complexity: container.decode(Complexity.self, forKey: .complexity))
    } catch let error as WorkoutError {
      throw DecodingError.dataCorruptedError(
        forKey: error.field == "name" ? .name : .distance, in: container,
        debugDescription: error.description)
    }
  }
}

extension WorkoutError {
  /// The field the error is about: `"name"` or `"distance"`, as a file names it.
  var field: String {
    switch self {
    case .emptyName, .nameNotOneLine: "name"
    case .invalidDistance: "distance"
    }
  }
}
