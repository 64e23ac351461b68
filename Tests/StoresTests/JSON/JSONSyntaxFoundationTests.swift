import Foundation
import StoreTesting
import Testing

@testable import Stores

/// `JSONSyntax.validate` accepts exactly what `JSONDecoder` decodes, with three deliberate
/// exceptions where Foundation (swift-foundation on Linux) is more lenient: it accepts trailing
/// commas (`[1,]`, `{"a":1,}`), duplicate keys (keeping the first value), and UTF-16 or UTF-32
/// text, all of which we refuse.
/// And one Foundation bug: `JSONDecoder` refuses some spellings of zero with an exponent
/// (`0e5`, `0E1`, `-0.0e1`, `0.00e-5`, but not `0e0`, `0e10` or `-0e5`) when decoding a
/// `Double`, apparently a slip in its check for numbers that round to zero; they are valid JSON
/// and we accept them.
/// Foundation agrees with us on everything else checked here, notably: it refuses lone surrogate
/// escapes (`"\ud800"`, "The given data was not valid JSON."), skips a leading byte-order mark
/// but refuses one anywhere else outside a string, refuses numbers a `Double` cannot hold in
/// either direction (`1e999`, and `1e-999`, which would round to zero), and nests at most 512
/// levels.
@Suite("JSONSyntax agrees with JSONDecoder")
struct JSONSyntaxFoundationTests {
  /// Whether Foundation accepts `error`'s input only because it is lenient on purpose.
  private static func isKnownLeniency(_ error: JSONSyntaxError) -> Bool {
    error.message.hasPrefix("duplicate key")
      || error.message.hasSuffix("(trailing commas are not allowed)")
      || error.message.hasPrefix("the file looks like UTF-16")
  }

  /// Whether `bytes` has a number that is zero written with an exponent, which `JSONDecoder`
  /// sometimes refuses (see above).
  private static func hasZeroWithExponent(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    let tokens = text.split { !"0123456789eE.+-".contains($0) }
    return tokens.contains { $0.wholeMatch(of: /-?0(\.0+)?[eE][+-]?[0-9]+/) != nil }
  }

  static let corpus: [[UInt8]] = {
    var inputs: [[UInt8]] = []
    let errorCases =
      JSONSyntaxErrorTests.emptyAndTrailingCases + JSONSyntaxErrorTests.grammarCases
      + JSONSyntaxErrorTests.unterminatedCases + JSONSyntaxErrorTests.stringsCases
      + JSONSyntaxErrorTests.numbersCases + JSONSyntaxErrorTests.utf8Cases
      + JSONSyntaxErrorTests.duplicatesCases + JSONSyntaxErrorTests.positionsCases
      + JSONSyntaxErrorTests.depthCases.filter { $0.maxDepth == 512 }
    inputs += errorCases.map(\.input)
    let validCases =
      JSONSyntaxValidTests.scalarsCases + JSONSyntaxValidTests.stringsCases
      + JSONSyntaxValidTests.containersCases
    inputs += validCases.map { Array($0.utf8) }
    inputs += [
      "[1,]", "{\"a\":1,}", "[[1,],]", "{\"a\":1,\"a\":2}", "\"\\ud800\"", "\"\\udc00x\"",
      "\"\\ud800\\ud800\"", "\u{FEFF}[1]", "[1]\u{FEFF}", "[\"\u{FEFF}\"]", "1e-999", "-1e-999",
      "2.4703282292062327e-324", "1.7976931348623159e308", "1.7976931348623158e308", "-0",
      "0e5", "-0.0E1", "0.00e-5",
    ].map { Array($0.utf8) }
    return inputs
  }()

  @Test("accepts exactly what JSONDecoder accepts, but for the known differences")
  func agreement() {
    for input in Self.corpus {
      let error = validationError(input)
      let foundation = foundationAccepts(input)
      let label = String(decoding: input.prefix(60), as: UTF8.self).debugDescription
      if let error, foundation {
        #expect(Self.isKnownLeniency(error), "Foundation accepts \(label); we say \(error)")
      } else if error == nil && !foundation && Self.hasZeroWithExponent(input) {
        continue
      } else {
        #expect(
          (error == nil) == foundation,
          "\(label): Foundation \(foundation), we \(error.map { "\($0)" } ?? "accept")")
      }
    }
  }

  @Test("the known differences: Foundation accepts duplicates, trailing commas, UTF-16")
  func knownDifferences() throws {
    for text in ["[1,]", "{\"a\":1,}", "{\"a\":1,\"a\":2}"] {
      #expect(foundationAccepts(Array(text.utf8)))
      #expect(validationError(text) != nil)
    }
    for encoding in [String.Encoding.utf16, .utf16LittleEndian, .utf32BigEndian] {
      let bytes = Array(try #require("[1]".data(using: encoding)))
      #expect(foundationAccepts(bytes))
      #expect(validationError(bytes) != nil)
    }
    // A Foundation bug: valid zeros with exponents, refused when decoding a Double.
    for text in ["0e5", "-0.0E1", "0.00e-5"] {
      #expect(!foundationAccepts(Array(text.utf8)))
      #expect(validationError(text) == nil)
    }
    // Lone surrogates, a byte-order mark: Foundation does as we do.
    #expect(!foundationAccepts(Array("\"\\ud800\"".utf8)))
    #expect(foundationAccepts(Array("\u{FEFF}[1]".utf8)))
    #expect(!foundationAccepts(Array("[1]\u{FEFF}".utf8)))
  }

  @Test("random edits of valid documents: same verdict as JSONDecoder")
  func randomEdits() {
    var generator = SeededGenerator(seed: 99)
    let documents =
      (JSONSyntaxValidTests.containersCases + JSONSyntaxValidTests.stringsCases
      + JSONSyntaxValidTests.scalarsCases).map { Array($0.utf8) }.filter { $0.count < 2000 }
    let interesting = Array("{}[],:\"\\ 0-.e".utf8) + [0xC3, 0xFF]
    for _ in 0..<3000 {
      var bytes = documents.randomElement(using: &generator)!
      for _ in 0...Int.random(in: 0...1, using: &generator) {
        let position = Int.random(in: 0...bytes.count, using: &generator)
        let byte = interesting.randomElement(using: &generator)!
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where position < bytes.count: bytes[position] = byte
        case 1 where position < bytes.count: bytes.remove(at: position)
        default: bytes.insert(byte, at: position)
        }
      }
      let error = validationError(bytes)
      let foundation = foundationAccepts(bytes)
      let label = String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription
      if let error, foundation {
        #expect(Self.isKnownLeniency(error), "Foundation accepts \(label); we say \(error)")
      } else if error == nil && !foundation && Self.hasZeroWithExponent(bytes) {
        continue
      } else {
        #expect(
          (error == nil) == foundation,
          "\(label): Foundation \(foundation), we \(error.map { "\($0)" } ?? "accept")")
      }
    }
  }
}
