import Foundation

/// This process's waits for `flock` locks that another process holds.
///
/// A held lock is waited for in the kernel — waiters are woken as soon as the holder lets go,
/// rather than polling and losing the race to a busy holder — on a thread of its own (not one
/// of Dispatch's, which a stopped holder would pin). There is at most **one** such thread per
/// locked file in the process, however many transactions wait for it: it takes the lock on a
/// descriptor of its own and hands it to the waiting transactions one at a time, in the
/// order they came; a transaction that gives up at its deadline just leaves the line. The
/// thread ends, and its descriptor is closed, once no one waits. So a holder stopped for good
/// costs one parked thread and one descriptor per locked file, not one per attempt.
final class LockWaits: @unchecked Sendable {
  /// A lock handed to a waiting transaction: held until ``release()``, which must be called.
  final class Hold: @unchecked Sendable {
    fileprivate enum State {
      case waiting, granted, abandoned, released
      case failed(Int32)
    }
    fileprivate var state = State.waiting
    private let waits: LockWaits

    fileprivate init(_ waits: LockWaits) {
      self.waits = waits
    }

    /// Lets go of the lock, for the next in line or anyone else. Idempotent.
    func release() {
      waits.condition.withLock {
        guard case .granted = state else { return }
        state = .released
        waits.condition.broadcast()
      }
    }
  }

  /// Why a wait ended without the lock.
  enum Failure: Error {
    /// The deadline passed first.
    case timedOut
    /// No thread could be started to wait on (`errno`).
    case cannotStart(Int32)
    /// Locking failed (`errno`).
    case failed(Int32)
  }

  static let shared = LockWaits()

  /// Guards every line and hold.
  private let condition = NSCondition()
  /// The waiting transactions of each file, in order.
  private var lines: [FileKey: [Hold]] = [:]

  /// Waits until `deadline` for the lock of `file`, open at `descriptor`, handed over by the
  /// file's waiting thread (started when there is none).
  func wait(
    for file: FileKey, descriptor: Int32, until deadline: ContinuousClock.Instant
  ) throws(Failure) -> Hold {
    let hold = Hold(self)
    condition.lock()
    defer { condition.unlock() }
    if lines[file] == nil {
      let waiter = dup(descriptor)
      guard waiter >= 0 else { throw .cannotStart(errno) }
      let started = Platform.startThread { [self] in serve(file, waiter) }
      guard started == 0 else {
        close(waiter)
        throw .cannotStart(started)
      }
      lines[file] = []
    }
    lines[file]!.append(hold)
    while case .waiting = hold.state {
      let remaining = deadline - ContinuousClock.now
      guard remaining > .zero else {
        hold.state = .abandoned
        break
      }
      _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.inSeconds))
    }
    switch hold.state {
    case .granted: return hold
    case .failed(let code): throw .failed(code)
    default: throw .timedOut
    }
  }

  /// The waiting thread of `file`: takes the lock on `descriptor` for each waiting hold in
  /// turn, and waits for its release; ends, closing `descriptor`, when no one waits.
  private func serve(_ file: FileKey, _ descriptor: Int32) {
    condition.lock()
    while true {
      lines[file]!.removeAll { if case .waiting = $0.state { false } else { true } }
      guard !lines[file]!.isEmpty else { break }
      condition.unlock()
      var failure: Int32 = 0
      while flock(descriptor, LOCK_EX) != 0 {
        guard errno == EINTR else {
          failure = errno
          break
        }
      }
      condition.lock()
      guard failure == 0 else {
        for hold in lines[file]! { hold.state = .failed(failure) }
        condition.broadcast()
        break
      }
      if let next = lines[file]!.first(where: {
        if case .waiting = $0.state { true } else { false }
      }) {
        next.state = .granted
        condition.broadcast()
        while case .granted = next.state { condition.wait() }
      }
      flock(descriptor, LOCK_UN)
    }
    lines[file] = nil
    condition.unlock()
    close(descriptor)
  }
}
