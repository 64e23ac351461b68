/// Text helpers shared by the models and the error messages.
extension String {
  /// The text on one line — each line break (`\n`, `\r\n`, `\r` and the others
  /// `Character.isNewline` knows) a space — trimmed of white space.
  var normalizedToOneLine: String {
    // Fast path: no byte that can start a line break (`\n`, VT, FF, `\r`, or the lead
    // bytes of U+0085, U+2028, U+2029) and nothing to trim — told from the bytes at either
    // end when they are ASCII other than the space and tab.
    var text = self
    let (mayBreak, isPlainAtBothEnds) = text.withUTF8 { bytes in
      func isPlainASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
      var mayBreak = false
      for byte in bytes where (0x0A...0x0D).contains(byte) || byte == 0xC2 || byte == 0xE2 {
        mayBreak = true
        break
      }
      return (
        mayBreak, bytes.count > 0 && isPlainASCII(bytes[0]) && isPlainASCII(bytes[bytes.count - 1])
      )
    }
    if !mayBreak
      && (isPlainAtBothEnds || first?.isWhitespace == false && last?.isWhitespace == false)
    {
      return self
    }
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
