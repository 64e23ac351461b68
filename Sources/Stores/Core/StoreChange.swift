/// What changed a store's state: one of its actions, or a reload of its file.
public enum StoreChange<Action: Sendable>: Sendable {
  /// The store's own action changed the state.
  case action(Action)
  /// The state was reloaded from the store's file after another process or another store
  /// on the same file changed it.
  case reload
}

extension StoreChange: Equatable where Action: Equatable {}

extension StoreChange {
  /// The action, or `nil` for a reload.
  public var action: Action? {
    if case .action(let action) = self { return action }
    return nil
  }
}
