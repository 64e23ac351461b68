#if os(macOS) || os(iOS) || os(visionOS) || FILE_VERSION_STAND_IN
  // A file in iCloud Drive, accessed as Apple requires of iCloud documents: coordinated
  // reads and writes (`NSFileCoordinator`), a presenter for other writers' changes
  // (`NSFilePresenter`), a placeholder downloaded before it is read, and conflict versions
  // (`NSFileVersion`) asked for only when the item says it has some. Used by the store's
  // backing through ``FileCoordination`` (the conformance is in Platform.swift). This file is
  // compiled a second time, on Linux, in the test target FileVersionClient, against
  // stand-ins with these declarations as the SDKs have them (Tests/StandIns/FileVersion),
  // and tested there.
  #if FILE_VERSION_STAND_IN
    import FileVersionStandIn
  #endif
  import Dispatch
  import Foundation
  import Synchronization

  #if FILE_VERSION_STAND_IN
    /// Linux's `URLResourceValues` has no download status: the stand-in's values.
    private typealias ResourceValues = StandInResourceValues
  #else
    private typealias ResourceValues = URLResourceValues
  #endif

  /// The data file of a store, in iCloud Drive.
  ///
  /// Made once, when the store opens, for a file whose URL is ubiquitous
  /// (``init(_:timeout:)``); a file elsewhere gets none, and no call below is made for it.
  package final class ICloudDriveFile {
    /// The file.
    package let url: URL
    /// How long a coordinated access waits for other processes before it is cancelled.
    private let timeout: Duration
    /// The presenter registered by ``present(onChange:)``, until ``stopPresenting()``: also
    /// the coordinators' presenter, so that this store's own writes are not reported to it.
    private var presenter: Presenter?

    /// The file at `url` if iCloud Drive syncs it — the file, or the folder it is to be made
    /// in, is a ubiquitous item (`isUbiquitousItem`) — else `nil`. Coordinated accesses wait
    /// at most `timeout`.
    package init?(_ url: URL, timeout: Duration) {
      guard Self.isUbiquitous(url) else { return nil }
      self.url = url
      self.timeout = timeout
    }

    deinit {
      stopPresenting()
    }

    /// Whether iCloud Drive syncs the item at `url`, or the folder it is to be made in.
    private static func isUbiquitous(_ url: URL) -> Bool {
      if let file = try? values(of: url, [.isUbiquitousItemKey]) {
        return file.isUbiquitousItem == true
      }
      let folder = try? values(of: url.deletingLastPathComponent(), [.isUbiquitousItemKey])
      return folder?.isUbiquitousItem == true
    }

    /// The resource values `keys` of the item at `url`, read afresh (a new `URL` holds no
    /// cached values).
    private static func values(of url: URL, _ keys: Set<URLResourceKey>) throws -> ResourceValues {
      let fresh = URL(fileURLWithPath: url.path)
      #if FILE_VERSION_STAND_IN
        return try fresh.standInResourceValues(forKeys: keys)
      #else
        return try fresh.resourceValues(forKeys: keys)
      #endif
    }

    /// Whether the file's contents are on this device. A placeholder of a file not
    /// downloaded yet (`ubiquitousItemDownloadingStatus` is `.notDownloaded`) is not: its
    /// download is started (`startDownloadingUbiquitousItem(at:)`) and `false` returned, so
    /// that it is never taken for a missing file. Does not wait.
    package func hasLocalContents() -> Bool {
      guard Self.isPlaceholder(url) else { return true }
      try? FileManager.default.startDownloadingUbiquitousItem(at: url)
      return false
    }

    /// Whether the file at `url` is a placeholder of a file not downloaded yet: its
    /// `ubiquitousItemDownloadingStatus` is `.notDownloaded` — or, when the status cannot be
    /// read, the file is missing and its placeholder (`.NAME.icloud`, as iCloud Drive is seen to name
    /// one) is beside it: the store must not take it for a missing file and write a new one.
    private static func isPlaceholder(_ url: URL) -> Bool {
      let status = try? values(of: url, [.ubiquitousItemDownloadingStatusKey])
        .ubiquitousItemDownloadingStatus
      return status.map { $0 == .notDownloaded }
        ?? (!FileManager.default.fileExists(atPath: url.path)
          && FileManager.default.fileExists(
            atPath: url.deletingLastPathComponent()
              .appendingPathComponent("." + url.lastPathComponent + ".icloud").path))
    }

    /// Runs `body` inside a coordinated read of the file (which downloads it first if it is
    /// a placeholder), and returns its result.
    ///
    /// - Throws: What `body` throws; the coordinator's error when the read could not be
    ///   coordinated, or was cancelled after waiting `timeout` for other processes.
    package func coordinateReading<T>(_ body: () throws -> T) throws -> T {
      let coordinator = NSFileCoordinator(filePresenter: presenter)
      let deadline = Self.cancel(coordinator, after: timeout)
      defer { deadline.cancel() }
      var error: NSError?
      var result: Result<T, any Error>?
      coordinator.coordinate(readingItemAt: url, options: [], error: &error) { _ in
        result = Result { try body() }
      }
      return try Self.outcome(result, error)
    }

    /// Runs `body` — which reads the file, merges, and replaces it by a rename — inside a
    /// coordinated read with a follow-up write of the file (`.forReplacing`), and returns its
    /// result. The read downloads a placeholder first; the conflict versions are merged,
    /// marked resolved and removed inside it.
    ///
    /// - Throws: As ``coordinateReading(_:)``.
    package func coordinateReplacing<T>(_ body: () throws -> T) throws -> T {
      let coordinator = NSFileCoordinator(filePresenter: presenter)
      let deadline = Self.cancel(coordinator, after: timeout)
      defer { deadline.cancel() }
      var error: NSError?
      var result: Result<T, any Error>?
      coordinator.coordinate(
        readingItemAt: url, options: [], writingItemAt: url, options: .forReplacing, error: &error
      ) { _, _ in
        result = Result { try body() }
      }
      return try Self.outcome(result, error)
    }

    /// What a coordinated access gave: `body`'s result, or why it did not run.
    private static func outcome<T>(_ result: Result<T, any Error>?, _ error: NSError?) throws -> T {
      if let result { return try result.get() }
      throw error ?? CocoaError(.userCancelled)
    }

    /// Cancels `coordinator`'s accesses after `timeout` (unless the returned item is
    /// cancelled first): a coordinated access waits for other processes without a limit.
    private static func cancel(
      _ coordinator: NSFileCoordinator, after timeout: Duration
    ) -> DispatchWorkItem {
      let held = Held(coordinator)
      let item = DispatchWorkItem { held.coordinator.cancel() }
      let (seconds, attoseconds) = timeout.components
      let nanoseconds = min(seconds, 1 << 31) * 1_000_000_000 + attoseconds / 1_000_000_000
      DispatchQueue.global().asyncAfter(
        deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: item)
      return item
    }

    /// The unresolved conflict versions of the file: for each, a name for messages (the
    /// device that saved it, where iCloud says), where its bytes are, whether they are on
    /// this device (`hasLocalContents`: one that is not is skipped and reported, and merged
    /// once it is), and how to mark it resolved. `NSFileVersion` is asked only when the item
    /// says it has unresolved conflicts (`ubiquitousItemHasUnresolvedConflicts`).
    package func conflictVersions()
      -> [(name: String, url: URL, hasLocalContents: Bool, markResolved: () -> Void)]
    {
      guard
        (try? Self.values(of: url, [.ubiquitousItemHasUnresolvedConflictsKey]))?
          .ubiquitousItemHasUnresolvedConflicts == true
      else { return [] }
      return (NSFileVersion.unresolvedConflictVersionsOfItem(at: url) ?? []).map { version in
        (
          name: version.localizedNameOfSavingComputer.map { "iCloud version from \($0)" }
            ?? "iCloud version \(version.url.lastPathComponent)",
          url: version.url, hasLocalContents: version.hasLocalContents,
          markResolved: { version.isResolved = true }
        )
      }
    }

    /// Removes the versions iCloud Drive keeps of the file other than the current one (call
    /// it inside the coordinated write, once every version was merged and marked resolved);
    /// a failure leaves them, harmlessly (they are resolved).
    package func removeOtherVersions() {
      try? NSFileVersion.removeOtherVersionsOfItem(at: url)
    }

    /// Registers a presenter of the file (`NSFileCoordinator.addFilePresenter(_:)`) that calls
    /// `onChange`, on a queue of its own, when another process or device changed the file,
    /// added a conflict version of it, or moved or renamed it (the path then names another
    /// file or none: the store reloads its path). Does nothing while one is registered.
    package func present(onChange: @escaping @Sendable () -> Void) {
      guard presenter == nil else { return }
      let presenter = Presenter(url: url, onChange: onChange)
      NSFileCoordinator.addFilePresenter(presenter)
      self.presenter = presenter
    }

    /// Unregisters the presenter ``present(onChange:)`` registered, if any.
    package func stopPresenting() {
      guard let presenter else { return }
      // From any thread: the owner's deinit runs where its last reference goes.
      presenter.isRegistered.withLock { isRegistered in
        isRegistered = false
        NSFileCoordinator.removeFilePresenter(presenter)
      }
      self.presenter = nil
    }

    /// Whether the file at `url` is in iCloud Drive and not downloaded yet (a placeholder):
    /// what ``download(_:)`` waits for. Does not wait.
    package static func isNotDownloaded(_ url: URL) -> Bool {
      isUbiquitous(url) && isPlaceholder(url)
    }

    /// Downloads the file at `url` if it is in iCloud Drive and not downloaded yet: starts
    /// the download, then waits for it, off the calling actor, in a coordinated read (which
    /// downloads first). Returns at once for any other file. Cancelling the task cancels the
    /// wait.
    ///
    /// - Throws: The coordinator's error, such as `CocoaError.userCancelled` when cancelled;
    ///   the error of the download's start (not signed in to iCloud…) when the file is still
    ///   not downloaded after the coordinated read.
    package static func download(_ url: URL) async throws {
      guard isNotDownloaded(url) else { return }
      // The coordinated read downloads the file by itself: a download that could not be
      // started here is still waited for, and its error kept.
      var startError: (any Error)?
      do {
        try FileManager.default.startDownloadingUbiquitousItem(at: url)
      } catch {
        startError = error
      }
      let held = Held(NSFileCoordinator(filePresenter: nil))
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
          DispatchQueue.global().async {
            var error: NSError?
            var read = false
            held.coordinator.coordinate(readingItemAt: url, options: [], error: &error) { _ in
              read = true
            }
            if read {
              done.resume()
            } else {
              done.resume(throwing: error ?? CocoaError(.userCancelled))
            }
          }
        }
      } onCancel: {
        held.coordinator.cancel()
      }
      // A coordinated read waits for the download of the item's contents (Apple, of
      // `immediatelyAvailableMetadataOnly`); should the file still not be downloaded, the
      // start's error says why, else it is looked at again until it is (or the wait is
      // cancelled).
      if let startError, isNotDownloaded(url) { throw startError }
      while isNotDownloaded(url) { try await Task.sleep(for: .milliseconds(100)) }
    }

    /// A coordinator handed to another thread to cancel it: `cancel()` may be called from
    /// any thread.
    private final class Held: @unchecked Sendable {
      let coordinator: NSFileCoordinator
      init(_ coordinator: NSFileCoordinator) { self.coordinator = coordinator }
    }

    /// The presenter of a store's file: tells the store of changes made by others.
    private final class Presenter: NSObject, NSFilePresenter, @unchecked Sendable {
      // Immutable after init, as the presenter protocol requires of `presentedItemURL`
      // (read from any thread).
      let presentedItemURL: URL?
      let presentedItemOperationQueue: OperationQueue
      private let onChange: @Sendable () -> Void
      /// Whether it is registered, held while it is removed or registered again: set to
      /// `false` as it is removed for good (see ``ICloudDriveFile/stopPresenting()``).
      let isRegistered = Mutex(true)

      init(url: URL, onChange: @escaping @Sendable () -> Void) {
        presentedItemURL = url
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        presentedItemOperationQueue = queue
        self.onChange = onChange
      }

      func presentedItemDidChange() {
        onChange()
      }

      func presentedItemDidGain(_ version: NSFileVersion) {
        onChange()
      }

      // The store is bound to its path, not to the file: when another process moves or
      // renames the file, the path now names another file or none, and the store reloads it
      // as for any change. Apple says a presenter that follows its item returns the new
      // URL from then on, and does not say when the system reads `presentedItemURL` again;
      // `addFilePresenter` reads it (NSFilePresenter.h, of
      // `observedPresentedItemUbiquityAttributes`). So this one is removed and registered
      // again, off its queue, to present the path — unless it was removed for good meanwhile
      // — and says once more that the path changed, for what happened in between.
      func presentedItemDidMove(to newURL: URL) {
        onChange()
        DispatchQueue.main.async {
          self.isRegistered.withLock { isRegistered in
            guard isRegistered else { return }
            NSFileCoordinator.removeFilePresenter(self)
            NSFileCoordinator.addFilePresenter(self)
          }
          self.onChange()
        }
      }
    }
  }
#endif
