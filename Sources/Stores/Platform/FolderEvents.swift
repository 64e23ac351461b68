import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The operating system's notifications of changes in folders, for ``FileWatcher``: one
/// mechanism per process, shared by every watcher, with each watch removed from the kernel
/// as soon as no watcher uses it.
///
/// - On Linux, one inotify instance for the whole process (a user has 128 by default): a
///   folder watched by several watchers is one kernel watch, counted by its users. Events
///   name the entry that changed, and cover files rewritten in place (`IN_CLOSE_WRITE`).
///   When the queue the watches share overflows (`IN_Q_OVERFLOW`: events were lost, say while
///   the main actor was busy), every watcher is told, and checks its files again.
/// - On Apple platforms, a dispatch source per watched path, on a descriptor opened for
///   events only (`O_EVTONLY`). Events do not name the entry, and a folder's source does
///   not see a file rewritten in place, so the file itself is watched too
///   (``watchesFilesThemselves``).
///
/// Events are delivered on the main queue; a watch's folder removed or renamed is reported
/// (``Event/mayBeGone``), and the watcher then watches its path anew. A watch the system
/// ended — its folder was removed: inotify's `IN_IGNORED`, a dispatch source's `.delete` — is
/// reported (``Event/ended``) and forgotten, here and by the watcher: a folder made anew at the
/// same path is watched anew even when it has the removed folder's inode number, as ext4 and
/// others give it when the folder is made right after the removal.
final class FolderEvents: @unchecked Sendable {
  /// One event of a watch.
  struct Event {
    /// The watch it concerns.
    var watch: Int32
    /// The entry of the folder that changed, where the system names it.
    var name: String?
    /// Whether the watched folder or file itself may have been removed or moved away: the
    /// watcher then checks what is at its paths.
    var mayBeGone: Bool
    /// Whether the system ended the watch: it reports nothing more, and its users must watch
    /// the path anew, whatever is there now.
    var ended = false
  }

  typealias Handler = @MainActor @Sendable ([Event]) -> Void

  static let shared = FolderEvents()

  private let lock = Lock()
  /// Each watch's users: the watchers' handlers, by watcher.
  private var users: [Int32: [ObjectIdentifier: Handler]] = [:]

  /// Starts (or joins) the watch of the folder or file at `path` for `watcher`, whose
  /// `handler` then gets its events; returns the watch, or `nil` when it cannot be watched
  /// (missing, or no watch left).
  func watch(_ path: String, for watcher: ObjectIdentifier, handler: @escaping Handler) -> Int32? {
    lock.withLock {
      guard let watch = addWatch(path) else { return nil }
      users[watch, default: [:]][watcher] = handler
      return watch
    }
  }

  /// Ends `watcher`'s use of `watch`; the last user's end removes it from the system.
  func stop(_ watch: Int32, for watcher: ObjectIdentifier) {
    lock.withLock {
      guard users[watch]?.removeValue(forKey: watcher) != nil, users[watch]!.isEmpty else {
        return
      }
      users[watch] = nil
      removeWatch(watch)
    }
  }

  /// The number of watches in use: for tests.
  package var count: Int { lock.withLock { users.count } }

  /// The watch of an event that concerns every watch.
  private static let everyWatch: Int32 = -1

  /// Hands each user of each watch its events, on the main actor; then forgets the watches
  /// in `ended`, which the system ended.
  private func deliver(_ events: [Event], ended: [Int32] = []) {
    var byUser: [ObjectIdentifier: (Handler, [Event])] = [:]
    lock.withLock {
      for event in events {
        // An event of no watch (the system's queue overflowed: events were lost) is every
        // watch's.
        let watches = event.watch == Self.everyWatch ? Array(users.keys) : [event.watch]
        for watch in watches {
          for (user, handler) in users[watch] ?? [:] {
            byUser[user, default: (handler, [])].1.append(
              Event(
                watch: watch, name: event.name, mayBeGone: event.mayBeGone, ended: event.ended))
          }
        }
      }
      for watch in ended { users[watch] = nil }
    }
    MainActor.assumeIsolated {
      for (handler, events) in byUser.values { handler(events) }
    }
  }

  #if os(Linux)
    /// Whether the file itself must be watched, besides its folder.
    static let watchesFilesThemselves = false

    private let descriptor: Int32
    private let source: (any DispatchSourceRead)?

    private init() {
      descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else {
        source = nil
        return
      }
      let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
      self.source = source
      source.setEventHandler { @Sendable [unowned self] in
        let (events, ended) = readEvents()
        deliver(events, ended: ended)
      }
      source.resume()
    }

    private func addWatch(_ path: String) -> Int32? {
      guard descriptor >= 0 else { return nil }
      let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF
          | IN_MOVE_SELF | IN_ONLYDIR)
      let watch = inotify_add_watch(descriptor, path, mask)
      return watch >= 0 ? watch : nil
    }

    private func removeWatch(_ watch: Int32) {
      inotify_rm_watch(descriptor, watch)
    }

    /// The pending events, and the watches the system ended (`IN_IGNORED`).
    private func readEvents() -> (events: [Event], ended: [Int32]) {
      var events: [Event] = []
      var ended: [Int32] = []
      let capacity = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(
        byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, capacity)
        guard count > 0 else { break }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          let name =
            event.len > 0
            ? String(
              cString: (buffer + offset + MemoryLayout<inotify_event>.size)
                .assumingMemoryBound(to: CChar.self)) : nil
          // The queue overflowed (`IN_Q_OVERFLOW`, of watch -1): anything may have changed.
          let mayBeGone =
            event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_Q_OVERFLOW) != 0
          let isEnd = event.mask & UInt32(IN_IGNORED) != 0
          events.append(Event(watch: event.wd, name: name, mayBeGone: mayBeGone, ended: isEnd))
          if isEnd { ended.append(event.wd) }
          offset += MemoryLayout<inotify_event>.size + Int(event.len)
        }
      }
      return (events, ended)
    }
  #elseif canImport(Darwin)
    /// Whether the file itself must be watched, besides its folder.
    static let watchesFilesThemselves = true

    private var sources: [Int32: any DispatchSourceFileSystemObject] = [:]

    private init() {}

    /// A source on `path`, keyed by its descriptor (unique while it is open).
    private func addWatch(_ path: String) -> Int32? {
      let descriptor = open(path, O_EVTONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      let source = DispatchSource.makeFileSystemObjectSource(
        fileDescriptor: descriptor, eventMask: [.write, .extend, .attrib, .rename, .delete],
        queue: .main)
      // Any event may be the folder's own rename or removal, which the watcher tells apart.
      // A removed folder's or file's source never fires again: it ends here (its descriptor
      // is closed by the cancel handler, after the users forgot it), and is opened anew.
      source.setEventHandler { @Sendable [unowned self] in
        let removed = lock.withLock { () -> Bool in
          guard let source = sources[descriptor], source.data.contains(.delete) else {
            return false
          }
          sources[descriptor] = nil
          source.cancel()
          return true
        }
        deliver(
          [Event(watch: descriptor, name: nil, mayBeGone: true, ended: removed)],
          ended: removed ? [descriptor] : [])
      }
      source.setCancelHandler { @Sendable in close(descriptor) }
      sources[descriptor] = source
      source.resume()
      return descriptor
    }

    private func removeWatch(_ watch: Int32) {
      sources.removeValue(forKey: watch)?.cancel()
    }
  #else
    static let watchesFilesThemselves = false

    private init() {}

    private func addWatch(_ path: String) -> Int32? { nil }

    private func removeWatch(_ watch: Int32) {}
  #endif
}
