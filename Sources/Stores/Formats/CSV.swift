import Foundation

/// Comma-separated values as RFC 4180 has them — the form spreadsheets and other apps import
/// and export — read strictly and written so that any text survives.
///
/// Fields are separated by commas, or by another delimiter (`;` and tabs are common: see
/// ``delimiter(ofHeaderIn:)``). Reading accepts records ended by CRLF, LF or CR, fields in
/// double quotes holding delimiters,
/// quotes (doubled) and line breaks, a UTF-8 byte-order mark at the start, and a last record
/// without a line break; it refuses, with the line and column, text that is not UTF-8, a quote
/// inside an unquoted field, anything after a closing quote but a comma or a line break, and
/// a quoted field that never ends. Blank lines are skipped.
enum CSV {
  /// One field of a record, with where it starts: its line (1-based) and its offset in the
  /// bytes, which ``Reader/column(of:)`` turns into a column when a message needs one.
  struct Field: Equatable, Sendable {
    var text: String
    var line: Int
    var offset: Int
    var lineStart: Int
  }

  /// A reader of the records of `data`, one at a time, so that a large file can be read in
  /// parts (with progress in between).
  struct Reader {
    private let bytes: [UInt8]
    private var offset: Int
    private var line = 1
    /// The offset of the first byte of the current line, to count columns.
    private var lineStart: Int
    /// The line and column where the last record returned started.
    private(set) var recordLine = 1
    /// The byte between fields.
    let delimiter: UInt8

    init(_ data: Data, delimiter: UInt8 = UInt8(ascii: ",")) {
      self.delimiter = delimiter
      bytes = Array(data)
      let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
      offset = hasBOM ? 3 : 0
      lineStart = offset
    }

    /// How many bytes are read so far, and in all.
    var progress: (read: Int, total: Int) { (offset, bytes.count) }

    /// The next record's fields, or `nil` at the end.
    ///
    /// - Throws: ``CSVProblem`` with the place of the first problem.
    /// - Complexity: O(*n*) in the record's length.
    mutating func nextRecord() throws(CSVProblem) -> [Field]? {
      // Blank lines between records are skipped.
      while offset < bytes.count, bytes[offset] == 0x0A || bytes[offset] == 0x0D { skipLineBreak() }
      guard offset < bytes.count else { return nil }
      recordLine = line
      var fields: [Field] = []
      while true {
        fields.append(try field())
        guard offset < bytes.count else { return fields }
        guard bytes[offset] == delimiter else {
          skipLineBreak()
          return fields
        }
        offset += 1
      }
    }

    /// The field at `offset`, which is left at the comma, line break or end after it.
    private mutating func field() throws(CSVProblem) -> Field {
      let (startLine, startOffset, startLineStart) = (line, offset, lineStart)
      func made(_ text: String) -> Field {
        Field(text: text, line: startLine, offset: startOffset, lineStart: startLineStart)
      }
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
        let start = offset
        while offset < bytes.count, !isSeparator(bytes[offset]) {
          if bytes[offset] == UInt8(ascii: "\"") {
            throw problem(
              "a quote inside a field that does not start with one — put the whole field in "
                + "quotes and double the quote (\"\"\"\")", at: offset)
          }
          offset += 1
        }
        return made(try text(bytes[start..<offset], startingAt: start))
      }
      var content: [UInt8] = []
      offset += 1
      while true {
        guard offset < bytes.count else {
          throw CSVProblem(
            line: startLine, column: column(of: made("")),
            message: "the quoted field that starts here never ends — add the closing quote")
        }
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") {
          if offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "\"") {
            content.append(byte)
            offset += 2
            continue
          }
          offset += 1
          guard offset == bytes.count || isSeparator(bytes[offset]) else {
            throw problem(
              "expected \(delimiterName) or the end of the line after the closing quote",
              at: offset)
          }
          return made(try text(content[...], startingAt: startOffset))
        }
        if byte == 0x0A || byte == 0x0D {
          // A line break inside quotes belongs to the field.
          let start = offset
          skipLineBreak()
          content += bytes[start..<offset]
          continue
        }
        content.append(byte)
        offset += 1
      }
    }

    private func isSeparator(_ byte: UInt8) -> Bool {
      byte == delimiter || byte == 0x0A || byte == 0x0D
    }

    /// "a comma", "a semicolon", "a tab".
    private var delimiterName: String {
      switch delimiter {
      case UInt8(ascii: ","): "a comma"
      case UInt8(ascii: ";"): "a semicolon"
      case 0x09: "a tab"
      default: "'\(Character(Unicode.Scalar(delimiter)))'"
      }
    }

    /// Moves past the line break at `offset` (CRLF, LF or CR) and starts a new line.
    private mutating func skipLineBreak() {
      if bytes[offset] == 0x0D, offset + 1 < bytes.count, bytes[offset + 1] == 0x0A {
        offset += 2
      } else {
        offset += 1
      }
      line += 1
      lineStart = offset
    }

    /// `bytes` as text, refusing what is not UTF-8 (the field starts at `offset`). Every
    /// character is kept, a byte-order mark too.
    private func text(_ bytes: ArraySlice<UInt8>, startingAt offset: Int)
      throws(CSVProblem) -> String
    {
      let text = String(decoding: bytes, as: UTF8.self)
      // Decoding replaces each ill-formed sequence with U+FFFD, which changes the bytes; text
      // that is all ASCII is valid as it is.
      guard bytes.allSatisfy({ $0 < 0x80 }) || text.utf8.elementsEqual(bytes) else {
        throw problem("the text is not UTF-8 — save the file as UTF-8", at: offset)
      }
      return text
    }

    /// The 1-based column, in characters, where `field` starts on its line.
    func column(of field: Field) -> Int {
      String(decoding: bytes[field.lineStart..<min(field.offset, bytes.count)], as: UTF8.self)
        .count + 1
    }

    private func problem(_ message: String, at offset: Int) -> CSVProblem {
      let place = Field(text: "", line: line, offset: offset, lineStart: lineStart)
      return CSVProblem(line: line, column: column(of: place), message: message)
    }
  }

  /// The delimiter of the header line of `data`: whichever of `,`, `;` and tab it holds most
  /// often outside quotes, a comma when it holds none. O(*n*) in the line's length.
  static func delimiter(ofHeaderIn data: Data) -> UInt8 {
    var counts: [UInt8: Int] = [:]
    var isQuoted = false
    for byte in data {
      if byte == UInt8(ascii: "\"") { isQuoted.toggle() }
      if !isQuoted, byte == 0x0A || byte == 0x0D { break }
      if !isQuoted, byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == 0x09 {
        counts[byte, default: 0] += 1
      }
    }
    let comma = UInt8(ascii: ",")
    return [UInt8(ascii: ";"), 0x09].reduce(comma) { best, byte in
      counts[byte, default: 0] > counts[best, default: 0] ? byte : best
    }
  }

  /// The record `fields` as one line of CSV (with its line break): a field is quoted when it
  /// holds a comma, a quote, a line break or spaces at either end, with its quotes doubled.
  static func line(_ fields: [String]) -> String {
    fields.map { field in
      let needsQuotes =
        field.contains { $0 == "," || $0 == "\"" || $0.isNewline }
        || field.first?.isWhitespace == true || field.last?.isWhitespace == true
      return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }.joined(separator: ",") + "\r\n"
  }
}

/// What is wrong in a CSV text, and where: 1-based line and column.
struct CSVProblem: Error, Equatable, Sendable {
  var line: Int
  var column: Int
  var message: String
}
