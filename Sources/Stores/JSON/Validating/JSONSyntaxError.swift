/// A problem found by ``JSONSyntax/validate(_:maxDepth:)``: where it is and what is wrong.
///
/// Two errors are equal when their line, column and message are equal.
struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The 1-based line of the problem.
  ///
  /// A line ends at a line feed (LF), a carriage return followed by a line feed (CR LF), or a
  /// carriage return on its own (CR).
  var line: Int

  /// The 1-based column of the problem, counted in Unicode scalars (not bytes) from the start of
  /// the line. A tab counts as one column; a leading byte-order mark is not counted.
  var column: Int

  /// What is wrong and what was expected, for example
  /// `expected ',' or '}' after an object member, found 'x'`.
  ///
  /// A character from the input is shown in single quotes (a single quote itself in double
  /// quotes); control and other invisible characters are shown as `U+0001`, never raw. A quoted
  /// piece of the input is at most 20 characters long (40 for an object key), cut with `…`.
  var message: String

  /// The error as one line: `line 3, column 14: expected ',' or '}' after an object member,
  /// found 'x'`. O(n) in the length of ``message``.
  var description: String {
    "line \(line), column \(column): \(message)"
  }
}
