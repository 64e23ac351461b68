import Foundation

/// Where the settings, todos and workouts files are: one place that an app and the `diary`
/// tool both use, so that each sees what the other writes.
///
/// ```swift
/// let files = try DiaryFiles.standard()          // where `diary` keeps its data
/// let settings = try SettingsStore(contentsOf: files.settings)
/// try settings.watch()                           // `diary settings set …` shows up live
/// ```
public struct DiaryFiles: Equatable, Sendable {
  /// The settings file.
  public var settings: URL
  /// The todos file.
  public var todos: URL
  /// The workouts file.
  public var workouts: URL

  /// The three files in `folder`: `settings.json`, `todos.json` and `workouts.json`.
  public init(folder: URL) {
    settings = folder.appendingPathComponent("settings.json")
    todos = folder.appendingPathComponent("todos.json")
    workouts = folder.appendingPathComponent("workouts.json")
  }

  /// The files where `diary` keeps them, resolved from `environment`:
  ///
  /// 1. `$DIARY_HOME`, when set and not empty: the three files in that folder;
  /// 2. on Apple platforms, one folder in the user's Application Support folder,
  ///    `~/Library/Application Support/diary` (an app shares it with the tool when it is not
  ///    sandboxed, or through an app group folder given as ``init(folder:)``);
  /// 3. elsewhere, the XDG places: `$XDG_CONFIG_HOME/diary/settings.json` and
  ///    `$XDG_DATA_HOME/diary/todos.json`, `workouts.json`, where an XDG variable that is
  ///    empty or not an absolute path is ignored for its default, `~/.config` or
  ///    `~/.local/share`.
  ///
  /// The home folder `~` is `$HOME` when it is an absolute path, else the user's home in the
  /// password database; it must be a folder that exists, so that nothing is ever created
  /// outside it or in the current folder.
  ///
  /// A sandboxed Mac app's home is its own container, where `diary` never looks: there,
  /// without `DIARY_HOME`, this throws rather than silently name a folder no one else sees —
  /// use ``appGroup(_:)``, and point `diary` at the group's folder with `DIARY_HOME`.
  ///
  /// - Throws: ``NoHomeFolder`` when `DIARY_HOME` is not set and there is no usable home
  ///   folder, or the app is sandboxed.
  public static func standard(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(NoHomeFolder) -> DiaryFiles {
    if let folder = environment["DIARY_HOME"], !folder.isEmpty {
      return DiaryFiles(folder: URL(fileURLWithPath: folder, isDirectory: true))
    }
    if let container = environment["APP_SANDBOX_CONTAINER_ID"], !container.isEmpty {
      throw NoHomeFolder(
        reason: "the app is sandboxed (\(container)): its home is its own container, which "
          + "diary does not see",
        fix: "keep the files in an App Group folder with DiaryFiles.appGroup(_:), and run diary "
          + "with DIARY_HOME set to that folder")
    }
    let home = URL(fileURLWithPath: try homeFolder(environment: environment), isDirectory: true)
    let (settings, data) = Platform.standardFolders(home: home, environment: environment)
    var files = DiaryFiles(folder: data)
    files.settings = settings.appendingPathComponent("settings.json")
    return files
  }

  /// The files of an app and its widgets and extensions, in the folder of their App Group
  /// `identifier` (`group.com.example.diary`): `Library/Application Support/diary` in the
  /// group's container. The app's entitlements must list the group. On iOS and its kin, an
  /// app suspended while it holds a file's lock in a shared container is killed by the
  /// system (`0xdead10cc`): write from the foreground, or inside
  /// `UIApplication.beginBackgroundTask` (an extension: `ProcessInfo.beginActivity`).
  ///
  /// `diary` reaches the same files on a Mac with `DIARY_HOME` set to that folder:
  /// `~/Library/Group Containers/IDENTIFIER/Library/Application Support/diary`.
  ///
  /// - Throws: ``NoHomeFolder`` when the system gives no container for the group (the app is
  ///   not in it, or the platform has no App Groups).
  public static func appGroup(_ identifier: String) throws(NoHomeFolder) -> DiaryFiles {
    try appGroup(identifier, container: Platform.appGroupContainer)
  }

  /// ``appGroup(_:)`` with the group's container found by `container`, for tests.
  package static func appGroup(
    _ identifier: String, container: (String) -> URL?
  ) throws(NoHomeFolder) -> DiaryFiles {
    guard let folder = container(identifier) else {
      throw NoHomeFolder(
        reason: "there is no container for the App Group \(identifier)",
        fix: "add the group to the app's entitlements (App Groups), or use DiaryFiles(folder:)")
    }
    return DiaryFiles(
      folder: folder.appendingPathComponent("Library/Application Support/diary", isDirectory: true))
  }

  /// Why there is no home folder to keep the files in.
  public struct NoHomeFolder: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with `$HOME` and the password database's home.
    public var reason: String
    /// How to fix it.
    public var fix = "set HOME to your home folder, or DIARY_HOME to the folder to keep the data in"

    public var description: String {
      "no usable home folder for the data: \(reason) — \(fix)"
    }
  }

  /// `$HOME` if absolute, else the password database's home; an existing folder.
  private static func homeFolder(environment: [String: String]) throws(NoHomeFolder) -> String {
    let variable = environment["HOME"] ?? ""
    let candidate: String
    let origin: String
    if variable.hasPrefix("/") {
      candidate = variable
      origin = "HOME"
    } else if let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir,
      case let path = String(cString: directory), path.hasPrefix("/")
    {
      candidate = path
      origin = "the home in the password database"
    } else {
      throw NoHomeFolder(
        reason: (variable.isEmpty ? "HOME is not set" : "HOME is not an absolute path")
          + " and the user has no home in the password database")
    }
    var info = stat()
    guard stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw NoHomeFolder(reason: "\(origin), \(candidate), is not an existing folder")
    }
    return candidate
  }
}

extension DiaryFiles {
  /// Downloads the file at `url` if it is in iCloud Drive and not downloaded to this device
  /// yet, and returns once it is: the download is started and awaited off the calling actor
  /// (in a coordinated read, which downloads first), so that a store then opens on the file's
  /// contents. Returns at once for a file that is downloaded, missing, or not in iCloud Drive
  /// (always, on Linux). Cancelling the task stops the wait.
  ///
  /// A store opened on a file not downloaded throws ``StoreFileError/Problem/notDownloaded``
  /// rather than start empty: call this first where the files may be in iCloud Drive.
  ///
  /// - Throws: ``StoreFileError/Problem/notCoordinated(detail:)`` when the download failed or
  ///   was cancelled.
  public static func download(_ url: URL) async throws(StoreFileError) {
    try await download(url, by: Platform.downloadIfInICloud)
  }

  /// ``download(_:)`` with the platform's download given (`ICloudDriveFile.download` on Apple
  /// platforms), so that tests on Linux run it against the iCloud Drive stand-ins.
  package static func download(
    _ url: URL, by platformDownload: (URL) async throws -> Void
  ) async throws(StoreFileError) {
    do {
      try await platformDownload(url)
    } catch {
      throw StoreFileError(
        path: url.standardizedFileURL.path, problem: .notCoordinated(detail: "\(error)"))
    }
  }

  /// Whether the file at `url` is in iCloud Drive and not downloaded to this device yet: what
  /// ``download(_:)`` waits for. Does not wait; `false` wherever there is no iCloud Drive.
  package static func needsDownload(_ url: URL) -> Bool {
    Platform.isNotDownloadedFromICloud(url)
  }

  /// Downloads the three files, as ``download(_:)`` does each.
  public func download() async throws(StoreFileError) {
    for url in [settings, todos, workouts] { try await Self.download(url) }
  }
}
