/// A command's grammar: its name, what it does, its arguments and options. The commands
/// of `diary` are values of this type, so that parsing, help and errors are written once.
struct Command: Sendable {
  /// A value that follows the command's name.
  struct Argument: Sendable {
    var name: String
    var summary: String
    /// Whether it takes one or more values (`N…`); only the last argument can.
    var isRepeated = false
    var isOptional = false
  }

  /// An option: `--name VALUE` or `--name=VALUE`, or a flag `--name` when `valueName` is
  /// `nil`.
  struct Option: Sendable {
    var name: String
    var valueName: String?
    var summary: String
    /// Whether the command cannot run without it.
    var isRequired = false

    /// `--name VALUE`.
    var syntax: String { "--\(name)\(valueName.map { " \($0)" } ?? "")" }
  }

  var name: String
  var summary: String
  var arguments: [Argument] = []
  var options: [Option] = []
  /// More lines for the help: semantics, examples.
  var discussion = ""
  /// Does the work and returns what to print.
  var run: @MainActor @Sendable (ParsedCommand, Context) throws -> String

  /// `diary todos add TITLE [--priority N] [--date DATE]`.
  func usage(group: String) -> String {
    var parts = ["diary", group, name]
    for argument in arguments {
      let name = argument.isRepeated ? "\(argument.name)…" : argument.name
      parts.append(argument.isOptional ? "[\(name)]" : name)
    }
    for option in options {
      parts.append(option.isRequired ? option.syntax : "[\(option.syntax)]")
    }
    return parts.joined(separator: " ")
  }
}

/// A group of commands: `settings`, `todos`, `workouts`.
struct CommandGroup: Sendable {
  var name: String
  var summary: String
  var commands: [Command]

  func command(named name: String) -> Command? {
    commands.first { $0.name == name }
  }
}

/// What the parser found for one command.
struct ParsedCommand: Sendable {
  var group: CommandGroup
  var command: Command
  /// The values of the arguments, in order (a repeated argument's values last).
  var arguments: [String]
  /// The values of the options given, by name; a flag's value is empty.
  var options: [String: String]

  func option(_ name: String) -> String? { options[name] }
  func flag(_ name: String) -> Bool { options[name] != nil }

  /// `diary todos add …`, for error messages.
  var usage: String { command.usage(group: group.name) }
}
