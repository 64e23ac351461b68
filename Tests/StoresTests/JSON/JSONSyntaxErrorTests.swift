import Foundation
import Testing

@testable import Stores

/// One invalid input and the exact error it must give.
struct ErrorCase: Sendable, CustomTestStringConvertible {
  var input: [UInt8]
  var line: Int
  var column: Int
  var message: String
  var maxDepth = 512

  init(_ text: String, _ line: Int, _ column: Int, _ message: String, maxDepth: Int = 512) {
    self.init(bytes: Array(text.utf8), line, column, message, maxDepth: maxDepth)
  }

  init(bytes: [UInt8], _ line: Int, _ column: Int, _ message: String, maxDepth: Int = 512) {
    input = bytes
    self.line = line
    self.column = column
    self.message = message
    self.maxDepth = maxDepth
  }

  var testDescription: String {
    let text = String(decoding: input.prefix(48), as: UTF8.self).debugDescription
    return input.count > 48 ? text + "… (\(input.count) bytes)" : text
  }
}

private func check(_ testCase: ErrorCase) {
  let error = validationError(testCase.input, maxDepth: testCase.maxDepth)
  #expect(
    error
      == JSONSyntaxError(line: testCase.line, column: testCase.column, message: testCase.message))
}

private let unclosedArray = "(the array opened at line 1, column 1 is not closed)"
private let unclosedObject = "(the object opened at line 1, column 1 is not closed)"
private let notUTF8 = "the file looks like UTF-16 or UTF-32 text; only UTF-8 is accepted"
private let validEscapes = "(valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"

@Suite("JSONSyntax errors")
struct JSONSyntaxErrorTests {
  static let emptyAndTrailingCases: [ErrorCase] = [
    ErrorCase("", 1, 1, "the file is empty"),
    ErrorCase(" ", 1, 2, "expected a JSON value, found end of file"),
    ErrorCase("  \n\t\r\n ", 3, 2, "expected a JSON value, found end of file"),
    ErrorCase(bytes: [0xEF, 0xBB, 0xBF], 1, 1, "expected a JSON value, found end of file"),
    ErrorCase("1 x", 1, 3, "unexpected 'x' after the JSON value"),
    ErrorCase("{} {}", 1, 4, "unexpected '{' after the JSON value"),
    ErrorCase("[1]]", 1, 4, "unexpected ']' after the JSON value"),
    ErrorCase("\"a\" \"b\"", 1, 5, "unexpected '\"b\"' after the JSON value"),
    ErrorCase("true false", 1, 6, "unexpected 'false' after the JSON value"),
    ErrorCase("[1]\n\n  // done", 3, 3, "unexpected '/' after the JSON value"),
    ErrorCase("[1]\u{FEFF}", 1, 4, "unexpected U+FEFF after the JSON value"),
    ErrorCase("{}\0", 1, 3, "unexpected U+0000 after the JSON value"),
    ErrorCase(bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00], 1, 1, notUTF8),
    ErrorCase(bytes: [0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x5D], 1, 1, notUTF8),
    ErrorCase(bytes: [0x5B, 0x00, 0x5D, 0x00], 1, 1, notUTF8),
    ErrorCase(bytes: [0x00, 0x00, 0x00, 0x31], 1, 1, notUTF8),
    ErrorCase(bytes: [0x31, 0x00], 1, 1, notUTF8),
  ]

  static let grammarCases: [ErrorCase] = [
    ErrorCase("{\"a\": 1 x}", 1, 9, "expected ',' or '}' after an object member, found 'x'"),
    ErrorCase(
      "{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after an object member, found '\"b\"'"),
    ErrorCase("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
    ErrorCase("[true false]", 1, 7, "expected ',' or ']' after an array element, found 'false'"),
    ErrorCase("{\"a\" 1}", 1, 6, "expected ':' after the object key, found '1'"),
    ErrorCase("{\"a\"=1}", 1, 5, "expected ':' after the object key, found '='"),
    ErrorCase("{\"a\": }", 1, 7, "expected a value after ':', found '}'"),
    ErrorCase("{1: 2}", 1, 2, "expected a string key or '}', found '1'"),
    ErrorCase("{a: 2}", 1, 2, "expected a string key or '}', found 'a'"),
    ErrorCase("{'a': 2}", 1, 2, "expected a string key or '}', found \"'\""),
    ErrorCase(
      "[1,]", 1, 4, "expected a value after ',', found ']' (trailing commas are not allowed)"),
    ErrorCase(
      "{\"a\": 1,}", 1, 9,
      "expected a string key after ',', found '}' (trailing commas are not allowed)"),
    ErrorCase("[,1]", 1, 2, "expected a value or ']', found ','"),
    ErrorCase("[1,,2]", 1, 4, "expected a value after ',', found ','"),
    ErrorCase("{,}", 1, 2, "expected a string key or '}', found ','"),
    ErrorCase("[1}", 1, 3, "expected ',' or ']' after an array element, found '}'"),
    ErrorCase("{\"a\":1]", 1, 7, "expected ',' or '}' after an object member, found ']'"),
    ErrorCase("NaN", 1, 1, "expected a JSON value, found 'NaN'"),
    ErrorCase("[Infinity]", 1, 2, "expected a value or ']', found 'Infinity'"),
    ErrorCase("[1, -Infinity]", 1, 6, "expected a digit after '-', found 'Infinity'"),
    ErrorCase("{\"a\": undefined}", 1, 7, "expected a value after ':', found 'undefined'"),
    ErrorCase("tru", 1, 1, "expected a JSON value, found 'tru'"),
    ErrorCase("[nul]", 1, 2, "expected a value or ']', found 'nul'"),
    ErrorCase("truex", 1, 1, "expected a JSON value, found 'truex'"),
    ErrorCase("nullable", 1, 1, "expected a JSON value, found 'nullable'"),
    ErrorCase("True", 1, 1, "expected a JSON value, found 'True'"),
    ErrorCase("[1, fals]", 1, 5, "expected a value after ',', found 'fals'"),
    ErrorCase("'a'", 1, 1, "expected a JSON value, found \"'\" (JSON strings need double quotes)"),
    ErrorCase("// note\n1", 1, 1, "expected a JSON value, found '/' (JSON has no comments)"),
    ErrorCase("[/* note */ 1]", 1, 2, "expected a value or ']', found '/' (JSON has no comments)"),
    ErrorCase("# note\n1", 1, 1, "expected a JSON value, found '#' (JSON has no comments)"),
    ErrorCase(
      String(repeating: "a", count: 30), 1, 1,
      "expected a JSON value, found '\(String(repeating: "a", count: 20))…'"),
    ErrorCase("[\u{01}]", 1, 2, "expected a value or ']', found U+0001"),
    ErrorCase("[\u{A0}1]", 1, 2, "expected a value or ']', found U+00A0"),
    ErrorCase("[1,\u{2028}2]", 1, 4, "expected a value after ',', found U+2028"),
    ErrorCase("\u{FEFF}\u{FEFF}[]", 1, 1, "expected a JSON value, found U+FEFF"),
    ErrorCase("[é]", 1, 2, "expected a value or ']', found 'é'"),
    ErrorCase("[🙂]", 1, 2, "expected a value or ']', found '🙂'"),
  ]

  static let unterminatedCases: [ErrorCase] = [
    ErrorCase("[", 1, 2, "expected a value or ']', found end of file \(unclosedArray)"),
    ErrorCase("{", 1, 2, "expected a string key or '}', found end of file \(unclosedObject)"),
    ErrorCase(
      "[1, 2", 1, 6,
      "expected ',' or ']' after an array element, found end of file \(unclosedArray)"),
    ErrorCase("[1,", 1, 4, "expected a value after ',', found end of file \(unclosedArray)"),
    ErrorCase(
      "{\"a\"", 1, 5, "expected ':' after the object key, found end of file \(unclosedObject)"),
    ErrorCase("{\"a\":", 1, 6, "expected a value after ':', found end of file \(unclosedObject)"),
    ErrorCase(
      "{\"a\":1", 1, 7,
      "expected ',' or '}' after an object member, found end of file \(unclosedObject)"),
    ErrorCase(
      "{\"a\":1,", 1, 8, "expected a string key after ',', found end of file \(unclosedObject)"),
    ErrorCase(
      "{\n  \"list\": [1, {\"b\": 2}\n", 3, 1,
      "expected ',' or ']' after an array element, found end of file "
        + "(the array opened at line 2, column 11 is not closed)"),
    ErrorCase(
      "\"abc", 1, 5,
      "unterminated string starting at line 1, column 1: expected '\"', found end of file"),
    ErrorCase(
      "[\"a\\", 1, 5,
      "unterminated string starting at line 1, column 2: expected '\"', found end of file"),
    ErrorCase(
      "\"\\u00", 1, 6,
      "unterminated string starting at line 1, column 1: expected '\"', found end of file"),
    ErrorCase(
      "\"\\ud83d", 1, 8,
      "unterminated string starting at line 1, column 1: expected '\"', found end of file"),
    ErrorCase(
      "\"\\ud83d\\", 1, 9,
      "unterminated string starting at line 1, column 1: expected '\"', found end of file"),
    ErrorCase(
      "\"\\ud83d\\ude", 1, 12,
      "unterminated string starting at line 1, column 1: expected '\"', found end of file"),
  ]

  static let stringsCases: [ErrorCase] = [
    ErrorCase("\"\\x\"", 1, 2, "invalid escape '\\x' in a string \(validEscapes)"),
    ErrorCase("\"\\'\"", 1, 2, "invalid escape '\\'' in a string \(validEscapes)"),
    ErrorCase("\"\\U0041\"", 1, 2, "invalid escape '\\U' in a string \(validEscapes)"),
    ErrorCase("\"ab\\\u{01}\"", 1, 4, "invalid escape '\\' + U+0001 in a string \(validEscapes)"),
    ErrorCase(
      "\"\\u12G4\"", 1, 2, "invalid escape '\\u12G' in a string (expected 4 hex digits after '\\u')"
    ),
    ErrorCase(
      "\"\\u12\"", 1, 2,
      "invalid escape '\\u12\"' in a string (expected 4 hex digits after '\\u')"),
    ErrorCase(
      "\"\\u\n\"", 1, 2,
      "invalid escape '\\u' + U+000A in a string (expected 4 hex digits after '\\u')"),
    ErrorCase("\"a\tb\"", 1, 3, "unescaped control character U+0009 in a string (write it as \\t)"),
    ErrorCase(
      "[\"abc\n\"]", 1, 6, "unescaped control character U+000A in a string (write it as \\n)"),
    ErrorCase("\"\r\"", 1, 2, "unescaped control character U+000D in a string (write it as \\r)"),
    ErrorCase(
      "\"a\u{00}\"", 1, 3, "unescaped control character U+0000 in a string (write it as \\u0000)"),
    ErrorCase(
      "\"\u{1F}\"", 1, 2, "unescaped control character U+001F in a string (write it as \\u001F)"),
    ErrorCase(
      "\"\\ud800\"", 1, 2,
      "lone surrogate '\\ud800' in a string "
        + "(a high surrogate must be followed by a low surrogate escape, \\udc00 to \\udfff)"),
    ErrorCase(
      "\"x\\uDBFF\\uDBFF\"", 1, 3,
      "lone surrogate '\\uDBFF' in a string "
        + "(a high surrogate must be followed by a low surrogate escape, \\udc00 to \\udfff)"),
    ErrorCase(
      "\"\\ud800\\u0041\"", 1, 2,
      "lone surrogate '\\ud800' in a string "
        + "(a high surrogate must be followed by a low surrogate escape, \\udc00 to \\udfff)"),
    ErrorCase(
      "\"\\ud800\\n\"", 1, 2,
      "lone surrogate '\\ud800' in a string "
        + "(a high surrogate must be followed by a low surrogate escape, \\udc00 to \\udfff)"),
    ErrorCase(
      "\"\\udc00\"", 1, 2,
      "lone surrogate '\\udc00' in a string "
        + "(a low surrogate must follow a high surrogate escape, \\ud800 to \\udbff)"),
    ErrorCase(
      "\"\\ude00\\ud83d\"", 1, 2,
      "lone surrogate '\\ude00' in a string "
        + "(a low surrogate must follow a high surrogate escape, \\ud800 to \\udbff)"),
  ]

  static let numbersCases: [ErrorCase] = [
    ErrorCase("01", 1, 1, "leading zeros are not allowed in numbers, found '01'"),
    ErrorCase("[-007]", 1, 2, "leading zeros are not allowed in numbers, found '-007'"),
    ErrorCase("+1", 1, 1, "expected a JSON value, found '+1' (a number cannot start with '+')"),
    ErrorCase(
      ".5", 1, 1,
      "expected a JSON value, found '.5' (a number needs a digit before the decimal point)"),
    ErrorCase("1.", 1, 3, "expected a digit after the decimal point, found end of file"),
    ErrorCase("[1.]", 1, 4, "expected a digit after the decimal point, found ']'"),
    ErrorCase("1.e5", 1, 3, "expected a digit after the decimal point, found 'e5'"),
    ErrorCase("-", 1, 2, "expected a digit after '-', found end of file"),
    ErrorCase("--1", 1, 2, "expected a digit after '-', found '-1'"),
    ErrorCase("- 1", 1, 2, "expected a digit after '-', found ' '"),
    ErrorCase("1e", 1, 3, "expected a digit in the exponent, found end of file"),
    ErrorCase("[1e+]", 1, 5, "expected a digit in the exponent, found ']'"),
    ErrorCase("1.5.3", 1, 4, "unexpected '.3' after the JSON value"),
    ErrorCase("0x10", 1, 2, "unexpected 'x10' after the JSON value"),
    ErrorCase("1e999", 1, 1, "number 1e999 is out of range"),
    ErrorCase("-1e400", 1, 1, "number -1e400 is out of range"),
    ErrorCase("[0.1e310]", 1, 2, "number 0.1e310 is out of range"),
    ErrorCase("1.7976931348623159e308", 1, 1, "number 1.7976931348623159e3… is out of range"),
    ErrorCase(
      "1" + String(repeating: "0", count: 309), 1, 1,
      "number 1\(String(repeating: "0", count: 19))… is out of range"),
    ErrorCase("1e99999999999999999999", 1, 1, "number 1e999999999999999999… is out of range"),
    ErrorCase("1e-999", 1, 1, "number 1e-999 is out of range (it would round to zero)"),
    ErrorCase("{\"x\": -2e-324}", 1, 7, "number -2e-324 is out of range (it would round to zero)"),
    ErrorCase(
      "0." + String(repeating: "0", count: 400) + "1", 1, 1,
      "number 0.000000000000000000… is out of range (it would round to zero)"),
  ]

  static let utf8Cases: [ErrorCase] = [
    ErrorCase(
      bytes: [0x22, 0xC0, 0x80, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xC0 starts an overlong encoding"),
    ErrorCase(
      bytes: [0x22, 0xC1, 0xBF, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xC1 starts an overlong encoding"),
    ErrorCase(
      bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: bytes 0xE0 0x80 start an overlong encoding"),
    ErrorCase(
      bytes: [0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: bytes 0xF0 0x8F start an overlong encoding"),
    ErrorCase(
      bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: bytes 0xED 0xA0 encode a UTF-16 surrogate"),
    ErrorCase(
      bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: bytes 0xF4 0x90 encode a value above U+10FFFF"),
    ErrorCase(
      bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xF5 never appears in UTF-8"),
    ErrorCase(
      bytes: [0x22, 0xFF, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xFF never appears in UTF-8"),
    ErrorCase(
      bytes: [0x22, 0x80, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: unexpected continuation byte 0x80"),
    ErrorCase(
      bytes: [0x22, 0xC3, 0x41, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xC3 must be followed by 1 continuation byte "
        + "(found 0x41)"),
    ErrorCase(
      bytes: [0x22, 0xE2, 0x82, 0x22], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xE2 must be followed by 2 continuation bytes "
        + "(found 0x22)"),
    ErrorCase(
      bytes: [0x22, 0xE2, 0x82], 1, 2,
      "invalid UTF-8 at byte offset 1: the sequence starting with byte 0xE2 is cut off by the "
        + "end of the file"),
    // Outside strings, in keys, after a BOM, after other characters on the line.
    ErrorCase(
      bytes: [0x5B, 0xFF, 0x5D], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xFF never appears in UTF-8"),
    ErrorCase(
      bytes: [0x5B, 0x31, 0x20, 0xC0, 0x5D], 1, 4,
      "invalid UTF-8 at byte offset 3: byte 0xC0 starts an overlong encoding"),
    ErrorCase(
      bytes: Array("{\"ké".utf8) + [0xFE] + Array("\": 1}".utf8), 1, 5,
      "invalid UTF-8 at byte offset 5: byte 0xFE never appears in UTF-8"),
    ErrorCase(
      bytes: [0xEF, 0xBB, 0xBF] + Array("[\"日本".utf8) + [0xE6, 0x97] + Array("\"]".utf8), 1, 5,
      "invalid UTF-8 at byte offset 11: byte 0xE6 must be followed by 2 continuation bytes "
        + "(found 0x22)"),
    ErrorCase(
      bytes: [0xEF, 0xBB], 1, 1,
      "invalid UTF-8 at byte offset 0: the sequence starting with byte 0xEF is cut off by the "
        + "end of the file"),
    ErrorCase(
      bytes: Array("\"\\".utf8) + [0xC3, 0x28, 0x22], 1, 3,
      "invalid UTF-8 at byte offset 2: byte 0xC3 must be followed by 1 continuation byte "
        + "(found 0x28)"),
    ErrorCase(
      bytes: Array("\"\\u00".utf8) + [0xFF, 0x22], 1, 6,
      "invalid UTF-8 at byte offset 5: byte 0xFF never appears in UTF-8"),
    ErrorCase(
      bytes: Array("1".utf8) + [0xFF], 1, 2,
      "invalid UTF-8 at byte offset 1: byte 0xFF never appears in UTF-8"),
  ]

  static let duplicatesCases: [ErrorCase] = [
    ErrorCase(
      "{\n  \"name\": \"Ada\",\n  \"sleepGoal\": 8,\n  \"sleepGoal\": 7\n}", 4, 3,
      "duplicate key 'sleepGoal' (first at line 3, column 3)"),
    ErrorCase("{\"a\": 1, \"\\u0061\": 2}", 1, 10, "duplicate key 'a' (first at line 1, column 2)"),
    ErrorCase("{\"\\/\": 1, \"/\": 2}", 1, 11, "duplicate key '/' (first at line 1, column 2)"),
    ErrorCase(
      "{\"\\ud83d\\ude00\": 1, \"🙂\": 2, \"😀\": 3}", 1, 29,
      "duplicate key '😀' (first at line 1, column 2)"),
    // Canonically equivalent keys are equal Swift strings, so JSONDecoder sees one key.
    ErrorCase(
      "{\"é\": 1, \"e\u{301}\": 2}", 1, 10, "duplicate key 'é' (first at line 1, column 2)"),
    ErrorCase(
      "{\"\\u00e9\": 1, \"e\\u0301\": 2}", 1, 15, "duplicate key 'é' (first at line 1, column 2)"),
    ErrorCase("{\"K\": 1, \"\\u212A\": 2}", 1, 10, "duplicate key 'K' (first at line 1, column 2)"),
    ErrorCase("{\"\": 1, \"\": 2}", 1, 9, "duplicate key '' (first at line 1, column 2)"),
    ErrorCase(
      "{\"a\\u0001\\n\": 1, \"a\\u0001\\n\": 2}", 1, 18,
      "duplicate key 'aU+0001U+000A' (first at line 1, column 2)"),
    ErrorCase(
      "{\"\(String(repeating: "k", count: 50))\": 1, \"\(String(repeating: "k", count: 50))\": 2}",
      1, 59,
      "duplicate key '\(String(repeating: "k", count: 40))…' (first at line 1, column 2)"),
    // The inner object's keys are forgotten when it closes; the outer one still clashes.
    ErrorCase(
      "{\"a\": {\"b\": 1}, \"b\": {\"a\": 2}, \"a\": 3}", 1, 32,
      "duplicate key 'a' (first at line 1, column 2)"),
    ErrorCase(
      "[{\"id\": 1}, {\"id\": 2, \"id\": 3}]", 1, 23,
      "duplicate key 'id' (first at line 1, column 14)"),
  ]

  static let depthCases: [ErrorCase] = [
    ErrorCase(
      String(repeating: "[", count: 513) + String(repeating: "]", count: 513), 1, 513,
      "nested deeper than 512 levels"),
    ErrorCase(String(repeating: "[", count: 100_000), 1, 513, "nested deeper than 512 levels"),
    ErrorCase(
      String(repeating: "{\"a\":", count: 100_000), 1, 2561, "nested deeper than 512 levels"),
    ErrorCase("[[[1]]]", 1, 3, "nested deeper than 2 levels", maxDepth: 2),
    ErrorCase("{\"a\": [{}]}", 1, 8, "nested deeper than 2 levels", maxDepth: 2),
    ErrorCase("[]", 1, 1, "nested deeper than 0 levels", maxDepth: 0),
    ErrorCase("{}", 1, 1, "nested deeper than 0 levels", maxDepth: -5),
  ]

  static let positionsCases: [ErrorCase] = [
    ErrorCase("[\r\n  1,\r\n  x]", 3, 3, "expected a value after ',', found 'x'"),
    ErrorCase("[\r1,\rx]", 3, 1, "expected a value after ',', found 'x'"),
    ErrorCase("[\n\n\n\t\tx]", 4, 3, "expected a value or ']', found 'x'"),
    ErrorCase("[\"日本\", x]", 1, 8, "expected a value after ',', found 'x'"),
    ErrorCase("[\"🙂e\u{301}\", x]", 1, 9, "expected a value after ',', found 'x'"),
    ErrorCase("\u{FEFF}[x]", 1, 2, "expected a value or ']', found 'x'"),
    ErrorCase("\u{FEFF}\n x", 2, 2, "expected a JSON value, found 'x'"),
  ]

  @Test("empty input and content after the value", arguments: emptyAndTrailingCases)
  func emptyAndTrailing(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("grammar errors", arguments: grammarCases)
  func grammar(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("unterminated strings, arrays and objects", arguments: unterminatedCases)
  func unterminated(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("string errors: escapes, control characters, lone surrogates", arguments: stringsCases)
  func strings(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("number errors: grammar and range", arguments: numbersCases)
  func numbers(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("invalid UTF-8", arguments: utf8Cases)
  func utf8(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("duplicate keys", arguments: duplicatesCases)
  func duplicates(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("nesting depth", arguments: depthCases)
  func depth(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("lines and columns", arguments: positionsCases)
  func positions(_ testCase: ErrorCase) {
    check(testCase)
  }

  @Test("duplicates in objects large enough to use a hash table")
  func duplicatesInLargeObjects() {
    for size in [8, 15, 16, 17, 18, 31, 32, 33, 64, 65, 1000] {
      for duplicate in [0, size / 2, size - 1] {
        let members = (0..<size).map { "\"key\($0)\": \($0)" }
        let prefix = "{" + members.joined(separator: ", ") + ", "
        let text = prefix + "\"key\(duplicate)\": 0}"
        let first = 2 + (0..<duplicate).map { "\"key\($0)\": \($0), ".count }.reduce(0, +)
        #expect(
          validationError(text)
            == JSONSyntaxError(
              line: 1, column: prefix.count + 1,
              message: "duplicate key 'key\(duplicate)' (first at line 1, column \(first))"))
        // Without the duplicate, the object is fine.
        #expect(validationError("{" + members.joined(separator: ", ") + "}") == nil)
      }
    }
  }

  @Test("large objects whose values are objects with the same keys")
  func nestedLargeObjects() {
    for size in [10, 17, 40, 300] {
      // Each inner object repeats all outer keys: no clash, as the keys are in other objects.
      let inner =
        "{" + (0..<size).map { "\"key\($0)\": [{\"key\($0)\": 1}]" }.joined(separator: ",") + "}"
      let members = (0..<size).map { "\"key\($0)\": \(inner)" }
      let text = "{" + members.joined(separator: ",") + "}"
      #expect(validationError(text) == nil)
      let prefix = "{" + members.joined(separator: ",") + ","
      let duplicate = size - 2
      let first = 2 + (0..<duplicate).map { "\"key\($0)\": \(inner),".count }.reduce(0, +)
      #expect(
        validationError(prefix + "\"key\(duplicate)\": 0}")
          == JSONSyntaxError(
            line: 1, column: prefix.count + 1,
            message: "duplicate key 'key\(duplicate)' (first at line 1, column \(first))"))
    }
  }

  @Test("the description names the line and column")
  func description() {
    let error = JSONSyntaxError(
      line: 3, column: 14, message: "expected ',' or '}' after an object member, found 'x'")
    #expect(
      error.description
        == "line 3, column 14: expected ',' or '}' after an object member, found 'x'")
    #expect("\(error)" == error.description)
  }
}
