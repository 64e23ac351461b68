/// The undo and redo history of a store: for each step, the action that reverses it, named.
///
/// A step never holds an old state: it holds the *inverse* of an action, by identity,
/// computed against the state the action met (see ``Store/inverse(of:in:)``). Undoing sends
/// that inverse as an ordinary action, so on a file it applies to the file as it is then, and
/// changes made by others since stay.
///
/// Sending an action that changed the state and has an inverse records a step and clears the
/// redo steps; an action that changed nothing records nothing. At most ``limit`` steps are
/// kept on each side: the oldest go first.
public struct UndoHistory<Action: Sendable>: Sendable {
  /// One step: the action that reverses it and the name of what it reverses.
  public struct Step: Sendable {
    /// The action that reverses the step.
    public var action: Action
    /// What the step did, for a menu ("Remove Todo"): ``Store/actionName(of:)`` of the
    /// action recorded first; empty when the store names none.
    public var name: String

    public init(action: Action, name: String) {
      self.action = action
      self.name = name
    }
  }

  /// The steps that ``Store/undo()`` reverses, oldest first: the last is undone next.
  public private(set) var undoSteps: [Step] = []
  /// The steps that ``Store/redo()`` applies again, oldest first: the last is redone next.
  public private(set) var redoSteps: [Step] = []

  /// How many steps each side keeps, 100 by default; 0 records nothing. Lowering it drops
  /// the oldest steps.
  public var limit: Int {
    didSet {
      limit = max(limit, 0)
      Self.trim(&undoSteps, to: limit)
      Self.trim(&redoSteps, to: limit)
    }
  }

  /// An empty history keeping at most `limit` steps on each side.
  public init(limit: Int = 100) {
    self.limit = max(limit, 0)
  }

  /// Whether there is a step to undo.
  public var canUndo: Bool { !undoSteps.isEmpty }
  /// Whether there is a step to redo.
  public var canRedo: Bool { !redoSteps.isEmpty }

  /// Records the inverse of a new action: a step to undo; the steps to redo are dropped.
  ///
  /// - Complexity: O(1) amortised; O(`limit`) when the oldest step is dropped.
  public mutating func record(_ step: Step) {
    redoSteps.removeAll()
    Self.push(step, on: &undoSteps, limit: limit)
  }

  /// Takes the step to undo next, or `nil` when there is none.
  mutating func popUndo() -> Step? { undoSteps.popLast() }
  /// Takes the step to redo next, or `nil` when there is none.
  mutating func popRedo() -> Step? { redoSteps.popLast() }
  /// Records the inverse of an undo: a step to redo.
  mutating func pushRedo(_ step: Step) { Self.push(step, on: &redoSteps, limit: limit) }
  /// Records the inverse of a redo: a step to undo again; the other redo steps stay.
  mutating func pushUndo(_ step: Step) { Self.push(step, on: &undoSteps, limit: limit) }

  /// Removes every step.
  public mutating func removeAll() {
    undoSteps.removeAll()
    redoSteps.removeAll()
  }

  private static func trim(_ steps: inout [Step], to limit: Int) {
    if steps.count > limit { steps.removeFirst(steps.count - limit) }
  }

  private static func push(_ step: Step, on steps: inout [Step], limit: Int) {
    guard limit > 0 else { return }
    steps.append(step)
    trim(&steps, to: limit)
  }
}

/// What ``Store/undo()`` or ``Store/redo()`` did.
public struct UndoOutcome: Equatable, Sendable {
  /// The name of the step undone or redone ("Remove Todo"); empty when the store names none.
  public var name: String
  /// What the step could not put back because someone else changed it meanwhile — another
  /// process, device or part of the app — described one part each (see
  /// ``Store/skippedParts(of:in:)``). Empty when everything was put back.
  public var skipped: [String]
  /// Whether the state changed. `false` when everything was skipped (or was already as the
  /// step would make it).
  public var changed: Bool

  public init(name: String, skipped: [String], changed: Bool) {
    self.name = name
    self.skipped = skipped
    self.changed = changed
  }
}
