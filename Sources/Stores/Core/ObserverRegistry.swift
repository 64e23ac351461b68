/// The change callbacks and change streams of one store, in registration order.
///
/// Delivery iterates the callbacks registered when it starts: one registered during
/// delivery first runs for the next change; one cancelled during delivery is not called
/// any more, not even for the change being delivered.
@MainActor @usableFromInline
final class ObserverRegistry<Change: Sendable, State> {
  @usableFromInline @exclusivity(unchecked) var subscriptions: [Subscription<Change, State>] = []
  /// When `subscriptions` reaches this size, cancelled ones are dropped (amortised O(1)).
  private var pruneThreshold = 16

  @usableFromInline
  init() {}

  deinit {
    for subscription in subscriptions { subscription.finish?() }
  }

  /// - Complexity: O(1) amortised.
  func register(_ callback: @escaping @MainActor (Change, State) -> Void) -> ObserverToken {
    add(callback: callback, finish: nil)
  }

  /// A stream of every change from now on. It finishes when the registry (its store) is
  /// deallocated, and unregisters itself when its consumer stops iterating.
  ///
  /// The stream buffers changes until they are consumed; it holds the changes only, never
  /// a copy of the state.
  func stream() -> AsyncStream<Change> {
    let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
    let token = add(
      callback: { change, _ in continuation.yield(change) }, finish: { continuation.finish() })
    continuation.onTermination = { _ in token.cancel() }
    return stream
  }

  /// Calls every registered callback once with `change` and the current state.
  ///
  /// - Complexity: O(*n*) for *n* callbacks, plus what they do.
  @inlinable
  func notify(_ change: Change, state: () -> State) {
    var sawCancelled = false
    for subscription in subscriptions {
      if subscription.isCancelled {
        sawCancelled = true
      } else {
        subscription.callback(change, state())
      }
    }
    if sawCancelled { prune() }
  }

  /// Drops the cancelled subscriptions, and with them their callbacks.
  @usableFromInline
  func prune() {
    subscriptions.removeAll { $0.isCancelled }
  }

  private func add(
    callback: @escaping @MainActor (Change, State) -> Void, finish: (@Sendable () -> Void)?
  ) -> ObserverToken {
    if subscriptions.count >= pruneThreshold {
      prune()
      pruneThreshold = max(16, subscriptions.count * 2)
    }
    let subscription = Subscription(callback: callback, finish: finish) { [weak self] in
      Task { @MainActor in self?.prune() }
    }
    subscriptions.append(subscription)
    return ObserverToken(subscription)
  }
}
