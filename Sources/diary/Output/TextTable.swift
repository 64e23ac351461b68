/// Rows of text in aligned columns: the human output of the list commands.
///
/// Cells are escaped (see ``Terminal/escaped(_:)``), each column is as wide as its widest
/// cell and the last one is not padded; the terminal makes the header bold.
struct TextTable {
  enum Alignment {
    case left, right
  }

  var headers: [String]
  var alignments: [Alignment]
  var rows: [[String]] = []

  /// The table with ``rows``, as text.
  func render(_ terminal: Terminal) -> String {
    let widths = widths(of: rows)
    return
      ([terminal.bold(line(headers, widths))] + rows.map { line($0.map(Terminal.escaped), widths) })
      .joined(separator: "\n")
  }

  /// Writes the table of `items`, whose cells `cells` gives, line by line to `output`: the
  /// cells are made twice (to measure the columns, then to write them) rather than kept, so
  /// that a list of any length takes no more memory than one line.
  @MainActor
  func write<Items: Collection>(
    _ items: Items, terminal: Terminal, to output: Output, cells: (Items.Element) -> [String]
  ) throws(OutputError) {
    let widths = widths(of: items.lazy.map(cells))
    try output.line(terminal.bold(line(headers, widths)))
    for item in items {
      try output.line(line(cells(item).map(Terminal.escaped), widths))
    }
  }

  /// The width of each column: that of its widest escaped cell among the headers and `rows`.
  /// The last column, when it is not padded, is not measured.
  private func widths(of rows: some Sequence<[String]>) -> [Int] {
    var widths = headers.map(Terminal.width)
    let measured = alignments.last == .right ? headers.count : headers.count - 1
    for row in rows {
      for column in 0..<measured {
        widths[column] = max(widths[column], Terminal.width(Terminal.escaped(row[column])))
      }
    }
    return widths
  }

  private func line(_ row: [String], _ widths: [Int]) -> String {
    row.indices.map { column in
      let cell = row[column]
      guard column < row.count - 1 || alignments[column] == .right else { return cell }
      let padding = String(repeating: " ", count: max(0, widths[column] - Terminal.width(cell)))
      return alignments[column] == .right ? padding + cell : cell + padding
    }.joined(separator: "  ")
  }
}
