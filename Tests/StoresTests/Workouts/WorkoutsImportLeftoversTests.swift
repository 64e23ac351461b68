import Foundation
import Testing

@testable import Stores

/// Times read with the decimal mark the options give, as distances are.
@Suite("Workouts import: times with --decimal, localized Garmin files")
struct WorkoutsImportLeftoversTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 816_000_000)

  func read(_ text: String, _ options: WorkoutsImportOptions) throws -> WorkoutsImport {
    try WorkoutsCSV.read(
      Data(text.utf8), path: "a.csv", options: options, now: now, makeID: UUID.init)
  }

  func elapsed(_ text: String, _ mark: WorkoutsImportOptions.DecimalMark?) throws -> [Double?] {
    try read(text, WorkoutsImportOptions(timeZone: utc, decimalMark: mark)).rows.map(
      \.workout.duration?.elapsed)
  }

  /// With `--decimal comma` a point groups thousands: `4.742` is 4742 seconds, as a distance
  /// `1.500` is 1500 — it was read as 4.742 seconds. `4742,0` and `4742` are 4742 seconds too.
  @Test("with a decimal comma given, a time of 4.742 is 4742 seconds, as 1.500 m is 1500 m")
  func pointGroupsWithDecimalComma() throws {
    let file = "name;distance;time\nA;1.500 m;4.742\nB;5;4742,0\nC;5;4742\nD;5;1:02:03,5\n"
    #expect(try elapsed(file, .comma) == [4_742, 4_742, 4_742, 3_723.5])
    #expect(
      try read(file, WorkoutsImportOptions(timeZone: utc, decimalMark: .comma)).rows.first?
        .workout.meters == 1_500)
    // With a decimal point given: 4,742 groups thousands, 4.742 is 4.742 seconds.
    #expect(try elapsed("name;distance;time\nA;5;4,742\nB;5;4.742\n", .point) == [4_742, 4.742])
    // Without the option, as before: the file tells (here: its distance shows a decimal comma).
    #expect(try elapsed("name;distance;time\nA;5,5;4.742\nB;5;4742.0\n", nil) == [4_742, 4_742])
  }

  /// A number the option contradicts — `4742.0` with `--decimal comma`, `4742,5` with
  /// `--decimal point` — is refused with its place, what the option means and the fix, as a
  /// distance is: never read another way than the option says.
  @Test("a time or distance that --decimal contradicts is refused with its place and the fix")
  func contradictionRefused() throws {
    let comma = WorkoutsImportOptions(timeZone: utc, decimalMark: .comma)
    #expect {
      try read("name;distance;time\nA;5;4742.0\n", comma)
    } throws: { error in
      "\(error)".contains(
        "line 2, column 5: \"4742.0\" is not a number as --decimal comma reads them (a comma "
          + "before the decimals, points grouping thousands) — write it 4742,0, or import "
          + "without --decimal")
    }
    #expect {
      try read("name;distance\nA;10.5 km\n", comma)
    } throws: { error in
      "\(error)".contains(
        "line 2, column 3: \"10.5\" is not a number as --decimal comma reads them")
        && "\(error)".contains("write it 10,5,")
    }
    #expect {
      try read(
        "name;distance;time\nA;5;4742,5\n",
        WorkoutsImportOptions(timeZone: utc, decimalMark: .point))
    } throws: { error in
      "\(error)".contains(
        "line 2, column 5: \"4742,5\" is not a number as --decimal point reads them (a point "
          + "before the decimals, commas grouping thousands) — write it 4742.5")
    }
    // Anything else keeps the message that says what a time is.
    #expect {
      try read("name;distance;time\nA;5;4742x\n", comma)
    } throws: { error in
      "\(error)".contains("expected a time such as 4742 (seconds), 1:02:03, 45:00 or 1h2m")
    }
    // With --skip-invalid, the row is left out and the reason given.
    var skipping = comma
    skipping.skipsInvalidRows = true
    let result = try read("name;distance;time\nA;5;4742.0\nB;5;4.742\n", skipping)
    #expect(result.rows.map(\.workout.duration?.elapsed) == [4_742])
    #expect(result.skipped.map(\.line) == [2])
    #expect(result.skipped.first?.reason.contains("--decimal comma") == true)
    // Grouping marks are swapped in the fix too.
    #expect {
      try read("name;distance\nA;\"1,500,000.5 m\"\n", comma)
    } throws: { error in
      "\(error)".contains("\"1,500,000.5\" is not a number as --decimal comma reads them")
        && "\(error)".contains("write it 1.500.000,5,")
    }
  }
}
