import Foundation

/// One import of workouts from files: the one path that ``WorkoutsStore``'s import effect and
/// `diary workouts import` both take.
///
/// Each file is CSV (see ``WorkoutsCSV``) or GPX (see `WorkoutsGPX`) — told by its `.gpx`
/// name or its text starting with `<` — read in turn, a part at a time so that progress can be
/// shown and the work cancelled between parts. A folder stands for its `.csv` and `.gpx`
/// files, by name. ``standardInput`` stands for standard input, read from its current offset.
/// A pipe (`<(command)`) is read as a stream, to its end; a named FIFO without a writer reads
/// as empty rather than waiting. The first file that cannot be read, is larger than
/// ``maximumFileSize`` or has rows that are not valid fails the whole import;
/// ``readAll(rowsPerPart:now:makeID:goOn:)`` returns every workout of every file.
public struct WorkoutsImporter {
  /// The largest file an import reads: 50 MB, some 500,000 CSV rows or a GPX track of a
  /// week at a point a second.
  public static let maximumFileSize = 50_000_000
  /// How many of the problems of a file an error lists.
  public static let problemsListed = 20

  private let options: WorkoutsImportOptions
  /// What the result calls the files: the one path given (as given, relative or not), or
  /// "N files".
  private let name: String
  private var pending: [URL]
  private let isSeveral: Bool
  private var reader: WorkoutsCSV.Reader?
  private var current: URL?
  private var done: [WorkoutsImport] = []

  /// An import of `files` (and of the `.csv` and `.gpx` files in the folders among them).
  ///
  /// - Throws: ``WorkoutsImportError`` for a folder that cannot be listed or has no such file.
  public init(files: [URL], options: WorkoutsImportOptions) throws(WorkoutsImportError) {
    var expanded: [URL] = []
    for url in files {
      var isFolder: ObjCBool = false
      guard url != Self.standardInput,
        FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
        isFolder.boolValue
      else {
        expanded.append(url)
        continue
      }
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: url.path)
      } catch {
        throw WorkoutsImportError(
          file: url.relativePath,
          problem: .unreadable(
            StoreFileError(path: url.relativePath, problem: .cannotRead(errno: EACCES))))
      }
      let found = names.filter {
        ["csv", "gpx"].contains(($0 as NSString).pathExtension.lowercased())
      }
      .sorted().map { url.appendingPathComponent($0) }
      guard !found.isEmpty else {
        throw WorkoutsImportError(
          file: url.relativePath,
          problem: .invalid(line: 1, column: 1, message: "the folder has no .csv or .gpx file"))
      }
      expanded += found
    }
    self.options = options
    pending = expanded
    isSeveral = expanded.count > 1
    name = files.count == 1 ? Self.name(of: files[0]) : "\(files.count) files"
  }

  /// How far the reading of the current file is.
  public var progress: WorkoutsImportProgress {
    if let reader { return reader.progress }
    return WorkoutsImportProgress(
      file: current.map(Self.name) ?? name, bytesRead: 0, totalBytes: 0,
      rows: done.reduce(0) { $0 + $1.rows.count })
  }

  /// Every workout read, of every file, in order.
  private var result: WorkoutsImport {
    var all = WorkoutsImport(file: name, rows: [])
    for part in done + (reader.map { [$0.result] } ?? []) {
      let file = isSeveral ? part.file : nil
      all.rows += part.rows.map {
        var row = $0
        row.file = file
        return row
      }
      all.skipped += part.skipped.map {
        var row = $0
        row.file = file
        return row
      }
      all.recognized = all.recognized ?? part.recognized
      all.ignoredColumns += part.ignoredColumns.filter { !all.ignoredColumns.contains($0) }
      all.distancesWithoutUnit += part.distancesWithoutUnit
    }
    return all
  }

  /// Reads every file to its end, `rowsPerPart` rows at a time, and returns every workout
  /// read: the import loop of both ``WorkoutsStore``'s import effect and
  /// `diary workouts import`. Between two parts it calls `goOn` with the ``progress``, to
  /// show it; when `goOn` returns `false` (the import was cancelled), it stops and returns
  /// `nil`.
  ///
  /// - Parameters:
  ///   - rowsPerPart: How many rows to read between two calls of `goOn`.
  ///   - now: The date of rows without one, asked once per part.
  ///   - makeID: The id of each row without one.
  ///   - goOn: Shown the progress after each part but the last; `false` stops the import.
  /// - Throws: ``WorkoutsImportError`` for a file that cannot be read, is too large or has rows that
  ///   are not valid.
  /// - Complexity: O(*n*) in the bytes read.
  public mutating func readAll(
    rowsPerPart: Int, now: () -> Date, makeID: () -> UUID, goOn: (WorkoutsImportProgress) -> Bool
  ) throws(WorkoutsImportError) -> WorkoutsImport? {
    while try read(rows: rowsPerPart, now: now(), makeID: makeID) {
      guard goOn(progress) else { return nil }
    }
    return result
  }

  /// Reads up to `count` more rows, with `now` for rows without a date and `makeID` for rows
  /// without an id; returns whether there is more to read.
  ///
  /// - Throws: ``WorkoutsImportError`` for a file that cannot be read, is too large or has
  ///   rows that are not valid.
  /// - Complexity: O(*n*) in the bytes read.
  private mutating func read(rows count: Int, now: Date, makeID: () -> UUID)
    throws(WorkoutsImportError) -> Bool
  {
    if reader == nil {
      guard !pending.isEmpty else { return false }
      let url = pending.removeFirst()
      current = url
      let data = try Self.contents(of: url)
      if Self.isGPX(url, data) {
        done.append(try WorkoutsGPX.read(data, path: Self.name(of: url), makeID: makeID))
        return !pending.isEmpty
      }
      reader = try WorkoutsCSV.Reader(data, path: Self.name(of: url), options: options)
    }
    guard var reading = reader else { return false }
    reader = nil
    let more = try reading.read(rows: count, now: now, makeID: makeID)
    if more {
      reader = reading
    } else {
      done.append(reading.result)
    }
    return more || !pending.isEmpty
  }

  /// Whether the file is GPX: named `.gpx`, or text that starts with `<`.
  private static func isGPX(_ url: URL, _ data: Data) -> Bool {
    if url.pathExtension.lowercased() == "gpx" { return true }
    let text = data.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
    return text.first == UInt8(ascii: "<")
  }

  /// Stands for standard input among the files of an import (`diary workouts import -`):
  /// file descriptor 0, read from its current offset to its end, never opened by a path and
  /// never changed but for that offset — as `cat` reads it — on every platform. (Opening
  /// `/dev/stdin` differs: Linux opens a regular file anew, from its start; Apple platforms
  /// duplicate descriptor 0, sharing its offset and flags with the parent process.) Messages
  /// call it "standard input". An import reads it once: give it once.
  public static let standardInput = URL(string: "stdin:")!

  /// What messages call the file at `url`: the path as it was given (`Fixtures/runs.csv`,
  /// not its absolute path), or "standard input" for ``standardInput``.
  static func name(of url: URL) -> String {
    url == standardInput ? "standard input" : url.relativePath
  }

  /// The bytes of the file at `url` — a regular file, or a pipe or socket read to its end,
  /// never a folder or a device — or of standard input for ``standardInput``. A named FIFO
  /// is opened without waiting for a writer (without one it reads as empty) and read as its
  /// writer writes.
  ///
  /// - Throws: ``WorkoutsImportError`` when it cannot be read or holds more than
  ///   ``maximumFileSize`` bytes.
  public static func contents(of url: URL) throws(WorkoutsImportError) -> Data {
    if url == standardInput {
      return try contents(ofDescriptor: STDIN_FILENO, name: name(of: url))
    }
    // Opening a FIFO must not wait for a writer: O_NONBLOCK, kept for the reading, which
    // waits in `poll` (the descriptor is this process's own; its flags are left alone).
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw unreadable(name(of: url), .cannotRead(errno: errno))
    }
    defer { close(descriptor) }
    return try contents(ofDescriptor: descriptor, name: name(of: url))
  }

  /// The bytes of the open `descriptor` — a regular file from its current offset, a pipe or
  /// a socket — read to its end; `name` is what messages call it. Its flags are never
  /// changed: when it is non-blocking and has nothing to read yet, the reading waits in
  /// `poll` (no busy loop); a read or wait cut by a signal is retried. Memory: the bytes go
  /// into one `Data` — its capacity reserved when the size is known (a regular file) — which
  /// is returned without a copy; a 64 KB buffer beside it.
  ///
  /// - Throws: ``WorkoutsImportError`` when it is not a regular file, pipe or socket, cannot
  ///   be read, or holds more than ``maximumFileSize`` bytes.
  /// - Complexity: O(*n*) in the bytes read.
  static func contents(ofDescriptor descriptor: Int32, name: String)
    throws(WorkoutsImportError) -> Data
  {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw unreadable(name, .cannotRead(errno: errno)) }
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG || type == S_IFIFO || type == S_IFSOCK else {
      throw unreadable(name, .notARegularFile)
    }
    var data = Data()
    if type == S_IFREG {
      // What is left from the current offset (0 for a file just opened).
      let offset = lseek(descriptor, 0, SEEK_CUR)
      let left = Int64(info.st_size) - max(Int64(offset), 0)
      if left > Int64(maximumFileSize) {
        throw WorkoutsImportError(file: name, problem: .tooLarge(limit: maximumFileSize))
      }
      data.reserveCapacity(Int(max(left, 0)))
    }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        Platform.read(descriptor, $0.baseAddress!, $0.count)
      }
      if count == 0 { break }
      if count < 0 {
        switch errno {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK:
          // Non-blocking and nothing yet: wait until there is something to read, or the end.
          var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
          if poll(&wait, 1, -1) < 0, errno != EINTR {
            throw unreadable(name, .cannotRead(errno: errno))
          }
          continue
        default: throw unreadable(name, .cannotRead(errno: errno))
        }
      }
      if data.count + count > maximumFileSize {
        throw WorkoutsImportError(file: name, problem: .tooLarge(limit: maximumFileSize))
      }
      buffer.withUnsafeBufferPointer { data.append($0.baseAddress!, count: count) }
    }
    return data
  }

  /// The error of a file that cannot be read, named `name`.
  private static func unreadable(_ name: String, _ problem: StoreFileError.Problem)
    -> WorkoutsImportError
  {
    WorkoutsImportError(
      file: name, problem: .unreadable(StoreFileError(path: name, problem: problem)))
  }
}
