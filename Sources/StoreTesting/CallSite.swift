import Foundation

/// The source text of a call in a test, read from the test's file: what a failure names when
/// the value the call was given has no name at run time (a case path is a key path to a
/// computed property, and a key path does not know the property's name).
enum CallSite {
  /// The text of the first argument of the call at `line` and `column` (1-based, as `#line`
  /// and `#column` give them) of the file at `filePath` — from its first `(` after that column
  /// to the `,` or `)` that ends the argument, on that line or the next ones, without its
  /// label, with each run of white space made one space; `nil` when the file cannot be read there (it is not on this
  /// machine) or holds no such call. O(size of the file).
  static func firstArgument(filePath: String, line: Int, column: Int) -> String? {
    guard line > 0, let text = try? String(contentsOfFile: filePath, encoding: .utf8) else {
      return nil
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard line <= lines.count else { return nil }
    let start = Array(lines[line - 1].utf8).dropFirst(max(column - 1, 0))
    let rest = lines[line...].prefix(20).flatMap { [UInt8(ascii: "\n")] + Array($0.utf8) }
    var bytes = (Array(start) + rest)[...]
    guard let open = bytes.firstIndex(of: UInt8(ascii: "(")) else { return nil }
    bytes = bytes[(open + 1)...]
    var depth = 0
    var argument: [UInt8] = []
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        if depth == 0 { return words(argument) }
        depth -= 1
      case UInt8(ascii: ","):
        if depth == 0 { return words(argument) }
      default: break
      }
      argument.append(byte)
    }
    return nil
  }

  /// `bytes` as text without its argument label, each run of white space one space, trimmed;
  /// `nil` when empty.
  private static func words(_ bytes: [UInt8]) -> String? {
    var text = Substring(String(decoding: bytes, as: UTF8.self))
    if let colon = text.firstIndex(of: ":"),
      text[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
        .allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
    {
      text = text[text.index(after: colon)...]
    }
    let words = text.split(whereSeparator: \.isWhitespace)
    return words.isEmpty ? nil : words.joined(separator: " ")
  }
}
