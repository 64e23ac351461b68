#if canImport(Synchronization) && !canImport(Darwin)
  import Synchronization
#endif

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

/// A flag that is set once, from any thread, and read cheaply: an atomic where the
/// `Synchronization` module needs no newer OS, a lock on Apple platforms.
@usableFromInline
final class CancellationFlag: @unchecked Sendable {
  #if canImport(Synchronization) && !canImport(Darwin)
    @usableFromInline let value = Atomic<Bool>(false)

    @inlinable
    var isSet: Bool { value.load(ordering: .acquiring) }

    /// Sets the flag; returns whether this call set it.
    func set() -> Bool {
      !value.exchange(true, ordering: .acquiringAndReleasing)
    }
  #else
    @usableFromInline let lock = Lock()
    @usableFromInline var value = false

    @inlinable
    var isSet: Bool {
      lock.lock()
      defer { lock.unlock() }
      return value
    }

    /// Sets the flag; returns whether this call set it.
    func set() -> Bool {
      lock.withLock {
        defer { value = true }
        return !value
      }
    }
  #endif
}
