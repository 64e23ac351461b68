/// `diary settings list` for people: the key, value, default, allowed values and description
/// of each setting on one line when that fits the terminal; else the description on a line
/// of its own under the others, and cells shortened so that every line fits the terminal's
/// width (`$COLUMNS`, else the terminal's, else 80), down to 40 columns: the allowed values
/// first, then the default, then the value (which keeps its `*` marker), the key last. Where
/// even so the key would be cut, the allowed values leave the table for the description's
/// line ("0...24 — Hours of sleep…"), which is cut to the width.
struct SettingsTable {
  var settings: [SettingsCommands.Current]
  var terminal: Terminal

  init(_ settings: [SettingsCommands.Current], terminal: Terminal) {
    self.settings = settings
    self.terminal = terminal
  }

  private static let headers = ["KEY", "VALUE", "DEFAULT", "ALLOWED"]

  @MainActor
  func write(to output: Output) throws(OutputError) {
    let rows = settings.map { current in
      let setting = current.setting
      return [
        Terminal.escapedKey(setting.name),
        current.formatted + (setting.isDeclared && !current.isDefault ? " *" : ""),
        setting.defaultValue.map(setting.format) ?? "", setting.allowedDescription,
      ]
    }
    let descriptions = settings.map { $0.setting.summary ?? "" }
    var wide = TextTable(
      headers: Self.headers + ["DESCRIPTION"], alignments: Array(repeating: .left, count: 5))
    wide.rows = zip(rows, descriptions).map { $0 + [$1] }
    if wide.naturalWidths(of: wide.rows, limit: terminal.columns).line <= terminal.columns {
      return try output.line(wide.render(terminal))
    }
    // The description on a line of its own; the four columns narrowed to the width — or,
    // where the key would be cut, three: the allowed values join the description's line.
    var fitting = terminal
    fitting.limitsWidth = true
    let narrowest = Self.narrowestWidth(of: rows, columns: 4, limit: terminal.columns)
    let columns = narrowest <= terminal.columns ? 4 : 3
    var narrow = TextTable(
      headers: Array(Self.headers.prefix(columns)),
      alignments: Array(repeating: .left, count: columns))
    narrow.rows = rows.map { Array($0.prefix(columns)) }
    narrow.givingWay = Array([3, 2, 1].suffix(columns - 1))
    narrow.keptSuffixes = [1: " *"]
    let details = zip(rows, descriptions).map { row, description in
      guard columns == 3, !row[3].isEmpty else { return description }
      return description.isEmpty ? "allowed: \(row[3])" : "\(row[3]) — \(description)"
    }
    let narrowLines = narrow.render(fitting).split(
      separator: "\n", omittingEmptySubsequences: false)
    try output.line(String(narrowLines[0]))
    for (line, detail) in zip(narrowLines.dropFirst(), details) {
      try output.line(String(line))
      if !detail.isEmpty {
        try output.line("  " + Terminal.fitted(detail, to: terminal.columns - 2).text)
      }
    }
  }

  /// The width of a line of the first `columns` of `rows` under their headers when the
  /// columns after the key give way as far as they do (see ``TextTable/givingWay``) and the
  /// key keeps its width.
  private static func narrowestWidth(of rows: [[String]], columns: Int, limit: Int) -> Int {
    let table = TextTable(
      headers: Array(headers.prefix(columns)), alignments: Array(repeating: .left, count: columns))
    let natural = table.naturalWidths(of: rows.map { Array($0.prefix(columns)) }, limit: limit)
    let floors = zip(natural.columns, table.headers).dropFirst().map { width, header in
      min(width, max(Terminal.width(header), TextTable.shortestText))
    }
    return natural.columns[0] + floors.reduce(0, +) + TextTable.gap * (columns - 1)
  }
}
