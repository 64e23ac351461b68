import Stores

/// Sends `actions` to `store` one at a time and, after each, requires that the store agrees
/// with a plain reference model: that `observe(store)` equals the model after `apply`, and
/// that the store's change callbacks ran exactly once for each action that changed the
/// model, and never for one that did not.
///
/// The heart of a model-based property test: generate a start and a sequence of actions,
/// and let `check` shrink a disagreement to a short sequence. To pick each action from the
/// store's current state instead (toggle a todo that exists), write a ``StateMachine``.
///
/// ```swift
/// check(Gen<TodosStore.Action>.todoAction().array(maxCount: 12)) { actions in
///   try requireAgreement(
///     of: TodosStore(), with: [Todo](), after: actions,
///     apply: MyTodosModel.apply, observe: \.todos)
/// }
/// ```
///
/// - Throws: A ``PropertyFailure`` naming the first action after which they disagree, located
///   at the caller's line (`fileID`, `line`).
@MainActor
public func requireAgreement<S: Store, Model: Equatable>(
  of store: S, with model: Model, after actions: [S.Action],
  apply: (S.Action, Model) -> Model, observe: (S) -> Model,
  fileID: String = #fileID, line: Int = #line
) throws {
  var model = model
  var changes = 0
  var expectedChanges = 0
  let token = store.onChange { _, _ in changes += 1 }
  defer { token.cancel() }
  for action in actions {
    let next = apply(action, model)
    if next != model { expectedChanges += 1 }
    model = next
    store.send(action)
    try requireEqual(observe(store), model, "the state after \(action)", fileID: fileID, line: line)
    try requireEqual(
      changes, expectedChanges, "the change callbacks after \(action)",
      fileID: fileID, line: line)
  }
}
