import Foundation
import StoreTesting
import Stores

/// The properties every store's undo has, for a store with no other writer: after each
/// action that changes the state, `undo()` brings back the state before it, skipping
/// nothing, and `redo()` the state after it; an action that changes nothing records
/// nothing; and undoing every step at the end brings back the first state.
@MainActor
func requireUndoRedo<S: Store>(_ store: S, after actions: [S.Action]) throws {
  let first = store.state
  var steps = 0
  for action in actions {
    let before = store.state
    let recorded = store.undoHistory.undoSteps.count
    store.send(action)
    let after = store.state
    guard after != before else {
      try requireEqual(store.undoHistory.undoSteps.count, recorded, "a no-op records nothing")
      continue
    }
    try requireEqual(store.undoHistory.undoSteps.count, recorded + 1, "a change records a step")
    try require(!store.canRedo, "a new action drops the steps to redo")
    let undone = store.undo()
    try requireEqual(store.state, before, "undo brings back the state before \(action)")
    try requireEqual(undone?.skipped, [], "nothing skipped")
    try require(store.canRedo, "an undo can be redone")
    let redone = store.redo()
    try requireEqual(store.state, after, "redo re-applies \(action)")
    try requireEqual(redone?.skipped, [], "nothing skipped")
    steps += 1
  }
  for _ in 0..<steps { _ = store.undo() }
  try require(!store.canUndo, "every step undone")
  try requireEqual(store.state, first, "undoing every step brings back the first state")
}

/// Two stores on one file: `store` sends `action`, `other` sends `interleaved`, then `store`
/// undoes. Returns the states after the action (before the other's actions), after the
/// other's actions, and after the undo, and what the undo skipped.
@MainActor
func undoAfterOtherWriter<S: Store>(
  _ store: S, _ other: S, action: S.Action, interleaved: [S.Action]
) throws -> (acted: S.State, other: S.State, undone: S.State, skipped: [String])? {
  let before = store.undoHistory.undoSteps.count
  try store.trySend(action)
  guard store.undoHistory.undoSteps.count > before else { return nil }
  let acted = store.state
  try other.refresh()
  for action in interleaved { try other.trySend(action) }
  let written = other.state
  let outcome = try store.tryUndo()
  return (acted, written, store.state, outcome?.skipped ?? [])
}

/// What a store records while reducing (``Store/reduce(_:_:inverse:)``) is what it would
/// record otherwise: from `state`, each action in turn changes the state as
/// ``Store/reduce(_:_:)`` does and, when it changes it, gives the inverse
/// ``Store/inverse(of:in:)`` gives against the state before — and an action whose step is
/// named by its inverse (``Store/isNamedByItsInverse(_:)``) is named as that inverse is.
func requireInverseWhileReducing<S: Store>(
  _ store: S.Type, from state: S.State, after actions: [S.Action]
) throws where S.Action: Equatable {
  var state = state
  for action in actions {
    var reduced = state
    var inverse: S.Action?
    let changed = S.reduce(&reduced, action, inverse: &inverse)
    let expected = S.inverse(of: action, in: state)
    var plain = state
    try requireEqual(changed, S.reduce(&plain, action), "whether \(action) changes the state")
    try requireEqual(reduced, plain, "the state after \(action)")
    if changed { try requireEqual(inverse, expected, "the inverse of \(action)") }
    if changed, let inverse, S.isNamedByItsInverse(action) {
      try requireEqual(
        S.actionName(of: inverse), S.actionName(of: action), "the name of \(action)'s step")
    }
    state = reduced
  }
}
