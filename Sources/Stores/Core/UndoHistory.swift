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
    /// The action that reverses the step. Setting it keeps the step's ``name``.
    public var action: Action {
      willSet {
        // A step named by its action keeps the name of the action it had.
        if case .inverse(let namer) = naming { naming = .action(action, namer) }
      }
    }
    /// What the step did, for a menu ("Remove Todo"): ``Store/actionName(of:)`` of the
    /// action recorded first; empty when the store names none.
    ///
    /// - Complexity: A step a store recorded names its action when the name is read (not when
    ///   the step is recorded, so recording never builds a string) — the action it reverses,
    ///   or the step's own when the store names both alike (``Store/isNamedByItsInverse(_:)``).
    public var name: String {
      get { naming.name(reversedBy: action) }
      set { naming = .given(newValue) }
    }
    @usableFromInline var naming: StepName<Action>

    /// A step that sends `action`, shown as `name`.
    @inlinable
    public init(action: consuming Action, name: String) {
      self.action = action
      naming = .given(name)
    }

    /// A step that sends `action`, shown as `namer` names `recorded`, the action it reverses.
    @inlinable
    init(
      action: consuming Action, reversing recorded: consuming Action,
      namer: ActionNamer<Action>
    ) {
      self.action = action
      naming = .action(recorded, namer)
    }

    /// A step that sends `action`, shown as `namer` names `action` itself: the name of the
    /// action it reverses (see ``Store/isNamedByItsInverse(_:)``).
    @inlinable
    init(action: consuming Action, namedByItself namer: ActionNamer<Action>) {
      self.action = action
      naming = .inverse(namer)
    }
  }

  /// The steps that ``Store/undo()`` reverses, oldest first: the last is undone next.
  public var undoSteps: [Step] { undo.steps }
  /// The steps that ``Store/redo()`` applies again, oldest first: the last is redone next.
  public var redoSteps: [Step] { redo.steps }

  @usableFromInline var undo = BoundedSteps<Step>()
  @usableFromInline var redo = BoundedSteps<Step>()

  /// How many steps each side keeps, 100 by default; 0 records none. Lowering it drops
  /// the oldest steps.
  public var limit: Int {
    didSet {
      limit = max(limit, 0)
      undo.trim(to: limit)
      redo.trim(to: limit)
    }
  }

  /// An empty history keeping at most `limit` steps on each side.
  public init(limit: Int = 100) {
    self.limit = max(limit, 0)
  }

  /// Whether there is a step to undo.
  public var canUndo: Bool { !undo.isEmpty }
  /// Whether there is a step to redo.
  public var canRedo: Bool { !redo.isEmpty }

  /// Records the inverse of a new action: a step to undo; the steps to redo are dropped.
  ///
  /// - Complexity: O(1) amortised.
  @inlinable
  public mutating func record(_ step: consuming Step) {
    if !redo.isEmpty { redo = BoundedSteps() }
    undo.push(step, limit: limit)
  }

  /// Takes the step to undo next, or `nil` when there is none.
  mutating func popUndo() -> Step? { undo.popLast() }
  /// Takes the step to redo next, or `nil` when there is none.
  mutating func popRedo() -> Step? { redo.popLast() }
  /// Records the inverse of an undo: a step to redo.
  @inlinable
  mutating func pushRedo(_ step: consuming Step) { redo.push(step, limit: limit) }
  /// Records the inverse of a redo: a step to undo again; the other redo steps stay.
  @inlinable
  mutating func pushUndo(_ step: consuming Step) { undo.push(step, limit: limit) }

  /// Removes every step.
  public mutating func removeAll() {
    undo = BoundedSteps()
    redo = BoundedSteps()
  }
}

/// The newest `limit` elements pushed (and not popped): once `limit` are kept, a new one
/// takes the place of the oldest, in O(1).
@usableFromInline
struct BoundedSteps<Element> {
  /// The elements kept, oldest first from `oldest` on, wrapping around to the start.
  @usableFromInline var storage: [Element] = []
  /// Where the oldest element is in `storage`: 0 unless a push replaced the oldest.
  @usableFromInline var oldest = 0

  @usableFromInline init() {}

  /// The elements, oldest first. O(*n*).
  var steps: [Element] { Array(storage[oldest...] + storage[..<oldest]) }
  @usableFromInline var isEmpty: Bool { storage.isEmpty }

  @inlinable
  mutating func push(_ element: consuming Element, limit: Int) {
    guard limit > 0 else { return }
    if storage.count < limit {
      if oldest != 0 { inOrder() }
      storage.append(element)
    } else {
      if storage.count > limit { trim(to: limit) }
      storage[oldest] = element
      oldest = oldest + 1 == storage.count ? 0 : oldest + 1
    }
  }

  /// Takes the newest element. O(1), or O(*n*) after a push replaced the oldest.
  mutating func popLast() -> Element? {
    if oldest != 0 { inOrder() }
    return storage.popLast()
  }

  /// Keeps the newest `limit` elements. O(*n*).
  @usableFromInline
  mutating func trim(to limit: Int) {
    guard storage.count > limit else { return }
    inOrder()
    storage.removeFirst(storage.count - limit)
  }

  /// Puts the oldest element first in `storage`. O(*n*).
  @usableFromInline
  mutating func inOrder() {
    storage = steps
    oldest = 0
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

  /// The outcome of the step `name`, which skipped `skipped` and `changed` the state or not.
  public init(name: String, skipped: [String], changed: Bool) {
    self.name = name
    self.skipped = skipped
    self.changed = changed
  }
}

extension BoundedSteps: Sendable where Element: Sendable {}

/// The name of an undo step: given, or the name of the action the step reverses, asked of the
/// store's namer only when read — of that action, or of the step's own action when the store
/// names both alike (see ``Store/isNamedByItsInverse(_:)``).
@usableFromInline
enum StepName<Action: Sendable>: Sendable {
  case given(String)
  case action(Action, ActionNamer<Action>)
  case inverse(ActionNamer<Action>)

  /// The name of a step whose action is `inverse`.
  func name(reversedBy inverse: Action) -> String {
    switch self {
    case .given(let name): name
    case .action(let action, let namer): namer.name(action)
    case .inverse(let namer): namer.name(inverse)
    }
  }
}

/// A store's ``Store/actionName(of:)``, which is `nonisolated` and pure, so any thread may
/// call it. It holds the store's type, not a closure: a step copies it with no reference to
/// count.
@usableFromInline
struct ActionNamer<Action>: @unchecked Sendable {
  let owner: any Store.Type

  /// `Owner`'s action names.
  @usableFromInline
  nonisolated init<Owner: Store>(of owner: Owner.Type) where Owner.Action == Action {
    self.owner = owner
  }

  /// The name of `action` in the store's menus (see ``Store/actionName(of:)``).
  func name(_ action: Action) -> String {
    func named<Owner: Store>(by owner: Owner.Type) -> String {
      // `Action` is `Owner.Action` (see `init`): the cast always succeeds.
      Owner.actionName(of: action as! Owner.Action)
    }
    return named(by: owner)
  }
}

/// Where the inverse of an action goes: a new action's is a step to undo (and drops the steps
/// to redo); an undo's is a step to redo, and a redo's a step to undo, both named as the step
/// they come from.
@usableFromInline
enum UndoRecording: Sendable {
  case action
  case undo(name: String)
  case redo(name: String)
}
