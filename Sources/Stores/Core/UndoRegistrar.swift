/// What a store tells of its undo steps, so that an undo stack outside it — `UndoManager` on
/// Apple platforms, through `store.undoManager` — undoes and redoes them: ⌘Z, the Edit menu,
/// shake to undo.
///
/// A store with a registrar registers each new step with ``registerUndo(named:_:)``; the
/// handler undoes the step (``Store/undo()``) and registers the redo, whose handler redoes
/// it and registers the undo again — `UndoManager`'s own pattern, which puts what a handler
/// registers while undoing on its redo stack. The history underneath is the store's own:
/// the registrar only triggers it, so undo on a file stays intent-safe. With a registrar,
/// undo and redo through it: a direct ``Store/undo()`` leaves its stack a step out (its
/// next undo then undoes the step before).
@MainActor
public protocol UndoRegistrar: AnyObject {
  /// Registers `handler` as the next undo (or, while undoing, the next redo), named `name`
  /// for the menu ("Remove Todo"; empty when the store names none).
  func registerUndo(named name: String, _ handler: @escaping @MainActor () -> Void)
}

extension Store {
  /// Where the store registers its undo steps, if anywhere: set it to the window's
  /// `UndoManager` with `store.undoManager = undoManager` on Apple platforms. Held weakly:
  /// the store never keeps it alive. Steps recorded before it was set are not registered.
  public var undoRegistrar: (any UndoRegistrar)? {
    get { core.undoRegistrar }
    set { core.undoRegistrar = newValue }
  }
}

extension StoreCore {
  /// Registers the undo of the step just recorded, named `name`, with the registrar.
  @usableFromInline
  func registerUndo(named name: String) {
    undoRegistrar?.registerUndo(named: name) { [weak self] in
      guard let self, (try? undo()) != nil else { return }
      registerRedo(named: name)
    }
  }

  /// Registers the redo of the step just undone, named `name`, with the registrar.
  private func registerRedo(named name: String) {
    undoRegistrar?.registerUndo(named: name) { [weak self] in
      guard let self, (try? redo()) != nil else { return }
      registerUndo(named: name)
    }
  }
}
