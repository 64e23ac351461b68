#if canImport(Darwin) || UNDO_MANAGER_STAND_IN
  // The bridge to Foundation's UndoManager, on Apple platforms (where SwiftUI gives one
  // through `@Environment(\.undoManager)`). The logic is `UndoRegistrar`'s, plain Swift;
  // this file only adapts UndoManager to it. It is compiled a second time, on every
  // platform, in the test target UndoManagerClient, against a stand-in with UndoManager's
  // declarations as the SDKs have them (Tests/StandIns/UndoManager), and tested there.
  #if UNDO_MANAGER_STAND_IN
    import Stores
    import UndoManagerStandIn
  #else
    import Foundation
  #endif

  /// `UndoManager` registers a store's steps: each with its name in the Edit menu.
  extension UndoManager: UndoRegistrar {
    public func registerUndo(named name: String, _ handler: @escaping @MainActor () -> Void) {
      registerUndo(withTarget: self) { _ in MainActor.assumeIsolated { handler() } }
      if !name.isEmpty { setActionName(name) }
    }
  }

  extension Store {
    /// The `UndoManager` the store registers its steps with, so that ⌘Z, the Edit menu
    /// ("Undo Remove Todo") and shake to undo undo and redo them: in SwiftUI, set it from
    /// `@Environment(\.undoManager)` in `onAppear`. Held weakly.
    public var undoManager: UndoManager? {
      get { undoRegistrar as? UndoManager }
      set { undoRegistrar = newValue }
    }
  }
#endif
