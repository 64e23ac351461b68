import Foundation

/// A strict, fast validator of JSON text (RFC 8259) that reports the first problem with its line
/// and column.
///
/// The store files are validated with it before ``JSONReader`` reads them, which can then trust
/// the text: every syntax error is found here, first, with its place. (It accepts exactly what
/// `JSONDecoder` accepts, but for trailing commas and duplicate keys, which Foundation takes,
/// and UTF-16 and UTF-32 text.)
enum JSONSyntax {
  /// Checks that `data` is exactly one JSON text (RFC 8259) and throws the first problem found.
  ///
  /// Beyond the RFC 8259 grammar it refuses:
  /// - input that is not UTF-8 (overlong forms, surrogates, bytes 0xC0, 0xC1, 0xF5–0xFF,
  ///   truncated sequences), naming the byte offset; UTF-16 and UTF-32 text, which
  ///   `JSONDecoder` would accept, is refused as such;
  /// - `\u` escapes that leave a surrogate unpaired (`"\ud800"`);
  /// - numbers that a `Double` cannot hold: too large (`1e999`), or not zero but so small they
  ///   round to zero (`1e-999`), as `JSONDecoder` refuses both when decoding a `Double`;
  /// - nesting of arrays and objects deeper than `maxDepth` levels;
  /// - the same key twice in one object. Keys are compared as Swift compares `String`s, after
  ///   unescaping and up to Unicode canonical equivalence (`"a"` equals `"\u0061"`, and `"é"`
  ///   equals `"e\u0301"`), because that is how `JSONDecoder` matches keys.
  ///
  /// A UTF-8 byte-order mark at the very start is skipped, as `JSONDecoder` does; anywhere else
  /// it is an ordinary character (and so an error outside a string).
  ///
  /// - Complexity: O(n) in the number of bytes, in one pass without recursion, so deep nesting
  ///   cannot overflow the stack. Extra memory is O(depth + number of keys in the open objects).
  ///   Keys that are plain ASCII without escapes are hashed in place; only keys with escapes or
  ///   non-ASCII characters are decoded (and normalized) to compare them.
  /// - Parameters:
  ///   - data: The bytes of the JSON text.
  ///   - maxDepth: The deepest nesting of arrays and objects allowed; `512` matches
  ///     `JSONDecoder`. With `0` or less, only a scalar is accepted at the top level.
  /// - Throws: ``JSONSyntaxError`` for the first problem in the input, by position.
  static func validate(_ data: Data, maxDepth: Int = 512) throws(JSONSyntaxError) {
    let problem = data.withUnsafeBytes { raw -> JSONSyntaxError? in
      do throws(JSONSyntaxError) {
        _ = try validate(raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
        return nil
      } catch {
        return error
      }
    }
    if let problem {
      throw problem
    }
  }

  /// Checks `bytes` as ``validate(_:maxDepth:)`` does and returns the keys of the top-level
  /// object, in the order of the text (none when the text is not an object): what a reader
  /// needs to go to any top-level member without scanning for it.
  ///
  /// With `exactKeys`, two keys are the same only when their unescaped texts are the same
  /// Unicode scalars, as RFC 8259 compares names: `"é"` and `"e\u0301"` are two keys.
  static func validate(
    _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 512, exactKeys: Bool = false
  ) throws(JSONSyntaxError) -> [KeyRecord] {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw JSONSyntaxError(line: 1, column: 1, message: "the file is empty")
    }
    var validator = JSONValidator(bytes: base, count: bytes.count, maxDepth: maxDepth)
    validator.exactKeys = exactKeys
    try validator.run()
    return validator.topLevelKeys
  }
}
