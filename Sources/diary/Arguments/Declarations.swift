/// What a command line is parsed into — a command, or the global options: a value whose
/// properties start at their defaults and receive what the arguments and options declared on
/// them were given.
protocol Parsable: Sendable {
  init()
}

/// A command of `diary`, declared once: its name, its arguments and options — each with the
/// property it fills and its type — its help, and what it does.
///
/// ```swift
/// struct Add: ParsableCommand {
///   static let name = "add"
///   static let summary = "Add a todo at the top of the list"
///   static let arguments: [Argument<Add>] = [.value(\.title, .text("TITLE"), summary: "…")]
///   static let options: [Option<Add>] = [.option(\.priority, "priority", .integer(), summary: "…")]
///   var title = ""
///   var priority = 0
///   func run(_ context: Context) throws { … }
/// }
/// ```
///
/// The parser fills the properties, so a command reads `priority`, never an option by its
/// name; parsing, errors, suggestions, usage and help all come from the declarations.
protocol ParsableCommand: Parsable {
  /// The name after the group's: `add` in `diary todos add`.
  static var name: String { get }
  /// What the command does, in one line without a full stop.
  static var summary: String { get }
  /// The values after the name, in order; only the last can be optional or repeated.
  static var arguments: [Argument<Self>] { get }
  static var options: [Option<Self>] { get }
  /// More paragraphs for the help: what the values mean, an example.
  static var discussion: String { get }
  /// Names people type for this command (`chart` for `stats`), to suggest it when they do.
  static var typedByMistake: [String] { get }
  /// Does the work, printing to ``Context/output``.
  @MainActor func run(_ context: Context) throws
}

extension ParsableCommand {
  static var arguments: [Argument<Self>] { [] }
  static var options: [Option<Self>] { [] }
  static var discussion: String { "" }
  static var typedByMistake: [String] { [] }
}

/// A group of commands: `settings`, `todos`, `workouts`.
struct CommandGroup: Sendable {
  var name: String
  var summary: String
  var commands: [any ParsableCommand.Type]

  func command(named name: String) -> (any ParsableCommand.Type)? {
    commands.first { $0.name == name }
  }

  /// The command people mean when they type `name`, a name it is often typed as (`chart` for
  /// `stats`), or one close to its own.
  func commandMeant(by name: String) -> (any ParsableCommand.Type)? {
    if let meant = commands.first(where: { $0.typedByMistake.contains(name.lowercased()) }) {
      return meant
    }
    return Suggestion.closest(to: name, among: commands.map { $0.name }).flatMap(command(named:))
  }

  /// Whether the group is one command of its name, with no command name after it: `diary
  /// undo`.
  var isCommand: Bool { commands.count == 1 && commands[0].name == name }
}

/// What usage lines, help and the parser know of an argument, whatever it fills.
struct ArgumentSpec: Sendable {
  enum Count: Sendable {
    case one, optional, oneOrMore
  }

  /// What usage lines and help show for it: `TITLE`, `N`, `date|priority`.
  var placeholder: String
  var summary: String
  var count: Count

  /// `N…` for a repeated argument, `[KEY]` for an optional one.
  var usage: String {
    switch count {
    case .one: placeholder
    case .optional: "[\(placeholder)]"
    case .oneOrMore: "\(placeholder)…"
    }
  }
}

/// A value that follows a command's name: the property it fills and its type.
struct Argument<Target: Parsable>: Sendable {
  var spec: ArgumentSpec
  /// Reads the texts given for it into a target.
  var assign: @Sendable (inout Target, [String], LocalTime) throws(DiaryError) -> Void

  /// One value for the property at `keyPath`; `label` names it in errors (the placeholder by
  /// default).
  static func value<Value: Sendable>(
    _ keyPath: WritableKeyPath<Target, Value> & Sendable, _ type: ValueType<Value>,
    label: String? = nil, summary: String
  ) -> Self {
    Argument(spec: ArgumentSpec(placeholder: type.placeholder, summary: summary, count: .one)) {
      target, texts, time throws(DiaryError) in
      target[keyPath: keyPath] = try type.parse(
        texts[0], label: label ?? type.placeholder, time: time)
    }
  }

  /// A value that can be left out, for the property at `keyPath` (`nil` then).
  static func optional<Value: Sendable>(
    _ keyPath: WritableKeyPath<Target, Value?> & Sendable, _ type: ValueType<Value>,
    summary: String
  ) -> Self {
    Argument(
      spec: ArgumentSpec(placeholder: type.placeholder, summary: summary, count: .optional)
    ) { target, texts, time throws(DiaryError) in
      guard let text = texts.first else { return }
      target[keyPath: keyPath] = try type.parse(text, label: type.placeholder, time: time)
    }
  }

  /// One or more values, in the order typed, for the property at `keyPath`.
  static func list<Value: Sendable>(
    _ keyPath: WritableKeyPath<Target, [Value]> & Sendable, _ type: ValueType<Value>,
    label: String? = nil, summary: String
  ) -> Self {
    Argument(
      spec: ArgumentSpec(placeholder: type.placeholder, summary: summary, count: .oneOrMore)
    ) { target, texts, time throws(DiaryError) in
      var values: [Value] = []
      for text in texts {
        values.append(try type.parse(text, label: label ?? type.placeholder, time: time))
      }
      target[keyPath: keyPath] = values
    }
  }
}

/// What usage lines, help and the parser know of an option, whatever it fills.
struct OptionSpec: Sendable {
  /// The name without the dashes: `priority`.
  var name: String
  /// A one-letter form, such as `-h` for `--help`.
  var shortName: String?
  /// What usage lines and help show for its value; `nil` for a flag.
  var placeholder: String?
  /// The help line: the summary, the values a choice takes and the default.
  var help: String
  /// Whether the command cannot run without it.
  var isRequired = false
  /// Options people type for this one (`-v` for `--version`), to suggest it when they do.
  var typedByMistake: [String] = []
  /// Whether it can be given more than once (`--column a=b --column c=d`).
  var isRepeatable = false

  /// `--name VALUE`, or `--name` for a flag.
  var syntax: String { "--\(name)" + (placeholder.map { " \($0)" } ?? "") }

  /// The option in a usage line: `[--name VALUE]`, without brackets when it is required.
  var usage: String { isRequired ? syntax : "[\(syntax)]" }
}

/// An option: `--name VALUE` or `--name=VALUE` for the property it fills, with its type, or a
/// flag `--name` that sets a `Bool` property.
struct Option<Target: Parsable>: Sendable {
  var spec: OptionSpec
  /// Reads the value given (`nil` for a flag) into a target.
  var assign: @Sendable (inout Target, String?, LocalTime) throws(DiaryError) -> Void

  /// A flag: `--name` sets the property at `keyPath`.
  static func flag(
    _ keyPath: WritableKeyPath<Target, Bool> & Sendable, _ name: String, shortName: String? = nil,
    summary: String, typedByMistake: [String] = []
  ) -> Self {
    Option(
      spec: OptionSpec(
        name: name, shortName: shortName, placeholder: nil, help: summary + ".",
        typedByMistake: typedByMistake)
    ) { target, _, _ in target[keyPath: keyPath] = true }
  }

  /// `--name VALUE` for the property at `keyPath`, which stays `nil` when it is not given;
  /// `whenLeftOut` says what that means in the help ("now").
  static func option<Value: Sendable>(
    _ keyPath: WritableKeyPath<Target, Value?> & Sendable, _ name: String,
    _ type: ValueType<Value>, whenLeftOut: String? = nil, summary: String
  ) -> Self {
    Option(
      spec: OptionSpec(
        name: name, placeholder: type.placeholder,
        help: help(summary, type, default: whenLeftOut))
    ) { target, text, time throws(DiaryError) in
      target[keyPath: keyPath] = try type.parse(text ?? "", label: "--\(name)", time: time)
    }
  }

  /// `--name VALUE`, given any number of times, for the property at `keyPath`: the values in
  /// the order typed.
  static func repeated<Value: Sendable>(
    _ keyPath: WritableKeyPath<Target, [Value]> & Sendable, _ name: String,
    _ type: ValueType<Value>, summary: String
  ) -> Self {
    Option(
      spec: OptionSpec(
        name: name, placeholder: type.placeholder,
        help: help(summary + "; can be given more than once", type, default: nil),
        isRepeatable: true)
    ) { target, text, time throws(DiaryError) in
      var values: [Value] = []
      for part in (text ?? "").split(separator: "\u{0}", omittingEmptySubsequences: false) {
        values.append(try type.parse(String(part), label: "--\(name)", time: time))
      }
      target[keyPath: keyPath] = values
    }
  }

  /// `--name VALUE` for the property at `keyPath`: required, or with the property's initial
  /// value as its default (shown in the help).
  static func option<Value: Sendable>(
    _ keyPath: WritableKeyPath<Target, Value> & Sendable, _ name: String,
    _ type: ValueType<Value>, placeholder: String? = nil, isRequired: Bool = false,
    summary: String
  ) -> Self {
    let defaultValue = isRequired ? nil : type.format(Target()[keyPath: keyPath])
    return Option(
      spec: OptionSpec(
        name: name, placeholder: placeholder ?? type.placeholder,
        help: help(summary, type, default: defaultValue), isRequired: isRequired)
    ) { target, text, time throws(DiaryError) in
      target[keyPath: keyPath] = try type.parse(text ?? "", label: "--\(name)", time: time)
    }
  }

  /// "How hard it was: low, medium or high (default medium)."
  private static func help<Value: Sendable>(
    _ summary: String, _ type: ValueType<Value>, default: String?
  )
    -> String
  {
    summary + (type.valuesHelp.map { ": \($0)" } ?? "")
      + (`default`.map { " (default \($0))" } ?? "") + "."
  }
}

extension ParsableCommand {
  /// What the parser and the help know of the arguments.
  static var argumentSpecs: [ArgumentSpec] { arguments.map(\.spec) }
  /// What the parser and the help know of the options.
  static var optionSpecs: [OptionSpec] { options.map(\.spec) }

  /// `diary todos add TITLE [--priority N] [--date DATE]`: the command's usage line, the only
  /// place it is made.
  static func usage(in group: String) -> String {
    (["diary", group] + (name == group ? [] : [name]) + argumentSpecs.map(\.usage)
      + optionSpecs.map(\.usage))
      .joined(separator: " ")
  }

  /// The command with the values given: `arguments` in order and `options` by name, each read
  /// by its type, in the order declared.
  ///
  /// - Throws: The error of the first value that is not valid (exit 65).
  static func parsed(arguments: [String], options: [String: String], time: LocalTime)
    throws(DiaryError) -> Self
  {
    var command = Self()
    var remaining = arguments[...]
    for argument in Self.arguments {
      let texts: ArraySlice<String>
      switch argument.spec.count {
      case .one, .optional: texts = remaining.prefix(1)
      case .oneOrMore: texts = remaining
      }
      remaining = remaining.dropFirst(texts.count)
      try argument.assign(&command, Array(texts), time)
    }
    try command.fill(Self.options, given: options, time: time)
    return command
  }
}

extension Parsable {
  /// Reads the values `given` for `options`, by name, into this value, in the order declared.
  ///
  /// - Throws: The error of the first value that is not valid (exit 65).
  mutating func fill(_ options: [Option<Self>], given: [String: String], time: LocalTime)
    throws(DiaryError)
  {
    for option in options {
      guard let text = given[option.spec.name] else { continue }
      try option.assign(&self, text, time)
    }
  }
}
