/// `diary settings list` for people: the key, value, default, allowed values and description
/// of each setting on one line when that fits the terminal; else the description on a line
/// of its own under the others, and cells too long shortened, so that every line fits in 80
/// columns.
struct SettingsTable {
  var settings: [SettingsCommands.Current]
  var terminal: Terminal

  init(_ settings: [SettingsCommands.Current], terminal: Terminal) {
    self.settings = settings
    self.terminal = terminal
  }

  private static let headers = ["KEY", "VALUE", "DEFAULT", "ALLOWED"]
  /// The widest each of those columns gets when the description is on its own line: 76
  /// columns in all, with the gaps.
  private static let narrowWidths = [22, 16, 14, 18]

  @MainActor
  func write(to output: Output) throws(OutputError) {
    let rows = settings.map { current in
      let setting = current.setting
      return [
        Terminal.escapedKey(setting.name),
        current.formatted + (setting.isBuiltIn && !current.isDefault ? " *" : ""),
        setting.defaultValue.map(setting.format) ?? "", setting.allowedDescription,
      ]
    }
    let descriptions = settings.map { $0.setting.summary ?? "" }
    var wide = TextTable(
      headers: Self.headers + ["DESCRIPTION"], alignments: Array(repeating: .left, count: 5))
    wide.rows = zip(rows, descriptions).map { $0 + [$1] }
    let lines = wide.render(Terminal(usesColor: false)).split(separator: "\n")
    if lines.allSatisfy({ Terminal.width(String($0)) <= terminal.columns }) {
      return try output.line(wide.render(terminal))
    }
    var narrow = TextTable(headers: Self.headers, alignments: Array(repeating: .left, count: 4))
    narrow.rows = rows.map { row in
      zip(row, Self.narrowWidths).map { Terminal.shortened(Terminal.escaped($0), to: $1) }
    }
    let narrowLines = narrow.render(terminal).split(
      separator: "\n", omittingEmptySubsequences: false)
    try output.line(String(narrowLines[0]))
    for (line, description) in zip(narrowLines.dropFirst(), descriptions) {
      try output.line(String(line))
      if !description.isEmpty {
        try output.line(
          "  " + Terminal.shortened(Terminal.escaped(description), to: terminal.columns - 2))
      }
    }
  }
}
