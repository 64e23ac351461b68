import Foundation
import StoreTesting
import Testing

@testable import Stores

@Suite("JSONSyntax accepts valid JSON")
struct JSONSyntaxValidTests {
  static let scalarsCases: [String] = [
    "0", "-0", "1", "-1", "123", "1.5", "-0.0", "1e5", "1E5", "1e+5", "1e-5", "1.5E-10",
    "0.000001", "123456789012345678901234567890", "1.7976931348623157e308",
    "-1.7976931348623158e308", "5e-324", "2.4703282292062328e-324", "1e-320", "0e999999",
    "0.0e-999", "-0E5", "1" + String(repeating: "0", count: 308),
    "0." + String(repeating: "0", count: 320) + "5", "true", "false", "null", "\"\"", "\"text\"",
  ]

  static let stringsCases: [String] = [
    #""\"\\\/\b\f\n\r\t""#, #""\u0000""#, #""\u00e9\u00E9""#, #""\uD83D\uDE00""#,
    #""\ud800\udc00\udbff\udfff""#, #""a\u20ACb""#, "\"é日本🙂\"", "\"\u{7F}\"", "\"\u{FEFF}\"",
    "\"\u{2028}\u{2029}\"", "\"\u{80}\u{7FF}\u{800}\u{FFFF}\u{E000}\u{10000}\u{10FFFF}\"",
    "\"'single' and /slash/\"", "\"" + String(repeating: "long ", count: 100) + "\"",
  ]

  static let containersCases: [String] = [
    "{}", "[]", "{\"a\":{}}", "[[]]", "[{}]", "  {  }  ", "\t[\r\n]\n", "[1,2,3]", "[ 1 , 2 ]",
    "{\"a\":1,\"A\":2}", "[{\"id\":1},{\"id\":2}]", "{\"a\":{\"a\":{\"a\":1}}}",
    "{\"a\":1,\"ab\":2,\"b\":3}", "{\"a\\u0000\":1,\"a\":2}", "{\"é\":1,\"e\":2,\"e\\u0300\":3}",
    "{\"\\\"\":1,\"\\\\\":2,\"\":3}", "{\"a\": [1, {\"a\": 2}], \"b\": {\"a\": [3]}}",
    "[true,false,null,\"x\",-1.5e3,{\"k\":[]}]", "\u{FEFF}{\"bom\": true}", "\u{FEFF}1",
    String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
    String(repeating: "{\"a\":", count: 511) + "{}" + String(repeating: "}", count: 511),
    """
    {
      "name": "Ada",
      "sleepGoal": 8,
      "nights": [
        {"start": "2026-11-29T07:30:00Z", "hours": 7.25, "notes": null},
        {"start": "2026-11-30T07:30:00.5Z", "hours": 6, "notes": "tired \\u2014 very"}
      ]
    }
    """,
  ]

  @Test("top-level scalars, numbers in every form", arguments: scalarsCases)
  func scalars(_ text: String) {
    #expect(validationError(text) == nil)
  }

  @Test("strings with escapes and every kind of character", arguments: stringsCases)
  func strings(_ text: String) {
    #expect(validationError(text) == nil)
    #expect(validationError("[\(text), \(text)]") == nil)
    #expect(validationError("{\(text): \(text)}") == nil)
  }

  @Test("objects and arrays", arguments: containersCases)
  func containers(_ text: String) {
    #expect(validationError(text) == nil)
  }

  @Test("special bytes at every position of a string (the eight-byte skipping)")
  func specialBytesAtEveryPosition() {
    for length in 0..<40 {
      for position in 0..<max(length, 1) {
        for special in ["\\\"", "\\\\", "é", "🙂", "\\u0041"] {
          var characters = Array(repeating: "a", count: length)
          if length > 0 {
            characters[position] = special
          }
          let text = "[\"" + characters.joined() + "\"]"
          #expect(validationError(text) == nil, "\(text)")
        }
        var bytes = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length)
        bytes += Array("\"]".utf8)
        if length > 0 {
          bytes[2 + position] = 0x0A
          let error = validationError(bytes)
          #expect(error?.column == 3 + position)
          #expect(error?.message.hasPrefix("unescaped control character U+000A") == true)
        }
      }
    }
  }

  @Test("a large generated document")
  func largeDocument() throws {
    struct Night: Codable {
      var start: String
      var hours: Double
      var note: String?
      var tags: [String]
    }
    var generator = SeededGenerator(seed: 7)
    let nights = (0..<2000).map { k in
      Night(
        start: "2026-11-29T07:30:\(k % 60)Z", hours: Double.random(in: 0...12, using: &generator),
        note: k % 3 == 0 ? nil : "night \(k) — \u{1F634} \"quoted\" \\ back\nslash",
        tags: (0..<(k % 4)).map { "tag\($0)" })
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    #expect(validationError(Array(try encoder.encode(nights))) == nil)
    encoder.outputFormatting = []
    #expect(validationError(Array(try encoder.encode(nights))) == nil)
  }

  /// A valid document and the lengths of its proper prefixes that are valid JSON too.
  struct PrefixCase: Sendable, CustomTestStringConvertible {
    var text: String
    var validPrefixLengths: Set<Int>
    var testDescription: String { text.debugDescription }
  }

  static let prefixCases: [PrefixCase] = [
    PrefixCase(
      text: """
        {
          "name": "Ada \\"the first\\" Lovelace",
          "emoji": "🙂 \\ud83d\\ude00 é",
          "sleepGoal": 8.5,
          "tags": ["a", "é", [], {}],
          "nested": {"deep": [true, false, null, -0.5e-3, 1E+2]}
        }
        """,
      validPrefixLengths: []),
    PrefixCase(text: "\u{FEFF}[{\"a\":\"\\u00e9\"}]", validPrefixLengths: []),
    PrefixCase(text: "[1, 2] \n", validPrefixLengths: [6, 7]),
    PrefixCase(text: "-12.5e+3", validPrefixLengths: [2, 3, 5]),
    PrefixCase(text: "  0.25 ", validPrefixLengths: [3, 5, 6]),
    PrefixCase(text: "1e5", validPrefixLengths: [1]),
    PrefixCase(text: "\"日本\"", validPrefixLengths: []),
    PrefixCase(text: "true", validPrefixLengths: []),
    PrefixCase(text: "null ", validPrefixLengths: [4]),
  ]

  @Test("every truncation is refused, except prefixes that are JSON too", arguments: prefixCases)
  func truncations(_ testCase: PrefixCase) {
    let bytes = Array(testCase.text.utf8)
    #expect(validationError(bytes) == nil)
    for length in 0..<bytes.count {
      let error = validationError(Array(bytes[..<length]))
      if testCase.validPrefixLengths.contains(length) {
        #expect(error == nil, "prefix of \(length) bytes")
      } else {
        #expect(error != nil, "prefix of \(length) bytes")
      }
    }
  }

  /// Checks that an error is well formed: a position inside the input and a message without raw
  /// control characters.
  private func checkWellFormed(_ error: JSONSyntaxError?, for bytes: [UInt8]) {
    guard let error else { return }
    #expect(error.line >= 1 && error.column >= 1)
    #expect(error.line <= bytes.count(where: { $0 == 0x0A || $0 == 0x0D }) + 1)
    #expect(error.column <= bytes.count + 1)
    #expect(!error.message.isEmpty)
    #expect(error.message.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
  }

  @Test("random bytes never crash and give well-formed errors")
  func randomBytes() {
    var generator = SeededGenerator(seed: 42)
    let alphabet = Array("{}[],:\"\\ \n\t0123456789-+.eEtrufalsn/u".utf8) + [0xC3, 0xA9, 0xF0]
    for _ in 0..<4000 {
      let length = Int.random(in: 0...80, using: &generator)
      let bytes = (0..<length).map { _ in
        Bool.random(using: &generator)
          ? alphabet.randomElement(using: &generator)!
          : UInt8.random(in: 0...255, using: &generator)
      }
      checkWellFormed(validationError(bytes), for: bytes)
    }
  }

  @Test("random edits of valid documents never crash")
  func randomEdits() {
    var generator = SeededGenerator(seed: 1234)
    let documents = (Self.containersCases + Self.stringsCases + Self.scalarsCases).map {
      Array($0.utf8)
    }
    for _ in 0..<4000 {
      var bytes = documents.randomElement(using: &generator)!
      for _ in 0...Int.random(in: 0...2, using: &generator) {
        let position = Int.random(in: 0...bytes.count, using: &generator)
        let byte = UInt8.random(in: 0...255, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where position < bytes.count: bytes[position] = byte
        case 1 where position < bytes.count: bytes.remove(at: position)
        default: bytes.insert(byte, at: position)
        }
      }
      checkWellFormed(validationError(bytes), for: bytes)
    }
  }
}
