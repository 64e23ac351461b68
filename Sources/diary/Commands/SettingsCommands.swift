import Foundation
import Stores

/// `diary settings …`: list, read, change and reset the settings — those the tool knows, those
/// an app declares (described in the key catalog beside the file, see `SettingsCatalog`)
/// and any other key in the file.
enum SettingsCommands {
  static let group = CommandGroup(
    name: "settings", summary: "Read and change the settings",
    commands: [List.self, Get.self, SetValue.self, Reset.self, Path.self])

  /// A setting and what the file holds for it.
  struct Current {
    var setting: Setting
    /// The value in effect: the one stored when it is valid, else the default; `nil` for a
    /// key the tool does not know that is not set.
    var value: JSONValue?
    /// Whether the value in effect is the default.
    var isDefault: Bool
    /// Why the value stored is not valid (so the default is in effect), or `nil`.
    var problem: String?

    /// The built-in settings in the order declared, then the app's keys in the order of
    /// their catalog, then the file's other keys, sorted.
    @MainActor
    static func all(in settings: SettingsStore) -> [Current] {
      let values = settings.state.values
      return settings.entries.map(Current.init)
        + settings.unknownKeys.compactMap { name in values[name].map { other(name, $0) } }
    }

    /// The setting called exactly `name` (the same Unicode scalars: keys that differ only in
    /// Unicode normalization are two keys), when the tool or an app declares it or the file
    /// holds it.
    @MainActor
    static func named(_ name: String, in settings: SettingsStore) -> Current? {
      if let entry = settings.entries.first(where: { $0.key.name.utf8.elementsEqual(name.utf8) }) {
        return Current(entry)
      }
      return settings.state.values[name].map { other(name, $0) }
    }

    /// A key nobody declares, holding `stored`: typed by its value.
    private static func other(_ name: String, _ stored: JSONValue) -> Current {
      Current(
        setting: Setting(name: name, type: SettingType(of: stored)), value: stored,
        isDefault: false, problem: nil)
    }

    /// A declared setting — built in, or an app's registered from its catalog — and what
    /// the file holds for it.
    @MainActor
    init(_ entry: SettingsEntry) {
      let name = entry.key.name
      self.init(
        setting: Setting.builtIn.first { $0.name.utf8.elementsEqual(name.utf8) }
          ?? Setting(app: entry.key.keyDescription),
        value: entry.value, isDefault: entry.isDefault, problem: entry.problem)
    }

    init(setting: Setting, value: JSONValue?, isDefault: Bool, problem: String?) {
      self.setting = setting
      self.value = value
      self.isDefault = isDefault
      self.problem = problem
    }

    /// The value as typed, "" when there is none.
    var formatted: String { value.map(setting.format) ?? "" }
  }

  /// A setting as `--json` prints it: `key`, `value`, `default`, `isDefault`, `type`,
  /// `allowedValues`, `summary` and `problem`; every field is there, `null` when it has no
  /// value.
  private static func entry(_ current: Current) -> JSONValue {
    let setting = current.setting
    return .object([
      "key": JSONValue(setting.name),
      "value": current.value ?? .null,
      "default": setting.defaultValue ?? .null,
      "isDefault": .bool(current.isDefault),
      "type": JSONValue(setting.type.name),
      "allowedValues": JSONValue(setting.allowedValues, \.json),
      "summary": JSONValue(setting.summary, JSONValue.init),
      "problem": JSONValue(current.problem, JSONValue.init),
    ])
  }

  struct List: ParsableCommand {
    static let name = "list"
    static let summary = "Show every setting: value, default and allowed values"
    static let discussion = """
      The settings diary knows come first, then those of an app that opened the file with \
      its own keys (described in the key catalog beside it, settings.keys.json), then the \
      file's other keys, alphabetically. A '*' marks a value that differs from its default. \
      Long values are shortened to fit; 'diary settings get KEY' prints them whole.
      """

    func run(_ context: Context) throws {
      let settings = try context.appSettings()
      let all = Current.all(in: settings)
      if context.json { return try JSONOutput.writeArray(all.map(entry), to: context.output) }
      try SettingsTable(all, terminal: context.terminal).write(to: context.output)
      if all.contains(where: { !$0.isDefault && $0.setting.isDeclared }) {
        try context.output.line("* differs from the default")
      }
      for current in all { warnIfInvalid(current, context) }
    }
  }

  /// "diary: warning: sleepGoal in the file is not valid (…); using the default — …" on
  /// stderr, for a stored value that is not valid.
  @MainActor
  static func warnIfInvalid(_ current: Current, _ context: Context) {
    guard let problem = current.problem else { return }
    let name = Terminal.escapedKey(current.setting.name)
    context.output.message(
      "diary: warning: \(name) in the file is not valid (\(Terminal.escaped(problem))); "
        + "using the default — fix it with 'diary settings set \(name) VALUE'")
  }

  struct Get: ParsableCommand {
    static let name = "get"
    static let summary = "Print the value of one setting"
    static let arguments: [Argument<Get>] = [
      .value(\.key, .text("KEY"), summary: "The setting, such as sleepGoal")
    ]
    var key = ""

    func run(_ context: Context) throws {
      let settings = try context.appSettings()
      guard let current = Current.named(key, in: settings) else {
        throw unknownSetting(key, in: settings, usage: Self.usage(in: "settings"))
      }
      if context.json {
        try JSONOutput.write(entry(current), to: context.output)
      } else {
        try context.output.line(Terminal.escaped(current.formatted))
      }
      warnIfInvalid(current, context)
    }
  }

  struct SetValue: ParsableCommand {
    static let name = "set"
    static let summary = "Change a setting, or add one"
    static let arguments: [Argument<SetValue>] = [
      .value(\.key, .text("KEY"), summary: "The setting, such as sleepGoal, or a new one"),
      .optional(
        \.value, .text("VALUE"),
        summary: "Its new value, such as 7.5, yes or miles (left out with --unset)"),
    ]
    static let options: [Option<SetValue>] = [
      .option(
        \.type, "type", .choice(),
        summary: "The type of a setting diary does not know, as defaults write takes it"),
      .flag(
        \.unset, "unset",
        summary: "Clear an app's optional setting (its nil) instead of giving a VALUE"),
    ]
    static let discussion = """
      A value is read by the setting's type: a number such as 7.5 (not nan or inf), true or \
      false (also yes/no, on/off, 1/0), text, or one of the allowed values, in any case. A \
      value that is not valid is refused (exit 65) and nothing changes.
      A setting diary knows keeps its type and validation: --type is refused for it (exit 64). \
      So does an app's setting described in its key catalog (settings.keys.json, written by \
      the app): its type, range or cases, and for a Codable value the JSON shape the catalog \
      records — the fields and the type of each (--type, if given, must be its type); the \
      app's own rule is checked by the app, and 'settings list' reports a value it refuses. \
      --unset clears an app's optional setting: diary settings set nickname --unset. Any other key \
      is typed by --type, else by the value the file holds for it (a list or an object is \
      JSON): diary settings set theme dark --type string. A date is stored as ISO 8601 (--type date takes what 'todos add --date' \
      takes), data as base64, and a list, set, dictionary, range or other value as the JSON \
      typed: diary settings set favourites '["a","b"]' --type json.
      Example: diary settings set sleepGoal 7.5
      """

    var key = ""
    var value: String?
    var type: SettingType?
    var unset = false

    func run(_ context: Context) throws {
      let usage = Self.usage(in: "settings")
      guard !key.isEmpty else { throw DiaryError("a setting needs a name: KEY is empty") }
      if unset, value != nil || type != nil {
        throw DiaryError.usage(
          "--unset clears the setting: leave out " + (value != nil ? "VALUE" : "--type"), usage)
      }
      guard unset || value != nil else {
        throw DiaryError.usage(
          "the new value is missing: give VALUE, or --unset to clear an app's optional setting",
          usage)
      }
      let settings = try context.appSettings()
      let current = Current.named(key, in: settings)
      guard let value else { return try clear(current, in: settings, context, usage: usage) }
      let setting: Setting
      switch (current?.setting, type) {
      case (let known?, _?) where known.isBuiltIn:
        throw DiaryError.usage(
          "\(key) is diary's own setting, of type \(known.type.name): "
            + "leave out --type", usage)
      case (let known?, let type?) where known.isAppKey && type != known.type:
        throw DiaryError.usage(
          "\(Terminal.escapedKey(key)) is the app's setting, of type \(known.type.name) (its key "
            + "catalog says so), not \(type.name): leave out --type", usage)
      case (let known?, _) where known.isAppKey: setting = known
      case (_, let type?): setting = Setting(name: key, type: type)
      case (let existing?, nil): setting = existing
      case (nil, nil): throw unknownSetting(key, in: settings, usage: usage, canAdd: true)
      }
      let json = try setting.read(value, context.time)
      if json == .null && setting.isAppKey {
        // An optional's nil is its key not set, as the app stores it.
        try settings.remove([key])
      } else {
        try settings.trySend(.set(key: key, value: json))
      }
      let stored = Current.named(key, in: settings)
      context.output.recordSaved("set \(Terminal.escaped(key))")
      if context.json, let stored {
        return try JSONOutput.write(entry(stored), to: context.output)
      }
      if let stored, stored.value == .null {
        return try context.output.line(Reset.isDefault(stored))
      }
      try context.output.line(
        "\(Terminal.escapedKey(key)) = \(Terminal.escaped(stored?.formatted ?? ""))")
    }

    /// `set KEY --unset`: removes the value of an app's optional setting, which then reads as
    /// `nil` (or its default); refuses any other key (exit 64), pointing at `reset`.
    @MainActor
    private func clear(
      _ current: Current?, in settings: SettingsStore, _ context: Context, usage: String
    ) throws {
      guard let current else { throw unknownSetting(key, in: settings, usage: usage) }
      let name = Terminal.escapedKey(key)
      guard current.setting.isOptional else {
        let whose =
          current.setting.isBuiltIn
          ? "diary's own setting" : current.setting.isAppKey ? "the app's setting" : "a setting"
        throw DiaryError.usage(
          "\(name) is \(whose), not an optional one: --unset clears an optional setting; "
            + "'diary settings reset \(name)' puts \(name) back to its default", usage)
      }
      try settings.remove([key])
      context.output.recordSaved("unset \(Terminal.escaped(key))")
      let after = Current.named(key, in: settings) ?? current
      if context.json { return try JSONOutput.write(entry(after), to: context.output) }
      try context.output.line(Reset.isDefault(after))
    }
  }

  struct Reset: ParsableCommand {
    static let name = "reset"
    static let summary =
      "Put a setting, or every setting diary or the app declares, back to its default"
    static let arguments: [Argument<Reset>] = [
      .optional(
        \.key, .text("KEY"),
        summary: "The setting; every setting diary or the app declares when left out. A key "
          + "neither declares is removed from the file")
    ]
    var key: String?

    func run(_ context: Context) throws {
      let settings = try context.appSettings()
      guard let key else {
        try settings.reset()
        context.output.recordSaved("reset the settings")
        let all = settings.entries.map(Current.init)
        if context.json {
          return try JSONOutput.writeArray(all.map(entry), to: context.output)
        }
        for current in all { try context.output.line(Self.isDefault(current)) }
        return
      }
      guard let current = Current.named(key, in: settings) else {
        throw unknownSetting(key, in: settings, usage: Self.usage(in: "settings"))
      }
      try settings.remove([key])
      context.output.recordSaved("reset \(Terminal.escaped(key))")
      let after =
        Current.named(key, in: settings)
        ?? Current(setting: current.setting, value: nil, isDefault: false, problem: nil)
      if context.json { return try JSONOutput.write(entry(after), to: context.output) }
      try context.output.line(
        after.setting.isDeclared
          ? Self.isDefault(after) : "\(Terminal.escapedKey(key)) is not set any more")
    }

    /// "sleepGoal = 8 (default)"; "nickname is not set (default)" for an optional's `nil`.
    static func isDefault(_ current: Current) -> String {
      let name = Terminal.escapedKey(current.setting.name)
      guard current.value != .null else { return "\(name) is not set (default)" }
      return "\(name) = \(Terminal.escaped(current.formatted)) (default)"
    }
  }

  struct Path: ParsableCommand {
    static let name = "path"
    static let summary = "Show where each data file is"

    func run(_ context: Context) throws {
      let paths = context.paths
      if context.json {
        return try JSONOutput.write(
          JSONValue.object([
            "settings": JSONValue(paths.settings.path), "todos": JSONValue(paths.todos.path),
            "workouts": JSONValue(paths.workouts.path),
          ]), to: context.output)
      }
      var table = TextTable(headers: ["FILE", "PATH"], alignments: [.left, .left])
      table.rows = [
        ["settings", paths.settings.path], ["todos", paths.todos.path],
        ["workouts", paths.workouts.path],
      ]
      try context.output.line(table.render(context.terminal))
    }
  }

  /// "unknown setting 'x'" (exit 64), with the closest name, or else the settings there are
  /// and — for `set` — how to add a new one.
  @MainActor
  private static func unknownSetting(
    _ name: String, in settings: SettingsStore, usage: String, canAdd: Bool = false
  ) -> DiaryError {
    let names = Current.all(in: settings).map(\.setting.name)
    let suggestion = Suggestion.phrase(for: name, among: names)
    return .usage(
      "unknown setting '\(Terminal.escapedKey(name))'"
        + (suggestion.nonEmpty
          ?? " — the settings are "
          + names.map(Terminal.escapedKey).joined(separator: ", ", lastSeparator: " and ")
          + (canAdd
            ? "; to add it, give its type: --type "
              + SettingType.allCases.map(\.name).joined(separator: "|") : "")),
      usage)
  }
}

extension String {
  /// The string, or `nil` when it is empty.
  var nonEmpty: String? { isEmpty ? nil : self }
}
