import Foundation
import Stores

/// `diary settings …`: list, read, change and reset the settings.
enum SettingsCommands {
  static let group = CommandGroup(
    name: "settings", summary: "Read and change the settings.",
    commands: [
      Command(
        name: "list", summary: "Show every setting: value, default, type and allowed values.",
        discussion: "A '*' marks a value that differs from its default.", run: list),
      Command(
        name: "get", summary: "Print the value of one setting.",
        arguments: [.init(name: "KEY", summary: "The setting, such as sleepGoal.")], run: get),
      Command(
        name: "set", summary: "Change a setting.",
        arguments: [
          .init(name: "KEY", summary: "The setting, such as sleepGoal."),
          .init(name: "VALUE", summary: "Its new value, such as 7.5, yes or miles."),
        ],
        discussion: """
          Values are read by the setting's type: numbers such as 7.5 (not nan or inf), true or
          false (also yes/no, on/off, 1/0), or one of the allowed choices.
          Example: diary settings set sleepGoal 7.5
          """,
        run: set),
      Command(
        name: "reset", summary: "Put one setting, or all of them, back to the default.",
        arguments: [
          .init(name: "KEY", summary: "The setting; all of them when left out.", isOptional: true)
        ],
        run: reset),
      Command(name: "path", summary: "Show where each data file is.", run: path),
    ])

  private struct Entry: Encodable {
    var key: String
    var value: JSONValue
    var defaultValue: JSONValue
    var isDefault: Bool
    var type: String
    var allowedValues: String?
    var summary: String
    var problem: String?

    init(_ entry: SettingsEntry) {
      key = entry.key.name
      value = entry.value
      defaultValue = entry.key.defaultValue
      isDefault = entry.isDefault
      type = entry.key.typeDescription
      allowedValues = entry.key.validValues
      summary = entry.key.summary
      problem = entry.problem
    }

    private enum CodingKeys: String, CodingKey {
      case key, value, isDefault, type, allowedValues, summary, problem
      case defaultValue = "default"
    }
  }

  @MainActor
  private static func list(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let settings = try context.settings()
    let entries = settings.entries
    if context.json { return try JSONOutput.encode(entries.map(Entry.init)) }
    var table = TextTable(
      headers: ["KEY", "VALUE", "DEFAULT", "TYPE", "ALLOWED", "DESCRIPTION"],
      alignments: [.left, .left, .left, .left, .left, .left])
    for entry in entries {
      let key = entry.key
      let value = key.format(entry.value) + (entry.isDefault ? "" : " *")
      table.rows.append([
        key.name, value, key.format(key.defaultValue), key.typeDescription, key.validValues ?? "",
        key.summary,
      ])
    }
    var lines = [table.render(context.terminal)]
    if entries.contains(where: { !$0.isDefault }) { lines.append("* differs from the default") }
    for entry in entries {
      if let problem = entry.problem {
        lines.append(
          context.terminal.yellow(
            "warning: \(entry.key.name) in the file is not valid (\(Terminal.escaped(problem))); "
              + "using the default — fix it with 'diary settings set \(entry.key.name) VALUE'"))
      }
    }
    if !settings.unknownKeys.isEmpty {
      lines.append(
        "Also in the file, kept as they are: "
          + settings.unknownKeys.map(Terminal.escaped).joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  @MainActor
  private static func get(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let settings = try context.settings()
    let key = try settingsKey(parsed.arguments[0], in: settings, usage: parsed.usage)
    guard let entry = settings.entries.first(where: { $0.key.name == key.name }) else { return "" }
    if let problem = entry.problem {
      throw DiaryError(
        "\(context.paths.settings.path): \(key.name) is not valid (\(Terminal.escaped(problem))) — "
          + "fix it with 'diary settings set \(key.name) VALUE' or 'diary settings reset \(key.name)'"
      )
    }
    if context.json { return try JSONOutput.encode(Entry(entry)) }
    return Terminal.escaped(key.format(entry.value))
  }

  @MainActor
  private static func set(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let settings = try context.settings()
    let key = try settingsKey(parsed.arguments[0], in: settings, usage: parsed.usage)
    let value = try key.parse(parsed.arguments[1])
    try settings.trySend(.set(key: key.name, value: value))
    guard let entry = settings.entries.first(where: { $0.key.name == key.name }) else { return "" }
    if context.json { return try JSONOutput.encode(Entry(entry)) }
    return "\(key.name) = \(Terminal.escaped(key.format(value)))"
  }

  @MainActor
  private static func reset(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let settings = try context.settings()
    if let name = parsed.arguments.first {
      let key = try settingsKey(name, in: settings, usage: parsed.usage)
      try settings.remove([key.name])
    } else {
      try settings.reset()
    }
    let entries = settings.entries.filter { entry in
      parsed.arguments.first.map { entry.key.name == $0 } ?? true
    }
    if context.json { return try JSONOutput.encode(entries.map(Entry.init)) }
    return entries.map { "\($0.key.name) = \($0.key.format($0.value)) (default)" }
      .joined(separator: "\n")
  }

  @MainActor
  private static func path(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let paths = context.paths
    if context.json {
      return try JSONOutput.encode([
        "settings": paths.settings.path, "todos": paths.todos.path, "workouts": paths.workouts.path,
      ])
    }
    var table = TextTable(headers: ["FILE", "PATH"], alignments: [.left, .left])
    table.rows = [
      ["settings", paths.settings.path], ["todos", paths.todos.path],
      ["workouts", paths.workouts.path],
    ]
    return table.render(context.terminal)
  }

  /// The setting called `name`, or a usage error that suggests the closest one.
  @MainActor
  private static func settingsKey(
    _ name: String, in settings: SettingsStore, usage: String
  ) throws -> AnySettingsKey {
    if let key = settings.key(named: name) { return key }
    let names = settings.keys.map(\.name)
    throw DiaryError(
      "unknown setting '\(Terminal.escaped(name))'"
        + (Suggestion.phrase(for: name, among: names).nonEmpty
          ?? " — the settings are " + names.joined(separator: ", ")),
      exitCode: .usage, usage: usage)
  }
}

extension String {
  /// The string, or `nil` when it is empty.
  var nonEmpty: String? { isEmpty ? nil : self }
}
