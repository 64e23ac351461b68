#if !canImport(Darwin)
  // The iCloud Drive adapter (Sources/Stores/Platform/ICloudDrive.swift), compiled in
  // FileVersionClient against stand-ins of NSFileCoordinator, NSFilePresenter, NSFileVersion
  // and the ubiquitous-item calls with the SDK's declarations (Tests/StandIns/FileVersion),
  // driving a real store's backing: what Apple platforms run, with iCloud Drive simulated.
  import FileVersionClient
  import FileVersionStandIn
  import Foundation
  import StoreTesting
  import Synchronization
  import Testing

  @testable import Stores

  /// The adapter is the store's coordination here, as in Stores on Apple platforms.
  extension ICloudDriveFile: FileCoordination {}

  @Suite("iCloud Drive: coordinated, downloaded, presented")
  @MainActor
  struct ICloudDriveTests {
    let folder = TemporaryFolder()

    /// A folder iCloud Drive syncs, made.
    func container(_ name: String = "iCloud") throws -> URL {
      let url = folder.file(name)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      ICloudDrive.addContainer(url)
      return url
    }

    /// A store on `url` as Apple platforms open it: coordinated when iCloud Drive syncs it.
    func store(_ url: URL, device: String = "laptop") throws -> TodosStore {
      let coordination = { (url: URL, timeout: Duration) -> any FileCoordination in
        if let iCloud = ICloudDriveFile(url, timeout: timeout) { return iCloud }
        return LocalFile()
      }
      return TodosStore(
        core: try TodosStore.fileCore(
          contentsOf: url, clock: HybridClock(device: DeviceID(Substring(device))!),
          coordination: coordination))
    }

    /// A file in iCloud Drive holding "Buy milk", then evicted: a placeholder whose contents
    /// are in the cloud only.
    func placeholder() throws -> URL {
      let url = try container().appendingPathComponent("todos.json")
      try store(url).trySend(.addTodo(Todo(title: "Buy milk")))
      try ICloudDrive.evict(url, cloudContents: Data(contentsOf: url))
      return url
    }

    @Test("a placeholder is never an empty store: opening fails saying so, and writes nothing")
    func placeholderDoesNotOpenEmpty() throws {
      let url = try placeholder()
      #expect(throws: StoreFileError(path: url.path, problem: .notDownloaded)) {
        try store(url)
      }
      #expect(!FileManager.default.fileExists(atPath: url.path))
      #expect(ICloudDrive.downloadWasRequested(url))
      #expect(
        "\(StoreFileError(path: url.path, problem: .notDownloaded))".contains("still downloading"))
    }

    @Test(
      "a placeholder whose status cannot be read, with its .NAME.icloud file beside it, is not downloaded either"
    )
    func placeholderWithoutStatus() throws {
      let url = try container().appendingPathComponent("todos.json")
      try store(url).trySend(.addTodo(Todo(title: "Buy milk")))
      try ICloudDrive.evictHidingStatus(url, cloudContents: Data(contentsOf: url))
      #expect(throws: StoreFileError(path: url.path, problem: .notDownloaded)) {
        try store(url)
      }
      #expect(!FileManager.default.fileExists(atPath: url.path), "no new file written")
    }

    @Test(
      "a placeholder whose status cannot be read is downloaded too, then opens with its contents")
    func downloadWithoutStatus() async throws {
      let url = try container().appendingPathComponent("todos.json")
      try store(url).trySend(.addTodo(Todo(title: "Buy milk")))
      try ICloudDrive.evictHidingStatus(url, cloudContents: Data(contentsOf: url))
      #expect(ICloudDriveFile.isNotDownloaded(url))
      try await DiaryFiles.download(url, by: ICloudDriveFile.download)
      #expect(!ICloudDriveFile.isNotDownloaded(url))
      #expect(try store(url).todos.map(\.title) == ["Buy milk"])
    }

    @Test("placeholder, download off the main actor, open: the store holds the file's contents")
    func downloadThenOpen() async throws {
      let url = try placeholder()
      try await ICloudDriveFile.download(url)
      #expect(try store(url).todos.map(\.title) == ["Buy milk"])
    }

    @Test("a file evicted while open: actions and refresh fail, nothing is written or lost")
    func evictedWhileOpen() throws {
      let url = try container().appendingPathComponent("todos.json")
      let todos = try store(url)
      try todos.trySend(.addTodo(Todo(title: "Buy milk")))
      try ICloudDrive.evict(url, cloudContents: Data(contentsOf: url))
      #expect(throws: StoreFileError(path: url.path, problem: .notDownloaded)) {
        try todos.trySend(.addTodo(Todo(title: "Call Ann")))
      }
      #expect(throws: StoreFileError(path: url.path, problem: .notDownloaded)) {
        try todos.refresh()
      }
      #expect(!FileManager.default.fileExists(atPath: url.path))
      #expect(todos.todos.map(\.title) == ["Buy milk"])
    }

    @Test("every read is coordinated, every write is a coordinated replace")
    func coordinated() throws {
      let url = try container().appendingPathComponent("todos.json")
      let todos = try store(url)
      #expect(ICloudDrive.accesses(of: url) == [.read([])])
      try todos.trySend(.addTodo(Todo(title: "Buy milk")))
      #expect(ICloudDrive.accesses(of: url).contains(.write(.forReplacing)))
      try todos.refresh()
      #expect(ICloudDrive.accesses(of: url).last == .read([]))
    }

    @Test("unresolved versions: merged, then resolved and removed inside the coordinated write")
    func versionsInsideCoordinatedWrite() throws {
      let laptopFolder = try container("laptop")
      let phoneFolder = folder.file("phone")
      _ = try divergedVersions(laptop: laptopFolder, phone: phoneFolder) { phone in
        try phone.trySend(.addTodo(Todo(title: "Call Ann")))
      }
      let url = laptopFolder.appendingPathComponent("todos.json")
      let version = NSFileVersion(
        url: phoneFolder.appendingPathComponent("todos.json"), savedOn: "Anna's iPhone")
      NSFileVersion.register(version, for: url)

      let todos = try store(url)
      try todos.trySend(.addTodo(Todo(title: "Water plants")))
      #expect(todos.todos.map(\.title).sorted() == ["Buy milk", "Call Ann", "Water plants"])
      #expect(version.isResolved && !version.resolvedOutsideCoordinatedWrite)
      #expect(NSFileVersion.removedOtherVersionsInCoordinatedWrite(of: url))
      #expect(todos.lastError == nil)
    }

    @Test("a version without local contents is skipped and reported; the others are merged")
    func versionWithoutLocalContents() throws {
      let laptopFolder = try container("laptop")
      let phoneFolder = folder.file("phone")
      _ = try divergedVersions(laptop: laptopFolder, phone: phoneFolder) { phone in
        try phone.trySend(.addTodo(Todo(title: "Call Ann")))
      }
      let url = laptopFolder.appendingPathComponent("todos.json")
      let fromPhone = NSFileVersion(
        url: phoneFolder.appendingPathComponent("todos.json"), savedOn: "Anna's iPhone")
      let fromIPad = NSFileVersion(
        url: folder.file("not-here.json"), savedOn: "Anna's iPad", hasLocalContents: false)
      NSFileVersion.register(fromPhone, for: url)
      NSFileVersion.register(fromIPad, for: url)

      let todos = try store(url)
      try todos.trySend(.addTodo(Todo(title: "Water plants")))
      #expect(todos.todos.map(\.title).sorted() == ["Buy milk", "Call Ann", "Water plants"])
      #expect(fromPhone.isResolved && !fromIPad.isResolved)
      #expect(!NSFileVersion.removedOtherVersions(of: url))
      #expect(
        todos.lastError.map { "\($0)" }?.contains(
          "iCloud version from Anna's iPad is not downloaded")
          == true)
    }

    @Test("no NSFileVersion call for a file outside iCloud Drive, nor one without conflicts")
    func noVersionCallsWithoutReason() throws {
      let local = folder.file("todos.json")
      NSFileVersion.register(NSFileVersion(url: folder.file("v.json"), savedOn: nil), for: local)
      let localTodos = try store(local)
      try localTodos.trySend(.addTodo(Todo(title: "Buy milk")))
      try localTodos.refresh()
      #expect(NSFileVersion.callCount(for: local) == 0)
      #expect(ICloudDrive.accesses(of: local).isEmpty)

      let synced = try container().appendingPathComponent("todos.json")
      let syncedTodos = try store(synced)
      try syncedTodos.trySend(.addTodo(Todo(title: "Buy milk")))
      try syncedTodos.refresh()
      #expect(NSFileVersion.callCount(for: synced) == 0)
    }

    @Test("watch() presents the file: another writer's change reloads the store")
    func presenter() async throws {
      let url = try container().appendingPathComponent("todos.json")
      let todos = try store(url)
      try todos.watch()
      #expect(ICloudDrive.presenters(of: url).count == 1)
      // Another device's version arrives: written, then the presenters told.
      let other = try store(url, device: "phone")
      try other.trySend(.addTodo(Todo(title: "Call Ann")))
      // The presenter hopped to the main queue before it returned: this runs after it.
      await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
      #expect(todos.todos.map(\.title) == ["Call Ann"])
      todos.stopWatching()
      #expect(ICloudDrive.presenters(of: url).isEmpty)
    }

    @Test(
      "a move or rename of the file by another process is a change of the path: the presenter says so, and presents the path again"
    )
    func presenterOnMove() async throws {
      let url = try container().appendingPathComponent("todos.json")
      try Data("{}".utf8).write(to: url)
      let file = try #require(ICloudDriveFile(url, timeout: .seconds(3)))
      let changes = Counter()
      file.present { changes.increment() }
      defer { file.stopPresenting() }
      let moved = url.deletingLastPathComponent().appendingPathComponent("todos old.json")
      try FileManager.default.moveItem(at: url, to: moved)
      ICloudDrive.presentedItemDidMove(url, to: moved)
      #expect(changes.value == 1, "the store is told to reload its path")
      // The presenter registers again on the main queue before it returned: this runs after.
      await withCheckedContinuation { done in DispatchQueue.main.async { done.resume() } }
      #expect(ICloudDrive.presenters(of: url).count == 1, "still the presenter of the path")
      #expect(ICloudDrive.presenters(of: moved).isEmpty, "not of the moved file")
    }

    @Test("DiaryFiles.download: a placeholder is downloaded; a failed download is notCoordinated")
    func diaryFilesDownload() async throws {
      let url = try placeholder()
      try await DiaryFiles.download(url, by: ICloudDriveFile.download)
      #expect(try store(url).todos.map(\.title) == ["Buy milk"])

      try ICloudDrive.evict(url, cloudContents: Data(contentsOf: url))
      ICloudDrive.failDownloads(of: url, with: CocoaError(.ubiquitousFileUnavailable) as NSError)
      do {
        try await DiaryFiles.download(url, by: ICloudDriveFile.download)
        Issue.record("the download did not fail")
      } catch {
        guard case .notCoordinated = error.problem else {
          Issue.record("\(error)")
          return
        }
        #expect(error.path == url.standardizedFileURL.path)
      }
      #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a download cancelled while it waits ends at once, with the coordinator's error")
    func downloadCancelled() async throws {
      let url = try placeholder()
      ICloudDrive.holdDownload(url)
      defer { ICloudDrive.releaseDownload(url) }
      let download = Task { try await ICloudDriveFile.download(url) }
      try await Task.sleep(for: .milliseconds(50))
      download.cancel()
      await #expect(throws: (any Error).self) { try await download.value }
      #expect(!FileManager.default.fileExists(atPath: url.path))
    }
  }

  /// A count a presenter's queue increments and a test reads.
  private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
  }
#endif
