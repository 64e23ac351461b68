import Dispatch
import Synchronization

/// When a store opened on a file writes an action to the file (see ``Store/saveMode``).
public enum SaveMode: Sendable, Hashable {
  /// `send` returns once the action is durably in the file: the main actor runs the whole
  /// transaction — lock, catch up with other writers, apply, encode, write, flush. What
  /// `send` returned from survives a crash. The default, and `diary`'s mode.
  case beforeReturning
  /// `send` applies the action in memory and returns: observers, SwiftUI and undo see it in
  /// the same turn, and a writer of the store's own runs the transaction off the main actor,
  /// every action sent meanwhile written together in one durable write (group commit).
  /// ``Store/saved`` waits until the file holds everything sent before; a crash loses only
  /// the actions not yet saved.
  case inBackground
}

/// The writer of a store saving in the background (``SaveMode/inBackground``): runs the
/// file's transactions on a queue of its own, one batch of actions at a time, and hands each
/// result back to the main actor.
///
/// The store gives its backing to the writer while a batch is written and leaves it alone
/// meanwhile (see ``StoreBacking``): a batch starts only on the main actor, when none is
/// running, and the main actor takes the backing back only after ``waitUntilIdle()`` or once
/// the result has arrived.
@usableFromInline
final class BackgroundWriter<State: Sendable, Action: Sendable>: Sendable {
  /// A batch's result: the transaction's outcome, or its error.
  typealias Result = Swift.Result<BackingTransaction<State>?, any Error>

  private let queue = DispatchQueue(label: "Stores.BackgroundWriter", qos: .utility)
  private let backing: any StoreBacking<State>
  /// The result of the batch that ended and was not taken yet.
  private let ended = Mutex<Result?>(nil)

  init(backing: any StoreBacking<State>) {
    self.backing = backing
  }

  /// Writes `actions`, applied by `reduce` one after the other to the file's state in one
  /// transaction (`current` is the state the file held when last read or written) — or,
  /// when `actions` is empty, reloads the file if someone else changed it — then calls
  /// `ended` on the main actor, where ``takeResult()`` gives the result.
  func write(
    _ actions: [Action], from current: State, reduce: Reducer,
    then ended: @escaping @MainActor @Sendable () -> Void
  ) {
    queue.async { [backing, self] in
      let result: Result
      if actions.isEmpty {
        result = Result {
          try backing.reloadIfChanged(from: current).map {
            BackingTransaction(state: $0, reloaded: true, changed: false)
          }
        }
      } else {
        result = Result {
          try backing.transaction(from: current) { state in
            var changed = false
            for action in actions where reduce.reduce(&state, action) { changed = true }
            return changed
          }
        }
      }
      self.ended.withLock { $0 = result }
      DispatchQueue.main.async { MainActor.assumeIsolated { ended() } }
    }
  }

  /// A store's reducer, to run on the writer's queue: `Store.reduce(_:_:)` is a pure
  /// `nonisolated` function — no I/O, nothing shared — so any thread may call it.
  struct Reducer: @unchecked Sendable {
    let reduce: (inout State, Action) -> Bool

    /// `Owner`'s reducer.
    nonisolated init<Owner: Store>(of owner: Owner.Type)
    where Owner.State == State, Owner.Action == Action {
      reduce = { Owner.reduce(&$0, $1) }
    }
  }

  /// Blocks until the batch running, if any, has ended.
  func waitUntilIdle() {
    queue.sync {}
  }

  /// The result of the batch that ended, once: `nil` when it was taken already.
  func takeResult() -> Result? {
    ended.withLock { $0.take() }
  }
}

/// What a store saving in the background keeps on the main actor: the actions not yet in
/// the file, the file's state as the writer last found it, and who waits for saving.
@MainActor @usableFromInline
final class BackgroundSaving<State: Sendable, Action: Sendable> {
  @usableFromInline typealias Recording = UndoRecording
  let writer: BackgroundWriter<State, Action>
  /// The file's state as last read or written, without the actions not yet saved.
  var fileState: State
  /// The actions applied in memory and not yet handed to the writer, in order, each with how
  /// its inverse was recorded (a new action's, an undo's or a redo's).
  @usableFromInline var queued: [(action: Action, recording: Recording)] = []
  /// The undo history as it was before the first of the queued actions (`nil` before it).
  @usableFromInline var historyBeforeQueued: UndoHistory<Action>?
  /// The batch the writer is writing, if any, and the undo history before its first action.
  var running: (actions: [(action: Action, recording: Recording)], history: UndoHistory<Action>)?
  /// Whether the file is to be read again, for a reload asked for meanwhile.
  var needsReload = false
  /// Whether a write is to start at the end of the main actor's turn.
  var isStartScheduled = false
  /// How many actions were handed to saving.
  @usableFromInline var sent = 0
  /// How many of the actions handed to saving ended: saved, or their write failed.
  @usableFromInline var ended = 0
  /// Who waits in ``Store/saved``, with the count of actions each waits for.
  var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  /// How many batches of actions went to the writer: for tests and the benchmarks.
  var writes = 0
  /// The first error of a write since ``Store/save()`` last threw one.
  var failure: (any Error)?

  init(writer: BackgroundWriter<State, Action>, fileState: State) {
    self.writer = writer
    self.fileState = fileState
  }
}
