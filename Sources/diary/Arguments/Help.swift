import Stores

/// The help texts and usage lines, made from the declarations of the commands and options.
enum Help {
  static let version = StoresVersion.current
  /// The width the help is wrapped to.
  private static let width = 80

  /// `diary [--data-dir DIR] [--json] <settings|todos|workouts|sync> <command> [args]`.
  static func usage(_ groups: [CommandGroup]) -> String {
    (["diary"] + GlobalOptions.options.map(\.spec.usage)
      + [
        "<\(groups.filter { !$0.isCommand }.map(\.name).joined(separator: "|"))>", "<command>",
        "[args]",
      ])
      .joined(separator: " ")
  }

  /// `diary todos <command> [args]`.
  static func usage(of group: CommandGroup) -> String {
    "diary \(group.name) <command> [args]"
  }

  static let helpUsage = "diary help [<group> [<command>]]"

  /// Every command's usage line, then help's and the version's: the synopsis of `diary
  /// --help`, which the README shows.
  static func synopsis(_ groups: [CommandGroup]) -> [String] {
    groups.flatMap { group in group.commands.map { $0.usage(in: group.name) } }
      + [helpUsage, "diary --version"]
  }

  static func overview(_ groups: [CommandGroup]) -> String {
    """
    OVERVIEW: Keep your settings, todos and workouts in plain JSON files.

    USAGE: \(usage(groups))

    COMMANDS:
    \(synopsis(groups).map { "  " + $0 }.joined(separator: "\n"))

    OPTIONS:
    \(table(GlobalOptions.all.map(\.spec).map(optionRow)))

    \(wrap("Run 'diary help <group>' or 'diary <group> <command> --help' for more. Data lives in --data-dir, else $DIARY_HOME, else $XDG_CONFIG_HOME/diary (settings) and $XDG_DATA_HOME/diary (todos, workouts); 'diary settings path' shows where."))

    EXIT CODES:
    \(table(ExitCode.allCases.map { ("\($0.rawValue)", $0.meaning) }))
    """
  }

  static func group(_ group: CommandGroup) -> String {
    """
    OVERVIEW: \(group.summary).

    USAGE: \(usage(of: group))

    COMMANDS:
    \(table(group.commands.map { ($0.name, $0.summary + ".") }))

    Run 'diary \(group.name) <command> --help' for a command's arguments and options.
    """
  }

  static func command(_ command: any ParsableCommand.Type, in group: CommandGroup) -> String {
    var sections = [
      wrap("OVERVIEW: \(command.summary)."),
      "USAGE: \(command.usage(in: group.name))",
    ]
    if !command.argumentSpecs.isEmpty {
      sections.append(
        "ARGUMENTS:\n" + table(command.argumentSpecs.map { ($0.usage, $0.summary + ".") }))
    }
    if !command.optionSpecs.isEmpty {
      sections.append("OPTIONS:\n" + table(command.optionSpecs.map(optionRow)))
    }
    sections.append("GLOBAL OPTIONS:\n" + table(GlobalOptions.options.map(\.spec).map(optionRow)))
    if !command.discussion.isEmpty { sections.append(wrap(command.discussion)) }
    return sections.joined(separator: "\n\n")
  }

  /// `diary help help`.
  static let help = """
    OVERVIEW: Show help for diary, a group or a command.

    USAGE: \(helpUsage)

    \(wrap("'diary help' lists every command, 'diary help todos' the commands of a group and 'diary help todos add' the arguments and options of one. --help (or -h) after any of them does the same: 'diary todos add --help'."))
    """

  private static func optionRow(_ option: OptionSpec) -> (String, String) {
    ((option.shortName.map { "-\($0), " } ?? "") + option.syntax, option.help)
  }

  /// Two aligned columns, indented by two spaces, the second wrapped to the width.
  private static func table(_ rows: [(String, String)]) -> String {
    let first = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { name, text in
      wrap(text, width: width - 2 - first).split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated().map { line, words in
          "  " + (line == 0 ? name : "").padding(toLength: first, withPad: " ", startingAt: 0)
            + words
        }.joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// `text` with its lines broken between words to at most `width` columns; line breaks in
  /// `text` are kept.
  private static func wrap(_ text: String, width: Int = width) -> String {
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
