/// Rows of text in aligned columns: the human output of the list commands.
struct TextTable {
  enum Alignment {
    case left, right
  }

  var headers: [String]
  var alignments: [Alignment]
  var rows: [[String]] = []

  /// The table, each column as wide as its widest cell, the last one not padded. Cells are
  /// escaped (see ``Terminal/escaped(_:)``); `terminal` makes the header bold.
  func render(_ terminal: Terminal) -> String {
    let cells = rows.map { $0.map(Terminal.escaped) }
    let widths = headers.indices.map { column in
      ([headers] + cells).map { Terminal.width($0[column]) }.max() ?? 0
    }
    func line(_ row: [String]) -> String {
      row.indices.map { column in
        let cell = row[column]
        guard column < row.count - 1 || alignments[column] == .right else { return cell }
        let padding = String(repeating: " ", count: widths[column] - Terminal.width(cell))
        return alignments[column] == .right ? padding + cell : cell + padding
      }.joined(separator: "  ")
    }
    return ([terminal.bold(line(headers))] + cells.map(line)).joined(separator: "\n")
  }
}
