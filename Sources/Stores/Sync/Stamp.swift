import Foundation
import Synchronization

/// When and where a change was made: a reading of a hybrid logical clock and the device that
/// made it. Stamps order changes across devices: the later stamp wins a merge.
///
/// Stamps are ordered by milliseconds, then counter, then device: so two devices never make
/// equal stamps, and a device's stamps grow even when its wall clock goes back (the counter
/// grows instead: a hybrid logical clock). In a file a stamp is one word,
/// `<milliseconds>.<counter>.<device>` with both numbers in base 36: `mip1k3c0.0.k3j5q8x1z0`.
package struct Stamp: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Milliseconds since 1970 on the device's clock, or later when it saw later stamps.
  package var milliseconds: Int64
  /// Orders the stamps of one millisecond.
  package var counter: Int64
  /// The device that made the change (see ``DeviceID``).
  package var device: DeviceID

  package init(milliseconds: Int64, counter: Int64 = 0, device: DeviceID) {
    self.milliseconds = milliseconds
    self.counter = counter
    self.device = device
  }

  /// The latest milliseconds a stamp may hold: the last of the year 9999, as for the dates
  /// the files hold. A stamp beyond it is refused when read (a clock that far ahead is
  /// broken), so that a copy cannot push every device's clock past what a file can hold.
  package static let latestMilliseconds: Int64 = 253_402_300_799_999

  /// The latest milliseconds a clock follows: a year before ``latestMilliseconds``. A wall
  /// clock past it is taken as reading it, and a conflict copy stamped later is refused (a
  /// clock that far ahead is broken), so that every stamp a store merges is one its clock can
  /// make a later stamp than, and no field is frozen by a stamp nothing can follow.
  package static let latestFollowedMilliseconds: Int64 = latestMilliseconds - 366 * 86_400_000

  /// The largest counter a stamp may hold (8 digits in base 36): a clock that would need a
  /// larger one moves to the next millisecond instead.
  package static let largestCounter: Int64 = 2_821_109_907_455

  /// The stamp of what a version 1 file held: older than every change made since.
  package static let origin = Stamp(milliseconds: 0, device: DeviceID(unchecked: "0"))

  package static func < (a: Stamp, b: Stamp) -> Bool {
    if a.milliseconds != b.milliseconds { return a.milliseconds < b.milliseconds }
    if a.counter != b.counter { return a.counter < b.counter }
    return a.device != b.device && a.device.text < b.device.text
  }

  package static func == (a: Stamp, b: Stamp) -> Bool {
    a.milliseconds == b.milliseconds && a.counter == b.counter && a.device == b.device
  }

  package var description: String {
    var text: [UInt8] = []
    append(to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the stamp's text to `text`, without making a `String`.
  func append(to text: inout [UInt8]) {
    Self.appendBase36(UInt64(milliseconds), to: &text)
    text.append(UInt8(ascii: "."))
    Self.appendBase36(UInt64(counter), to: &text)
    text.append(UInt8(ascii: "."))
    text.append(contentsOf: device.text.utf8)
  }

  /// Appends `number` in base 36: its digits made right to left on the stack, then appended
  /// in one copy (this runs for every stamp of every write).
  private static func appendBase36(_ number: UInt64, to text: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 13) { digits in  // 36^13 > 2^64
      var start = digits.count
      var rest = number
      repeat {
        let digit = UInt8(truncatingIfNeeded: rest % 36)
        start -= 1
        digits[start] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
        rest /= 36
      } while rest > 0
      text.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// The stamp written as `text`, or `nil` when `text` is not one, or holds more than
  /// ``latestMilliseconds`` or ``largestCounter``.
  package init?(_ text: Substring) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count <= 12, parts[1].count <= 12,
      let milliseconds = Int64(parts[0], radix: 36),
      (0...Self.latestMilliseconds).contains(milliseconds),
      let counter = Int64(parts[1], radix: 36), (0...Self.largestCounter).contains(counter),
      parts[0].allSatisfy(\.isBase36), parts[1].allSatisfy(\.isBase36),
      let device = DeviceID(parts[2])
    else { return nil }
    self.init(milliseconds: milliseconds, counter: counter, device: device)
  }
}

/// The identity of one device: random, made once per machine and kept outside the synced
/// folder, so that two devices never share one. 1 to 32 lowercase letters and digits.
package struct DeviceID: Hashable, Sendable, CustomStringConvertible {
  /// The identity as written in stamps.
  package let text: String

  /// The identity `text`, or `nil` when it is not 1 to 32 lowercase letters and digits.
  package init?(_ text: Substring) {
    guard (1...32).contains(text.count), text.allSatisfy(\.isBase36) else { return nil }
    self.text = String(text)
  }

  init(unchecked text: String) {
    self.text = text
  }

  /// A new random identity: a random 64-bit number in base 36, at most 13 characters.
  package static func random() -> DeviceID {
    DeviceID(unchecked: String(UInt64.random(in: .min ... .max), radix: 36))
  }

  package var description: String { text }
}

extension Character {
  /// Whether the character is a lowercase letter or digit (base 36).
  fileprivate var isBase36: Bool { ("0"..."9").contains(self) || ("a"..."z").contains(self) }
}

/// Makes the stamps of this device's changes: a hybrid logical clock — the wall clock in
/// milliseconds, or the latest stamp seen when that is later, with a counter for changes in
/// one millisecond — so that a change is stamped later than every change it saw, whatever
/// the clocks of the devices say.
package final class HybridClock: Sendable {
  /// This device, found on the first stamp (reading a file never needs it).
  package var device: DeviceID {
    knownDevice.withLock { known in
      if let known { return known }
      let device = findDevice()
      known = device
      return device
    }
  }
  private let findDevice: @Sendable () -> DeviceID
  private let knownDevice = Mutex<DeviceID?>(nil)
  private let wallClock: @Sendable () -> Int64
  private let latest = Mutex<(milliseconds: Int64, counter: Int64)>((0, 0))
  /// The file where the device's processes keep the latest stamp one of them made ahead of
  /// the wall clock — or the millisecond one of them reserved — (see
  /// ``init(device:sharingWith:wallClock:)``), if any.
  private let shared: URL?
  /// The folder of ``shared``, opened at the first stamp ahead of the wall clock, and the
  /// latest millisecond this clock reserved in ``shared`` (as the stamp it wrote there).
  private let sharing = Mutex<(folder: PrivateFolder?, reserved: Stamp?)>((nil, nil))

  /// A clock of `device`, reading `wallClock` (milliseconds since 1970), and sharing with the
  /// device's other processes, through the file `shared`, the latest stamp any of them made
  /// ahead of its wall clock (one that follows a device whose clock runs ahead): so a process
  /// that never saw that stamp — a `diary` started after the engine renamed another version
  /// over the file that held it — still stamps later. Stamps that follow the wall clock need
  /// no file: a later process reads a later clock. One read of the small file per stamp; a
  /// stamp ahead of the wall clock takes the file's lock (`NAME.lock`) and, when its
  /// millisecond is not reserved by this clock yet, reserves it: writes the millisecond's
  /// largest stamp, made as a data file's is (see ``PrivateFolder/write(_:to:)``), so that
  /// this clock's further stamps in that millisecond write nothing, and every other process
  /// stamps after all of them.
  package init(
    device: @autoclosure @escaping @Sendable () -> DeviceID, sharingWith shared: URL? = nil,
    wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
  ) {
    findDevice = device
    self.wallClock = wallClock
    self.shared = shared
  }

  /// This device's clock, with its identity from ``DeviceID/local``, shared by its processes
  /// through `stores/clock` in the local state folder (see
  /// ``DeviceID/localStateFolder(environment:)``).
  package static let local = HybridClock(
    device: DeviceID.local,
    sharingWith: DeviceID.localStateFolder(environment: ProcessInfo.processInfo.environment)?
      .appendingPathComponent("stores/clock"))

  /// A new stamp, later than every stamp made or seen before — within the stamps a file can
  /// hold: a clock at ``Stamp/latestMilliseconds`` and ``Stamp/largestCounter`` makes that
  /// stamp again (it cannot get there from stamps it merged: see
  /// ``Stamp/latestFollowedMilliseconds``).
  package func stamp() -> Stamp {
    let now = min(wallClock(), Stamp.latestFollowedMilliseconds)
    guard let shared else { return next(now) }
    // Ahead of the wall clock already (observing only moves the clock on): straight to the
    // lock, where the file is read.
    if latest.withLock({ $0.milliseconds }) < now {
      observeShared(shared, reserved: sharing.withLock { $0.reserved })
      let stamp = next(now)
      guard stamp.milliseconds > now else { return stamp }
      // Made ahead of the wall clock from the file as it was read without the lock: made
      // again under it.
    }
    return sharing.withLock { sharing in
      let folderPath = shared.deletingLastPathComponent().path
      if sharing.folder == nil { sharing.folder = try? PrivateFolder(creating: folderPath) }
      guard let folder = sharing.folder else {
        // No folder to lock: every stamp ahead is written, as it is made.
        observeShared(shared, reserved: nil)
        let stamp = next(now)
        if stamp.milliseconds > now {
          try? PrivateFolder(creating: folderPath).write(
            Data((stamp.description + "\n").utf8), to: shared.lastPathComponent)
        }
        return stamp
      }
      let reserve = { (stamp: Stamp, reserved: inout Stamp?) in
        let reservation = Stamp(
          milliseconds: stamp.milliseconds, counter: Stamp.largestCounter, device: stamp.device)
        // Written whole (a new file renamed over the old, as a data file is), or not at all.
        if (try? folder.write(
          Data((reservation.description + "\n").utf8), to: shared.lastPathComponent)) != nil
        {
          reserved = reservation
        }
      }
      do {
        return try folder.withLock(of: shared.lastPathComponent, timeout: .seconds(2)) {
          // Under the lock every process that reserves writes: the file holds this clock's
          // reservation only while no other process reserved since.
          let held = observeShared(shared, reserved: sharing.reserved)
          let stamp = next(now)
          let isReserved = held.map {
            $0 == sharing.reserved && $0.milliseconds >= stamp.milliseconds
          }
          if stamp.milliseconds > now, isReserved != true {
            reserve(stamp, &sharing.reserved)
          }
          return stamp
        }
      } catch {
        // The lock not had (a stopped holder): the stamp is written as it is made — and this
        // clock's reservation, no longer known to be the file's, is dropped.
        sharing.reserved = nil
        observeShared(shared, reserved: nil)
        let stamp = next(now)
        if stamp.milliseconds > now {
          try? folder.write(Data((stamp.description + "\n").utf8), to: shared.lastPathComponent)
        }
        return stamp
      }
    }
  }

  /// Reads the stamp in `shared` and observes it — unless it is `reserved`, this clock's own
  /// reservation, whose millisecond is this clock's to stamp in; returns it.
  @discardableResult
  private func observeShared(_ shared: URL, reserved: Stamp?) -> Stamp? {
    guard let data = try? FileSystem.read(shared.path, path: shared.path)?.0, data.count <= 128,
      let stamp = Stamp(
        Substring(
          String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    else { return nil }
    if stamp != reserved { observe(stamp) }
    return stamp
  }

  /// The next stamp of this clock, at `now` or later.
  private func next(_ now: Int64) -> Stamp {
    let (milliseconds, counter) = latest.withLock { latest in
      if now > latest.milliseconds {
        latest = (now, 0)
      } else if latest.counter < Stamp.largestCounter {
        latest.counter += 1
      } else if latest.milliseconds < Stamp.latestMilliseconds {
        latest = (latest.milliseconds + 1, 0)
      }
      return latest
    }
    return Stamp(milliseconds: milliseconds, counter: counter, device: device)
  }

  /// Notes `stamp`, seen in a file, so that the next stamp is later.
  package func observe(_ stamp: Stamp) {
    let seen = (stamp.milliseconds, stamp.counter)
    latest.withLock { latest in
      if seen > (latest.milliseconds, latest.counter) { latest = seen }
    }
  }

  /// The wall clock now, in milliseconds since 1970.
  package var now: Int64 { wallClock() }
}
