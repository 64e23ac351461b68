import Foundation
import Stores

/// `diary undo` and `diary redo`: the last commands that changed this data folder on this
/// machine, undone and redone by identity (see ``CommandHistory``).
enum UndoCommands {
  static let undo = CommandGroup(
    name: "undo", summary: Undo.summary, commands: [Undo.self])
  static let redo = CommandGroup(
    name: "redo", summary: Redo.summary, commands: [Redo.self])

  struct Undo: ParsableCommand {
    static let name = "undo"
    static let summary = "Undo the last diary command that changed this data folder"
    static let discussion =
      "Each undo goes one command further back; 'diary redo' comes back. What someone else "
      + "changed since — another diary, the app, another device — stays: a todo, workout or "
      + "setting changed meanwhile is skipped, and the output says so. The history is kept "
      + "on this machine, outside the data folder (the last 100 commands)."

    func run(_ context: Context) throws {
      try step(context, undoing: true)
    }
  }

  struct Redo: ParsableCommand {
    static let name = "redo"
    static let summary = "Redo the last command undone by 'diary undo'"
    static let discussion =
      "A command that changes the data folder after an undo drops what there was to redo."

    func run(_ context: Context) throws {
      try step(context, undoing: false)
    }
  }

  /// Undoes (or redoes) the last step of the history: sends each of its actions to its
  /// store, which applies it to its file as it is now and records the action that reverses
  /// it — the step for the other side — and prints what it did.
  @MainActor
  private static func step(_ context: Context, undoing: Bool) throws {
    let url = try CommandHistory.url(for: context.paths, environment: context.environment)
    let done = try CommandHistory.update(at: url, files: context.paths) {
      history -> (RecordedStep, [String])? in
      guard let step = undoing ? history.undo.last : history.redo.last else { return nil }
      var reversing: [RecordedAction] = []
      var skipped: [String] = []
      for action in step.actions {
        let (inverse, parts) = try apply(action, context)
        reversing += inverse
        skipped += parts
      }
      let other = RecordedStep(description: step.description, actions: reversing.reversed())
      if undoing {
        history.undo.removeLast()
        history.redo.append(other)
      } else {
        history.redo.removeLast()
        history.undo.append(other)
      }
      return (step, skipped)
    }
    guard let (step, skipped) = done else {
      if context.json {
        return try JSONOutput.write(outcome(step: nil, skipped: []), to: context.output)
      }
      return try context.output.line(
        undoing
          ? "Nothing to undo: no diary command changed this data folder on this machine since."
          : "Nothing to redo.")
    }
    context.output.recordSaved("\(undoing ? "undid" : "redid") \(step.description)")
    if context.json {
      return try JSONOutput.write(
        outcome(step: step.description, skipped: skipped), to: context.output)
    }
    try context.output.line("\(undoing ? "Undid" : "Redid"): \(Terminal.escaped(step.description))")
    if !skipped.isEmpty {
      try context.output.line(
        "Skipped, changed by someone else meanwhile: "
          + Terminal.escaped(skipped.joined(separator: ", ")))
    }
  }

  /// What `--json` prints: the command undone or redone as `step` (left out when there was
  /// none) and what was `skipped`.
  private static func outcome(step: String?, skipped: [String]) -> JSONValue {
    var outcome = ["skipped": JSONValue.array(skipped.map(JSONValue.init))]
    if let step { outcome["step"] = JSONValue(step) }
    return .object(outcome)
  }

  /// Sends `action` to its store as that store's undo, on the file as it is now; returns the
  /// actions that reverse what it did (none when it changed nothing) and what it skipped.
  @MainActor
  private static func apply(_ action: RecordedAction, _ context: Context) throws
    -> (inverse: [RecordedAction], skipped: [String])
  {
    switch action {
    case .todos(let action):
      let store = try TodosStore(contentsOf: context.paths.todos)
      let outcome = try undo(action, in: store)
      return (store.undoHistory.redoSteps.map { .todos($0.action) }, outcome)
    case .settings(let action):
      let store = try SettingsStore(contentsOf: context.paths.settings)
      let outcome = try undo(action, in: store)
      return (store.undoHistory.redoSteps.map { .settings($0.action) }, outcome)
    default:
      guard let action = action.workoutsAction else { return ([], []) }
      let store = try WorkoutsStore(contentsOf: context.paths.workouts)
      let outcome = try undo(action, in: store)
      return (store.undoHistory.redoSteps.compactMap { RecordedAction($0.action) }, outcome)
    }
  }

  /// Undoes `action` in `store`, whose history is empty: returns what was skipped.
  @MainActor
  private static func undo<S: Store>(_ action: S.Action, in store: S) throws -> [String] {
    var history = UndoHistory<S.Action>()
    history.record(UndoHistory.Step(action: action, name: ""))
    store.undoHistory = history
    return try store.tryUndo()?.skipped ?? []
  }

  /// Records what the command that ran with `arguments` changed, as a step of the history.
  /// A failure to record is told on standard error: the command itself was done.
  @MainActor
  static func record(_ arguments: [String], _ context: Context) {
    let actions = context.recorder.inverses
    guard !actions.isEmpty else { return }
    let step = RecordedStep(description: description(arguments, actions), actions: actions)
    do {
      let url = try CommandHistory.url(for: context.paths, environment: context.environment)
      try CommandHistory.update(at: url, files: context.paths) { $0.record(step) }
    } catch {
      context.output.message(
        "diary: warning: the change was made, but 'diary undo' will not know it: "
          + DiaryError(error).message)
    }
  }

  /// `todos remove 2 (“Buy milk”)`: the command line without the global options, and the
  /// titles or names of what it changed (the first three).
  static func description(_ arguments: [String], _ actions: [RecordedAction]) -> String {
    var words: [String] = []
    var rest = arguments[...]
    while let word = rest.popFirst() {
      if word == "--json" { continue }
      if word == "--data-dir" {
        _ = rest.popFirst()
        continue
      }
      if word.hasPrefix("--data-dir=") { continue }
      words.append(word.contains(" ") || word.isEmpty ? "\"\(word)\"" : word)
    }
    let names = actions.reversed().flatMap(\.names)
    guard !names.isEmpty else { return words.joined(separator: " ") }
    let shown = names.prefix(3).map { "“\($0)”" }.joined(separator: ", ")
    let more = names.count > 3 ? " and \(names.count - 3) more" : ""
    return words.joined(separator: " ") + " (\(shown)\(more))"
  }
}
