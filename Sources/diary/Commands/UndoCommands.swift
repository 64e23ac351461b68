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
      + "on this machine, outside the data folder (the last 100 commands, up to 8 MB)."

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
  /// it — the step for the other side — and prints what it did. A step that was too large to
  /// keep changes nothing: it goes to the other side as it is, and the output says so.
  ///
  /// Reads the index and that one step: O(size of the step) + O(number of steps).
  @MainActor
  private static func step(_ context: Context, undoing: Bool) throws {
    let url = try CommandHistory.url(for: context.paths, environment: context.environment)
    let (side, other): (CommandHistory.Session.Side, CommandHistory.Session.Side) =
      undoing ? (.undo, .redo) : (.redo, .undo)
    let done = try CommandHistory.update(at: url, files: context.paths) {
      history -> (step: RecordedStep, skipped: [String], dropped: Int?)? in
      guard let entry = history.last(side) else { return nil }
      let step = try history.step(entry)
      history.removeLast(side)
      if step.tooLarge != nil {
        try history.append(step, on: other)
        return (step, [], nil)
      }
      var reversing: [RecordedAction] = []
      var skipped: [String] = []
      for action in step.actions {
        let (inverse, parts) = try apply(action, context)
        reversing += inverse
        skipped += parts
      }
      let dropped = try history.append(
        RecordedStep(description: step.description, actions: reversing.reversed()), on: other)
      return (step, skipped, dropped)
    }
    guard let (step, skipped, dropped) = done else {
      if context.json {
        return try JSONOutput.write(outcome(step: nil, skipped: []), to: context.output)
      }
      return try context.output.line(
        undoing
          ? "Nothing to undo: no diary command changed this data folder on this machine since."
          : "Nothing to redo.")
    }
    let (verb, otherVerb) = undoing ? ("undo", "redo") : ("redo", "undo")
    if let dropped {
      context.output.message(
        "diary: warning: \(verb) done, but 'diary \(otherVerb)' cannot \(otherVerb) it: that "
          + "takes \(megabytes(dropped)), more than the "
          + "\(megabytes(CommandHistory.byteBudget)) the undo history keeps")
    }
    if let tooLarge = step.tooLarge {
      if context.json {
        return try JSONOutput.write(
          outcome(step: step.description, skipped: [], tooLarge: true), to: context.output)
      }
      let further = undoing ? "command before" : "next command"
      return try context.output.line(
        "Cannot \(verb) \(Terminal.escaped(step.description)): it took \(megabytes(tooLarge)), "
          + "more than the \(megabytes(CommandHistory.byteBudget)) the undo history keeps. "
          + "Nothing was changed; 'diary \(verb)' again goes on to the \(further).")
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

  /// `bytes` in megabytes, one decimal: `24.6 MB`.
  static func megabytes(_ bytes: Int) -> String {
    let tenths = (bytes + 50_000) / 100_000
    return "\(tenths / 10).\(tenths % 10) MB"
  }

  /// What `--json` prints: the command undone or redone as `step` (left out when there was
  /// none), what was `skipped`, and `tooLarge: true` when the step was too large to keep, so
  /// that nothing was changed.
  private static func outcome(step: String?, skipped: [String], tooLarge: Bool = false)
    -> JSONValue
  {
    var outcome = ["skipped": JSONValue.array(skipped.map(JSONValue.init))]
    if let step { outcome["step"] = JSONValue(step) }
    if tooLarge { outcome["tooLarge"] = .bool(true) }
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
      try context.download(context.paths.todos)
      let store = try Context.openTodos(context.paths.todos)
      context.recorder.follow(.todos, in: store, order: Context.order, context)
      let outcome = try undo(action, in: store)
      return (store.undoHistory.redoSteps.map { .todos($0.action) }, outcome)
    case .settings(let action):
      try context.download(context.paths.settings)
      let store = try SettingsStore(contentsOf: context.paths.settings)
      let outcome = try undo(action, in: store)
      return (store.undoHistory.redoSteps.map { .settings($0.action) }, outcome)
    default:
      guard let action = action.workoutsAction else { return ([], []) }
      try context.download(context.paths.workouts)
      let store = try Context.openWorkouts(context.paths.workouts)
      context.recorder.follow(.workouts, in: store, order: Context.order, context)
      let outcome = try undo(action, in: store)
      return (store.undoHistory.redoSteps.compactMap { RecordedAction($0.action) }, outcome)
    }
  }

  /// Undoes `action` in `store`, just opened: returns what was skipped.
  @MainActor
  private static func undo<S: Store>(_ action: S.Action, in store: S) throws -> [String] {
    try store.tryUndo(UndoHistory.Step(action: action, name: "")).skipped
  }

  /// Records what the command that ran with `arguments` changed, as a step of the history.
  /// The command itself was done, whatever happens here: a failure to record is told on
  /// standard error as a warning, and the exit code stays the command's. So it is when the
  /// step is too large to keep (see ``CommandHistory/byteBudget``), and when another `diary`
  /// holds the history's lock longer than ``CommandHistory/lockTimeout`` (a stopped one, say):
  /// the change stays, and is not recorded.
  ///
  /// The step is encoded before the lock is taken; recording it costs O(size of the step) +
  /// O(number of steps), whatever the size of the other steps.
  @MainActor
  static func record(_ arguments: [String], _ context: Context) {
    let actions = context.recorder.inverses
    guard !actions.isEmpty else { return }
    let step = RecordedStep(description: description(arguments, actions), actions: actions)
    let warning = "diary: warning: the change was made, but 'diary undo' cannot undo it: "
    do {
      let url = try CommandHistory.url(for: context.paths, environment: context.environment)
      // A step that cannot fit is not encoded: its least size tells.
      let least = step.leastEncodedSize
      let data = least > CommandHistory.byteBudget ? nil : try step.encoded()
      let tooLarge = try CommandHistory.update(at: url, files: context.paths) {
        $0.removeRedo()
        return try $0.append(
          encoded: data, size: least, description: step.description, on: .undo)
      }
      if let tooLarge {
        context.output.message(
          warning + "its undo takes \(data == nil ? "at least " : "")\(megabytes(tooLarge)), "
            + "more than the \(megabytes(CommandHistory.byteBudget)) the undo history keeps")
      }
    } catch let error as StoreFileError {
      if case .lockTimedOut(let lock, let holder, let waited) = error.problem {
        let who = holder.map { "process \($0)" } ?? "another process"
        let seconds = waited.components.seconds
        context.output.message(
          warning + "\(who) has held the lock of the undo history \(Terminal.escaped(lock)) for "
            + "more than \(seconds) s — if it stays locked, check "
            + (holder.map { "what process \($0) is doing (stopped?)" } ?? "which process holds it"))
      } else {
        context.output.message(warning + DiaryError(error).message)
      }
    } catch {
      context.output.message(warning + DiaryError(error).message)
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
