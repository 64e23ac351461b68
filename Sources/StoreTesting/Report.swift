import Foundation
import Stores

/// Formats the failure report that `check` records.
enum Report {
  /// Values longer than this many characters are truncated in reports.
  static let maxValueLength = 1_000

  /// A multi-line report: location, cases run, original and shrunk inputs (`subject`: "input",
  /// or "program" for a state machine), shrink steps, the failure and the `replay:` line.
  static func failure<Value>(
    _ counterexample: Counterexample<Value>, at location: String, iterations: Int,
    discardedCases: Int, subject: String, describe: (Value) -> String
  ) -> String {
    let passed = counterexample.passedCases
    let discarded = discardedCases == 0 ? "" : ", \(discardedCases) discarded"
    /// `label: text`, or the text on lines of its own when it has several.
    func labeled(_ label: String, _ text: String) -> String {
      label + (text.contains("\n") ? ":\n" : ": ") + text
    }
    var lines = [
      "Property falsified at \(location) after \(passed) passing \(passed == 1 ? "case" : "cases")"
        + " (case \(passed + 1) of \(iterations)\(discarded)).",
      labeled("original \(subject)", truncated(describe(counterexample.original))),
    ]
    if counterexample.originalFailure != counterexample.failure {
      lines.append("original failure: \(counterexample.originalFailure)")
    }
    lines += [
      labeled("shrunk \(subject)", describe(counterexample.shrunk)),
      "shrink steps: \(counterexample.shrinkSteps) (\(counterexample.shrinkAttempts) attempts)",
      "failure: \(counterexample.failure)",
      "replay: \(Property.seedVariable)=\(hex(counterexample.replaySeed))",
    ]
    return lines.joined(separator: "\n")
  }

  /// `value` for people, as a person writes it in Swift (`.addTodo(Todo("Buy milk"))`, a date
  /// in ISO 8601, what an `IndexSet` holds — see `Readable`), truncated to `maxValueLength`
  /// characters.
  static func describe<Value>(_ value: Value) -> String {
    truncated(Readable.describe(value))
  }

  /// `text`, cut after `maxValueLength` characters.
  private static func truncated(_ text: String) -> String {
    guard text.count > maxValueLength else { return text }
    let omitted = text.count - maxValueLength
    return "\(text.prefix(maxValueLength))… (\(omitted) more characters)"
  }

  /// A seed as `0x` followed by 16 uppercase hexadecimal digits.
  static func hex(_ seed: UInt64) -> String {
    let digits = String(seed, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
  }
}
