import Foundation
import Testing

@testable import Stores

/// A setting whose value is an enumeration with associated values, `Codable` as Swift
/// synthesizes it: `{"auto": {}}`, `{"fixed": {"_0": 5}}`.
enum Refresh: Codable, Sendable, Equatable {
  case auto
  case fixed(Int)
  case every(minutes: Int, quiet: Bool)
}

/// Problems found by attacking the changes of December 3 (times read with a decimal mark,
/// the shapes of the key catalog). Each test fails on the code it was written against.
@Suite("Attack on the changes of December 3")
struct Dec3AttackTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 816_000_000)

  func read(_ text: String, _ options: WorkoutsImportOptions? = nil) throws -> [Workout] {
    try WorkoutsCSV.read(
      Data(text.utf8), path: "a.csv", options: options ?? WorkoutsImportOptions(timeZone: utc),
      now: now, makeID: UUID.init
    ).rows.map(\.workout)
  }

  /// A file separated by semicolons whose distances write a decimal point (`5.2`): its
  /// `4,742` groups thousands, on every line — not 4.742 seconds on a line read before the
  /// file showed its decimal mark, 1000 times too short, and 4742 on the lines after.
  @Test("a time of 4,742 is read as the file's decimal mark says, wherever the mark shows")
  func timeReadAsTheWholeFileSays() throws {
    let workouts = try read("name;distance;time\nA;5;4,742\nB;5.2;4,742\nC;5;4,742\n")
    #expect(workouts.map(\.duration?.elapsed) == [4_742, 4_742, 4_742])
  }

  /// The same file with a decimal comma shown (`5,25`): 4.742 seconds on every line.
  @Test("a time of 4,742 in a file showing a decimal comma is 4.742 s on every line")
  func timeDecimalComma() throws {
    let workouts = try read("name;distance;time\nA;5;4,742\nB;5,25;4,742\n")
    #expect(workouts.map(\.duration?.elapsed) == [4.742, 4.742])
  }

  /// A file showing both marks cannot tell what `4,742` is: it is refused with its place,
  /// not read one way on a line and the other way on the next.
  @Test("a time of 4,742 in a file showing both decimal marks is refused, with its place")
  func timeBothMarksRefused() {
    #expect {
      try read("name;distance;time\nA;5;4,742\nB;5,25;60\nC;5.2;60\n")
    } throws: { error in
      "\(error)".contains("line 2, column 5") && "\(error)".contains("--decimal")
    }
  }

  /// A moving time read two ways is checked against the elapsed time as finally read.
  @Test("an elapsed and a moving time read at the end of the file keep moving <= elapsed")
  func movingTimeReadAtTheEnd() throws {
    let workouts = try read(
      "name;distance;time;movingTime\nA;5;4,742;4,000\nB;5.2;60;60\n")
    #expect(workouts.first?.duration == (try WorkoutDuration(elapsed: 4_742, moving: 4_000)))
  }

  /// Skipping rows that are not valid: an ambiguous time left unread is skipped, the others
  /// imported.
  @Test("with --skip-invalid, a time that cannot be told is skipped with its place")
  func timeSkipped() throws {
    var options = WorkoutsImportOptions(timeZone: utc)
    options.skipsInvalidRows = true
    let imported = try WorkoutsCSV.read(
      Data("name;distance;time\nA;5;4,742\nB;5,25;60\nC;5.2;60\n".utf8), path: "a.csv",
      options: options, now: now, makeID: UUID.init)
    #expect(imported.rows.map(\.workout.name) == ["B", "C"])
    #expect(imported.skipped.map(\.line) == [2])
  }

  /// Swift's synthesized `Codable` of an enumeration with associated values writes the case
  /// as the object's only key: the default's case is not a field every value has. The shape
  /// must not refuse the other cases, which the app reads.
  @Test("an enumeration with associated values: every case the app reads fits the shape")
  func enumerationWithAssociatedValues() throws {
    let shape = try #require(SettingShape.recording(Refresh.auto))
    let encoder = JSONEncoder()
    for value in [Refresh.auto, .fixed(5), .every(minutes: 10, quiet: true)] {
      let json = try #require(JSONValue(parsing: try encoder.encode(value)))
      #expect(shape.problem(with: json) == nil, "\(value)")
      #expect(try JSONDecoder().decode(Refresh.self, from: encoder.encode(value)) == value)
    }
  }
}
