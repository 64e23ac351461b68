import Foundation

/// How text reaches the terminal: escaped so that nothing in the data can drive it, in
/// colour only for a person at a terminal who did not ask for none, and as wide as it is.
struct Terminal: Sendable {
  /// Whether to colour the output.
  var usesColor: Bool
  /// Whether standard output is a terminal.
  var isTerminal = false
  /// How many columns a line can take.
  var columns = 80
  /// Whether the terminal shows Unicode block characters (`█`): the locale (`LC_ALL`, else
  /// `LC_CTYPE`, else `LANG`) is UTF-8 and `TERM` is not `dumb`; else charts use `#`.
  var showsBlocks = false
  /// Whether tables are cut to ``columns``: on a terminal, or when `$COLUMNS` says how wide
  /// (not in a pipe or a file, which keep every character).
  var limitsWidth = false

  /// Colour when standard output is a terminal, `NO_COLOR` is unset and `TERM` is not
  /// `dumb` (see no-color.org); as many columns as `$COLUMNS` says, else as the terminal
  /// has, else 80.
  static func forStandardOutput(environment: [String: String]) -> Terminal {
    let isTerminal = isatty(STDOUT_FILENO) == 1
    var size = winsize()
    let columns =
      environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
      ?? (isTerminal && ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0
        ? Int(size.ws_col) : 80)
    return Terminal(
      usesColor: isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb",
      isTerminal: isTerminal, columns: columns, showsBlocks: showsBlocks(environment),
      limitsWidth: isTerminal || environment["COLUMNS"] != nil)
  }

  /// See ``showsBlocks``.
  private static func showsBlocks(_ environment: [String: String]) -> Bool {
    let locale =
      [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
      .compactMap { $0 }.first { !$0.isEmpty }?.lowercased() ?? ""
    return (locale.contains("utf-8") || locale.contains("utf8")) && environment["TERM"] != "dumb"
  }

  func bold(_ text: String) -> String { paint(text, "1") }

  private func paint(_ text: String, _ code: String) -> String {
    usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// `text` with every control character (escape sequences included), every bidirectional
  /// override and every invisible formatting character (zero-width spaces, soft hyphens,
  /// byte order marks, line and paragraph separators) shown as `\u{…}`, so that data printed
  /// cannot move the cursor, change colours, reorder what the terminal shows or hide a
  /// character. Kept as they are, since they only join what is around them: a zero-width
  /// joiner or non-joiner between two characters that are not ASCII (emoji sequences such
  /// as 👩‍💻, Persian and Indic words), and the tags of an emoji flag (🏴 and the tags after it).
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  static func escaped(_ text: String) -> String {
    escaped(text, after: nil, before: nil)
  }

  /// `text` escaped as ``escaped(_:)`` escapes it where `previous` comes before it and
  /// `following` after it: a piece of a longer text.
  private static func escaped(
    _ text: String, after previous: Unicode.Scalar?, before following: Unicode.Scalar?
  ) -> String {
    var result = ""
    var previous = previous
    var inFlag = false
    let scalars = text.unicodeScalars
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      index = scalars.index(after: index)
      let next = index < scalars.endIndex ? scalars[index] : following
      if scalar.value == 0x1F3F4 { inFlag = true }
      if isHidden(scalar, between: previous, and: next, inFlag: inFlag) {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result.unicodeScalars.append(scalar)
      }
      if !(0xE0020...0xE007F).contains(scalar.value) && scalar.value != 0x1F3F4 { inFlag = false }
      previous = scalar
    }
    return result
  }

  /// Whether ``escaped(_:)`` shows `scalar`, between `previous` and `next`, as `\u{…}`.
  private static func isHidden(
    _ scalar: Unicode.Scalar, between previous: Unicode.Scalar?, and next: Unicode.Scalar?,
    inFlag: Bool
  ) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x20...0x7E: return false
    case 0x200C, 0x200D:
      // A joiner between two visible characters that are not ASCII joins them.
      guard let previous, let next, !previous.isASCII, !next.isASCII else { return true }
      return [previous, next].contains { isHidden($0, between: nil, and: nil, inFlag: false) }
    case 0xE0020...0xE007F:
      return !inFlag
    default:
      switch scalar.properties.generalCategory {
      case .format, .lineSeparator, .paragraphSeparator: return true
      default: return false
      }
    }
  }

  /// A setting's key as ``escaped(_:)`` shows text, and more, so that two different keys
  /// never look the same: also every invisible character (zero-width spaces and joiners, soft
  /// hyphens, other formatting characters, spaces other than U+0020), a space at either end,
  /// the combining marks of a key not in Unicode normalization form C (`e\u{301}`, where
  /// `é` is the precomposed key), and `\` itself (as `\\`).
  static func escapedKey(_ key: String) -> String {
    let scalars = Array(key.unicodeScalars)
    let isNFC = key.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(scalars)
    var result = ""
    for (index, scalar) in scalars.enumerated() {
      let hidden: Bool
      switch scalar.properties.generalCategory {
      case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator,
        .paragraphSeparator:
        hidden = true
      case .spaceSeparator:
        hidden = scalar != " " || index == 0 || index == scalars.count - 1
      case .nonspacingMark, .spacingMark, .enclosingMark:
        hidden = !isNFC
      default:
        hidden = false
      }
      if scalar == "\\" {
        result += "\\\\"
      } else if hidden {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        result += escaped(String(scalar))
      }
    }
    return result
  }

  /// How many columns `text` takes: two for wide East Asian characters and emoji, one for
  /// the rest.
  static func width(_ text: String) -> Int {
    text.reduce(0) { width, character in
      guard let scalar = character.unicodeScalars.first else { return width }
      return width
        + (isWide(scalar.value) || character.unicodeScalars.count > 1 && scalar.properties.isEmoji
          ? 2 : 1)
    }
  }

  /// `text` escaped (see ``escaped(_:)``), cut to at most `width`
  /// columns with "…" at the end when it is wider, and the columns it takes then.
  ///
  /// - Complexity: O(`width`): a cell of 50 MB costs what its first line's worth does.
  static func fitted(_ text: String, to width: Int) -> (text: String, width: Int) {
    // Fast paths: printable ASCII that fits, as it is; text far narrower than `width` (no
    // byte takes more than 10 columns, escaped), escaped whole.
    if text.utf8.count <= width, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      return (text, text.utf8.count)
    }
    if text.utf8.count <= width / 10 {
      let whole = escaped(text)
      return (whole, Self.width(whole))
    }
    var pieces: [(text: String, width: Int)] = []
    var used = 0
    var previous: Unicode.Scalar?
    var characters = text.makeIterator()
    var current = characters.next()
    while let character = current {
      let next = characters.next()
      let piece = escaped(
        String(character), after: previous, before: next?.unicodeScalars.first)
      previous = character.unicodeScalars.last
      current = next
      let pieceWidth = Self.width(piece)
      pieces.append((piece, pieceWidth))
      used += pieceWidth
      if used > width { break }
    }
    guard used > width else { return (pieces.map(\.text).joined(), used) }
    // Cut: keep what fits with the "…".
    while used + 1 > width, let last = pieces.popLast() { used -= last.width }
    guard width > 0 else { return ("", 0) }
    return (pieces.map(\.text).joined() + "…", used + 1)
  }

  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      true
    default: false
    }
  }
}
