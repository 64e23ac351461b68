/// The options every command takes, wherever they appear on the line: the only place they
/// are declared.
struct GlobalOptions: Parsable, Equatable {
  var dataDirectory: String?
  var json = false
  var help = false
  var version = false

  /// The options that go with a command, as the usage line shows them.
  static let options: [Option<GlobalOptions>] = [
    .option(
      \.dataDirectory, "data-dir", .folder,
      summary: "Keep the data in DIR (else $DIARY_HOME, else the XDG folders)"),
    .flag(\.json, "json", summary: "Print machine-readable JSON", typedByMistake: ["-j"]),
  ]

  /// The options that stand for a command: help and the version.
  static let actions: [Option<GlobalOptions>] = [
    .flag(\.help, "help", shortName: "h", summary: "Show help for diary, a group or a command"),
    .flag(
      \.version, "version", summary: "Show the version and the file format it writes",
      typedByMistake: ["-v", "-V"]),
  ]

  static var all: [Option<GlobalOptions>] { options + actions }
}

/// What the command line asks for.
enum Invocation {
  /// Print `text` (help) and succeed.
  case help(String)
  /// Print the version, as JSON when `json`.
  case version(json: Bool)
  case run(any ParsableCommand, GlobalOptions)
}

/// Parses `diary`'s command line against its command groups.
///
/// The grammar is swift-argument-parser's: `--option value` and `--option=value`, `-h` and
/// `--help` at every level, `diary help <group> <command>`, `--version`, `--` to end the
/// options (so that a title can start with a dash), global options (`--data-dir`, `--json`)
/// before or after the command. A token like `-3` or `-.5` is a value, not an option, so that
/// numbers out of range get their own clear error. Mistakes in the line's shape — an unknown
/// command or option, a missing or extra argument, an option given twice — are found first
/// (exit 64), but for the value of `--data-dir`, read before help; then each value is read by
/// its type, in the order declared (exit 65).
struct Parser {
  let groups: [CommandGroup]
  let time: LocalTime
  /// The width help is wrapped to: the terminal's.
  var helpWidth = Help.defaultWidth

  func parse(_ arguments: [String]) throws(DiaryError) -> Invocation {
    // `diary` alone asks what it can do.
    if arguments.isEmpty { return .help(Help.overview(groups, width: helpWidth)) }
    var scan = Scan(groups: groups)
    try scan.read(arguments)
    var globals = GlobalOptions()
    try globals.fill(GlobalOptions.all, given: scan.globals, time: time)
    if globals.version { return .version(json: globals.json) }
    if scan.positionals.first == Help.helpCommand {
      return .help(try helpText(for: Array(scan.positionals.dropFirst())))
    }
    if globals.help { return .help(try helpText(for: Array(scan.positionals.prefix(2)))) }
    guard let group = scan.group else {
      throw .usage(
        "missing command: say what to work on, "
          + groups.filter { !$0.isCommand }.map { "'\($0.name)'" }
          .joined(separator: ", ", lastSeparator: " or "),
        Help.usage(groups))
    }
    guard let command = scan.command else {
      throw .usage(
        "missing command for '\(group.name)': "
          + group.commands.map { "'\($0.name)'" }.joined(separator: ", ", lastSeparator: " or "),
        Help.usage(of: group))
    }
    let values = Array(scan.positionals.dropFirst(group.isCommand ? 1 : 2))
    try check(values, options: scan.options, of: command, in: group)
    return .run(
      try command.parsed(arguments: values, options: scan.options, time: time), globals)
  }

  /// Whether `arguments` ask for JSON: `--json` (or `--json=…`) anywhere before `--` that is
  /// not the value of a global option (`--data-dir --json`). Known before the line is parsed,
  /// so that a mistake anywhere in the line is reported as JSON too.
  static func asksForJSON(_ arguments: [String]) -> Bool {
    let takingValues = Set(
      GlobalOptions.all.map(\.spec).filter { $0.placeholder != nil }.map { "--\($0.name)" })
    var tokens = arguments[...]
    while let token = tokens.popFirst(), token != "--" {
      if token == "--json" || token.hasPrefix("--json=") { return true }
      if takingValues.contains(token) { tokens = tokens.dropFirst() }
    }
    return false
  }

  /// Help for `diary`, a group or a command, or for help itself.
  func helpText(for path: [String]) throws(DiaryError) -> String {
    guard let name = path.first else { return Help.overview(groups, width: helpWidth) }
    if name == Help.helpCommand, path.count == 1 { return Help.help(width: helpWidth) }
    let group = try Scan(groups: groups).group(named: name)
    if group.isCommand, path.count == 1 {
      return Help.command(group.commands[0], in: group, width: helpWidth)
    }
    guard path.count > 1 else { return Help.group(group, width: helpWidth) }
    let command = try Scan(groups: groups).command(named: path[1], in: group)
    guard path.count == 2 else {
      throw .usage(
        "help takes a group and a command: diary help \(group.name) \(command.name)",
        Help.helpUsage)
    }
    return Help.command(command, in: group, width: helpWidth)
  }

  /// Refuses a line whose arguments do not fit the command, or that lacks a required option.
  private func check(
    _ values: [String], options: [String: String], of command: any ParsableCommand.Type,
    in group: CommandGroup
  ) throws(DiaryError) {
    let usage = command.usage(in: group.name)
    let arguments = command.argumentSpecs
    let required = arguments.filter { $0.count != .optional }
    if values.count < required.count {
      let missing = required[values.count]
      throw .usage("missing \(missing.placeholder): \(missing.summary.lowercasedFirst)", usage)
    }
    if let missing = command.optionSpecs.first(where: { $0.isRequired && options[$0.name] == nil })
    {
      throw .usage("missing \(missing.syntax): \(missing.help.lowercasedFirst)", usage)
    }
    if arguments.last?.count != .oneOrMore, values.count > arguments.count {
      throw .usage(
        "unexpected argument '\(Terminal.escaped(values[arguments.count]))'", usage)
    }
  }
}

/// One pass over the tokens: the group and command named, the other positional values, and
/// the text of each option given, by name.
private struct Scan {
  let groups: [CommandGroup]
  var group: CommandGroup?
  var command: (any ParsableCommand.Type)?
  var positionals: [String] = []
  var globals: [String: String] = [:]
  var options: [String: String] = [:]

  init(groups: [CommandGroup]) {
    self.groups = groups
  }

  /// The usage line of what the tokens named so far: the command's, the group's or diary's.
  var usage: String {
    if let group, let command { return command.usage(in: group.name) }
    return group.map(Help.usage(of:)) ?? Help.usage(groups)
  }

  mutating func read(_ arguments: [String]) throws(DiaryError) {
    var tokens = arguments[...]
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
      if let option = GlobalOptions.all.map(\.spec).first(where: { Self.names(name, $0) }) {
        try record(option, inlineValue, from: &tokens, in: &globals)
        continue
      }
      guard let command,
        let option = command.optionSpecs.first(where: { Self.names(name, $0) })
      else { throw unknownOption(name) }
      try record(option, inlineValue, from: &tokens, in: &options)
    }
    try resolve()
  }

  /// Looks up the group and the command once their names have been read.
  private mutating func resolve() throws(DiaryError) {
    if group == nil, let name = positionals.first, name != Help.helpCommand {
      group = try self.group(named: name)
    }
    if command == nil, let group, group.isCommand {
      command = group.commands[0]
    } else if command == nil, let group, positionals.count >= 2 {
      command = try self.command(named: positionals[1], in: group)
    }
  }

  func group(named name: String) throws(DiaryError) -> CommandGroup {
    if let group = groups.first(where: { $0.name == name }) { return group }
    throw .usage(
      "unknown command '\(Terminal.escaped(name))'"
        + Suggestion.phrase(for: name, among: groups.map(\.name) + [Help.helpCommand]),
      Help.usage(groups))
  }

  func command(named name: String, in group: CommandGroup) throws(DiaryError)
    -> any ParsableCommand.Type
  {
    if let command = group.command(named: name) { return command }
    throw .usage(
      "unknown command '\(Terminal.escaped(name))' for '\(group.name)'"
        + (group.commandMeant(by: name).map { " — did you mean '\($0.name)'?" } ?? ""),
      Help.usage(of: group))
  }

  /// Keeps the text given for `option`: its inline value, the next token, or "" for a flag.
  private func record(
    _ option: OptionSpec, _ inlineValue: String?, from tokens: inout ArraySlice<String>,
    in given: inout [String: String]
  ) throws(DiaryError) {
    guard given[option.name] == nil || option.isRepeatable else {
      throw .usage("--\(option.name) is given twice", usage)
    }
    guard let placeholder = option.placeholder else {
      if inlineValue != nil { throw .usage("--\(option.name) takes no value", usage) }
      given[option.name] = ""
      return
    }
    guard let value = inlineValue ?? tokens.popFirst() else {
      throw .usage("--\(option.name) needs a value: --\(option.name) \(placeholder)", usage)
    }
    // A repeated option's values are kept apart by NUL, which no argument can hold.
    given[option.name] = given[option.name].map { $0 + "\u{0}" + value } ?? value
  }

  /// "unknown option '--x'", with the option meant when there is one, or — for a command
  /// that takes values — how to give a value that starts with a dash.
  private func unknownOption(_ name: String) -> DiaryError {
    let known = (command?.optionSpecs ?? []) + GlobalOptions.all.map(\.spec)
    let suggestion =
      known.first { $0.typedByMistake.contains(name) }.map { " — did you mean '--\($0.name)'?" }
      ?? Suggestion.phrase(for: name, among: known.map { "--\($0.name)" })
    var hint = ""
    if suggestion.isEmpty, let group, let command, !command.argumentSpecs.isEmpty {
      hint =
        " (to give it as a value, put it after '--': "
        + "diary \(group.name) \(command.name) -- \(Terminal.escaped(name)))"
    }
    return .usage("unknown option '\(Terminal.escaped(name))'" + suggestion + hint, usage)
  }

  /// Whether `name` as typed (`--help`, `-h`) is `option`.
  private static func names(_ name: String, _ option: OptionSpec) -> Bool {
    name == "--\(option.name)" || option.shortName.map { name == "-\($0)" } == true
  }

  /// `--name=value` as (`--name`, `value`); other tokens with no value.
  private static func split(_ token: String) -> (name: String, value: String?) {
    guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
    return (String(token[..<equals]), String(token[token.index(after: equals)...]))
  }

  /// Whether `token` is a negative number such as `-3`, `-2.5` or `-.5`: a value, not an
  /// option.
  private static func isNumber(_ token: String) -> Bool {
    let rest = token.dropFirst().drop { $0 == "." }
    return rest.first?.isASCII == true && rest.first?.isNumber == true
  }
}

extension String {
  var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
