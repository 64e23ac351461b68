/// Text helpers shared by the models and the error messages.
extension String {
  /// The text on one line — each line break (`\n`, `\r\n`, `\r` and the others
  /// `Character.isNewline` knows) a space — trimmed of white space.
  var normalizedToOneLine: String {
    // Fast path: no byte that can start a line break (`\n`, VT, FF, `\r`, or the lead
    // bytes of U+0085, U+2028, U+2029) and nothing to trim.
    let mayBreak = utf8.contains { (0x0A...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }
    if !mayBreak, first?.isWhitespace == false, last?.isWhitespace == false { return self }
    let characters = map { $0.isNewline ? " " : $0 }
    guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
      let last = characters.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(characters[first...last])
  }
}

/// `text` in double quotes, cut to at most 40 characters, with control characters escaped,
/// so that an error message never carries much of a file or anything a terminal obeys.
func quoted(_ text: String) -> String {
  var result = ""
  for (count, scalar) in text.unicodeScalars.enumerated() {
    if count == 40 {
      result += "…"
      break
    }
    if scalar.properties.generalCategory == .control || scalar == "\"" || scalar == "\\" {
      result += scalar.escaped(asASCII: true)
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return "\"\(result)\""
}
