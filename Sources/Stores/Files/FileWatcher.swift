import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calls a handler on the main actor soon after a data file may have been changed by anyone:
/// written, replaced by a rename, created or removed — also through a symbolic link that is
/// retargeted, and after its folder is removed, renamed or made anew.
///
/// It watches folders rather than the file, because an atomic rename replaces the file's
/// inode and a watch on the file itself would die with the first write: the folder of the
/// path given and of every link on the way to the file. On Linux it uses inotify (events are
/// filtered on the names that matter); on Apple platforms a dispatch source per folder. When
/// a watched folder goes away (removed, renamed) or cannot be watched yet, it polls twice a
/// second until every folder is there again, then watches again; after every event it follows
/// the links anew. The handler may be called when nothing changed (the store's own writes,
/// every poll): it must check cheaply, as a store's refresh does with the file's identity.
@MainActor
final class FileWatcher {
  private let path: String
  private let onChange: @MainActor () -> Void
  /// The watched folders, and the names in each that lead to the file.
  private var names: [String: Set<String>] = [:]
  // Dispatch sources are used on the main actor only; `deinit` (nonisolated) is the last use.
  nonisolated(unsafe) private var poller: (any DispatchSourceTimer)?
  #if os(Linux)
    private let descriptor: Int32
    nonisolated(unsafe) private var source: (any DispatchSourceRead)?
    private var watches: [Int32: String] = [:]
  #elseif canImport(Darwin)
    nonisolated(unsafe) private var sources: [String: any DispatchSourceFileSystemObject] = [:]
  #endif

  /// Starts watching the data file at `path`; the watch lasts until the watcher is released.
  init(path: String, onChange: @escaping @MainActor () -> Void) {
    self.path = path
    self.onChange = onChange
    #if os(Linux)
      descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      if descriptor >= 0 {
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
        source.setEventHandler { @Sendable [weak self] in
          MainActor.assumeIsolated { self?.readEvents() }
        }
        source.resume()
        self.source = source
      }
    #endif
    arm()
  }

  deinit {
    poller?.cancel()
    #if os(Linux)
      source?.cancel()
      if descriptor >= 0 { close(descriptor) }
    #elseif canImport(Darwin)
      for source in sources.values { source.cancel() }
    #endif
  }

  /// The folders and names from `path` to the file: the path itself, then each link's target.
  private static func chain(from path: String) -> [String: Set<String>] {
    var names: [String: Set<String>] = [:]
    var current = path
    for _ in 0...FileSystem.maxLinks {
      let folder = (current as NSString).deletingLastPathComponent
      names[folder.isEmpty ? "." : folder, default: []].insert(
        (current as NSString).lastPathComponent)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length > 0 else { break }
      let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = target.hasPrefix("/") ? target : (folder as NSString).appendingPathComponent(target)
    }
    return names
  }

  /// Watches the folders of the chain as it is now; polls while one of them cannot be.
  private func arm() {
    names = Self.chain(from: path)
    var complete = true
    #if os(Linux)
      let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF
          | IN_MOVE_SELF)
      for (watch, folder) in watches where names[folder] == nil {
        inotify_rm_watch(descriptor, watch)
        watches[watch] = nil
      }
      for folder in names.keys {
        let watch = descriptor >= 0 ? inotify_add_watch(descriptor, folder, mask) : -1
        if watch >= 0 { watches[watch] = folder } else { complete = false }
      }
    #elseif canImport(Darwin)
      for (folder, source) in sources where names[folder] == nil {
        source.cancel()
        sources[folder] = nil
      }
      for folder in names.keys where sources[folder] == nil {
        let descriptor = open(folder, O_EVTONLY)
        guard descriptor >= 0 else {
          complete = false
          continue
        }
        let source = DispatchSource.makeFileSystemObjectSource(
          fileDescriptor: descriptor, eventMask: [.write, .rename, .delete], queue: .main)
        source.setEventHandler { @Sendable [weak self] in
          MainActor.assumeIsolated { self?.changed(rearm: true) }
        }
        source.setCancelHandler { @Sendable in close(descriptor) }
        source.resume()
        sources[folder] = source
      }
    #else
      complete = false
    #endif
    complete ? stopPolling() : startPolling()
  }

  /// Something may have changed: follow the links again and tell the handler.
  private func changed(rearm: Bool) {
    if rearm { arm() }
    onChange()
  }

  private func startPolling() {
    guard poller == nil else { return }
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
    timer.setEventHandler { @Sendable [weak self] in
      MainActor.assumeIsolated { self?.changed(rearm: true) }
    }
    timer.resume()
    poller = timer
  }

  private func stopPolling() {
    poller?.cancel()
    poller = nil
  }

  #if os(Linux)
    /// Reads the pending inotify events; reports a change when one names a file on the way,
    /// and watches again when a folder went away or a link may have been retargeted.
    private func readEvents() {
      var relevant = false
      var rearm = false
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
          let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)
          if event.mask & gone != 0 {
            watches[event.wd] = nil
            relevant = true
            rearm = true
          } else if event.len > 0, let folder = watches[event.wd] {
            let name = String(
              cString: (buffer + offset + MemoryLayout<inotify_event>.size)
                .assumingMemoryBound(to: CChar.self))
            if names[folder]?.contains(name) == true {
              relevant = true
              // A link on the way may point elsewhere now.
              rearm = rearm || names.count > 1 || isLink(folder, name)
            }
          }
          offset += MemoryLayout<inotify_event>.size + Int(event.len)
        }
      }
      if relevant { changed(rearm: rearm) }
    }

    private func isLink(_ folder: String, _ name: String) -> Bool {
      var info = stat()
      return lstat((folder as NSString).appendingPathComponent(name), &info) == 0
        && info.st_mode & S_IFMT == S_IFLNK
    }
  #endif
}
