import Foundation

/// How text reaches the terminal: escaped so that nothing in the data can drive it, in
/// colour only for a person at a terminal who did not ask for none, and as wide as it is.
struct Terminal: Sendable {
  /// Whether to colour the output.
  var usesColor: Bool
  /// How many columns a line can take.
  var columns = 80

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
      columns: columns)
  }

  func bold(_ text: String) -> String { paint(text, "1") }

  private func paint(_ text: String, _ code: String) -> String {
    usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// `text` with every control character (escape sequences included) and every
  /// bidirectional override shown as `\u{…}`, so that data printed cannot move the
  /// cursor, change colours or reorder what the terminal shows.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result
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

  /// `text`, cut to at most `width` columns, with "…" at the end when it was cut.
  static func shortened(_ text: String, to width: Int) -> String {
    guard Self.width(text) > width else { return text }
    var result = ""
    for character in text {
      guard Self.width(result + String(character)) < width else { break }
      result.append(character)
    }
    return result + "…"
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
