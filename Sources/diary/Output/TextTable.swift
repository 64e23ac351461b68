/// Rows of text in aligned columns: the human output of the list commands.
///
/// Cells are escaped (see ``Terminal/escaped(_:)``), each column is as wide as its widest
/// cell and no line ends with spaces (the last column is not padded, nor are empty cells at
/// the end of a line); the terminal makes the header bold. Where the
/// terminal limits the width (see ``Terminal/limitsWidth``), the widest columns are narrowed
/// until a line fits, and cells cut with "…": a line never wraps.
struct TextTable {
  enum Alignment {
    case left, right
  }

  var headers: [String]
  var alignments: [Alignment]
  var rows: [[String]] = []
  /// The columns that give way first where the line is too wide, in this order, each down
  /// to its header's width (at least 5); the others keep their width until these have given
  /// all they can. Empty: the last column gives way first (see ``widths(of:_:)``).
  var givingWay: [Int] = []
  /// For a column, a suffix its cells keep when they are cut (a marker, such as ` *`).
  var keptSuffixes: [Int: String] = [:]
  /// The columns whose cells are never cut — figures, which a cut would misread: with
  /// ``givingWay``, they keep the width of their widest cell (their header may be cut), and
  /// the line is wider than the terminal when the other columns, down to one column each,
  /// leave too little.
  var uncut: Set<Int> = []

  /// The gap between two columns.
  static let gap = 2

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
  /// and `rows`, each measured up to `limit` columns — the same without the headers, and the
  /// width of a line of them. O(cells × `limit`) at most.
  func naturalWidths(of rows: some Sequence<[String]>, limit: Int) -> (
    columns: [Int], cells: [Int], line: Int
  ) {
    var cells = headers.map { _ in 0 }
    for row in rows {
      for column in row.indices {
        // An uncut column's figures are measured whole (they are short), whatever the limit.
        let measured = uncut.contains(column) ? max(limit, Self.figureLimit) : limit
        cells[column] = max(cells[column], Terminal.fitted(row[column], to: measured).width)
      }
    }
    let widths = zip(headers, cells).map { max(Terminal.width($0), $1) }
    return (widths, cells, widths.reduce(0, +) + Self.gap * (widths.count - 1))
  }

  /// The width of each column where the terminal limits the line's: the last column — the
  /// text, such as a title — gives up its width first, down to 8 columns; then the headers
  /// wider than their cells are cut, and the last column goes down to 5; else the widest
  /// columns, the last among them, are narrowed to a common cap.
  private func widths(of rows: some Sequence<[String]>, _ terminal: Terminal) -> [Int] {
    let limit = terminal.limitsWidth ? terminal.columns : Int.max / 4
    let (natural, cells, total) = naturalWidths(of: rows, limit: limit)
    guard total > limit else { return natural }
    let available = limit - Self.gap * (natural.count - 1)
    if !givingWay.isEmpty {
      var widths = natural
      for column in givingWay {
        let excess = widths.reduce(0, +) - available
        guard excess > 0 else { break }
        let floor = min(widths[column], max(Terminal.width(headers[column]), Self.shortestText))
        widths[column] = max(floor, widths[column] - excess)
      }
      return keepingUncut(Self.fit(widths, into: available), widths, cells, available)
    }
    let last = natural.count - 1
    let withCutHeaders = zip(natural[..<last], cells).map { max(min($0, 4), $1) }
    for (others, shortest) in [
      (Array(natural[..<last]), Self.shortText), (withCutHeaders, Self.shortText),
      (withCutHeaders, Self.shortestText),
    ] where available - others.reduce(0, +) >= min(natural[last], shortest) {
      return others + [available - others.reduce(0, +)]
    }
    return Self.fit(natural, into: available)
  }

  /// `fitted`, the widths that fit `available` columns, with every ``uncut`` column as wide
  /// as its widest cell of `cells`, and the other columns sharing what is left of `available`
  /// (at least one column each) as ``fit(_:into:)`` shares it, from their `widths`.
  private func keepingUncut(
    _ fitted: [Int], _ widths: [Int], _ cells: [Int], _ available: Int
  ) -> [Int] {
    let floors = widths.indices.map { uncut.contains($0) ? min(widths[$0], cells[$0]) : 0 }
    guard zip(fitted, floors).contains(where: { $0 < $1 }) else { return fitted }
    var result = fitted
    for column in uncut where column < result.count {
      result[column] = max(result[column], floors[column])
    }
    let others = widths.indices.filter { !uncut.contains($0) }
    let left = available - uncut.filter { $0 < result.count }.reduce(0) { $0 + result[$1] }
    for (column, width) in zip(
      others, Self.fit(others.map { widths[$0] }, into: max(others.count, left)))
    {
      result[column] = width
    }
    return result
  }

  /// How wide an ``uncut`` column's cells are measured at most.
  static let figureLimit = 64

  /// How narrow the last column gets before headers are cut, and before cells are.
  static let (shortText, shortestText) = (8, 5)

  /// `cell` escaped and cut to `width` columns (see ``Terminal/fitted(_:to:)``), keeping
  /// `suffix` when it ends with it; and its width.
  private func fitted(_ cell: String, to width: Int, keeping suffix: String?) -> (
    text: String, width: Int
  ) {
    let whole = Terminal.fitted(cell, to: width)
    guard let suffix, cell.hasSuffix(suffix), width > Terminal.width(suffix),
      Terminal.fitted(cell, to: width + 1).width > width
    else { return whole }
    let kept = Terminal.width(suffix)
    let start = Terminal.fitted(String(cell.dropLast(suffix.count)), to: width - kept)
    return (start.text + suffix, start.width + kept)
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

  /// The cells of `row` in their columns, without spaces at the end: the padding of a last
  /// column, or of columns whose cells after it are empty, would only add trailing spaces.
  private func line(_ row: [String], _ widths: [Int]) -> String {
    let text = row.indices.map { column in
      let (cell, width) = fitted(row[column], to: widths[column], keeping: keptSuffixes[column])
      guard column < row.count - 1 || alignments[column] == .right else { return cell }
      let padding = String(repeating: " ", count: max(0, widths[column] - width))
      return alignments[column] == .right ? padding + cell : cell + padding
    }.joined(separator: String(repeating: " ", count: Self.gap))
    guard text.last == " " else { return text }
    return String(text.dropLast(text.reversed().prefix { $0 == " " }.count))
  }
}
