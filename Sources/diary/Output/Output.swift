import Foundation

/// A write to standard output that failed.
struct OutputError: Error, Equatable {
  /// The `errno` of the failed write.
  var code: Int32
  /// Why, in words: "No space left on device".
  var reason: String

  /// The failure of a write with `errno` `code`.
  init(code: Int32) {
    self.code = code
    reason = String(cString: strerror(code))
  }

  /// The failure of every write when standard output was closed as `diary` started.
  static let closed = OutputError(code: EBADF, reason: "standard output is closed")

  private init(code: Int32, reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The reader went away (`diary … | head -1`): not worth a message.
  var isBrokenPipe: Bool { code == EPIPE }
}

/// Where the bytes of an ``Output`` go.
@MainActor
protocol OutputSink: AnyObject {
  func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError)
}

/// A file descriptor, written with `write(2)` — never `FileHandle.write(_:)`, which traps when
/// a write fails.
@MainActor
final class FileDescriptorSink: OutputSink {
  private let descriptor: Int32
  private let isOpen: Bool

  /// The sink of `descriptor`; when `isOpen` is false (the descriptor was closed when the
  /// process started, see ``StandardStreams``), every write fails with `EBADF`.
  init(_ descriptor: Int32, isOpen: Bool = true) {
    self.descriptor = descriptor
    self.isOpen = isOpen
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    guard isOpen else { throw .closed }
    var offset = 0
    while offset < bytes.count {
      let written = Platform.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw OutputError(code: errno)
      }
      offset += written
    }
  }
}

/// Text kept in memory: the output of a run inside a test.
@MainActor
final class TextSink: OutputSink {
  private(set) var bytes: [UInt8] = []

  var text: String { String(decoding: bytes, as: UTF8.self) }

  func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    self.bytes += bytes
  }
}

/// What a command prints: text for standard output, written in blocks as it comes (so that a
/// list of a million todos is never one string), messages for standard error, and what the
/// command saved, so that an error after the save can say it was saved.
@MainActor
final class Output {
  private let standardOutput: any OutputSink
  private let standardError: any OutputSink
  private var buffer: [UInt8] = []
  private static let blockSize = 1 << 16
  /// What the command saved, such as "added todo 1", once it has.
  private(set) var saved: String?
  /// Whether standard error is a terminal, where progress can be shown.
  let showsProgress: Bool

  init(standardOutput: any OutputSink, standardError: any OutputSink, showsProgress: Bool = false) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.showsProgress = showsProgress
  }

  /// Appends `text` to standard output, writing a block when one is full.
  ///
  /// - Throws: ``OutputError`` when standard output cannot be written.
  func write(_ text: String) throws(OutputError) {
    buffer += text.utf8
    if buffer.count >= Self.blockSize { try flush() }
  }

  /// Appends `bytes`, UTF-8 text, to standard output, writing a block when one is full.
  func write(_ bytes: some Sequence<UInt8>) throws(OutputError) {
    buffer += bytes
    if buffer.count >= Self.blockSize { try flush() }
  }

  /// Appends `text` and a line break to standard output.
  func line(_ text: String) throws(OutputError) {
    try write(text)
    try write("\n")
  }

  /// Writes what is buffered to standard output.
  func flush() throws(OutputError) {
    defer { buffer.removeAll(keepingCapacity: true) }
    try buffer.withUnsafeBytes { bytes in
      Result { () throws(OutputError) in try standardOutput.write(bytes) }
    }.get()
  }

  /// Drops what is buffered for standard output: after an error, only the error is printed.
  func discard() {
    buffer.removeAll()
  }

  /// Writes `text` and a line break to standard error at once. A failure is ignored: there
  /// is nowhere left to report it.
  func message(_ text: String) {
    _ = Array((text + "\n").utf8).withUnsafeBytes { bytes in
      Result { () throws(OutputError) in try standardError.write(bytes) }
    }
  }

  /// Shows `text` as the progress line on standard error — replacing the one shown before, or
  /// clearing it when `text` is empty — where standard error is a terminal.
  func progress(_ text: String) {
    guard showsProgress else { return }
    _ = Array("\r\u{1B}[2K\(text)".utf8).withUnsafeBytes { bytes in
      Result { () throws(OutputError) in try standardError.write(bytes) }
    }
  }

  /// Records that the command saved `change` ("added todo 1"): from now on an error says so.
  func recordSaved(_ change: String) {
    saved = change
  }
}

/// The standard file descriptors as `diary` found them.
enum StandardStreams {
  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, so that no file the
  /// tool opens later (a data file, a lock) can become its standard output or error; returns
  /// whether standard output was open.
  static func reserve() -> Bool {
    var outputIsOpen = true
    for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      if descriptor == 1 { outputIsOpen = false }
      // The lowest free descriptor is this one.
      _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
    }
    return outputIsOpen
  }
}
