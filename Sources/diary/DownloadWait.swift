import Foundation
import Stores

/// How `diary` waits, before a store opens a data file, for the file to be downloaded from
/// iCloud Drive: through `DiaryFiles.download(_:)`, bounded by the wait for a data file's lock.
///
/// A file in iCloud Drive that is not downloaded to this Mac yet would make the store refuse to
/// open it (`StoreFileError.Problem.notDownloaded`); so each command first awaits its
/// files' download, saying so in one line on standard error when it is not immediate, and
/// fails with exit 75 and a message of its own when the download fails or takes longer than
/// ``limit``. Any other file — downloaded, missing, not in iCloud Drive, every file on Linux
/// — is opened at once: nothing is awaited and nothing is printed.
struct DownloadWait: Sendable {
  /// Whether the file at a URL is in iCloud Drive and not downloaded yet. Does not wait.
  var needsDownload: @Sendable (URL) -> Bool
  /// Downloads the file at a URL if it is in iCloud Drive and not downloaded yet; returns once
  /// it is.
  var download: @Sendable (URL) async throws(StoreFileError) -> Void
  /// How long a command waits for a download: as long as for a data file's lock (the stores
  /// `diary` opens wait `Duration.defaultLockTimeout`, as the undo history does).
  var limit: Duration
  /// How long a download may take before the command says it waits.
  var quiet: Duration

  init(
    needsDownload: @escaping @Sendable (URL) -> Bool = DiaryFiles.needsDownload,
    download: @escaping @Sendable (URL) async throws(StoreFileError) -> Void = {
      url throws(StoreFileError) in try await DiaryFiles.download(url)
    },
    limit: Duration = .defaultLockTimeout, quiet: Duration = .milliseconds(200)
  ) {
    self.needsDownload = needsDownload
    self.download = download
    self.limit = limit
    self.quiet = quiet
  }

  /// Waits, at most ``limit``, for the file at `url` to be downloaded; when that takes longer
  /// than ``quiet``, says so in one line on `output`'s standard error.
  ///
  /// `diary`'s commands run on the main thread, synchronously, as its file transactions do:
  /// the download is awaited in a task of its own, off the main actor, while the main thread
  /// waits for that task's outcome until the deadline. A download still going at the deadline
  /// is cancelled (which cancels its coordinated read).
  ///
  /// - Throws: A ``DiaryError`` (exit 75) naming the file, the problem and the fix, when the
  ///   download failed or did not finish in time. Nothing was read or written.
  @MainActor
  func wait(for url: URL, output: Output) throws(DiaryError) {
    // Every file but a placeholder in iCloud Drive — every file on Linux — is opened at
    // once, without a task: however loaded the machine, it is never waited for.
    guard needsDownload(url) else { return }
    let started = ContinuousClock.now
    let outcome = Outcome()
    let download = self.download
    // As urgent as the main thread that waits for it.
    let task = Task.detached(priority: .userInitiated) {
      do throws(StoreFileError) {
        try await download(url)
        outcome.finish(.success(()))
      } catch {
        outcome.finish(.failure(error))
      }
    }
    var result = outcome.wait(until: started + min(quiet, limit))
    if result == nil {
      output.message(
        "diary: waiting for iCloud Drive to download \(Terminal.escaped(url.lastPathComponent)) "
          + "(at most \(Self.seconds(limit)) s)…")
      result = outcome.wait(until: started + limit)
    }
    switch result {
    case .success?:
      return
    case .failure(let error)?:
      throw DiaryError(Self.cannotDownload(error), exitCode: .temporaryFailure)
    case nil:
      task.cancel()
      throw DiaryError(
        Self.timedOut(path: url.standardizedFileURL.path, waited: limit),
        exitCode: .temporaryFailure)
    }
  }

  /// The message of a download that did not finish within `waited`.
  static func timedOut(path: String, waited: Duration) -> String {
    Terminal.escaped(
      "\(path): the file is in iCloud Drive and its download to this Mac did not finish within "
        + "\(seconds(waited)) s — nothing was read or written; \(fix(path))")
  }

  /// The message of a download that failed: `DiaryFiles.download(_:)` gives the
  /// coordinator's error as `.notCoordinated(detail:)`.
  static func cannotDownload(_ error: StoreFileError) -> String {
    guard case .notCoordinated(let detail) = error.problem else { return DiaryError(error).message }
    return Terminal.escaped(
      "\(error.path): the file is in iCloud Drive and cannot be downloaded to this Mac: \(detail) "
        + "— nothing was read or written; check that this Mac is online and signed in to iCloud, "
        + "then \(fix(error.path))")
  }

  /// How to get the file at `path` downloaded by hand, for the messages: Finder's Download Now,
  /// or macOS's `brctl download` with the path quoted for the shell (iCloud Drive's folder,
  /// `~/Library/Mobile Documents`, has a space in its name).
  static func fix(_ path: String) -> String {
    let quoted = "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    return "download it (Download Now in the Finder, or brctl download \(quoted)) and run the "
      + "command again, or try again once this Mac is online"
  }

  /// `duration` in seconds as people read them: `3`, `0.5`.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard attoseconds != 0 else { return "\(seconds)" }
    return String(format: "%.1f", Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// The outcome of a download, handed from its task to the waiting main thread.
  private final class Outcome: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Void, StoreFileError>?

    func finish(_ result: Result<Void, StoreFileError>) {
      condition.lock()
      defer { condition.unlock() }
      self.result = result
      condition.broadcast()
    }

    /// The outcome, or `nil` when there is none yet at `deadline`.
    func wait(until deadline: ContinuousClock.Instant) -> Result<Void, StoreFileError>? {
      condition.lock()
      defer { condition.unlock() }
      while result == nil {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { break }
        let (seconds, attoseconds) = remaining.components
        _ = condition.wait(
          until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
      }
      return result
    }
  }
}
