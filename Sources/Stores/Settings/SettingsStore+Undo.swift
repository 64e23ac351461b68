extension SettingsStore {
  /// The action that reverses `action` on `state`: for each key it changes, a
  /// ``Action/restore(_:)`` of the value it had (or of no value) that applies only while the
  /// key still holds the value `action` gave it — so a key changed by someone else meanwhile
  /// keeps their value. `nil` when `action` changes nothing.
  ///
  /// - Complexity: O(*k*) for *k* keys in the action.
  public nonisolated static func inverse(of action: Action, in state: State) -> Action? {
    // The values as the action leaves them, for the keys it touched, in order.
    var values = State.Values()
    var removed: Set<State.Name> = []
    var inverse: [ValueChange] = []
    func current(_ key: String) -> JSONValue? {
      removed.contains(State.Name(key)) ? nil : values[key] ?? state.values[key]
    }
    func change(_ key: String, to value: JSONValue?) {
      let old = current(key)
      guard old != value else { return }
      inverse.append(ValueChange(key: key, from: value, to: old))
      if let value {
        values[key] = value
        removed.remove(State.Name(key))
      } else {
        values[key] = nil
        removed.insert(State.Name(key))
      }
    }
    switch action {
    case .set(let key, let value):
      let old = state.values[key]
      return old == value
        ? nil : .restore(ValueChanges(ValueChange(key: key, from: value, to: old)))
    case .remove(let keys):
      for key in keys { change(key, to: nil) }
    case .restore(let changes):
      for restored in changes
      where restored.from != restored.to && current(restored.key) == restored.from {
        change(restored.key, to: restored.to)
      }
    }
    // Nothing to reverse where every key the action touched ends as it was.
    guard inverse.contains(where: { current($0.key) != state.values[$0.key] }) else { return nil }
    return .restore(ValueChanges(inverse.reversed()))
  }

  /// Applies `action` to `state` and puts its inverse in `inverse` (see
  /// ``Store/reduce(_:_:inverse:)``): a ``Action/set(key:value:)``'s from the value the
  /// reducer replaced, looking the key up once; any other action's from
  /// ``inverse(of:in:)``.
  ///
  /// - Complexity: O(*k*) for *k* keys in the action.
  public nonisolated static func reduce(
    _ state: inout State, _ action: Action, inverse: inout Action?
  ) -> Bool {
    switch action {
    case .set(let key, let value):
      let old = state.values.updateValue(value, forKey: key)
      if let old, old == value { return false }
      inverse = .restore(ValueChanges(ValueChange(key: key, from: value, to: old)))
      return true
    case .remove, .restore:
      inverse = Self.inverse(of: action, in: state)
      return reduce(&state, action)
    }
  }

  /// The keys an undo could not put back in `state` because they were changed meanwhile:
  /// "sleepGoal (changed meanwhile)".
  public nonisolated static func skippedParts(of action: Action, in state: State) -> [String] {
    guard case .restore(let changes) = action else { return [] }
    var values = state.values
    var skipped: [String] = []
    for change in changes where change.from != change.to {
      if values[change.key] == change.from {
        values[change.key] = change.to
      } else {
        skipped.append("\(change.key) (changed meanwhile)")
      }
    }
    return skipped
  }

  /// Whether the undo step of `action` is named by its inverse: a change of one key is
  /// ("Change sleepGoal", undone by a change of that key), a reset is not ("Reset Settings").
  @inlinable
  public nonisolated static func isNamedByItsInverse(_ action: Action) -> Bool {
    switch action {
    case .set: true
    case .restore(let changes): changes.count == 1
    case .remove: false
    }
  }

  /// The action's name for an Undo menu: "Change sleepGoal", "Reset Settings", ….
  public nonisolated static func actionName(of action: Action) -> String {
    switch action {
    case .set(let key, _): "Change \(key)"
    case .remove(let keys): keys.count == 1 ? "Reset \(keys[0])" : "Reset Settings"
    case .restore(let changes): changes.count == 1 ? "Change \(changes[0].key)" : "Change Settings"
    }
  }
}
