/// `diary settings list` for people: the key, value, default, allowed values and description
/// of each setting on one line when that fits the terminal; else the description on a line
/// of its own under the others, and cells shortened so that every line fits the terminal's
/// width (`$COLUMNS`, else the terminal's, else 80), down to 40 columns: the allowed values
/// first, then the default, then the value (which keeps its `*` marker), the key last.
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
    // The description on a line of its own; the four columns narrowed to the width.
    var narrow = TextTable(headers: Self.headers, alignments: Array(repeating: .left, count: 4))
    narrow.rows = rows
    narrow.givingWay = [3, 2, 1]
    narrow.keptSuffixes = [1: " *"]
    var fitting = terminal
    fitting.limitsWidth = true
    let narrowLines = narrow.render(fitting).split(
      separator: "\n", omittingEmptySubsequences: false)
    try output.line(String(narrowLines[0]))
    for (line, description) in zip(narrowLines.dropFirst(), descriptions) {
      try output.line(String(line))
      if !description.isEmpty {
        try output.line("  " + Terminal.fitted(description, to: terminal.columns - 2).text)
      }
    }
  }
}
