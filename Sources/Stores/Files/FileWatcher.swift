import Dispatch
import Foundation

/// Calls a handler on the main actor soon after a data file may have been changed by anyone:
/// written, replaced by a rename, created or removed — also through a symbolic link that is
/// retargeted, and after its folder is removed, renamed or made anew — and when a sync
/// engine leaves a conflict copy of it (see ``ConflictCopies``).
///
/// It watches folders rather than the file, because an atomic rename replaces the file's
/// inode and a watch on the file itself would die with the first write: the folder of the
/// path given and of every link on the way to the file (and, on Apple platforms, the file
/// itself too, for writes in place; see ``FolderEvents``). Each path is watched as the thing
/// that is there now: when a folder is renamed or made anew, the old watch ends (in the
/// kernel too) and the new one starts — also when the new folder has the removed one's inode
/// number (`rm -rf dir; mkdir dir` on ext4), since a watch the system ended is never kept.
/// While a path cannot be watched (a folder not made yet), it polls twice a second until it
/// can.
///
/// Bursts are coalesced: the handler runs a few milliseconds after the first event, then at
/// most once per ``minimumInterval`` — or per twice the time the handler last took, if
/// longer — however many events come, so a writer making thousands of changes costs a
/// watching store a few reloads a second, not one per change. The handler may be called when
/// nothing changed (the store's own writes, every poll): it must check cheaply, as a store's
/// refresh does with the file's identity.
@MainActor
final class FileWatcher {
  /// How long after the first event of a quiet period the handler runs: time for the rest of
  /// one writer's events to arrive.
  static let settleTime = Duration.milliseconds(5)
  /// The shortest time between two runs of the handler.
  static let minimumInterval = Duration.milliseconds(25)

  private let path: String
  private let onChange: @MainActor () -> Void
  /// The names on the way to the file, by folder.
  private var names: [String: Set<String>] = [:]
  /// What is watched now: by path, the thing that was there and the system's watch of it.
  private var watched: [String: (key: FileKey, watch: Int32)] = [:]
  /// The folders of the watches, for events.
  private var folders: [Int32: String] = [:]
  /// Set while the handler is scheduled to run.
  private var isScheduled = false
  /// When the handler last ended, and how long it took.
  private var lastRun: (end: ContinuousClock.Instant, duration: Duration)?
  // Dispatch sources are used on the main actor only; `deinit` (nonisolated) is the last use.
  nonisolated(unsafe) private var poller: (any DispatchSourceTimer)?
  /// The watches to end when the watcher is released (read by `deinit`).
  nonisolated(unsafe) private var watches: [Int32] = []

  /// Starts watching the data file at `path`; the watch lasts until the watcher is released.
  init(path: String, onChange: @escaping @MainActor () -> Void) {
    self.path = path
    self.onChange = onChange
    arm()
  }

  deinit {
    poller?.cancel()
    for watch in watches { FolderEvents.shared.stop(watch, for: ObjectIdentifier(self)) }
  }

  /// The folders and names from `path` to the file: the path itself, then each link's target.
  private static func chain(from path: String) -> (names: [String: Set<String>], file: String) {
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
    return (names, current)
  }

  /// Watches what is at each path of the chain now: keeps the watches of paths that still
  /// hold what they held, ends the others, starts the missing ones; polls while a path cannot
  /// be watched.
  private func arm() {
    let (names, file) = Self.chain(from: path)
    self.names = names
    var paths = Array(names.keys)
    if FolderEvents.watchesFilesThemselves { paths.append(file) }
    var next: [String: (key: FileKey, watch: Int32)] = [:]
    var complete = true
    for path in paths {
      guard let key = FileKey(at: path) else {
        // The file itself may be missing: its folder's watch tells when it comes.
        if path != file || names[path] != nil { complete = false }
        continue
      }
      if let old = watched[path], old.key == key {
        next[path] = old
      } else if let watch = FolderEvents.shared.watch(
        path, for: ObjectIdentifier(self),
        handler: { [weak self] events in self?.received(events) })
      {
        next[path] = (key, watch)
      } else {
        complete = false
      }
    }
    let kept = Set(next.values.map(\.watch))
    for (_, old) in watched where !kept.contains(old.watch) {
      FolderEvents.shared.stop(old.watch, for: ObjectIdentifier(self))
    }
    watched = next
    watches = Array(kept)
    folders = Dictionary(next.map { ($0.value.watch, $0.key) }, uniquingKeysWith: { a, _ in a })
    complete ? stopPolling() : startPolling()
  }

  /// Events of this watcher's watches: a change when one names an entry on the way to the
  /// file (or names none), a new arming when a watched thing may be gone or a link may have
  /// been retargeted.
  private func received(_ events: [FolderEvents.Event]) {
    var relevant = false
    var rearm = false
    for event in events {
      if event.ended {
        // The system ended the watch (its folder was removed): whatever is at its path now,
        // even a new folder with the old one's inode number, is watched anew.
        forget(event.watch)
      }
      if event.mayBeGone {
        relevant = true
        rearm = true
      } else if let name = event.name {
        guard let folder = folders[event.watch], let known = names[folder] else { continue }
        // A version an engine is bringing (see `SyncStatus.copiesArriving`): the status changes.
        if known.contains(where: { ConflictCopies.arrivingName(of: $0) == name }) {
          relevant = true
          continue
        }
        // A name on the way to the file, or a sync engine's conflict copy of one (maybe
        // spelled in another case: the store then checks whether it is one).
        guard
          known.contains(name)
            || known.contains(where: { ConflictCopies.original(ofCopy: name, of: $0) != nil })
        else { continue }
        relevant = true
        // A link on the way may point elsewhere now; and the folder may be gone while its
        // watch lives on: a removed folder someone holds open — the store holds its data
        // folder — ends its watch only once closed, so the entries removed from it are the
        // only sign. What is at each path is checked again (one `lstat` each).
        rearm = true
      } else {
        relevant = true
      }
    }
    if rearm { arm() }
    if relevant { schedule() }
  }

  /// Forgets `watch`, which the system ended: no path keeps it, so the next arming watches
  /// what is there anew.
  private func forget(_ watch: Int32) {
    watched = watched.filter { $0.value.watch != watch }
    watches.removeAll { $0 == watch }
    folders[watch] = nil
  }

  /// Runs the handler soon: after the settle time, and no sooner than the interval after its
  /// last run; once, for however many changes come meanwhile.
  private func schedule() {
    guard !isScheduled else { return }
    isScheduled = true
    let now = ContinuousClock.now
    var delay = Self.settleTime
    if let lastRun {
      let wait = max(Self.minimumInterval, lastRun.duration * 2) - (now - lastRun.end)
      delay = max(delay, wait)
    }
    DispatchQueue.main.asyncAfter(deadline: .now() + delay.inSeconds) { @Sendable [weak self] in
      MainActor.assumeIsolated { self?.run() }
    }
  }

  private func run() {
    isScheduled = false
    let start = ContinuousClock.now
    onChange()
    let end = ContinuousClock.now
    lastRun = (end, end - start)
  }

  private func startPolling() {
    guard poller == nil else { return }
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
    timer.setEventHandler { @Sendable [weak self] in
      MainActor.assumeIsolated {
        self?.arm()
        self?.schedule()
      }
    }
    timer.resume()
    poller = timer
  }

  private func stopPolling() {
    poller?.cancel()
    poller = nil
  }
}
