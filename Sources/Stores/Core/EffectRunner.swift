/// The running effects of one store: starts them, cancels them by id, and tells when none
/// is left. Releasing it (with its store) cancels every effect still running.
@MainActor
final class EffectRunner<Action: Sendable> {
  private struct Running {
    var id: EffectID?
    var task: Task<Void, Never>
    var context: (any Sendable)?
  }

  private let send: Send<Action>
  private let fail: @MainActor (any Error) -> Void
  private let contexts: (any EffectContextProviding)?
  /// Called after an effect starts or ends (for tests that keep track).
  private let changed: @MainActor () -> Void
  private var running: [Int: Running] = [:]
  private var nextKey = 0
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// A runner whose effects send their actions through `send`, report their errors to
  /// `fail`, and each run with a context from `contexts`.
  init(
    send: Send<Action>, fail: @escaping @MainActor (any Error) -> Void,
    contexts: (any EffectContextProviding)?, changed: @escaping @MainActor () -> Void
  ) {
    self.send = send
    self.fail = fail
    self.contexts = contexts
    self.changed = changed
  }

  deinit {
    for effect in running.values { effect.task.cancel() }
  }

  /// Whether no effect is running.
  var isIdle: Bool { running.isEmpty }

  /// The running effects, in the order they started: each one's id (described) and context.
  var effects: [RunningEffect] {
    running.sorted { $0.key < $1.key }.map {
      RunningEffect(id: $0.value.id?.description, context: $0.value.context)
    }
  }

  /// Starts `effect`: its cancellations first, then its work, in order.
  func start(_ effect: Effect<Action>) {
    guard let work = effect.work else { return }
    switch work.kind {
    case .cancel(let id):
      cancel(id)
    case .merge(let effects):
      for effect in effects { start(effect) }
    case .run(let id, let cancelInFlight, let operation):
      if let id, cancelInFlight { cancel(id) }
      let key = nextKey
      nextKey += 1
      let (send, contexts) = (send, contexts)
      let context = contexts?.makeEffectContext()
      // The task's body runs on the main actor, so it cannot finish before it is recorded;
      // `operation` is nonisolated and runs off the main actor.
      let task = Task { [weak self] in
        do {
          try await EffectContext.$current.withValue(context) { try await operation(send) }
        } catch {
          if !Task.isCancelled && !(error is CancellationError) { self?.fail(error) }
        }
        if let context { contexts?.effectEnded(context) }
        self?.finished(key)
      }
      running[key] = Running(id: id, task: task, context: context)
      changed()
    }
  }

  /// Returns once no effect is running — including effects started meanwhile by the actions
  /// that running effects send.
  func settle() async {
    while !running.isEmpty {
      await withCheckedContinuation { waiters.append($0) }
    }
  }

  private func cancel(_ id: EffectID) {
    for effect in running.values where effect.id == id { effect.task.cancel() }
  }

  private func finished(_ key: Int) {
    running[key] = nil
    changed()
    guard running.isEmpty else { return }
    let waiting = waiters
    waiters = []
    for waiter in waiting { waiter.resume() }
  }
}

/// A running effect as tests see it: its id, described (`nil` when it has none), and the
/// context its environment gave it (a test clock's record of it).
package struct RunningEffect {
  package let id: String?
  package let context: (any Sendable)?
}
