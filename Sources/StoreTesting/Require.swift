/// The error thrown by `require` and `requireEqual` when a property's expectation does not hold.
/// `check` puts its description into the failure report.
public struct PropertyFailure: Error, CustomStringConvertible, Sendable {
  /// What was expected, as written by the property.
  public let message: String
  /// Where the failing requirement is, as `Module/File.swift:line`.
  public let location: String

  /// Creates a failure with a message and a location.
  public init(_ message: String, location: String) {
    self.message = message
    self.location = location
  }

  /// `"requirement failed at <location>: <message>"`.
  public var description: String {
    "requirement failed at \(location)" + (message.isEmpty ? "" : ": \(message)")
  }
}

/// Throws a `PropertyFailure` with `message` unless `condition` is true. Use it inside a
/// throwing property to explain failures: `try require(store.count >= 0, "negative count")`.
public func require(
  _ condition: Bool,
  _ message: @autoclosure () -> String = "",
  fileID: String = #fileID,
  line: Int = #line
) throws(PropertyFailure) {
  guard condition else {
    throw PropertyFailure(message(), location: "\(fileID):\(line)")
  }
}

/// Throws a `PropertyFailure` unless `actual == expected`, showing how they differ: for values
/// with inner structure (structures, enums, collections, dictionaries, sets), every place that
/// differs, with its path — `[1].title: "b", expected "a"` — found by reflection; for others,
/// both values. O(size of the values) when they differ, the cost of `==` otherwise.
public func requireEqual<T: Equatable>(
  _ actual: T,
  _ expected: T,
  _ message: @autoclosure () -> String = "",
  fileID: String = #fileID,
  line: Int = #line
) throws(PropertyFailure) {
  guard actual == expected else {
    let detail = message()
    let difference =
      Diff.report(actual, expected)
      ?? "\(Report.describe(actual)) is not equal to \(Report.describe(expected))"
    throw PropertyFailure(
      (detail.isEmpty ? "" : "\(detail): ") + difference, location: "\(fileID):\(line)")
  }
}

/// Discards the current case unless `condition` holds: `check` does not count the case and
/// generates another one instead, like Hypothesis's `assume`.
///
/// Use it for preconditions that are hard to build into the generator:
/// `try assume(a != b)`. A run that discards 10 times as many cases as it was to test aborts
/// with an explanation, since it tests little; generate what the property assumes instead
/// when most cases would be discarded. While shrinking, a discarded candidate counts as
/// passing.
///
/// - Throws: An error only `check` and `Property.run` understand, when `condition` is false.
public func assume(_ condition: Bool) throws {
  guard condition else { throw Discarded() }
}

/// Thrown by `assume` to discard a case.
struct Discarded: Error {}
