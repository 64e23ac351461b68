// What iCloud Drive does on a device, for the stand-ins: which folders it syncs, which files
// there are placeholders not downloaded yet (and what the cloud holds for them), the
// coordinated accesses made, and the presenters registered. Also the SDK declarations that
// swift-corelibs-foundation lacks about ubiquitous items: the download status, the request
// to download, and the resource values the adapter reads.
#if !canImport(Darwin)
  import Foundation

  /// iCloud Drive on this device, as the stand-ins see it (a test's setup and checks).
  public enum ICloudDrive {
    /// A coordinated access.
    public enum Access: Equatable, Sendable {
      case read(NSFileCoordinator.ReadingOptions)
      case write(NSFileCoordinator.WritingOptions)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var containers: [String] = []
    nonisolated(unsafe) private static var cloud: [String: Data] = [:]
    nonisolated(unsafe) private static var downloadRequests: Set<String> = []
    nonisolated(unsafe) private static var writing: [String: Int] = [:]
    nonisolated(unsafe) private static var log: [String: [Access]] = [:]
    /// The presenters registered, each with the item it presents: the path of its
    /// `presentedItemURL` when it was registered, then wherever that item moved (the system
    /// asks a presenter for its URL only when it is registered).
    nonisolated(unsafe) private static var presenters:
      [(presenter: any NSFilePresenter, item: String?)] = []
    nonisolated(unsafe) private static var statusUnreadable: Set<String> = []
    nonisolated(unsafe) private static var heldDownloads: Set<String> = []
    nonisolated(unsafe) private static var failedDownloads: [String: NSError] = [:]

    private static func key(_ url: URL) -> String { url.standardizedFileURL.path }

    /// Makes `folder` a folder iCloud Drive syncs: its items are ubiquitous.
    public static func addContainer(_ folder: URL) {
      lock.withLock { containers.append(key(folder)) }
    }

    /// Whether the item at `url` is in a folder iCloud Drive syncs.
    static func isUbiquitous(_ url: URL) -> Bool {
      let path = key(url)
      return lock.withLock { containers.contains { path == $0 || path.hasPrefix($0 + "/") } }
    }

    /// Makes the file at `url` a placeholder whose contents, `data`, are in the cloud only:
    /// the file is gone from the folder (as on iOS, where a `.NAME.icloud` file stands for it)
    /// until a coordinated read downloads it.
    public static func evict(_ url: URL, cloudContents data: Data) throws {
      lock.withLock { cloud[key(url)] = data }
      if FileManager.default.fileExists(atPath: url.path) {
        try FileManager.default.removeItem(at: url)
      }
    }

    /// Makes the file at `url` a placeholder as ``evict(_:cloudContents:)`` does, leaving a
    /// `.NAME.icloud` file beside it, and whose resource values cannot be read (throw): what
    /// the store must handle if a system reports a placeholder so.
    public static func evictHidingStatus(_ url: URL, cloudContents data: Data) throws {
      try evict(url, cloudContents: data)
      lock.withLock { _ = statusUnreadable.insert(key(url)) }
      try Data().write(
        to: url.deletingLastPathComponent().appendingPathComponent(
          "." + url.lastPathComponent + ".icloud"))
    }

    /// Whether the resource values of `url` cannot be read (see ``evictHidingStatus(_:cloudContents:)``).
    static func hidesStatus(_ url: URL) -> Bool {
      lock.withLock { statusUnreadable.contains(key(url)) && cloud[key(url)] != nil }
    }

    /// Whether the item at `url` is a placeholder not downloaded yet.
    static func isPlaceholder(_ url: URL) -> Bool {
      lock.withLock { cloud[key(url)] != nil }
    }

    /// Downloads the placeholder at `url`, if it is one: its contents are written to it.
    public static func download(_ url: URL) {
      guard let data = lock.withLock({ cloud.removeValue(forKey: key(url)) }) else { return }
      try? data.write(to: url)
    }

    /// Holds the download of the placeholder at `url`: a coordinated read of it waits until
    /// ``releaseDownload(_:)`` or until its coordinator is cancelled (then it fails with
    /// `NSUserCancelledError`, as Apple's does) — a download that takes long.
    public static func holdDownload(_ url: URL) {
      _ = lock.withLock { heldDownloads.insert(key(url)) }
    }

    /// Lets the download ``holdDownload(_:)`` held go on.
    public static func releaseDownload(_ url: URL) {
      _ = lock.withLock { heldDownloads.remove(key(url)) }
    }

    /// Makes every download of the placeholder at `url` fail with `error` (a device offline,
    /// an account signed out): a coordinated read of it fails so, without running its accessor.
    public static func failDownloads(of url: URL, with error: NSError) {
      lock.withLock { failedDownloads[key(url)] = error }
    }

    /// What a coordinated read of `url` does first: downloads it if it is a placeholder —
    /// after waiting while its download is held, unless `isCancelled` says the coordinator was
    /// cancelled. Returns the error the read fails with, if any.
    static func downloadForRead(_ url: URL, isCancelled: () -> Bool) -> NSError? {
      while lock.withLock({ heldDownloads.contains(key(url)) && cloud[key(url)] != nil }) {
        if isCancelled() { return NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError) }
        Thread.sleep(forTimeInterval: 0.005)
      }
      if isPlaceholder(url), let error = lock.withLock({ failedDownloads[key(url)] }) {
        return error
      }
      download(url)
      return nil
    }

    /// Whether `startDownloadingUbiquitousItem(at:)` was called for the item at `url`.
    public static func downloadWasRequested(_ url: URL) -> Bool {
      lock.withLock { downloadRequests.contains(key(url)) }
    }

    static func requestDownload(_ url: URL) {
      _ = lock.withLock { downloadRequests.insert(key(url)) }
    }

    /// The coordinated accesses made to the item at `url`, in order.
    public static func accesses(of url: URL) -> [Access] {
      lock.withLock { log[key(url)] ?? [] }
    }

    /// Whether a coordinated write of the item at `url` is under way.
    static func isInCoordinatedWrite(of url: URL) -> Bool {
      lock.withLock { (writing[key(url)] ?? 0) > 0 }
    }

    static func begin(_ accesses: [(URL, Access)]) {
      lock.withLock {
        for (url, access) in accesses {
          log[key(url), default: []].append(access)
          if case .write = access { writing[key(url), default: 0] += 1 }
        }
      }
    }

    static func end(_ accesses: [(URL, Access)], by writer: (any NSFilePresenter)?) {
      var written: [URL] = []
      lock.withLock {
        for (url, access) in accesses {
          if case .write = access {
            writing[key(url), default: 0] -= 1
            written.append(url)
          }
        }
      }
      for url in written { presentedItemDidChange(url, except: writer) }
    }

    static func add(_ presenter: any NSFilePresenter) {
      lock.withLock { presenters.append((presenter, presenter.presentedItemURL.map(key))) }
    }

    static func remove(_ presenter: any NSFilePresenter) {
      lock.withLock { presenters.removeAll { $0.presenter === presenter } }
    }

    /// The presenters registered for the item at `url`.
    public static func presenters(of url: URL) -> [any NSFilePresenter] {
      lock.withLock { presenters.filter { $0.item == key(url) }.map(\.presenter) }
    }

    /// Tells the presenters of the item at `url` (other than `writer`) that it changed, on
    /// their queues, as iCloud Drive does when another device's version arrives; returns when
    /// they were told.
    public static func presentedItemDidChange(_ url: URL, except writer: (any NSFilePresenter)?) {
      for presenter in presenters(of: url) where presenter !== writer {
        // The presenter's methods run on its queue, as Apple's do.
        nonisolated(unsafe) let told = presenter
        presenter.presentedItemOperationQueue.addOperation { told.presentedItemDidChange() }
        presenter.presentedItemOperationQueue.waitUntilAllOperationsAreFinished()
      }
    }
  }

  extension ICloudDrive {
    /// Tells the presenters of the item at `url` that it moved to `newURL` (another process
    /// moved or renamed it in a coordinated write), on their queues; returns when they were
    /// told. (What `NSFileCoordinator.item(at:didMoveTo:)` does for the presenters of an item.)
    public static func presentedItemDidMove(_ url: URL, to newURL: URL) {
      let moved = presenters(of: url)
      lock.withLock {
        for index in presenters.indices where presenters[index].item == key(url) {
          presenters[index].item = key(newURL)
        }
      }
      for presenter in moved {
        nonisolated(unsafe) let told = presenter
        presenter.presentedItemOperationQueue.addOperation { told.presentedItemDidMove(to: newURL) }
        presenter.presentedItemOperationQueue.waitUntilAllOperationsAreFinished()
      }
    }
  }

  /// The download status of an item in iCloud Drive. (SDK: `struct
  /// URLUbiquitousItemDownloadingStatus : Hashable, Equatable, RawRepresentable, Sendable`
  /// with `current`, `downloaded`, `notDownloaded`.)
  public struct URLUbiquitousItemDownloadingStatus: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let current = Self(rawValue: "NSURLUbiquitousItemDownloadingStatusCurrent")
    public static let downloaded = Self(rawValue: "NSURLUbiquitousItemDownloadingStatusDownloaded")
    public static let notDownloaded = Self(
      rawValue: "NSURLUbiquitousItemDownloadingStatusNotDownloaded")
  }

  /// The resource values the adapter reads, with the SDK's declarations in
  /// `URLResourceValues` (`var isUbiquitousItem: Bool? { get }`, `var
  /// ubiquitousItemDownloadingStatus: URLUbiquitousItemDownloadingStatus? { get }`, `var
  /// ubiquitousItemHasUnresolvedConflicts: Bool? { get }`). Linux's `URLResourceValues` has
  /// no download status and cannot be given values, so the adapter reads these through
  /// ``Foundation/URL/standInResourceValues(forKeys:)`` where Apple's reads
  /// `resourceValues(forKeys:)`.
  public struct StandInResourceValues {
    public var isUbiquitousItem: Bool?
    public var ubiquitousItemDownloadingStatus: URLUbiquitousItemDownloadingStatus?
    public var ubiquitousItemHasUnresolvedConflicts: Bool?
  }

  extension URL {
    /// The resource values iCloud Drive has for the item (see ``StandInResourceValues``);
    /// each `nil` unless asked for in `keys`. Throws, as Apple's does, for an item that does
    /// not exist (neither the file nor a placeholder).
    public func standInResourceValues(forKeys keys: Set<URLResourceKey>) throws
      -> StandInResourceValues
    {
      guard FileManager.default.fileExists(atPath: path) || ICloudDrive.isPlaceholder(self),
        !ICloudDrive.hidesStatus(self)
      else {
        throw CocoaError(.fileReadNoSuchFile)
      }
      let ubiquitous = ICloudDrive.isUbiquitous(self)
      var values = StandInResourceValues()
      if keys.contains(.isUbiquitousItemKey) { values.isUbiquitousItem = ubiquitous }
      if keys.contains(.ubiquitousItemDownloadingStatusKey), ubiquitous {
        values.ubiquitousItemDownloadingStatus =
          ICloudDrive.isPlaceholder(self) ? .notDownloaded : .current
      }
      if keys.contains(.ubiquitousItemHasUnresolvedConflictsKey), ubiquitous {
        values.ubiquitousItemHasUnresolvedConflicts = NSFileVersion.hasUnresolvedVersions(of: self)
      }
      return values
    }
  }

  extension FileManager {
    /// Asks iCloud Drive to download the item (it happens later, or in a coordinated read).
    /// (SDK: `func startDownloadingUbiquitousItem(at url: URL) throws`.)
    public func startDownloadingUbiquitousItem(at url: URL) throws {
      guard ICloudDrive.isUbiquitous(url) else { throw CocoaError(.fileReadNoSuchFile) }
      ICloudDrive.requestDownload(url)
    }

    /// (SDK: `func isUbiquitousItem(at url: URL) -> Bool`.)
    public func isUbiquitousItem(at url: URL) -> Bool {
      ICloudDrive.isUbiquitous(url)
    }
  }
#endif
