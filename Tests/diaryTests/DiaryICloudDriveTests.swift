import Foundation
import StoreTesting
import Stores
import Testing

@testable import diary

#if !canImport(Darwin)
  import FileVersionClient
  import FileVersionStandIn
#endif

/// What `diary` says of iCloud Drive's problems: its own words, the fix, exit 75.
@Suite("diary and iCloud Drive: messages")
struct DiaryICloudDriveMessageTests {
  let path = "/Users/anna/Library/Mobile Documents/com~apple~CloudDocs/diary/todos.json"

  @Test("a file not downloaded: exit 75, the file, the problem and how to download it")
  func notDownloaded() {
    let error = DiaryError(StoreFileError(path: path, problem: .notDownloaded))
    #expect(error.exitCode == .temporaryFailure)
    #expect(
      error.message
        == "\(path): the file is in iCloud Drive and not downloaded to this Mac yet — nothing was "
        + "read or written; download it (Download Now in the Finder, or brctl download '\(path)') "
        + "and run the command again, or try again once this Mac is online")
  }

  @Test("a version not downloaded: exit 75, and it is merged once it is")
  func versionNotDownloaded() {
    let error = DiaryError(
      StoreFileError(
        path: path, problem: .versionNotDownloaded(version: "iCloud version from iPad")))
    #expect(error.exitCode == .temporaryFailure)
    #expect(
      error.message
        == "\(path): the iCloud version from iPad, a version of the file iCloud Drive keeps from "
        + "another device, is not downloaded to this Mac yet — it is merged by the first command "
        + "run once it is (iCloud Drive downloads it while this Mac is online)")
  }

  @Test("a coordinated access that failed: exit 75, the coordinator's word, try again")
  func notCoordinated() {
    let error = DiaryError(
      StoreFileError(path: path, problem: .notCoordinated(detail: "the operation was cancelled")))
    #expect(error.exitCode == .temporaryFailure)
    #expect(
      error.message
        == "\(path): iCloud Drive did not give diary the file: the operation was cancelled — "
        + "nothing was changed; another app may be using it or iCloud Drive may be busy: try again"
    )
  }

  @Test("the three messages, a lock's, a timed-out download's and a failed one's all differ")
  func distinct() {
    let messages = [
      DiaryError(StoreFileError(path: path, problem: .notDownloaded)).message,
      DiaryError(StoreFileError(path: path, problem: .versionNotDownloaded(version: "v"))).message,
      DiaryError(StoreFileError(path: path, problem: .notCoordinated(detail: "d"))).message,
      DiaryError(
        StoreFileError(
          path: path, problem: .lockTimedOut(lock: path + ".lock", holder: nil, waited: .seconds(3))
        )
      ).message,
      DownloadWait.timedOut(path: path, waited: .seconds(3)),
      DownloadWait.cannotDownload(
        StoreFileError(path: path, problem: .notCoordinated(detail: "offline"))),
    ]
    #expect(Set(messages).count == messages.count)
  }

  @Test("a quote in the path is quoted for the shell")
  func quotedPath() {
    #expect(
      DownloadWait.fix("/a/Anna's/todos.json").contains("brctl download '/a/Anna'\\''s/todos.json'")
    )
  }

  @Test("a local file (every file on Linux): the wait returns at once and says nothing")
  @MainActor
  func localFile() throws {
    let folder = TemporaryFolder()
    let standardError = TextSink()
    let output = Output(standardOutput: TextSink(), standardError: standardError)
    try DownloadWait().wait(for: folder.file("todos.json"), output: output)
    #expect(standardError.text.isEmpty)
  }
}

#if !canImport(Darwin)
  // The iCloud Drive adapter (Sources/Stores/Platform/ICloudDrive.swift), compiled in
  // FileVersionClient against the stand-ins of Tests/StandIns/FileVersion, downloads for
  // `DiaryFiles.download`: what `diary` runs on a Mac, with iCloud Drive simulated.

  /// `diary` on a data folder in iCloud Drive whose files are not downloaded yet: in process,
  /// with `DiaryFiles.download` on the stand-ins.
  @Suite("diary and iCloud Drive: waiting for downloads")
  @MainActor
  struct DiaryICloudDriveTests {
    let folder = TemporaryFolder()

    /// The data folder, which iCloud Drive syncs.
    var data: URL { folder.file("iCloud/diary") }
    var todos: URL { data.appendingPathComponent("todos.json") }

    init() throws {
      try FileManager.default.createDirectory(
        at: folder.file("iCloud/diary"), withIntermediateDirectories: true)
      ICloudDrive.addContainer(folder.file("iCloud"))
    }

    /// `DiaryFiles.download` with iCloud Drive's download the adapter's, on the stand-ins.
    static func waiting(limit: Duration = .seconds(30), quiet: Duration = .milliseconds(200))
      -> DownloadWait
    {
      DownloadWait(
        needsDownload: ICloudDriveFile.isNotDownloaded,
        download: { url throws(StoreFileError) in
          try await DiaryFiles.download(url, by: ICloudDriveFile.download)
        }, limit: limit, quiet: quiet)
    }

    func run(_ arguments: String..., downloads: DownloadWait = waiting()) -> Diary.Result {
      Diary.run(
        arguments,
        environment: [
          "DIARY_HOME": data.path, "HOME": folder.file("home").path,
          "STORES_STATE_HOME": folder.file("state").path,
        ],
        terminal: Terminal(usesColor: false), timeZone: TimeZone(identifier: "UTC")!,
        downloads: downloads)
    }

    /// The todos file holding "Buy milk", then evicted: a placeholder, its contents in the
    /// cloud only.
    func placeholder() throws {
      #expect(run("todos", "add", "Buy milk").exitCode == .success)
      try ICloudDrive.evict(todos, cloudContents: Data(contentsOf: todos))
    }

    @Test("a placeholder is downloaded before the store opens it: the command just works")
    func downloadedFirst() throws {
      try placeholder()
      let result = run("todos", "list")
      #expect(result.exitCode == .success)
      #expect(result.output.contains("Buy milk"))
      #expect(result.errorOutput.isEmpty, "an immediate download says nothing")
      #expect(ICloudDrive.downloadWasRequested(todos))
    }

    @Test("a write on a placeholder adds to the file's contents, never to an empty store")
    func writeAfterDownload() throws {
      try placeholder()
      #expect(run("todos", "add", "Call Ann").exitCode == .success)
      let listed = run("todos", "list").output
      #expect(listed.contains("Buy milk") && listed.contains("Call Ann"))
    }

    @Test("a download that takes a while: one line on standard error, then the command works")
    func slowDownload() throws {
      try placeholder()
      ICloudDrive.holdDownload(todos)
      let url = todos
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
        ICloudDrive.releaseDownload(url)
      }
      let result = run("todos", "list", downloads: Self.waiting(quiet: .milliseconds(20)))
      #expect(result.exitCode == .success)
      #expect(result.output.contains("Buy milk"))
      #expect(
        result.errorOutput
          == "diary: waiting for iCloud Drive to download todos.json (at most 30 s)…\n")
    }

    @Test("a download that does not finish in time: exit 75, the file and the fix, nothing written")
    func downloadTimesOut() throws {
      try placeholder()
      ICloudDrive.holdDownload(todos)
      defer { ICloudDrive.releaseDownload(todos) }
      let before = folder.snapshot()
      let started = ContinuousClock.now
      let result = run(
        "todos", "add", "Call Ann",
        downloads: Self.waiting(limit: .milliseconds(300), quiet: .milliseconds(20)))
      #expect(ContinuousClock.now - started < .seconds(10), "the wait is bounded")
      #expect(result.exitCode == .temporaryFailure)
      #expect(result.output.isEmpty)
      let path = todos.standardizedFileURL.path
      #expect(
        result.errorOutput
          == "diary: waiting for iCloud Drive to download todos.json (at most 0.3 s)…\n"
          + "diary: error: \(path): the file is in iCloud Drive and its download to this Mac did "
          + "not finish within 0.3 s — nothing was read or written; download it (Download Now in "
          + "the Finder, or brctl download '\(path)') and run the command again, or try again "
          + "once this Mac is online\n")
      #expect(folder.snapshot() == before, "nothing written")
      #expect(!FileManager.default.fileExists(atPath: todos.path))
    }

    @Test("a download that fails: exit 75, the coordinator's error and what to check")
    func downloadFails() throws {
      try placeholder()
      ICloudDrive.failDownloads(
        of: todos, with: CocoaError(.ubiquitousFileUnavailable) as NSError)
      let before = folder.snapshot()
      let result = run("todos", "list")
      #expect(result.exitCode == .temporaryFailure)
      let path = todos.standardizedFileURL.path
      #expect(
        result.errorOutput.hasPrefix(
          "diary: error: \(path): the file is in iCloud Drive and cannot be downloaded to this Mac: "
        ))
      #expect(
        result.errorOutput.contains(
          "— nothing was read or written; check that this Mac is online and signed in to iCloud, "
            + "then download it"))
      #expect(folder.snapshot() == before, "nothing written")
    }

    @Test("every command that opens a file waits for it: sync status, undo")
    func otherCommands() throws {
      try placeholder()
      let status = run("sync", "status")
      #expect(status.exitCode == .success)
      #expect(FileManager.default.fileExists(atPath: todos.path))

      #expect(run("todos", "add", "Call Ann").exitCode == .success)
      try ICloudDrive.evict(todos, cloudContents: Data(contentsOf: todos))
      let undo = run("undo")
      #expect(undo.exitCode == .success)
      #expect(run("todos", "list").output.contains("Call Ann") == false)
      #expect(run("todos", "list").output.contains("Buy milk"))
    }
  }
#endif
