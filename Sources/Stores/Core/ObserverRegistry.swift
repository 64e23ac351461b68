/// The change callbacks and change streams of one store, in registration order.
///
/// Delivery iterates the callbacks registered when it starts: one registered during
/// delivery first runs for the next change; one cancelled during delivery is not called
/// any more, not even for the change being delivered.
@MainActor @usableFromInline
final class ObserverRegistry<Change: Sendable, State> {
  @usableFromInline typealias Callback = @MainActor (Change, State) -> Void

  // Two lists side by side, the callback at each index and the subscription its token
  // cancels, so that delivery retains nothing per callback but the callback's context.
  @usableFromInline @exclusivity(unchecked) var callbacks: [Callback] = []
  @usableFromInline @exclusivity(unchecked) var subscriptions: [Subscription] = []
  /// When `subscriptions` reaches this size, cancelled ones are dropped (amortised O(1)).
  private var pruneThreshold = 16
  /// Whether ``notify(_:version:state:)`` is running, reading the lists by index.
  @usableFromInline @exclusivity(unchecked) var isNotifying = false

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
  /// The state is read once, and again only after a callback whose actions changed it — as
  /// `version()`, which moves with every change, tells — so that a state of many parts is not
  /// copied for each callback. The lists are read in place, not copied: while they are
  /// delivered to, they only grow at their end (pruning waits until delivery is over). Never
  /// called while it runs: the core queues the changes made during a delivery.
  ///
  /// - Complexity: O(*n*) for *n* callbacks, plus what they do.
  @inlinable
  func notify(_ change: Change, version: () -> Int, state: () -> State) {
    precondition(!isNotifying, "notify is not reentrant")
    var sawCancelled = false
    let count = callbacks.count
    isNotifying = true
    var index = 0
    while index < count {
      // One state for the callbacks up to one whose actions change it.
      let seen = version()
      let current = state()
      repeat {
        if subscriptions[index].cancellation.isSet {
          sawCancelled = true
        } else {
          callbacks[index](change, current)
        }
        index += 1
      } while index < count && version() == seen
    }
    isNotifying = false
    if sawCancelled { prune() }
  }

  /// Drops the cancelled subscriptions, and with them their callbacks; not while delivering.
  @usableFromInline
  func prune() {
    guard !isNotifying else { return }
    var kept = 0
    for index in subscriptions.indices where !subscriptions[index].cancellation.isSet {
      subscriptions.swapAt(kept, index)
      callbacks.swapAt(kept, index)
      kept += 1
    }
    subscriptions.removeSubrange(kept...)
    callbacks.removeSubrange(kept...)
  }

  private func add(
    callback: @escaping @MainActor (Change, State) -> Void, finish: (@Sendable () -> Void)?
  ) -> ObserverToken {
    if subscriptions.count >= pruneThreshold, !isNotifying {
      prune()
      pruneThreshold = max(16, subscriptions.count * 2)
    }
    let subscription = Subscription(finish: finish) { [weak self] in
      Task { @MainActor in self?.prune() }
    }
    callbacks.append(callback)
    subscriptions.append(subscription)
    return ObserverToken(subscription)
  }
}
