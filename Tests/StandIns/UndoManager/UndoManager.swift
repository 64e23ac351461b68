// A stand-in for Foundation's `UndoManager`, which swift-corelibs-foundation lacks: the
// declarations the bridge uses, exactly as the Apple SDKs declare them (`@MainActor class
// UndoManager`; `registerUndo(withTarget:handler:)` taking a `@MainActor` handler), so that
// the bridge's source (Sources/Stores/Platform/UndoManager+Store.swift) compiles on Linux,
// and the documented behaviour, so that the bridge is tested here.

/// Undo and redo stacks of registered handlers, one group per registration, as an
/// `UndoManager` whose groups each hold one action.
@MainActor
open class UndoManager {
  private struct Group {
    var name: String
    var handler: @MainActor () -> Void
  }

  private var undoStack: [Group] = []
  private var redoStack: [Group] = []
  /// Whether the manager is running an undo: what is registered meanwhile is a redo.
  public private(set) var isUndoing = false
  /// Whether the manager is running a redo: what is registered meanwhile is an undo, and
  /// the other redos stay.
  public private(set) var isRedoing = false

  public init() {}

  /// Registers `handler`, called with `target` (held unowned) to undo the latest change —
  /// or, while undoing, to redo it. A registration outside undo and redo drops the redos.
  public func registerUndo<TargetType: AnyObject>(
    withTarget target: TargetType, handler: @escaping @MainActor (TargetType) -> Void
  ) {
    let group = Group(name: "") { [unowned target] in handler(target) }
    if isUndoing {
      redoStack.append(group)
    } else {
      undoStack.append(group)
      if !isRedoing { redoStack.removeAll() }
    }
  }

  /// Names the group registered last, for the Edit menu.
  public func setActionName(_ actionName: String) {
    if isUndoing {
      if !redoStack.isEmpty { redoStack[redoStack.count - 1].name = actionName }
    } else if !undoStack.isEmpty {
      undoStack[undoStack.count - 1].name = actionName
    }
  }

  public var canUndo: Bool { !undoStack.isEmpty }
  public var canRedo: Bool { !redoStack.isEmpty }
  public var undoActionName: String { undoStack.last?.name ?? "" }
  public var redoActionName: String { redoStack.last?.name ?? "" }
  /// "Undo", followed by the name of the group to undo when it has one.
  public var undoMenuItemTitle: String { Self.title("Undo", undoActionName) }
  /// "Redo", followed by the name of the group to redo when it has one.
  public var redoMenuItemTitle: String { Self.title("Redo", redoActionName) }

  /// Runs the latest undo, registering what it registers as redos.
  public func undo() {
    guard let group = undoStack.popLast() else { return }
    isUndoing = true
    group.handler()
    isUndoing = false
  }

  /// Runs the latest redo, registering what it registers as undos.
  public func redo() {
    guard let group = redoStack.popLast() else { return }
    isRedoing = true
    group.handler()
    isRedoing = false
  }

  private static func title(_ verb: String, _ name: String) -> String {
    name.isEmpty ? verb : "\(verb) \(name)"
  }
}
