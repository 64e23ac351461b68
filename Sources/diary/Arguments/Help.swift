import Foundation

/// The help texts, made from the command specifications.
enum Help {
  static let version = "diary 0.1.0"

  static func overview(_ groups: [CommandGroup]) -> String {
    """
    OVERVIEW: Keep your settings, todos and workouts in plain JSON files.

    USAGE: diary [--data-dir DIR] [--json] <settings|todos|workouts> <command> [args]

    COMMANDS:
    \(table(groups.map { ($0.name, $0.summary) }))

    OPTIONS:
    \(table(Parser.globalOptions.map(optionRow)))

    Run 'diary help <group>' or 'diary <group> <command> --help' for more.
    Data lives in --data-dir, else $DIARY_HOME, else $XDG_CONFIG_HOME/diary (settings) and
    $XDG_DATA_HOME/diary (todos, workouts); 'diary settings path' shows where.
    Exit codes: 0 ok, 64 usage, 65 invalid data, 66 cannot read, 73 cannot create, 74 I/O error.
    """
  }

  static func group(_ group: CommandGroup) -> String {
    """
    OVERVIEW: \(group.summary)

    USAGE: diary \(group.name) <command> [args] [--json] [--data-dir DIR]

    COMMANDS:
    \(table(group.commands.map { ($0.name, $0.summary) }))

    Run 'diary \(group.name) <command> --help' for a command's arguments and options.
    """
  }

  static func command(_ command: Command, in group: CommandGroup) -> String {
    var sections = [
      "OVERVIEW: \(command.summary)",
      "USAGE: \(command.usage(group: group.name))",
    ]
    if !command.arguments.isEmpty {
      sections.append(
        "ARGUMENTS:\n"
          + table(command.arguments.map { ($0.isRepeated ? "\($0.name)…" : $0.name, $0.summary) }))
    }
    if !command.options.isEmpty {
      sections.append("OPTIONS:\n" + table(command.options.map(optionRow)))
    }
    sections.append("GLOBAL OPTIONS:\n" + table(Parser.globalOptions.map(optionRow)))
    if !command.discussion.isEmpty { sections.append(command.discussion) }
    return sections.joined(separator: "\n\n")
  }

  private static func optionRow(_ option: Command.Option) -> (String, String) {
    (option.name == "help" ? "-h, --help" : option.syntax, option.summary)
  }

  /// Two aligned columns, indented by two spaces.
  private static func table(_ rows: [(String, String)]) -> String {
    let width = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }
}
