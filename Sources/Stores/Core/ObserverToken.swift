/// Keeps a change callback registered: cancelling or releasing the token unregisters it.
///
/// A token can be cancelled and released on any thread. Once `cancel()` returns, the
/// callback is not called again — not even for a change being delivered at that moment.
/// The store lets go of the callback (and of what it captured) on the main actor's next
/// turn, or at its next change, whichever comes first. Cancelling twice is harmless.
public final class ObserverToken: Sendable {
  private let subscription: any CancellableSubscription

  init(_ subscription: any CancellableSubscription) {
    self.subscription = subscription
  }

  /// Unregisters the callback.
  public func cancel() {
    subscription.cancel()
  }

  deinit {
    subscription.cancel()
  }
}

/// What an ``ObserverToken`` cancels.
protocol CancellableSubscription: AnyObject, Sendable {
  func cancel()
}

/// The cancellation of one registered callback, shared by a store's registry and the token
/// that keeps it.
///
/// The cancellation is a flag, so that delivering a change — the hot path of every action —
/// takes no lock: one atomic load per callback.
@usableFromInline
final class Subscription: CancellableSubscription, Sendable {
  @usableFromInline let cancellation = CancellationFlag()
  /// Ends the change stream this subscription feeds, if any.
  let finish: (@Sendable () -> Void)?
  /// Asks the registry to drop cancelled subscriptions.
  private let onCancel: @Sendable () -> Void

  init(finish: (@Sendable () -> Void)? = nil, onCancel: @escaping @Sendable () -> Void) {
    self.finish = finish
    self.onCancel = onCancel
  }

  @inlinable
  var isCancelled: Bool { cancellation.isSet }

  func cancel() {
    guard cancellation.set() else { return }
    onCancel()
  }
}
