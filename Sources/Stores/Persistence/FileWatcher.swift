import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calls a handler on the main actor soon after a file may have been changed by anyone:
/// written, replaced by a rename, created or removed.
///
/// It watches the file's folder rather than the file, because an atomic rename replaces the
/// file's inode and a watch on the file itself would die with the first write. On Linux it
/// uses inotify (events are filtered on the file's name); on Apple platforms a dispatch
/// source on the folder; where neither can be set up (another platform, or a folder that
/// does not exist yet), it polls twice a second. The handler may be called when nothing
/// changed (the store's own writes, another file in the folder on Apple platforms, every
/// poll): it must check cheaply, as a store's refresh does with the file's identity.
final class FileWatcher {
  private let source: any DispatchSourceProtocol

  /// Starts watching the file at `path`; the watch lasts until the watcher is released.
  init(path: String, onChange: @escaping @MainActor @Sendable () -> Void) {
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let notify: @Sendable () -> Void = { MainActor.assumeIsolated { onChange() } }
    source =
      Self.folderSource(folder: folder, name: name, notify: notify)
      ?? Self.pollingSource(notify: notify)
    source.resume()
  }

  deinit {
    source.cancel()
  }

  private static func pollingSource(notify: @escaping @Sendable () -> Void)
    -> any DispatchSourceProtocol
  {
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
    timer.setEventHandler(handler: notify)
    return timer
  }

  #if os(Linux)
    private static func folderSource(
      folder: String, name: String, notify: @escaping @Sendable () -> Void
    ) -> (any DispatchSourceProtocol)? {
      let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
      guard inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask) >= 0 else {
        close(descriptor)
        return nil
      }
      let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
      source.setEventHandler { @Sendable in
        if readEvents(descriptor).contains(name) { notify() }
      }
      source.setCancelHandler { @Sendable in close(descriptor) }
      return source
    }

    /// The names in the pending inotify events of `descriptor`.
    private static func readEvents(_ descriptor: Int32) -> Set<String> {
      var names: Set<String> = []
      let capacity = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(
        byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, capacity)
        guard count > 0 else { return names }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
          if event.len > 0 {
            names.insert(String(cString: nameStart.assumingMemoryBound(to: CChar.self)))
          }
          offset += MemoryLayout<inotify_event>.size + Int(event.len)
        }
      }
    }
  #elseif canImport(Darwin)
    private static func folderSource(
      folder: String, name: String, notify: @escaping @Sendable () -> Void
    ) -> (any DispatchSourceProtocol)? {
      let descriptor = open(folder.isEmpty ? "." : folder, O_EVTONLY)
      guard descriptor >= 0 else { return nil }
      let source = DispatchSource.makeFileSystemObjectSource(
        fileDescriptor: descriptor, eventMask: [.write, .rename, .delete], queue: .main)
      source.setEventHandler(handler: notify)
      source.setCancelHandler { @Sendable in close(descriptor) }
      return source
    }
  #else
    private static func folderSource(
      folder: String, name: String, notify: @escaping @Sendable () -> Void
    ) -> (any DispatchSourceProtocol)? {
      nil
    }
  #endif
}
