/// Rows of text in aligned columns: the human output of the list commands.
///
/// Cells are escaped (see ``Terminal/escaped(_:)``), each column is as wide as its widest
/// cell and the last one is not padded; the terminal makes the header bold. Where the
/// terminal limits the width (see ``Terminal/limitsWidth``), the widest columns are narrowed
/// until a line fits, and cells cut with "…": a line never wraps.
struct TextTable {
  enum Alignment {
    case left, right
  }

  var headers: [String]
  var alignments: [Alignment]
  var rows: [[String]] = []

  /// The gap between two columns.
  private static let gap = 2

  /// The table with ``rows``, as text, fitted to the terminal's width where it limits it.
  func render(_ terminal: Terminal) -> String {
    let widths = widths(of: rows, terminal)
    return ([terminal.bold(line(headers, widths))] + rows.map { line($0, widths) })
      .joined(separator: "\n")
  }

  /// Writes the table of `items`, whose cells `cells` gives, line by line to `output`: the
  /// cells are made twice (to measure the columns, then to write them) rather than kept, so
  /// that a list of any length takes no more memory than one line.
  @MainActor
  func write<Items: Collection>(
    _ items: Items, terminal: Terminal, to output: Output, cells: (Items.Element) -> [String]
  ) throws(OutputError) {
    let widths = widths(of: items.lazy.map(cells), terminal)
    try output.line(terminal.bold(line(headers, widths)))
    for item in items {
      try output.line(line(cells(item), widths))
    }
  }

  /// The natural width of each column — that of its widest escaped cell among the headers
  /// and `rows`, each measured up to `limit` columns — and the width of a line of them.
  /// O(cells × `limit`) at most.
  func naturalWidths(of rows: some Sequence<[String]>, limit: Int) -> (columns: [Int], line: Int) {
    var widths = headers.map(Terminal.width)
    for row in rows {
      for column in row.indices {
        widths[column] = max(widths[column], Terminal.fitted(row[column], to: limit).width)
      }
    }
    return (widths, widths.reduce(0, +) + Self.gap * (widths.count - 1))
  }

  /// The width of each column: the natural ones, narrowed — the widest first, down to a
  /// common cap — until a line fits the terminal where it limits the width.
  private func widths(of rows: some Sequence<[String]>, _ terminal: Terminal) -> [Int] {
    let limit = terminal.limitsWidth ? terminal.columns : Int.max / 4
    let (natural, total) = naturalWidths(of: rows, limit: limit)
    guard total > limit else { return natural }
    return Self.fit(natural, into: limit - Self.gap * (natural.count - 1))
  }

  /// `widths` with every width above a cap lowered to it: the largest cap (at least 1) for
  /// which they add up to `available` or less. O(*n* log *w*).
  static func fit(_ widths: [Int], into available: Int) -> [Int] {
    var (low, high) = (1, widths.max() ?? 1)
    while low < high {
      let cap = (low + high + 1) / 2
      if widths.reduce(0, { $0 + min($1, cap) }) <= available { low = cap } else { high = cap - 1 }
    }
    return widths.map { min($0, low) }
  }

  private func line(_ row: [String], _ widths: [Int]) -> String {
    row.indices.map { column in
      let (cell, width) = Terminal.fitted(row[column], to: widths[column])
      guard column < row.count - 1 || alignments[column] == .right else { return cell }
      let padding = String(repeating: " ", count: max(0, widths[column] - width))
      return alignments[column] == .right ? padding + cell : cell + padding
    }.joined(separator: String(repeating: " ", count: Self.gap))
  }
}
