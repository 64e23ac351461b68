import Foundation

/// A regular file held open for reading; closed when released.
final class OpenFile {
  let descriptor: Int32
  /// The identity of the open file.
  let identity: FileIdentity
  /// The lock of the file, when this process's waiting thread took it for this one (see
  /// ``FileSystem/openLocked(_:in:until:timeout:path:)``): released with the file.
  var lockHold: LockWaits.Hold?

  /// Opens the regular file `name` (relative to `folder`, or a path with `AT_FDCWD`), or
  /// returns `nil` when there is none. Anything else — a folder, a FIFO, a device, or inside
  /// a folder a symbolic link — is refused without blocking.
  init?(_ name: String, in folder: Int32, path: String) throws(StoreFileError) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOFOLLOW: inside a folder
    // the name was checked to be the file itself.
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (folder == AT_FDCWD ? 0 : O_NOFOLLOW)
    let descriptor = openat(folder, name, flags)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      if errno == ELOOP { throw StoreFileError(path: path, problem: .notARegularFile) }
      throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw StoreFileError(path: path, problem: .cannotRead(errno: code))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw StoreFileError(path: path, problem: .notARegularFile)
    }
    self.descriptor = descriptor
    identity = FileIdentity(info)
  }

  deinit {
    lockHold?.release()
    close(descriptor)
  }

  /// The hash of every byte of the file, from its start (as ``FileVersion/hash(_:)`` makes
  /// it), read in parts of ``FileOutput/partSize`` into one buffer: no copy of the file is
  /// held. O(size of the file).
  func contentHash(path: String) throws(StoreFileError) -> Int {
    var hasher = Hasher()
    let whole = FileSystem.readParts(of: descriptor) { part, _ in
      hasher.combine(bytes: part)
      return true
    }
    guard whole else { throw StoreFileError(path: path, problem: .cannotRead(errno: errno)) }
    return hasher.finalize()
  }

  /// Every byte of the file, from its start, read straight into the buffer returned: the
  /// file is held once in memory, never copied (a copy would hold it twice for a moment, and
  /// the freed copy would stay in the process's resident memory).
  ///
  /// - Parameter limit: The most bytes read: a file larger than that when opened, or that
  ///   grows past it while read, is refused with ``StoreFileError/Problem/tooLarge(size:limit:)``
  ///   having read at most `limit` + 1 bytes. No limit by default.
  func contents(path: String, limit: Int64 = .max) throws(StoreFileError) -> Data {
    // More than memory can hold (a 32-bit `Int`'s bytes, on watchOS) is too large too.
    guard identity.size <= min(limit, Int64(Int.max) - 1) else {
      throw StoreFileError(path: path, problem: .tooLarge(size: identity.size, limit: limit))
    }
    // One byte more than the size, to see the end of the file in the first pass.
    var bytes = Data(count: max(Int(identity.size), 0) + 1)
    var count = 0
    while true {
      if Int64(count) > limit {
        throw StoreFileError(path: path, problem: .tooLarge(size: Int64(count), limit: limit))
      }
      if count == bytes.count {
        // At most up to `limit` + 1 bytes (`count` is at least 1 here: no overflow).
        bytes.count += Int(min(Int64(bytes.count), limit - Int64(count) + 1))
      }
      let read = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + count, $0.count - count, off_t(count))
      }
      if read == 0 { break }
      if read < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw StoreFileError(path: path, problem: .cannotRead(errno: errno))
      }
      count += read
    }
    bytes.count = count
    return bytes
  }
}
