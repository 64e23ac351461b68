import Foundation

/// The differences between two values of the same type, found by reflection: one line per
/// place where they differ, with its path (`.todos[2].title: "b", expected "a"`), for the
/// failure reports of `requireEqual`, `requireAgreement` and `StoreTester`. A type shows what
/// its mirror shows — a `CustomReflectable` type its public fields only, as the built-in
/// stores' states do — and values are written as a person writes them (see `Readable`).
enum Diff {
  /// At most this many differences are listed; the rest are counted.
  static let maxLines = 10

  /// How `actual` differs from `expected`, as `"2 differences from the expected value:"`
  /// followed by one indented line per difference; `nil` when reflection sees no inner
  /// difference (for values without inner structure, say). O(size of the values).
  static func report(_ actual: Any, _ expected: Any) -> String? {
    var lines: [String] = []
    compare(actual, expected, at: "", into: &lines)
    guard !lines.isEmpty, !(lines.count == 1 && lines[0].hasPrefix("value: ")) else { return nil }
    let shown = lines.prefix(maxLines).map { "  " + $0 }
    let more = lines.count > maxLines ? ["  … and \(lines.count - maxLines) more"] : []
    let count = lines.count == 1 ? "1 difference" : "\(lines.count) differences"
    return (["\(count) from the expected value:"] + shown + more).joined(separator: "\n")
  }

  private static func compare(
    _ actual: Any, _ expected: Any, at path: String, into lines: inout [String]
  ) {
    if let equal = isEqual(actual, expected), equal { return }
    func whole() {
      let actualText = Report.describe(actual)
      let expectedText = Report.describe(expected)
      if actualText != expectedText {
        lines.append("\(path.isEmpty ? "value" : path): \(actualText), expected \(expectedText)")
      }
    }
    let actualMirror = Mirror(reflecting: actual)
    let expectedMirror = Mirror(reflecting: expected)
    guard !isLeaf(actual), !isLeaf(expected),
      actualMirror.subjectType == expectedMirror.subjectType
    else { return whole() }
    let actualChildren = Array(actualMirror.children)
    let expectedChildren = Array(expectedMirror.children)
    switch actualMirror.displayStyle {
    case .collection:
      for index in 0..<max(actualChildren.count, expectedChildren.count) {
        let place = "\(path)[\(index)]"
        if index >= expectedChildren.count {
          lines.append(
            "\(place): \(Report.describe(actualChildren[index].value)), expected nothing")
        } else if index >= actualChildren.count {
          lines.append(
            "\(place): missing, expected \(Report.describe(expectedChildren[index].value))")
        } else {
          compare(
            actualChildren[index].value, expectedChildren[index].value, at: place, into: &lines)
        }
      }
    case .set:
      let actualElements = Set(actualChildren.map { Report.describe($0.value) })
      let expectedElements = Set(expectedChildren.map { Report.describe($0.value) })
      let place = path.isEmpty ? "value" : path
      for element in actualElements.subtracting(expectedElements).sorted() {
        lines.append("\(place): has \(element), expected without it")
      }
      for element in expectedElements.subtracting(actualElements).sorted() {
        lines.append("\(place): lacks \(element), expected with it")
      }
    case .dictionary:
      let actualPairs = pairs(actualChildren)
      let expectedPairs = pairs(expectedChildren)
      for key in Set(actualPairs.keys).union(expectedPairs.keys).sorted() {
        let place = "\(path)[\(key)]"
        switch (actualPairs[key], expectedPairs[key]) {
        case (let value?, nil):
          lines.append("\(place): \(Report.describe(value)), expected nothing")
        case (nil, let value?):
          lines.append("\(place): missing, expected \(Report.describe(value))")
        case (let a?, let b?):
          compare(a, b, at: place, into: &lines)
        case (nil, nil):
          break
        }
      }
    case .optional:
      compare(actualChildren[0].value, expectedChildren[0].value, at: path, into: &lines)
    case .enum:
      guard let actualCase = actualChildren.first, let expectedCase = expectedChildren.first,
        actualCase.label == expectedCase.label
      else { return whole() }
      compare(
        actualCase.value, expectedCase.value, at: "\(path).\(actualCase.label ?? "")",
        into: &lines)
    default:
      if actualChildren.count == expectedChildren.count {
        for (offset, (a, b)) in zip(actualChildren, expectedChildren).enumerated() {
          let label = a.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? "\(offset)"
          compare(a.value, b.value, at: "\(path).\(label)", into: &lines)
        }
      } else if !compareByLabel(actualChildren, expectedChildren, at: path, into: &lines) {
        whole()
      }
    }
  }

  /// Compares the children of one label on both sides — of a value that shows different
  /// fields in different states (a custom mirror) — skipping those on one side only, which
  /// a field both sides show decides; returns whether that found a difference.
  private static func compareByLabel(
    _ actual: [Mirror.Child], _ expected: [Mirror.Child], at path: String,
    into lines: inout [String]
  ) -> Bool {
    let count = lines.count
    var expectedByLabel: [String: Any] = [:]
    for child in expected {
      guard let label = child.label else { return false }
      expectedByLabel[label] = child.value
    }
    for child in actual {
      guard let label = child.label else { return false }
      if let expectedValue = expectedByLabel[label] {
        compare(child.value, expectedValue, at: "\(path).\(label)", into: &lines)
      }
    }
    return lines.count > count
  }

  /// Whether a value is compared as a whole: text, dates, ids, offsets, and anything
  /// reflection shows no children of (numbers, `nil`, cases without payload).
  private static func isLeaf(_ value: Any) -> Bool {
    switch value {
    case is String, is Substring, is Character, is Date, is UUID, is URL, is Decimal, is IndexSet:
      return true
    default:
      let mirror = Mirror(reflecting: value)
      switch mirror.displayStyle {
      case .collection, .set, .dictionary: return false
      default: return mirror.children.isEmpty
      }
    }
  }

  /// The key–value pairs of a reflected dictionary, by the described key.
  private static func pairs(_ children: [Mirror.Child]) -> [String: Any] {
    var pairs: [String: Any] = [:]
    for child in children {
      let pair = Array(Mirror(reflecting: child.value).children)
      if pair.count == 2 {
        pairs[Report.describe(pair[0].value)] = pair[1].value
      }
    }
    return pairs
  }

  /// `==` when the values are `Equatable` (and of one type), `nil` when they are not.
  private static func isEqual(_ actual: Any, _ expected: Any) -> Bool? {
    guard let actual = actual as? any Equatable else { return nil }
    return equals(actual, expected)
  }

  private static func equals<T: Equatable>(_ actual: T, _ expected: Any) -> Bool {
    (expected as? T).map { $0 == actual } ?? false
  }
}
