import Stores

/// The help texts and usage lines, made from the declarations of the commands and options.
enum Help {
  /// `diary 0.3.0-dev (unreleased; writes file format 2)`: the version of the package it was
  /// built from, whether that code is unreleased, and the format of the data files it writes —
  /// what `diary --version` prints, the only place it is made.
  static var versionLine: String {
    "diary \(StoresVersion.current) ("
      + (StoresVersion.isRelease ? "" : "unreleased; ")
      + "writes file format \(StoresVersion.fileFormat))"
  }

  /// What `diary --version --json` prints: `{"fileFormat": 2, "isRelease": false, "version":
  /// "0.3.0-dev"}`.
  static var versionJSON: JSONValue {
    .object([
      "version": .string(StoresVersion.current), "isRelease": .bool(StoresVersion.isRelease),
      "fileFormat": .number(JSONNumber(StoresVersion.fileFormat)),
    ])
  }

  /// The width the help is wrapped to where nothing says how wide the terminal is.
  static let defaultWidth = 80

  /// The name of the command that shows help: `diary help`.
  static let helpCommand = "help"

  /// `diary [--data-dir DIR] [--json] <settings|todos|workouts|sync|undo|redo|help> [<command>]
  /// [args]`: every group and command `diary` takes, then help.
  static func usage(_ groups: [CommandGroup]) -> String {
    (["diary"] + GlobalOptions.options.map(\.spec.usage)
      + [
        "<\((groups.map(\.name) + [helpCommand]).joined(separator: "|"))>", "[<command>]",
        "[args]",
      ])
      .joined(separator: " ")
  }

  /// `diary todos <command> [args]`.
  static func usage(of group: CommandGroup) -> String {
    "diary \(group.name) <command> [args]"
  }

  static let helpUsage = "diary \(helpCommand) [<group> [<command>]]"

  /// Every command's usage line, then help's and the version's: the synopsis of `diary
  /// --help`, which the README shows.
  static func synopsis(_ groups: [CommandGroup]) -> [String] {
    groups.flatMap { group in group.commands.map { $0.usage(in: group.name) } }
      + [helpUsage, "diary --version"]
  }

  static func overview(_ groups: [CommandGroup], width: Int = defaultWidth) -> String {
    """
    \(wrap(width: width, "OVERVIEW: Keep your settings, todos and workouts in plain JSON files."))

    \(usageLine(usage(groups), width: width))

    COMMANDS:
    \(synopsis(groups).map { usageLine($0, prefix: "  ", width: width) }.joined(separator: "\n"))

    OPTIONS:
    \(table(GlobalOptions.all.map(\.spec).map(optionRow), width: width))

    \(wrap(width: width, "Run 'diary help <group>' or 'diary <group> <command> --help' for more. Data lives in --data-dir, else $DIARY_HOME, else $XDG_CONFIG_HOME/diary (settings) and $XDG_DATA_HOME/diary (todos, workouts); 'diary settings path' shows where."))

    \(wrap(width: width, "With --json, an error is one line of JSON on standard error, with the same exit code: {\"error\": {\"exitCode\": 65, \"message\": …, \"saved\": …, \"usage\": …}} (saved: what was changed before the failure; usage: for a mistake in the command line; else null)."))

    EXIT CODES:
    \(table(ExitCode.allCases.map { ("\($0.rawValue)", $0.meaning) }, width: width))
    """
  }

  static func group(_ group: CommandGroup, width: Int = defaultWidth) -> String {
    """
    \(wrap(width: width, "OVERVIEW: \(group.summary)."))

    \(usageLine(usage(of: group), width: width))

    COMMANDS:
    \(table(group.commands.map { ($0.name, $0.summary + ".") }, width: width))

    \(wrap(width: width, "Run 'diary \(group.name) <command> --help' for a command's arguments and options."))
    """
  }

  static func command(
    _ command: any ParsableCommand.Type, in group: CommandGroup, width: Int = defaultWidth
  ) -> String {
    var sections = [
      wrap(width: width, "OVERVIEW: \(command.summary)."),
      usageLine(command.usage(in: group.name), width: width),
    ]
    if !command.argumentSpecs.isEmpty {
      sections.append(
        "ARGUMENTS:\n"
          + table(command.argumentSpecs.map { ($0.usage, $0.summary + ".") }, width: width))
    }
    if !command.optionSpecs.isEmpty {
      sections.append("OPTIONS:\n" + table(command.optionSpecs.map(optionRow), width: width))
    }
    sections.append(
      "GLOBAL OPTIONS:\n"
        + table(GlobalOptions.options.map(\.spec).map(optionRow), width: width))
    if !command.discussion.isEmpty { sections.append(wrap(width: width, command.discussion)) }
    return sections.joined(separator: "\n\n")
  }

  /// `diary help help`.
  static func help(width: Int = defaultWidth) -> String {
    """
    \(wrap(width: width, "OVERVIEW: Show help for diary, a group or a command."))

    \(usageLine(helpUsage, width: width))

    \(wrap(width: width, "'diary help' lists every command, 'diary help todos' the commands of a group and 'diary help todos add' the arguments and options of one. --help (or -h) after any of them does the same: 'diary todos add --help'."))
    """
  }

  /// `prefix` and `usage`, broken where wider than `width` between its words — never inside
  /// a bracketed option such as `[--date DATE]` — the lines after the first indented two
  /// columns past `prefix`. A list of choices wider than a line (`<settings|todos|…>` in 40
  /// columns) is broken after a `|`.
  static func usageLine(_ usage: String, prefix: String = "USAGE: ", width: Int) -> String {
    var tokens: [String] = []
    var depth = 0
    for word in usage.split(separator: " ") {
      if depth > 0, !tokens.isEmpty {
        tokens[tokens.count - 1] += " " + word
      } else {
        tokens.append(String(word))
      }
      depth += word.count(where: { "[<(".contains($0) }) - word.count(where: { "]>)".contains($0) })
    }
    let indent = String(repeating: " ", count: prefix.count + 2)
    // The pieces a line can end after; a piece glued to the one before follows it without a
    // space.
    var pieces: [(text: String, isGlued: Bool)] = []
    for token in tokens {
      guard token.count > width - indent.count, token.contains("|") else {
        pieces.append((token, false))
        continue
      }
      let choices = token.split(separator: "|", omittingEmptySubsequences: false)
      for (index, choice) in choices.enumerated() {
        pieces.append((choice + (index < choices.count - 1 ? "|" : ""), index > 0))
      }
    }
    var lines: [String] = []
    var line = prefix
    for (text, isGlued) in pieces {
      let space = isGlued || line.count == prefix.count ? "" : " "
      if line.count > prefix.count, line.count + space.count + text.count > width {
        lines.append(line)
        line = indent + text
      } else {
        line += space + text
      }
    }
    return (lines + [line]).joined(separator: "\n")
  }

  private static func optionRow(_ option: OptionSpec) -> (String, String) {
    ((option.shortName.map { "-\($0), " } ?? "") + option.syntax, option.help)
  }

  /// Two aligned columns, indented by two spaces, the second wrapped to the width.
  private static func table(_ rows: [(String, String)], width: Int) -> String {
    let first = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { name, text in
      wrap(width: width - 2 - first, text).split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated().map { line, words in
          "  " + (line == 0 ? name : "").padding(toLength: first, withPad: " ", startingAt: 0)
            + words
        }.joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// `text` with its lines broken between words to at most `width` columns; line breaks in
  /// `text` are kept.
  private static func wrap(width: Int, _ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
      var lines: [String] = []
      var line = ""
      for word in paragraph.split(separator: " ") {
        if !line.isEmpty, line.count + 1 + word.count > width {
          lines.append(line)
          line = ""
        }
        line += (line.isEmpty ? "" : " ") + word
      }
      return (lines + [line]).joined(separator: "\n")
    }.joined(separator: "\n")
  }
}
