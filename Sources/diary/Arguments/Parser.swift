/// The options every command takes, wherever they appear on the line.
struct GlobalOptions: Equatable, Sendable {
  var dataDirectory: String?
  var json = false
}

/// What the command line asks for.
enum Invocation: Sendable {
  /// Print `text` (help) and succeed.
  case help(String)
  case version
  case run(ParsedCommand, GlobalOptions)
}

/// A command line that does not fit the grammar: exit 64, with the usage line that fits.
struct UsageError: Error, Equatable {
  var message: String
  var usage: String?
}

/// Parses `diary`'s command line against its command groups.
///
/// The grammar is swift-argument-parser's: `--option value` and `--option=value`, `-h` and
/// `--help` at every level, `diary help <group> <command>`, `--version`, `--` to end the
/// options (so that a title can start with a dash), global options (`--data-dir`, `--json`)
/// before or after the command. A token like `-3` is a value, not an option, so that
/// numbers out of range get their own clear error.
struct Parser {
  static let globalOptions = [
    Command.Option(
      name: "data-dir", valueName: "DIR",
      summary: "Keep the data in DIR (else $DIARY_HOME, else the XDG folders)."),
    Command.Option(name: "json", summary: "Print machine-readable JSON."),
    Command.Option(name: "help", summary: "Show help for diary, a group or a command."),
    Command.Option(name: "version", summary: "Show the version."),
  ]

  let groups: [CommandGroup]

  func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var globals = GlobalOptions()
    var wantsHelp = false
    var wantsVersion = false
    var positionals: [String] = []
    var options: [String: String] = [:]
    var group: CommandGroup?
    var command: Command?
    var tokens = arguments[...]

    func resolve() throws(UsageError) {
      if group == nil, let name = positionals.first, name != "help" {
        group = try lookUpGroup(name)
      }
      if command == nil, let group, positionals.count >= 2 {
        command = try lookUp(positionals[1], in: group)
      }
    }

    while let token = tokens.popFirst() {
      if token == "--" {
        positionals += tokens
        break
      }
      guard token.hasPrefix("-"), token.count > 1, !Self.isNumber(token) else {
        positionals.append(token)
        try resolve()
        continue
      }
      let (name, inlineValue) = Self.split(token)
      switch name {
      case "-h", "--help":
        try Self.refuseValue(inlineValue, for: "--help")
        wantsHelp = true
      case "--version":
        try Self.refuseValue(inlineValue, for: "--version")
        wantsVersion = true
      case "--json":
        try Self.refuseValue(inlineValue, for: "--json")
        globals.json = true
      case "--data-dir":
        guard let value = inlineValue ?? tokens.popFirst() else {
          throw UsageError(message: "--data-dir needs a value: --data-dir DIR", usage: nil)
        }
        guard !value.isEmpty else {
          throw UsageError(message: "--data-dir cannot be empty", usage: nil)
        }
        globals.dataDirectory = value
      default:
        try resolve()
        guard let group, let command else {
          throw unknownOption(token, among: [], usage: nil)
        }
        let optionName = String(name.dropFirst(2))
        guard name.hasPrefix("--"),
          let option = command.options.first(where: { $0.name == optionName })
        else {
          throw unknownOption(
            token, among: command.options, usage: command.usage(group: group.name))
        }
        guard options[option.name] == nil else {
          throw UsageError(
            message: "--\(option.name) is given twice", usage: command.usage(group: group.name))
        }
        if let valueName = option.valueName {
          guard let value = inlineValue ?? tokens.popFirst() else {
            throw UsageError(
              message: "--\(option.name) needs a value: --\(option.name) \(valueName)",
              usage: command.usage(group: group.name))
          }
          options[option.name] = value
        } else {
          try Self.refuseValue(inlineValue, for: "--\(option.name)")
          options[option.name] = ""
        }
      }
    }
    try resolve()

    if wantsVersion { return .version }
    if positionals.first == "help" {
      return .help(try helpText(for: Array(positionals.dropFirst())))
    }
    if wantsHelp { return .help(try helpText(for: Array(positionals.prefix(2)))) }
    guard let group else {
      throw UsageError(
        message: "missing command: say what to work on, "
          + groups.map { "'\($0.name)'" }
          .joined(separator: ", ", lastSeparator: " or "),
        usage: "diary [--data-dir DIR] [--json] <settings|todos|workouts> <command> [args]")
    }
    guard let command else {
      throw UsageError(
        message: "missing command for '\(group.name)': "
          + group.commands.map { "'\($0.name)'" }.joined(separator: ", ", lastSeparator: " or "),
        usage: "diary \(group.name) <command> — see 'diary help \(group.name)'")
    }
    let values = Array(positionals.dropFirst(2))
    try checkArguments(values, options: Set(options.keys), of: command, in: group)
    return .run(
      ParsedCommand(group: group, command: command, arguments: values, options: options), globals)
  }

  /// Help for `diary`, a group, or a command.
  func helpText(for path: [String]) throws(UsageError) -> String {
    guard let groupName = path.first else { return Help.overview(groups) }
    let group = try lookUpGroup(groupName)
    guard path.count > 1 else { return Help.group(group) }
    let command = try lookUp(path[1], in: group)
    guard path.count == 2 else {
      throw UsageError(
        message: "help takes a group and a command: diary help \(group.name) \(command.name)",
        usage: nil)
    }
    return Help.command(command, in: group)
  }

  private func lookUpGroup(_ name: String) throws(UsageError) -> CommandGroup {
    if let group = groups.first(where: { $0.name == name }) { return group }
    throw UsageError(
      message: "unknown command '\(Terminal.escaped(name))'"
        + Suggestion.phrase(for: name, among: groups.map(\.name) + ["help"]),
      usage: "diary [--data-dir DIR] [--json] <settings|todos|workouts> <command> [args]")
  }

  private func lookUp(_ name: String, in group: CommandGroup) throws(UsageError) -> Command {
    if let command = group.command(named: name) { return command }
    throw UsageError(
      message: "unknown command '\(Terminal.escaped(name))' for '\(group.name)'"
        + Suggestion.phrase(for: name, among: group.commands.map(\.name)),
      usage: "diary \(group.name) <command> — see 'diary help \(group.name)'")
  }

  private func checkArguments(
    _ values: [String], options given: Set<String>, of command: Command, in group: CommandGroup
  ) throws(UsageError) {
    let usage = command.usage(group: group.name)
    let required = command.arguments.filter { !$0.isOptional }
    if values.count < required.count {
      let missing = required[values.count]
      throw UsageError(
        message: "missing \(missing.name): \(missing.summary.lowercasedFirst)", usage: usage)
    }
    if let missing = command.options.first(where: { $0.isRequired && !given.contains($0.name) }) {
      throw UsageError(
        message: "missing \(missing.syntax): \(missing.summary.lowercasedFirst)", usage: usage)
    }
    if command.arguments.last?.isRepeated != true, values.count > command.arguments.count {
      throw UsageError(
        message: "unexpected argument '\(Terminal.escaped(values[command.arguments.count]))'",
        usage: usage)
    }
  }

  private func unknownOption(
    _ token: String, among options: [Command.Option], usage: String?
  ) -> UsageError {
    let name = Self.split(token).name
    let candidates = (options + Self.globalOptions).map { "--\($0.name)" }
    let suggestion = Suggestion.phrase(for: name, among: candidates)
    return UsageError(
      message: "unknown option '\(Terminal.escaped(name))'"
        + (suggestion.isEmpty && usage != nil
          ? " (to give it as a value, put it after '--': diary … -- \(Terminal.escaped(name)))"
          : suggestion),
      usage: usage)
  }

  private static func refuseValue(_ value: String?, for name: String) throws(UsageError) {
    if value != nil { throw UsageError(message: "\(name) takes no value", usage: nil) }
  }

  /// `--name=value` as (`--name`, `value`); other tokens with no value.
  private static func split(_ token: String) -> (name: String, value: String?) {
    guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
    return (String(token[..<equals]), String(token[token.index(after: equals)...]))
  }

  /// Whether `token` is a negative number such as `-3` or `-2.5`, a value not an option.
  private static func isNumber(_ token: String) -> Bool {
    token.dropFirst().first?.isASCII == true && token.dropFirst().first?.isNumber == true
  }
}

extension String {
  var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

extension Array where Element == String {
  /// "a, b or c".
  func joined(separator: String, lastSeparator: String) -> String {
    guard count > 1 else { return first ?? "" }
    return dropLast().joined(separator: separator) + lastSeparator + last!
  }
}
