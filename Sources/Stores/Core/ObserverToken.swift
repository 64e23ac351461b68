import Foundation

/// Keeps a change callback registered: cancelling or releasing the token unregisters it.
///
/// A token can be cancelled and released on any thread. Once `cancel()` returns, the
/// callback is not called again — not even for a change being delivered at that moment —
/// and the store has let go of it and of whatever it captured. Cancelling twice is harmless.
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

/// One registered callback, shared by a store's registry and the token that keeps it.
@usableFromInline
final class Subscription<Change, State>: CancellableSubscription, @unchecked Sendable {
  @usableFromInline typealias Callback = @MainActor (Change, State) -> Void

  @usableFromInline let lock = NSLock()
  // Guarded by `lock`; both are `nil` once cancelled.
  @usableFromInline var callback: Callback?
  private var finish: (@Sendable () -> Void)?

  init(callback: @escaping Callback, finish: (@Sendable () -> Void)? = nil) {
    self.callback = callback
    self.finish = finish
  }

  /// The callback, or `nil` once cancelled.
  @inlinable
  var activeCallback: Callback? { lock.withLock { callback } }

  func cancel() {
    // Released after unlocking: what the closures captured may cancel other tokens.
    let released = lock.withLock {
      defer { (callback, finish) = (nil, nil) }
      return (callback, finish)
    }
    _ = released
  }

  /// Ends the change stream this subscription feeds, if any: its store is going away.
  func finishStream() {
    let finish = lock.withLock { self.finish }
    finish?()
  }
}
