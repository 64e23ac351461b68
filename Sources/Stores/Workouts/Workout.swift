import Foundation

/// Why a workout was refused.
public enum WorkoutError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The name is empty after trimming white space.
  case emptyName
  /// The name is not one line without white space around it: a file or `Codable` data holds
  /// names as ``Workout/init(id:name:meters:date:complexity:duration:sport:)`` leaves them.
  case nameNotOneLine
  /// The distance is negative, not a number or infinite.
  case invalidDistance(Double)
  /// A time, in seconds, is not more than 0, is more than ``WorkoutDuration/limit`` or is
  /// not finite, or the moving time is more than the elapsed time.
  case invalidDuration(elapsed: Double, moving: Double?)

  public var description: String {
    switch self {
    case .emptyName: "a workout needs a name"
    case .nameNotOneLine: "a name must be one line without surrounding spaces"
    case .invalidDistance(let distance):
      distance == .infinity
        ? "a distance must be at most 1.7e308 m (1.7e305 km): this one is too large to hold"
        : "a distance must be a finite number, 0 or more, not \(distance)"
    case .invalidDuration(let elapsed, let moving):
      if let moving, moving > elapsed, elapsed > 0, elapsed.isFinite {
        "the moving time (\(Self.shown(moving))) cannot be more than the elapsed time "
          + "(\(Self.shown(elapsed))): moving time leaves the pauses out"
      } else {
        "a time must be more than 0 and at most 100 days, not "
          + Self.shown(elapsed > 0 && elapsed <= WorkoutDuration.limit ? moving ?? 0 : elapsed)
      }
    }
  }

  /// `seconds` as a clock (`1:02:03`), or as the number it is when that is not a time.
  private static func shown(_ seconds: Double) -> String {
    seconds.isFinite && seconds >= 0 && seconds <= WorkoutDuration.limit
      ? DurationText.format(seconds) : "\(seconds) seconds"
  }
}

/// One workout. A `Workout` is always valid: its initialiser refuses an empty name and a
/// distance that is negative, NaN or infinite, and its properties cannot be changed
/// afterwards — make a new workout with the same `id` to update one.
///
/// Validation, as for ``Todo``: the initialiser normalises the name to one line, trimmed,
/// and refuses what cannot be valid with a ``WorkoutError``. A file or `Codable` data refuses
/// a name that is empty or not normalised, and an invalid distance, rather than change them
/// — one check, `problem(withName:meters:)`, for the initialiser, `Codable` and the file
/// format. A ``WorkoutDuration`` and a ``Sport`` are valid by construction.
///
/// The distance is kept in metres (``meters``), exactly as given or imported — 1,500 m is
/// 1500, 1.5 km is 1500, 1,650 yd is 1508.76 — and files hold it in kilometres with the
/// decimal point moved, so that what is read back is exactly what was written.
public struct Workout: Identifiable, Hashable, Codable, Sendable {
  /// The workout's identity, kept through updates.
  public let id: UUID
  /// What the workout was, on one line.
  public let name: String
  /// The distance, as files hold it.
  package let storedDistance: Meters
  /// When the workout took place.
  public let date: Date
  /// How hard it was.
  public let complexity: Complexity
  /// How long it took, or `nil` when that is not known.
  public let duration: WorkoutDuration?
  /// What kind of workout it was, or `nil` when that is not known.
  public let sport: Sport?

  /// The distance in metres: finite, 0 or more.
  public var meters: Double { storedDistance.value }
  /// The distance in kilometres (``meters`` / 1000): finite, 0 or more.
  public var distance: Double { storedDistance.value / 1000 }

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

  /// A workout `distance` kilometres long: the kilometres taken as the decimal their
  /// shortest spelling is (`1.005` km is 1,005 m exactly). `id` and `date` can be given, so
  /// that tests are deterministic. The name is normalised to one line (each line break
  /// becomes a space, as in ``Todo/init(id:title:date:isDone:priority:)``) and trimmed.
  ///
  /// - Throws: ``WorkoutError/emptyName`` or ``WorkoutError/invalidDistance(_:)``.
  public init(
    id: UUID = UUID(), name: String, distance: Double, date: Date = Date(),
    complexity: Complexity = .medium, duration: WorkoutDuration? = nil, sport: Sport? = nil
  ) throws(WorkoutError) {
    guard distance.isFinite, distance >= 0 else { throw .invalidDistance(distance) }
    try self.init(
      id: id, validating: name.normalizedToOneLine, distance: Meters(kilometers: distance),
      date: date, complexity: complexity, duration: duration, sport: sport)
  }

  /// A workout `meters` long. The name is normalised as
  /// ``init(id:name:distance:date:complexity:duration:sport:)`` does.
  ///
  /// - Throws: ``WorkoutError/emptyName`` or ``WorkoutError/invalidDistance(_:)``.
  public init(
    id: UUID = UUID(), name: String, meters: Double, date: Date = Date(),
    complexity: Complexity = .medium, duration: WorkoutDuration? = nil, sport: Sport? = nil
  ) throws(WorkoutError) {
    try self.init(
      id: id, validating: name.normalizedToOneLine, distance: Meters(meters), date: date,
      complexity: complexity, duration: duration, sport: sport)
  }

  /// A workout whose `name` is taken as it is, refused unless valid: a workout read from a
  /// file or a decoder.
  ///
  /// - Throws: ``WorkoutError``.
  init(
    id: UUID, validating name: String, distance: Meters, date: Date, complexity: Complexity,
    duration: WorkoutDuration?, sport: Sport?
  ) throws(WorkoutError) {
    if let problem = Self.problem(withName: name, meters: distance.value) { throw problem }
    self.id = id
    self.name = name
    self.storedDistance = distance
    self.date = date
    self.complexity = complexity
    self.duration = duration
    self.sport = sport
  }

  /// What is wrong with `name` and `meters` as a workout's, or `nil` when the name is one
  /// line, trimmed, and not empty, and the distance is finite and 0 or more: the one check of
  /// a workout. O(length of the name).
  static func problem(withName name: String, meters: Double) -> WorkoutError? {
    if name.isEmpty || name != name.normalizedToOneLine {
      return name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        ? .emptyName : .nameNotOneLine
    }
    guard meters.isFinite, meters >= 0 else { return .invalidDistance(meters) }
    return nil
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, distance, date, complexity, duration, sport
  }

  /// Reads a workout as `JSONEncoder` writes it: its distance in kilometres (`"distance"`),
  /// taken as the decimal it is written as; `"duration"` and `"sport"` may be left out.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      // Read as a `Decimal`, which keeps every digit of the text, so that the metres are
      // exactly those written — unless the number is beyond what a `Decimal` holds (38
      // digits, exponents to ±128): then as the `Double` it is. An encoder that writes a
      // `Decimal` as `Decimal`'s own keyed form (not a number: a property list) is read too.
      let exact = try? container.decode(Decimal.self, forKey: .distance)
      let kilometers =
        try (try? container.decode(Double.self, forKey: .distance))
        ?? exact.flatMap { Double($0.description) }
        ?? container.decode(Double.self, forKey: .distance)
      guard kilometers >= 0, kilometers.isFinite else {
        throw WorkoutError.invalidDistance(kilometers)
      }
      let meters: Double
      if let exact, Double(exact.description) == kilometers,
        let decimal = ScaledDecimal(Array(exact.description.utf8))
      {
        meters = decimal.scaled(by: 3).double
      } else {
        meters = kilometers * 1000
      }
      try self.init(
        id: container.decode(UUID.self, forKey: .id),
        validating: container.decode(String.self, forKey: .name),
        distance: Meters(meters),
        date: container.decode(Date.self, forKey: .date),
        complexity: container.decode(Complexity.self, forKey: .complexity),
        duration: container.decodeIfPresent(WorkoutDuration.self, forKey: .duration),
        sport: container.decodeIfPresent(Sport.self, forKey: .sport))
    } catch let error as WorkoutError {
      throw DecodingError.dataCorruptedError(
        forKey: error.field == "name" ? .name : .distance, in: container,
        debugDescription: error.description)
    }
  }

  /// Writes the workout with its distance in kilometres (`"distance"`), spelled as its file
  /// spells it: the metres' digits with the point moved; `"duration"` and `"sport"` left out
  /// when `nil`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    // A `Decimal` of the kilometres' exact digits: `JSONEncoder` writes them as they are.
    // Beyond what a `Decimal` holds, the kilometres as a `Double`.
    let text = storedDistance.kilometersText
    if let exact = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
      Double(exact.description) == Double(text)
    {
      try container.encode(exact, forKey: .distance)
    } else {
      try container.encode(storedDistance.value / 1000, forKey: .distance)
    }
    try container.encode(date, forKey: .date)
    try container.encode(complexity, forKey: .complexity)
    try container.encodeIfPresent(duration, forKey: .duration)
    try container.encodeIfPresent(sport, forKey: .sport)
  }
}

extension WorkoutError {
  /// The field the error is about: `"name"`, `"distance"` or `"duration"`, as a file
  /// names it.
  var field: String {
    switch self {
    case .emptyName, .nameNotOneLine: "name"
    case .invalidDistance: "distance"
    case .invalidDuration: "duration"
    }
  }
}
