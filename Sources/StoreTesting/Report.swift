import Foundation

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

  /// `value` for people — like `String(reflecting:)`, but showing what an `IndexSet` holds
  /// (`[1, 3...5]`, not "4 indexes"), also inside tuples, collections, structures and enum
  /// payloads — truncated to `maxValueLength` characters.
  static func describe<Value>(_ value: Value) -> String {
    truncated(render(value))
  }

  /// `text`, cut after `maxValueLength` characters.
  private static func truncated(_ text: String) -> String {
    guard text.count > maxValueLength else { return text }
    let omitted = text.count - maxValueLength
    return "\(text.prefix(maxValueLength))… (\(omitted) more characters)"
  }

  private static func render(_ value: Any) -> String {
    switch value {
    case let offsets as IndexSet:
      return "["
        + offsets.rangeView.map {
          $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound - 1)"
        }.joined(separator: ", ") + "]"
    case is String, is Character, is Substring: return String(reflecting: value)
    case is Date, is UUID, is URL, is Decimal: return String(describing: value)
    default: break
    }
    let mirror = Mirror(reflecting: value)
    let children = mirror.children.map { (label: $0.label, value: render($0.value)) }
    func list(_ open: String, _ close: String) -> String {
      let items = children.map { child in
        guard let label = child.label, !label.hasPrefix(".") else { return child.value }
        return "\(label): \(child.value)"
      }
      return open + items.joined(separator: ", ") + close
    }
    switch mirror.displayStyle {
    case .tuple: return list("(", ")")
    case .collection, .set: return list("[", "]")
    case .dictionary:
      let pairs = mirror.children.map {
        Mirror(reflecting: $0.value).children.map { render($0.value) }
      }
      return "[" + pairs.map { $0.joined(separator: ": ") }.joined(separator: ", ") + "]"
    case .optional: return children.first?.value ?? "nil"
    case .enum:
      guard let payload = mirror.children.first else { return ".\(value)" }
      let rendered = render(payload.value)
      return ".\(payload.label ?? "")" + (rendered.hasPrefix("(") ? rendered : "(\(rendered))")
    case .struct, .class:
      guard !children.isEmpty else { return String(reflecting: value) }
      return list("\(mirror.subjectType)(", ")")
    default: return String(reflecting: value)
    }
  }

  /// A seed as `0x` followed by 16 uppercase hexadecimal digits.
  static func hex(_ seed: UInt64) -> String {
    let digits = String(seed, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
  }
}
