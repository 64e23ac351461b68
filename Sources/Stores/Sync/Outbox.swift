import Foundation
import Synchronization

/// This device's outbox for one synced data file: a copy of the file as a process of this
/// device last wrote it, kept in the device's local state folder, where no sync engine
/// reaches (`stores/outbox/NAME-HASH` in ``DeviceID/localStateFolder(environment:)``; the
/// hash is of the device's identity and the file's place, so each data file has its own, and
/// so has each device a test runs in one process).
///
/// A sync engine checks a file, then renames another device's version over it: a write that
/// lands in between is gone from the file — also after the process that made it exited,
/// when no store remembers it. The outbox still holds it. Every store of the device weighs
/// the file against the outbox when the outbox is new to it (at its first transaction or
/// refresh, and whenever the file changed since) and merges the outbox back when the file
/// does not descend from it — a join, which changes nothing when it does — and was not made
/// from it (its writers do not include the outbox's: what a version made from it lacks was
/// removed since, by hand too). So the outbox holds at least every write acknowledged on
/// this device, and none is lost to that race. A refresh that cannot write the merge back
/// (a read-only file, the lock held) reads the file as it is, the outbox left for the next.
///
/// Every write of the data file replaces the outbox with a copy of what it wrote (under the
/// data file's lock, after its rename) and a checksum of it, written over the old copy in
/// place and not flushed — no new file per write: on ext4 a file renamed over another has
/// its blocks flushed with the next flush of the drive, which nearly doubled the cost of a
/// durable write. A copy a crash cut short (or mixed with the old) fails its checksum and is
/// passed over, so a write lost from the outbox needs a crash while its copy is written (the
/// next write's) or a power cut in the seconds after it, *and* an engine renaming over the
/// file before it scans it. An outbox older than
/// ``Stamp/tombstoneLifetime`` is removed unread (and when a process first writes into the
/// folder, see ``tidy(_:)``): the file has long been synced since, and the removals made
/// after it may be forgotten. So is the outbox of a file a store finds removed: a removal of
/// the whole file is not a write lost. Without a local state folder, or where it cannot be
/// written, a store keeps no outbox; nor does a store of a file in iCloud Drive, whose engine
/// coordinates its writes with the store's.
package final class Outbox {
  private let target: String
  private let folderPath: String
  private let device: () -> DeviceID
  private var folder: PrivateFolder?

  /// The outbox of the device `device` names for the data file at `target` (its links
  /// resolved) in the local state folder `stateFolder`. Creates nothing; `device` is asked
  /// only once an outbox may exist — the outbox folder does — or is written: a process that
  /// only reads makes no device identity.
  init(of target: String, in stateFolder: URL, device: @escaping () -> DeviceID) {
    self.target = target
    folderPath = stateFolder.appendingPathComponent("stores/outbox", isDirectory: true).path
    self.device = device
  }

  /// The outbox of the device `device` names for the data file at `target` in this device's
  /// local state folder (see ``DeviceID/localStateFolder(environment:)``), or `nil` when there
  /// is none.
  static func local(of target: String, device: @escaping () -> DeviceID) -> Outbox? {
    // The few variables that name the folder, read alone: the whole environment copied into a
    // dictionary for every store opened would cost more than the rest of the opening.
    let names = [DeviceID.stateHomeVariable, "XDG_STATE_HOME", "HOME"]
    let environment = Dictionary(
      uniqueKeysWithValues: names.compactMap { name in
        getenv(name).map { (name, String(cString: $0)) }
      })
    return DeviceID.localStateFolder(environment: environment).map {
      Outbox(of: target, in: $0, device: device)
    }
  }

  /// The outbox's name in the outbox folder: the file's name, and a hash of the device and of
  /// the file's place (see ``place(of:)``).
  private(set) lazy var name =
    "\((target as NSString).lastPathComponent)-\(Self.hash(device().text + "/" + Self.place(of: target)))"

  /// Where the file at `target` is, the same however its path is spelled: its folder's real
  /// path (`realpath`: `/tmp` and `/private/tmp` on macOS are one), and, inside the home
  /// folder, from there (an iOS app's container moves when the app is updated, its files
  /// with it).
  static func place(of target: String) -> String {
    let path = realPath(of: target)
    let home = Self.home
    guard home.count > 1, path.hasPrefix(home + "/") else { return path }
    return "~" + path.dropFirst(home.count)
  }

  /// The home folder, looked up once (on Linux, Foundation reads the user database for it).
  private static let home = NSHomeDirectory()

  /// The path of the file at `target` with its folder's links resolved (`realpath`).
  private static func realPath(of target: String) -> String {
    (realFolder((target as NSString).deletingLastPathComponent) as NSString)
      .appendingPathComponent((target as NSString).lastPathComponent)
  }

  /// The folder at `path` with its links resolved (`realpath`), or as it is when it cannot be.
  private static func realFolder(_ path: String) -> String {
    realpath(path, nil).map { pointer in
      defer { free(pointer) }
      return String(cString: pointer)
    } ?? path
  }

  /// The outbox's path.
  private(set) lazy var path = (folderPath as NSString).appendingPathComponent(name)

  /// The outbox's identity, or `nil` when there is none (or it cannot be read). One `stat`,
  /// two before this outbox first wrote (the folder's: no device identity is asked for while
  /// there is no outbox folder).
  var identity: FileIdentity? {
    var info = stat()
    guard folder != nil || stat(folderPath, &info) == 0, stat(path, &info) == 0 else {
      return nil
    }
    return FileIdentity(info)
  }

  /// The outbox's bytes (without its checksum) and identity, or `nil` when there is none, it
  /// cannot be read, it is not whole (its checksum does not match: a write cut short by a
  /// crash), or it is older than ``Stamp/tombstoneLifetime`` (then it is removed). Read under
  /// the data file's lock, which its writers hold. O(its size).
  func read() -> (data: Data, identity: FileIdentity)? {
    guard case .whole(let data, let identity) = contents() else { return nil }
    return (data, identity)
  }

  /// What ``contents()`` finds in an outbox that is there and young enough.
  enum Contents {
    /// A whole copy: the file's bytes (without the checksum), and the outbox's identity.
    case whole(Data, FileIdentity)
    /// A copy that fails its checksum (a write cut short by a crash), with the outbox's
    /// identity: never a version of the file, and no read of it will make it one — only a
    /// write, which gives the outbox another identity.
    case torn(FileIdentity)
  }

  /// The outbox's contents (see ``Contents``), or `nil` when there is none, it cannot be read
  /// (which may pass), or it is older than ``Stamp/tombstoneLifetime`` (then it is removed).
  /// Read under the data file's lock, which its writers hold. O(its size).
  func contents() -> Contents? {
    var info = stat()
    guard stat(folderPath, &info) == 0, let opened = try? OpenFile(path, in: AT_FDCWD, path: path),
      var data = try? opened.contents(path: path)
    else { return nil }
    let age = Date().timeIntervalSince1970 - Double(opened.identity.modified.tv_sec)
    guard age * 1000 < Double(Stamp.tombstoneLifetime) else {
      unlink(path)
      return nil
    }
    let size = data.count - Self.trailerSize
    let isWhole =
      size >= 0
      && data.withUnsafeBytes { bytes in
        var checksum = Checksum()
        checksum.combine(UnsafeRawBufferPointer(rebasing: bytes[..<size]))
        return bytes[size...].elementsEqual(Self.trailer(checksum).utf8)
      }
    guard isWhole else { return .torn(opened.identity) }
    data.count = size
    return .whole(data, opened.identity)
  }

  /// The outbox's identity when it holds exactly `data`, else `nil` — also while a writer
  /// holds it (its `flock`): it may be half written. Compared in parts of
  /// ``FileOutput/partSize`` (so no second copy of the file is held), after the sizes; the
  /// checksum is not read: bytes that are the file's are what this asks. O(size of `data`)
  /// at most.
  func identity(holding data: Data) -> FileIdentity? {
    let size = data.count + Self.trailerSize
    guard identity?.size == Int64(size),
      let file = try? OpenFile(path, in: AT_FDCWD, path: path),
      file.identity.size == Int64(size), flock(file.descriptor, LOCK_SH | LOCK_NB) == 0
    else { return nil }
    let same = FileSystem.readParts(of: file.descriptor, size: data.count) { part, offset in
      data.withUnsafeBytes { memcmp(part.baseAddress!, $0.baseAddress! + offset, part.count) == 0 }
    }
    return same ? file.identity : nil
  }

  /// Removes the outbox, if there is one.
  func remove() {
    if identity != nil { unlink(path) }
  }

  /// Writes the `size` bytes of the file open at `descriptor` (a data file just written),
  /// read from its start, over the outbox; returns the outbox's new identity, or `nil` when it
  /// could not be written (then there is none). Unflushed. O(`size`).
  @discardableResult
  func write(copying descriptor: Int32, size: Int) -> FileIdentity? {
    write { output, checksum throws(StoreFileError) in
      let copied = FileSystem.readParts(of: descriptor, size: size) { part, _ in
        output.append(part)
        checksum.combine(part)
        return true
      }
      guard copied else { throw StoreFileError(path: path, problem: .cannotRead(errno: EIO)) }
    }
  }

  /// Writes `data` over the outbox; returns its new identity, or `nil` when it could not be
  /// written (then there is none). Unflushed. O(size of `data`).
  @discardableResult
  func write(_ data: Data) -> FileIdentity? {
    write { output, checksum throws(StoreFileError) in
      data.withUnsafeBytes {
        output.append($0)
        checksum.combine($0)
      }
    }
  }

  /// Writes over the outbox, in place (see ``PrivateFolder/overwrite(_:writing:)``), what
  /// `body` writes and adds to the checksum, then the checksum's trailer.
  private func write(
    _ body: (FileOutput, inout Checksum) throws(StoreFileError) -> Void
  ) -> FileIdentity? {
    do {
      if folder == nil {
        let opened = try PrivateFolder(creating: folderPath)
        folder = opened
        // Once per process and folder: one read of the folder, and a `stat` of each outbox
        // in it, for every store would cost more than its writes.
        if Self.tidied.withLock({ $0.insert(folderPath).inserted }) { Self.tidy(opened) }
        let place = Self.realPath(of: target)
        let path = path
        Self.written.withLock { $0[path] = place }
      }
      return try folder?.overwrite(name) { output throws(StoreFileError) in
        var checksum = Checksum()
        try body(output, &checksum)
        var trailer = Self.trailer(checksum)
        trailer.withUTF8 { output.append(UnsafeRawBufferPointer($0)) }
      }
    } catch {
      return nil
    }
  }

  /// The line that ends an outbox, after the data file's bytes: their checksum (see
  /// ``Checksum``), so that a copy a crash cut short, or left with old and new bytes mixed,
  /// is never taken for a version of the file.
  private static func trailer(_ checksum: Checksum) -> String {
    "\noutbox \(hexadecimal(checksum.finalize()))\n"
  }

  /// The size of ``trailer(_:)``.
  private static let trailerSize = trailer(Checksum()).utf8.count

  /// The outbox folders this process has tidied (see ``tidy(_:)``).
  private static let tidied = Mutex<Set<String>>([])

  /// The outboxes this process has written, by path, each with the real path of its data
  /// file (see ``removeAll(under:)``).
  private static let written = Mutex<[String: String]>([:])

  /// Removes the outboxes this process wrote for data files in the folder at `url` or below
  /// it — a folder being removed with its files (a test's ``TemporaryFolder``), whose outboxes
  /// no store will read again. O(outboxes this process wrote).
  package static func removeAll(under url: URL) {
    let folder = realFolder(url.path)
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    let removed = written.withLock { written in
      let paths = written.filter { $0.value.hasPrefix(prefix) }.map(\.key)
      for path in paths { written[path] = nil }
      return paths
    }
    for path in removed { unlink(path) }
  }

  /// Tidies the outbox folder, when a process first writes into it: it is left out of backups
  /// (a device restored from one has another identity, whose outboxes these are not), and
  /// loses the outboxes older than ``Stamp/tombstoneLifetime`` — of data files moved or
  /// removed since, which no store reads again — and the temporary files that writers of
  /// earlier versions, killed mid-copy, left. Two reads of the folder.
  private static func tidy(_ folder: PrivateFolder) {
    Platform.excludeFromBackup(URL(fileURLWithPath: folder.path, isDirectory: true))
    // Outboxes were written as new files renamed over the old before they were written in
    // place: the temporary files of those writers killed mid-copy go too.
    folder.removeStaleTemporaries()
    let oldest = Date().timeIntervalSince1970 - Double(Stamp.tombstoneLifetime) / 1000
    for name in folder.names() where !name.hasPrefix(".") {
      var info = stat()
      let path = folder.path(of: name)
      if lstat(path, &info) == 0, Double(FileIdentity(info).modified.tv_sec) < oldest {
        unlink(path)
      }
    }
  }

  /// A hash of `text` that is the same in every process and on every platform (FNV-1a, 64
  /// bits), in 16 hexadecimal digits.
  static func hash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hexadecimal(hash)
  }

  /// `value` in 16 hexadecimal digits.
  private static func hexadecimal(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
