#if canImport(Synchronization)
  import Synchronization
#endif

/// A flag that is set once, from any thread, and read cheaply: an atomic (`Synchronization`,
/// on every platform the package declares), a lock where a toolchain lacks the module.
@usableFromInline
final class CancellationFlag: @unchecked Sendable {
  #if canImport(Synchronization)
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
