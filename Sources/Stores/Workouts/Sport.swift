import Foundation

/// What kind of workout it was: one of the sports the diary knows — ``run``, ``ride``,
/// ``swim``, ``walk``, ``hike``, ``strength``, ``other`` — or a sport of its own, by the name
/// its source gave it ("Yoga", "Rowing"). An open set, stored as its name.
///
/// ``init(_:)`` knows the names Strava, Garmin Connect and GPX files give the known sports
/// ("Running", "Trail Run", "Pool Swim", "Weight Training", Garmin's German "Laufen" and
/// French "Course à pied", Strava's German "Radfahrt" and French "Vélo", …; see
/// ``spellings``), in any case; any other name is kept as it was given, on one line and
/// trimmed.
public struct Sport: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The sport's name: `"run"`, `"ride"`, … for a known sport, else the source's own.
  public let name: String

  private init(named name: String) {
    self.name = name
  }

  /// Running, on roads, trails, a track or a treadmill.
  public static let run = Sport(named: "run")
  /// Cycling of every kind (road, gravel, mountain, indoor).
  public static let ride = Sport(named: "ride")
  /// Swimming, in a pool or open water.
  public static let swim = Sport(named: "swim")
  /// Walking.
  public static let walk = Sport(named: "walk")
  /// Hiking.
  public static let hike = Sport(named: "hike")
  /// Strength and weight training.
  public static let strength = Sport(named: "strength")
  /// A workout of no particular sport ("Workout", "Other").
  public static let other = Sport(named: "other")

  /// The sports the diary knows, in this order.
  public static let known: [Sport] = [.run, .ride, .swim, .walk, .hike, .strength, .other]

  /// Whether the sport is one of ``known``.
  public var isKnown: Bool { Self.known.contains(self) }

  /// The names that mean each known sport, lowercased, the sport's own name first: what
  /// people type and what Strava (`Activity Type`; from accounts in German, `Lauf`,
  /// `Radfahrt`, `Spaziergang`, `Gewichtstraining`, in French, `Course à pied`, `Vélo`,
  /// `Natation`, `Marche`, `Randonnée`, `Musculation`), Garmin Connect (in English, German and
  /// French: `Laufen`, `Schwimmbadschwimmen`, `Course à pied`) and GPX `<type>` write.
  public static let spellings: [Sport: [String]] = [
    .run: [
      "run", "running", "trail run", "trail running", "treadmill running", "virtual run",
      "track running", "indoor running", "street running", "laufen", "laufband", "trailrunning",
      "course à pied", "course à pied sur tapis roulant", "trail", "lauf",
      "course sur sentier", "course à pied virtuelle",
    ],
    .ride: [
      "ride", "cycling", "biking", "road cycling", "road biking", "virtual ride",
      "indoor cycling", "mountain bike ride", "mountain biking", "gravel ride",
      "gravel cycling", "radfahren", "rennradfahren", "mountainbiken", "indoor radfahren",
      "cyclisme", "cyclisme sur route", "vtt", "cyclisme en salle", "radfahrt",
      "virtuelle radfahrt", "e bike radfahrt", "mountainbike fahrt", "schotterfahrt", "vélo",
      "vélo virtuel",
    ],
    .swim: [
      "swim", "swimming", "pool swim", "pool swimming", "lap swimming", "open water swim",
      "open water swimming", "schwimmen", "schwimmbadschwimmen", "freiwasserschwimmen",
      "natation", "natation en piscine", "natation en eau libre",
    ],
    .walk: [
      "walk", "walking", "casual walking", "speed walking", "gehen", "marche", "spaziergang",
    ],
    .hike: ["hike", "hiking", "wandern", "randonnée"],
    .strength: [
      "strength", "strength training", "weight training", "weightlifting", "krafttraining",
      "musculation", "gewichtstraining",
    ],
    .other: ["other", "workout", "training"],
  ]

  /// The known sport each spelling names: the inverse of ``spellings``.
  private static let bySpelling: [String: Sport] = Dictionary(
    uniqueKeysWithValues: spellings.flatMap { sport, names in names.map { ($0, sport) } })

  /// The sport called `name`: a known sport when `name` is one of its ``spellings`` (in any
  /// case, `_` and `-` read as spaces: `TRAIL_RUNNING`), else a sport of its own with `name`
  /// on one line and trimmed; `nil` when that leaves nothing. O(length of `name`).
  public init?(_ name: String) {
    let oneLine = name.normalizedToOneLine
    guard !oneLine.isEmpty else { return nil }
    let key = oneLine.lowercased()
      .split { $0 == "_" || $0 == "-" || $0.isWhitespace }.joined(separator: " ")
    self = Self.bySpelling[key] ?? Sport(named: oneLine)
  }

  public var description: String { name }

  /// Reads the sport's name, as ``init(_:)`` does; an empty name is refused.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let sport = Sport(name) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected a sport such as \"run\", found \(quoted(name))")
    }
    self = sport
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}

extension Sport: JSONCodable {
  /// Reads the sport's name, as ``init(_:)`` does; an empty name is refused.
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    let name = try reader.readString()
    guard let sport = Sport(name) else {
      throw JSONCodingError("expected a sport such as \"run\", found \(quoted(name))")
    }
    self = sport
  }

  public func write(to writer: inout JSONWriter) {
    writer.writeString(name)
  }
}
