import Foundation
import Stores

/// What a command runs with: where the data is, how and where to print, and what time it is.
@MainActor
struct Context {
  var paths: DiaryFiles
  var json: Bool
  var terminal: Terminal
  var output: Output
  var time: LocalTime
  /// The environment `diary` runs in: where the undo history is.
  var environment: [String: String] = [:]
  /// The stores opened, whose changes become a step of the undo history.
  var recorder = StoreRecorder()
  /// How a command waits for a data file in iCloud Drive to be downloaded before opening it.
  var downloads = DownloadWait()

  /// Waits for the data file at `url` to be downloaded if it is in iCloud Drive and not
  /// downloaded to this Mac yet (see ``DownloadWait``); returns at once for any other file.
  /// Called before a store opens the file.
  ///
  /// - Throws: A ``DiaryError`` (exit 75) when the download failed or took too long.
  func download(_ url: URL) throws {
    try downloads.wait(for: url, output: output)
  }

  func settings() throws -> SettingsStore {
    try download(paths.settings)
    return try merged(SettingsStore(contentsOf: paths.settings), paths.settings)
  }
  /// The settings, with the app keys their key catalog describes (`settings.keys.json`)
  /// registered, so that they are listed, read, checked and reset as diary's own; warns once
  /// when the catalog, or some of its entries, are not valid (and ignored). Reading the
  /// catalog writes nothing.
  func appSettings() throws -> SettingsStore {
    let settings = try settings()
    let catalog = SettingsCatalog.read(besideSettingsAt: paths.settings)
    if let problem = catalog.problem {
      output.message("diary: warning: \(Terminal.escaped(problem))")
    }
    settings.register(
      catalog.keys.map(AnySettingsKey.init(described:)), recordingInCatalog: false)
    return settings
  }

  func todos() throws -> TodosStore {
    try download(paths.todos)
    let store = try merged(Self.openTodos(paths.todos), paths.todos)
    recorder.follow(.todos, in: store, order: Self.order, self)
    return store
  }
  func workouts() throws -> WorkoutsStore {
    try download(paths.workouts)
    let store = try merged(Self.openWorkouts(paths.workouts), paths.workouts)
    recorder.follow(.workouts, in: store, order: Self.order, self)
    return store
  }

  /// The order of the todos of `store` (see ``ListedOrder``).
  static func order(_ store: TodosStore) -> ListedOrder {
    ListedOrder(of: store.todos.lazy.map(\.id))
  }

  /// The order of the workouts of `store` (see ``ListedOrder``).
  static func order(_ store: WorkoutsStore) -> ListedOrder {
    ListedOrder(of: store.state.workouts.lazy.map(\.id))
  }

  /// The todos in the file at `url`, as ``TodosStore/init(contentsOf:lockTimeout:)`` opens
  /// them but keeping no write cache: a command writes each file at most once and exits, so
  /// the text of its write would be kept for nothing (about the file's size in memory).
  static func openTodos(_ url: URL) throws -> TodosStore {
    TodosStore(
      core: try TodosStore.fileCore(contentsOf: url, clock: .local, keepsWriteCache: false))
  }

  /// The workouts in the file at `url`, kept as ``openTodos(_:)`` keeps the todos.
  static func openWorkouts(_ url: URL) throws -> WorkoutsStore {
    WorkoutsStore(
      core: try WorkoutsStore.fileCore(contentsOf: url, clock: .local, keepsWriteCache: false))
  }

  /// `store`, the one on `file`, with the conflict copies a sync engine left beside the file
  /// merged in: says so in one line on standard error, warns about each copy that brought
  /// back what may have been removed and forgotten, and warns once about each copy that
  /// cannot be merged — about the first ``warnedCopies``, then in one line about how many more
  /// there are (`diary sync status` lists them all).
  private func merged<S: Store>(_ store: S, _ file: URL) throws -> S
  where S.State: PersistentState {
    try store.refresh()
    recorder.opened(store)
    let report = store.core.mergeReport
    if !report.merged.isEmpty {
      let copies =
        report.merged.count == 1 ? "1 conflict copy" : "\(report.merged.count) conflict copies"
      output.message(
        "diary: merged \(copies) into \(file.lastPathComponent): \(report.merged.joined(separator: ", "))"
      )
    }
    for (copy, count) in report.forgottenRemovals {
      let (entries, removals, them, were) =
        count == 1
        ? ("1 entry", "its removal", "it", "it was")
        : ("\(count) entries", "their removals", "them", "they were")
      output.message(
        "diary: warning: merging \(Terminal.escaped(copy)) brought back \(entries) last changed "
          + "more than 90 days before the latest write of every device to "
          + "\(Terminal.escaped(file.lastPathComponent)): \(removals) may have been forgotten; "
          + "remove \(them) again if \(were) removed")
    }
    for problem in report.notMerged.prefix(Self.warnedCopies) {
      // A version iCloud Drive has not downloaded yet is merged once it is: its message says so.
      let left =
        if case .versionNotDownloaded = problem.problem { "" } else { "; it is left as it is" }
      output.message("diary: warning: \(DiaryError(problem).message)\(left)")
    }
    let more = report.notMerged.count - Self.warnedCopies
    if more > 0 {
      output.message(
        "diary: warning: and \(more) more conflict \(more == 1 ? "copy" : "copies") of "
          + "\(Terminal.escaped(file.lastPathComponent)) cannot be merged; "
          + "`diary sync status` lists them")
    }
    return store
  }

  /// How many copies that cannot be merged a command names in a warning of their own.
  static let warnedCopies = 3
}
