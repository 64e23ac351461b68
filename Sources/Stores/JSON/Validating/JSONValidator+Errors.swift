extension JSONValidator {
  /// The longest piece of input quoted in a message, in Unicode scalars.
  static let tokenLimit = 20

  /// An error at byte `offset` with `message`. O(offset), as it counts lines and columns.
  @inline(never)
  func error(at offset: Int, _ message: String) -> JSONSyntaxError {
    let (line, column) = location(of: offset)
    return JSONSyntaxError(line: line, column: column, message: message)
  }

  /// The 1-based line and column (in Unicode scalars) of byte `offset`, which must follow only
  /// valid UTF-8. O(offset).
  func location(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = bodyStart
    var i = bodyStart
    while i < offset {
      let byte = bytes[i]
      if byte == Byte.lineFeed
        || (byte == Byte.carriageReturn && (i + 1 >= count || bytes[i + 1] != Byte.lineFeed))
      {
        line += 1
        lineStart = i + 1
      }
      i += 1
    }
    var column = 1
    for k in lineStart..<max(offset, lineStart) where bytes[k] & 0xC0 != 0x80 {
      column += 1
    }
    return (line, column)
  }

  /// An error for an unexpected byte (or the end of the input) at `offset`, worded by `message`
  /// from the description of what was found there. Invalid UTF-8 at `offset` is reported as
  /// such instead; at the end of the input, the innermost open container is named.
  @inline(never)
  func unexpected(at offset: Int, _ message: (String) -> String) -> JSONSyntaxError {
    if offset < count && bytes[offset] >= 0x80 && utf8SequenceLength(at: offset) == 0 {
      return invalidUTF8(at: offset)
    }
    guard offset < count else {
      var text = message("end of file")
      if let top = containers.last {
        let (line, column) = location(of: top >> 1)
        let kind = top & 1 == 1 ? "object" : "array"
        text += " (the \(kind) opened at line \(line), column \(column) is not closed)"
      }
      return error(at: offset, text)
    }
    return error(at: offset, message(quotedToken(at: offset)))
  }

  /// The error when a value was expected at `offset` but something else was found.
  @inline(never)
  func expectedValue(_ context: ValueContext, at offset: Int) -> JSONSyntaxError {
    var hint = ""
    if offset < count {
      switch bytes[offset] {
      case UInt8(ascii: "'"): hint = " (JSON strings need double quotes)"
      case Byte.slash, UInt8(ascii: "#"): hint = " (JSON has no comments)"
      case Byte.plus: hint = " (a number cannot start with '+')"
      case Byte.dot: hint = " (a number needs a digit before the decimal point)"
      case Byte.closeBracket where context == .nextElement:
        hint = " (trailing commas are not allowed)"
      default: break
      }
    }
    return unexpected(at: offset) { found in
      switch context {
      case .topLevel: return "expected a JSON value, found \(found)\(hint)"
      case .firstElement: return "expected a value or ']', found \(found)\(hint)"
      case .nextElement: return "expected a value after ',', found \(found)\(hint)"
      case .memberValue: return "expected a value after ':', found \(found)\(hint)"
      }
    }
  }

  /// The error for a string, opened at `start`, that the input ends inside.
  @inline(never)
  func unterminatedString(_ start: Int) -> JSONSyntaxError {
    let (line, column) = location(of: start)
    return error(
      at: count,
      "unterminated string starting at line \(line), column \(column): expected '\"', "
        + "found end of file")
  }

  /// The error for a raw control character (below U+0020) inside a string.
  @inline(never)
  func controlCharacter(at offset: Int) -> JSONSyntaxError {
    let byte = bytes[offset]
    let escape: String
    switch byte {
    case 0x08: escape = "\\b"
    case Byte.tab: escape = "\\t"
    case Byte.lineFeed: escape = "\\n"
    case 0x0C: escape = "\\f"
    case Byte.carriageReturn: escape = "\\r"
    default: escape = "\\u00" + hex(byte)
    }
    return error(
      at: offset,
      "unescaped control character \(codePoint(UInt32(byte))) in a string "
        + "(write it as \(escape))")
  }

  /// The error for a backslash at `offset` followed by a character that is no escape.
  @inline(never)
  func invalidEscape(at offset: Int) -> JSONSyntaxError {
    let next = offset + 1
    if bytes[next] >= 0x80 && utf8SequenceLength(at: next) == 0 {
      return invalidUTF8(at: next)
    }
    let (scalar, _) = decodeScalar(at: next)
    let shown =
      isPrintable(scalar) ? "'\\\(Character(scalar))'" : "'\\' + \(codePoint(scalar.value))"
    return error(
      at: offset,
      "invalid escape \(shown) in a string "
        + "(valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
  }

  /// The error for a `\u` escape at `offset` whose hex digit at `badDigit` is not one.
  @inline(never)
  func invalidHexEscape(at offset: Int, badDigit: Int) -> JSONSyntaxError {
    if bytes[badDigit] >= 0x80 && utf8SequenceLength(at: badDigit) == 0 {
      return invalidUTF8(at: badDigit)
    }
    let written = text(from: offset, to: badDigit)
    let (scalar, _) = decodeScalar(at: badDigit)
    let shown =
      isPrintable(scalar)
      ? "'\(written)\(Character(scalar))'" : "'\(written)' + \(codePoint(scalar.value))"
    return error(
      at: offset, "invalid escape \(shown) in a string (expected 4 hex digits after '\\u')")
  }

  /// The error for a `\u` escape at `offset` of a surrogate that is not part of a pair.
  @inline(never)
  func loneSurrogate(at offset: Int, value: UInt32, isHigh: Bool) -> JSONSyntaxError {
    let written = text(from: offset, to: offset + 6)
    let rule =
      isHigh
      ? "a high surrogate must be followed by a low surrogate escape, \\udc00 to \\udfff"
      : "a low surrogate must follow a high surrogate escape, \\ud800 to \\udbff"
    return error(at: offset, "lone surrogate '\(written)' in a string (\(rule))")
  }

  /// The error for the invalid UTF-8 sequence starting at `offset`.
  @inline(never)
  func invalidUTF8(at offset: Int) -> JSONSyntaxError {
    let lead = bytes[offset]
    let detail: String
    switch lead {
    case 0x80...0xBF:
      detail = "unexpected continuation byte 0x\(hex(lead))"
    case 0xC0, 0xC1:
      detail = "byte 0x\(hex(lead)) starts an overlong encoding"
    case 0xF5...0xFF:
      detail = "byte 0x\(hex(lead)) never appears in UTF-8"
    default:
      let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
      var found = "invalid sequence starting with byte 0x\(hex(lead))"
      for k in 1..<length {
        guard offset + k < count else {
          found = "the sequence starting with byte 0x\(hex(lead)) is cut off by the end of the file"
          break
        }
        let byte = bytes[offset + k]
        if k == 1 {
          let pair = "bytes 0x\(hex(lead)) 0x\(hex(byte))"
          if lead == 0xE0 && byte >= 0x80 && byte < 0xA0
            || lead == 0xF0 && byte >= 0x80
              && byte < 0x90
          {
            found = "\(pair) start an overlong encoding"
            break
          }
          if lead == 0xED && byte >= 0xA0 && byte <= 0xBF {
            found = "\(pair) encode a UTF-16 surrogate"
            break
          }
          if lead == 0xF4 && byte >= 0x90 && byte <= 0xBF {
            found = "\(pair) encode a value above U+10FFFF"
            break
          }
        }
        if byte & 0xC0 != 0x80 {
          found =
            "byte 0x\(hex(lead)) must be followed by \(length - 1) continuation "
            + "byte\(length > 2 ? "s" : "") (found 0x\(hex(byte)))"
          break
        }
      }
      detail = found
    }
    return error(at: offset, "invalid UTF-8 at byte offset \(offset): \(detail)")
  }

  /// The number in `start..<end`, cut to ``tokenLimit`` characters.
  func numberText(start: Int, end: Int) -> String {
    let shown = min(end - start, Self.tokenLimit)
    return text(from: start, to: start + shown) + (shown < end - start ? "…" : "")
  }

  /// The ASCII bytes in `start..<end` as a string.
  func text(from start: Int, to end: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
  }

  /// The scalar at `offset` and its length in bytes; U+FFFD with length 1 when the bytes there
  /// are not valid UTF-8.
  func decodeScalar(at offset: Int) -> (Unicode.Scalar, Int) {
    let length = utf8SequenceLength(at: offset)
    guard length > 0 else { return ("\u{FFFD}", 1) }
    let lead = UInt32(bytes[offset])
    var value: UInt32
    switch length {
    case 1: value = lead
    case 2: value = lead & 0x1F
    case 3: value = lead & 0x0F
    default: value = lead & 0x07
    }
    for k in 1..<length {
      value = value << 6 | UInt32(bytes[offset + k] & 0x3F)
    }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
  }

  /// A short, quoted description of the input at `offset` (not the end), such as `'x'`,
  /// `'NaN'`, `'"name"'`, `"'"` or `U+0001`.
  func quotedToken(at offset: Int) -> String {
    let (first, firstLength) = decodeScalar(at: offset)
    guard isPrintable(first) else { return codePoint(first.value) }
    if first == "'" {
      return "\"'\""
    }
    let isString = first == "\""
    guard isString || isTokenScalar(first) else { return "'\(Character(first))'" }
    var scalars = String.UnicodeScalarView()
    scalars.append(first)
    var i = offset + firstLength
    var cut = false
    while i < count {
      let (scalar, length) = decodeScalar(at: i)
      if isString ? !isPrintable(scalar) : !isTokenScalar(scalar) {
        break
      }
      if scalars.count == Self.tokenLimit {
        cut = true
        break
      }
      scalars.append(scalar)
      i += length
      if isString && scalar == "\"" {
        break
      }
    }
    return "'\(String(scalars))\(cut ? "…" : "")'"
  }

  /// Whether `scalar` belongs to a bare word or number quoted whole in messages.
  func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let byte = UInt8(scalar.value)
      return isWordByte(byte) || byte == Byte.plus || byte == Byte.minus || byte == Byte.dot
    }
    return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
  }
}

/// Whether `scalar` can be shown as itself in a message: not a control, format, separator
/// (other than the space), surrogate, private-use or unassigned code point.
func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
  if scalar.isASCII {
    return scalar.value >= 0x20 && scalar.value < 0x7F
  }
  switch scalar.properties.generalCategory {
  case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator,
    .paragraphSeparator, .spaceSeparator:
    return false
  default:
    return true
  }
}

/// `value` as `U+0001`: upper-case hex, at least four digits.
func codePoint(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// `byte` as two upper-case hex digits.
func hex(_ byte: UInt8) -> String {
  let digits = String(byte, radix: 16, uppercase: true)
  return byte < 0x10 ? "0" + digits : digits
}
