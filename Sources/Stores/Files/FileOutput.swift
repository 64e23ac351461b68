import Foundation

/// The content of a new file, written as it is produced: each part goes to the file at once,
/// so the writer holds only a part of it. (Starting each part's writeback at once, with
/// `sync_file_range`, was measured: on a disk whose flushes are slow it made the final
/// `fsync` wait longer, not less.)
package final class FileOutput {
  package let descriptor: Int32
  /// The number of bytes written so far.
  private(set) var count = 0
  /// The `errno` of the first failed write, or 0; nothing more is written after one.
  package private(set) var failure: Int32 = 0
  /// The hash of what was written so far (as ``FileVersion/hash(_:)`` makes it), when asked
  /// for at the start; `nil` otherwise.
  private var hasher: Hasher?

  /// The size of the parts worth writing on their own: large enough that a part costs one
  /// call, small enough that little of a large file is held in memory.
  package static let partSize = 256 * 1024

  /// An output to the file open at `descriptor`; with `hashing`, it also hashes what it
  /// writes (see ``contentHash``).
  package init(_ descriptor: Int32, hashing: Bool = false) {
    Self.failWritesPastTheSizeLimit
    self.descriptor = descriptor
    hasher = hashing ? Hasher() : nil
  }

  /// A write past the file size limit (`ulimit -f`) sends `SIGXFSZ`, which by default kills
  /// the process in the middle of the write and leaves the temporary file behind. Ignored,
  /// it makes the write fail with `EFBIG` instead, and that failure is handled as any other:
  /// nothing is replaced, the temporary file is removed. Done once, before the first write,
  /// and only where the signal has its default action (a handler the app set stays).
  private static let failWritesPastTheSizeLimit: Void = {
    let previous = signal(SIGXFSZ, SIG_IGN)
    if previous != nil { signal(SIGXFSZ, previous) }  // not the default (`SIG_DFL` is nil)
  }()

  /// The hash of everything written, when the output was made `hashing`.
  var contentHash: Int? { hasher?.finalize() }

  /// Writes `bytes` after what was written so far.
  package func append(_ bytes: UnsafeRawBufferPointer) {
    guard failure == 0, let start = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, start + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        failure = errno
        return
      }
      offset += written
    }
    count += bytes.count
    hasher?.combine(bytes: bytes)
  }
}
