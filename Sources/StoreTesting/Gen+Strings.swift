/// An ordered repertoire of characters for `Gen.character(from:)` and `Gen.string(from:)`.
///
/// An alphabet is a list of *blocks* (e.g. ASCII, CJK, emoji), each with a weight and an ordered
/// list of characters. Order is what shrinking follows: a character shrinks toward the first
/// block and toward the first character of its block, so the simplest character of
/// ``unicode`` and ``asciiPrintable`` is `"a"`, and the simplest non-empty string is `"a"`,
/// `"aa"`, ….
///
/// The built-in alphabets only contain characters that never merge with a neighbour into one
/// grapheme cluster, so a generated string has exactly as many `Character`s as were drawn.
public struct Alphabet: Sendable {
  struct Block: Sendable {
    let name: String
    let weight: Int
    let count: Int
    let character: @Sendable (Int) -> Character
  }

  let blocks: [Block]
  private let totalWeight: UInt64

  private init(blocks: [Block]) {
    self.blocks = blocks
    self.totalWeight = UInt64(blocks.reduce(0) { $0 + $1.weight })
  }

  /// An alphabet of the characters of `characters`, in order (the first is the simplest).
  /// Characters that combine with their neighbours (such as lone combining marks) can make a
  /// generated string shorter than the number of characters drawn.
  /// - Precondition: `characters` is not empty.
  public init(_ characters: String) {
    let list = Array(characters)
    precondition(!list.isEmpty, "Alphabet needs at least one character")
    self.init(blocks: [Block(name: "custom", weight: 1, count: list.count) { list[$0] }])
  }

  /// The 95 printable ASCII characters, ordered `a…z`, `A…Z`, `0…9`, space, then punctuation.
  public static let asciiPrintable = Alphabet(blocks: [asciiBlock(weight: 1)])

  /// A mix that stresses text handling. Weights (out of 100): printable ASCII 40, accented Latin
  /// letters 10, letters with combining marks (one or two, e.g. `"e\u{301}"`) 10, CJK, kana and
  /// Hangul 10, Hebrew and Arabic (right-to-left) 8, single-scalar emoji 8, multi-scalar emoji
  /// (flags, ZWJ sequences, skin tones, keycaps, variation selectors) 9, whitespace and
  /// invisible characters (tab, newline, CR-LF, no-break and zero-width spaces, direction marks)
  /// 5.
  public static let unicode = Alphabet(blocks: [
    asciiBlock(weight: 40),
    .scalars("latin", weight: 10, [0xC0...0xD6, 0xD8...0xF6, 0xF8...0x17F]),
    combiningBlock(weight: 10),
    .scalars(
      "cjk", weight: 10, [0x4E00...0x9FFF, 0x3041...0x3096, 0x30A1...0x30FA, 0xAC00...0xD7A3]),
    .scalars("rtl", weight: 8, [0x05D0...0x05EA, 0x0621...0x063A, 0x0641...0x064A]),
    .scalars("emoji", weight: 8, [0x1F600...0x1F64F, 0x1F680...0x1F6C5]),
    emojiSequenceBlock(weight: 9),
    .strings(
      "whitespace", weight: 5,
      ["\t", "\n", "\r\n", "\u{A0}", "\u{2003}", "\u{200B}", "\u{200E}", "\u{200F}", "\u{FEFF}"]),
  ])

  private static func asciiBlock(weight: Int) -> Block {
    let ordered =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
      + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
    let list = Array(ordered)
    return Block(name: "ascii", weight: weight, count: list.count) { list[$0] }
  }

  /// A base letter `a…z` followed by one combining mark from U+0300…U+036F, or by that mark
  /// and U+0323 (combining dot below).
  private static func combiningBlock(weight: Int) -> Block {
    let marks = 0x36F - 0x300 + 1
    return Block(name: "combining", weight: weight, count: 26 * marks * 2) { index in
      var scalars = String.UnicodeScalarView()
      scalars.append(Unicode.Scalar(UInt8(ascii: "a") + UInt8(index % 26)))
      scalars.append(Unicode.Scalar(UInt32(0x300 + index / 26 % marks))!)
      if index >= 26 * marks {
        scalars.append(Unicode.Scalar(0x323)!)
      }
      return Character(String(scalars))
    }
  }

  private static func emojiSequenceBlock(weight: Int) -> Block {
    let flags = ["US", "FR", "JP", "DE", "BR", "IL", "SA", "UA", "CN", "IN", "KR", "ZA"].map {
      region in
      String(
        String.UnicodeScalarView(
          region.unicodeScalars.map { letter in
            Unicode.Scalar(0x1F1E6 + letter.value - 0x41)!
          }))
    }
    let sequences = [
      "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}",  // family
      "\u{1F469}\u{200D}\u{1F4BB}",  // woman technologist
      "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",  // rainbow flag
      "\u{2764}\u{FE0F}\u{200D}\u{1F525}",  // heart on fire
      "\u{1F9D1}\u{1F3FD}\u{200D}\u{1F680}",  // astronaut, medium skin tone
      "\u{1F44D}\u{1F3FD}",  // thumbs up, medium skin tone
      "\u{1F44B}\u{1F3FF}",  // waving hand, dark skin tone
      "1\u{FE0F}\u{20E3}",  // keycap 1
      "#\u{FE0F}\u{20E3}",  // keycap #
      "\u{2764}\u{FE0F}",  // red heart with emoji presentation
      "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",  // England
    ]
    return .strings("emoji-sequences", weight: weight, flags + sequences)
  }

  /// Draws one character: a block choice (when there are several blocks), then an index.
  func draw(from source: inout ChoiceSource) throws -> Character {
    let intended = source.random { random, _ in
      var ticket = random.next(below: totalWeight)
      var blockIndex = 0
      while ticket >= UInt64(blocks[blockIndex].weight) {
        ticket -= UInt64(blocks[blockIndex].weight)
        blockIndex += 1
      }
      return (blockIndex, Int(random.next(below: UInt64(blocks[blockIndex].count))))
    }
    var blockIndex = 0
    if blocks.count > 1 {
      blockIndex = try source.drawIndex(count: blocks.count, intended: intended?.0 ?? 0)
    }
    let block = blocks[blockIndex]
    return block.character(try source.drawIndex(count: block.count, intended: intended?.1 ?? 0))
  }
}

extension Alphabet.Block {
  /// A block of consecutive Unicode scalar ranges, in order.
  static func scalars(_ name: String, weight: Int, _ ranges: [ClosedRange<UInt32>]) -> Self {
    let count = ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
    return Self(name: name, weight: weight, count: count) { index in
      var remaining = UInt32(index)
      for range in ranges {
        let length = range.upperBound - range.lowerBound + 1
        if remaining < length {
          return Character(Unicode.Scalar(range.lowerBound + remaining)!)
        }
        remaining -= length
      }
      preconditionFailure("character index \(index) out of range")
    }
  }

  /// A block of explicit strings, each a single grapheme cluster.
  static func strings(_ name: String, weight: Int, _ strings: [String]) -> Self {
    let characters = strings.map { Character($0) }
    return Self(name: name, weight: weight, count: characters.count) { characters[$0] }
  }
}

extension Gen where Value == Character {
  /// A generator of single characters from `alphabet`. Shrinks toward the alphabet's first
  /// character (`"a"` for the built-in alphabets). Two choices per character (one for a
  /// single-block alphabet).
  public static func character(from alphabet: Alphabet = .unicode) -> Gen<Character> {
    Gen { source in try source.value { try alphabet.draw(from: &$0) } }
  }
}

extension Gen where Value == String {
  /// A generator of strings of characters from `alphabet`, with a character count in `count`
  /// (as ``array(count:)`` bounds an array: every collection's bound is a count).
  ///
  /// Lengths grow with the case size; about 1 in 10 strings has the minimum length (the empty
  /// string when `count` starts at 0). Shrinks toward shorter strings, then toward simpler
  /// characters: the minimal string of length n is n times the alphabet's first character
  /// (`"aaa"` for n = 3 with the built-in alphabets). O(length) per value.
  public static func string(from alphabet: Alphabet = .unicode, count length: ClosedRange<Int>)
    -> Gen<String>
  {
    precondition(length.lowerBound >= 0, "Gen.string needs a non-negative count")
    return Gen { source in
      String(
        try drawElements(count: length, from: &source) { source in
          try source.value { try alphabet.draw(from: &$0) }
        })
    }
  }

  /// A generator of strings of at most `maxCount` characters from `alphabet` (by default a
  /// Unicode mix with combining marks, emoji, CJK and right-to-left text), sometimes empty.
  public static func string(from alphabet: Alphabet = .unicode, maxCount: Int = 16)
    -> Gen<String>
  {
    string(from: alphabet, count: 0...maxCount)
  }

  /// A generator of printable-ASCII strings of at most `maxCount` characters, sometimes empty.
  public static func asciiString(maxCount: Int = 16) -> Gen<String> {
    string(from: .asciiPrintable, count: 0...maxCount)
  }

  @available(*, deprecated, renamed: "string(from:count:)")
  public static func string(from alphabet: Alphabet = .unicode, length: ClosedRange<Int>)
    -> Gen<String>
  {
    string(from: alphabet, count: length)
  }

  @available(*, deprecated, renamed: "string(from:maxCount:)")
  public static func string(from alphabet: Alphabet = .unicode, maxLength: Int) -> Gen<String> {
    string(from: alphabet, maxCount: maxLength)
  }

  @available(*, deprecated, renamed: "asciiString(maxCount:)")
  public static func asciiString(maxLength: Int) -> Gen<String> {
    asciiString(maxCount: maxLength)
  }
}
