import Foundation
import StoreTesting
import Stores
import Testing

/// Actions, undos and redos in any order on a todos store: the model keeps the states
/// around each step (a test may keep whole states; the store never does), and the store
/// must land on them — undo on the state before the step, redo on the state after.
@MainActor
struct TodosUndoMachine: StateMachine {
  enum Command {
    case send(TodosStore.Action)
    case undo
    case redo
  }

  let store = TodosStore()
  var model: [Todo] = []
  /// The states before and after each step to undo, and to redo, the last first.
  var undoable: [(before: [Todo], after: [Todo])] = []
  var redoable: [(before: [Todo], after: [Todo])] = []

  init() {}

  var rules: [Rule<Command>] {
    [
      Rule("send an action", Gen<TodosStore.Action>.todoAction(maxCount: 6).map { .send($0) }),
      Rule("undo", .constant(.undo)),
      Rule("redo", .constant(.redo)),
    ]
  }

  mutating func perform(_ command: Command) throws {
    switch command {
    case .send(let action):
      let next = TodosModel.apply(action, to: model)
      if next != model {
        undoable.append((model, next))
        redoable = []
      }
      model = next
      store.send(action)
    case .undo:
      let outcome = store.undo()
      try requireEqual(outcome != nil, !undoable.isEmpty, "undo when there is a step")
      if let step = undoable.popLast() {
        model = step.before
        redoable.append(step)
        try requireEqual(outcome?.skipped, [], "nothing skipped")
      }
    case .redo:
      let outcome = store.redo()
      try requireEqual(outcome != nil, !redoable.isEmpty, "redo when there is a step")
      if let step = redoable.popLast() {
        model = step.after
        undoable.append(step)
      }
    }
  }

  func checkInvariants() throws {
    try requireEqual(store.todos, model, "the todos")
    try requireEqual(store.canUndo, !undoable.isEmpty, "canUndo")
    try requireEqual(store.canRedo, !redoable.isEmpty, "canRedo")
  }
}

@MainActor
@Suite("Undo, stateful")
struct UndoStateMachineTests {
  @Test("actions, undos and redos in any order land on the states around each step")
  func anyOrder() async {
    await check(TodosUndoMachine.self)
  }
}
