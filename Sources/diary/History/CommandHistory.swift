import Foundation
import Stores

/// The undo and redo steps of the `diary` commands that changed one data folder on this
/// machine: kept beside the machine's own state (its device id), never in the (perhaps
/// synced) data folder — `diary/history` in the local state folder: `$STORES_STATE_HOME` on
/// every platform, else `$XDG_STATE_HOME` (else `~/.local/state`) on Linux, Application
/// Support on Apple platforms — in one folder per data folder, named by a hash of its files'
/// paths.
///
/// Each step holds the inverse actions of a command, by identity; `diary undo` sends them as
/// ordinary actions, in transactions on the files as they are then, so what others wrote
/// meanwhile stays.
///
/// The folder holds one file per step (`N.step`, JSON, as large as the command's change) and
/// this index, `steps.json`, which lists them and their sizes — small, whatever the steps
/// hold. So recording a step writes that step and the index, and never reads or rewrites the
/// other steps: its cost is the step's own, plus O(number of steps) for the index, whatever
/// the history's size in bytes. Every file is written as the data files are (temporary file
/// `0600` in the same folder, `fsync`, `rename`, `fsync` of the folder), under a lock whose
/// wait is bounded (``lockTimeout``). The index is the truth: a step file is written before
/// the index lists it and removed after it no longer does, so a crash leaves at most step
/// files no index lists, removed by the next command, as are the temporary files of killed
/// writers.
///
/// At most ``limit`` steps are kept on each side, and at most ``byteBudget`` bytes of steps in
/// all: the oldest steps to undo are dropped first. A step larger than the whole budget is not
/// kept: a note of a few bytes takes its place, so that `diary undo` says it cannot undo that
/// command rather than silently undoing an earlier one.
struct CommandHistory: Codable, Equatable {
  /// A step file the index lists, and its size in bytes.
  struct Entry: Codable, Equatable {
    var file: String
    var bytes: Int
  }

  /// The version of the index's format: 2, one file per step (version 1 held every step in
  /// one file).
  var version = 2
  /// The data files whose history this is, for people reading the file.
  var files: [String] = []
  /// The steps to undo, oldest first.
  var undo: [Entry] = []
  /// The steps to redo, oldest first.
  var redo: [Entry] = []
  /// The number of the next step file.
  var next = 1

  /// The most steps kept on each side.
  static let limit = 100
  /// The most bytes of step files kept, undo and redo together: 8 MB — a step of about
  /// 50,000 imported workouts.
  static let byteBudget = 8_000_000
  /// How long a command waits for another `diary` that holds the history's lock: as long as
  /// for a data file's lock.
  static let lockTimeout = Duration.defaultLockTimeout
  /// The name of the index in the history's folder; its lock is `steps.json.lock`.
  static let indexName = "steps.json"

  /// The total size of the step files listed. O(number of steps).
  var bytes: Int { (undo + redo).reduce(0) { $0 + $1.bytes } }

  /// The history folder of the data folder of `paths`, in the state folder that
  /// `environment` names.
  ///
  /// - Throws: A ``DiaryError`` (78) when there is no usable home folder.
  static func url(for paths: DiaryFiles, environment: [String: String]) throws -> URL {
    let folder = try Platform.stateFolder(environment: environment)
      .appendingPathComponent("diary/history", isDirectory: true)
    return folder.appendingPathComponent(key(of: paths), isDirectory: true)
  }

  /// The data files' paths, which name the history.
  static func paths(of files: DiaryFiles) -> [String] {
    [files.settings, files.todos, files.workouts].map { $0.standardizedFileURL.path }
  }

  /// A stable name for the data folder of `paths`: the FNV-1a hash of its files' paths, in
  /// hexadecimal.
  static func key(of files: DiaryFiles) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in paths(of: files).joined(separator: "\n").utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Runs `body` on the history in the folder at `url` — an empty one when there is none —
  /// under the index's lock, waiting at most `timeout` for it; then writes the index when
  /// `body` changed it, and removes the step files it no longer lists. First removes what
  /// killed writers left: temporary files, and step files no index lists.
  ///
  /// Costs O(number of steps) besides what `body` does: no step is read here.
  ///
  /// - Throws: What `body` throws (the index is not written then; step files it wrote are
  ///   removed by the next update), a `StoreFileError` `lockTimedOut` when another process
  ///   holds the lock longer than `timeout`, or a `DiaryError` when the history cannot be
  ///   read or written.
  static func update<Result>(
    at url: URL, files: DiaryFiles, timeout: Duration = lockTimeout,
    _ body: (inout Session) throws -> Result
  ) throws -> Result {
    let folder: PrivateFolder
    do {
      folder = try PrivateFolder(creating: url.path)
    } catch {
      throw DiaryError(
        "cannot create the folder of the undo history \(Terminal.escaped(url.path))",
        exitCode: .cannotCreate)
    }
    return try folder.withLock(of: indexName, timeout: timeout) {
      removeVersion1(beside: url)
      folder.removeStaleTemporaries()
      var session = try Session(folder: folder, files: paths(of: files))
      session.removeUnlisted()
      let result = try body(&session)
      try session.save()
      return result
    }
  }

  /// Removes the history of version 1 of the data folder of the history folder at `url`, one
  /// file beside it (`KEY.json`, its lock and its temporary files): `diary undo` was not
  /// released with it, and the file could be large.
  private static func removeVersion1(beside url: URL) {
    let parent = url.deletingLastPathComponent()
    let name = url.lastPathComponent + ".json"
    let files = FileManager.default
    guard let entries = try? files.contentsOfDirectory(atPath: parent.path),
      entries.contains(where: { $0.hasPrefix(name) })
    else { return }
    for entry in entries
    where entry == name || entry == name + ".lock"
      || (entry.hasPrefix(name + ".") && entry.hasSuffix(".tmp"))
    {
      try? files.removeItem(at: parent.appendingPathComponent(entry))
    }
  }
}

extension CommandHistory {
  /// The history open under its lock: the index, and the step files read and written on
  /// demand.
  struct Session {
    /// The two sides of the history.
    enum Side {
      case undo, redo
    }

    let folder: PrivateFolder
    /// The index as it is now.
    private(set) var index: CommandHistory
    private let saved: CommandHistory
    /// The step files to remove once the index no longer lists them.
    private var dropped: [String] = []

    /// Reads the index in `folder`, or starts an empty one for the data files `files`.
    init(folder: PrivateFolder, files: [String]) throws {
      self.folder = folder
      let path = folder.path(of: indexName)
      var index = CommandHistory(files: files)
      do {
        if let data = try folder.read(indexName) {
          index = try JSONDecoder().decode(CommandHistory.self, from: data)
        }
      } catch {
        index.version = 0
      }
      guard index.version == CommandHistory().version else {
        throw DiaryError(
          "the undo history \(Terminal.escaped(path)) is not valid (or is a newer diary's); remove "
            + "the folder \(Terminal.escaped(folder.path)) to start a new one")
      }
      self.index = index
      saved = index
    }

    /// The newest step of `side`, as listed, or `nil` when there is none.
    func last(_ side: Side) -> Entry? {
      side == .undo ? index.undo.last : index.redo.last
    }

    /// Reads the step of `entry`. O(its size).
    ///
    /// - Throws: A `DiaryError` when its file is missing or not valid.
    func step(_ entry: Entry) throws -> RecordedStep {
      let path = folder.path(of: entry.file)
      do {
        guard let data = try folder.read(entry.file) else { throw CocoaError(.fileNoSuchFile) }
        return try JSONDecoder().decode(RecordedStep.self, from: data)
      } catch {
        throw DiaryError(
          "the step \(Terminal.escaped(path)) of the undo history is missing or not valid; "
            + "remove the folder \(Terminal.escaped(folder.path)) to start a new one")
      }
    }

    /// Drops the newest step of `side` (its file is removed once the index is saved).
    mutating func removeLast(_ side: Side) {
      let entry = side == .undo ? index.undo.removeLast() : index.redo.removeLast()
      dropped.append(entry.file)
    }

    /// Drops every step to redo.
    mutating func removeRedo() {
      dropped += index.redo.map(\.file)
      index.redo.removeAll()
    }

    /// Writes `step` to a file of its own and lists it as the newest step of `side`; then
    /// drops the oldest steps to undo, then to redo — never this one — until at most
    /// ``limit`` are left on each side and ``byteBudget`` bytes in all. A step larger than the
    /// whole budget is not kept: a note of its description and size
    /// (``RecordedStep/tooLarge``) takes its place. O(size of `step`) + O(number of steps).
    ///
    /// - Returns: The size of `step` in bytes when it was too large to keep, else `nil`.
    /// - Throws: A `DiaryError` when the file cannot be written.
    @discardableResult
    mutating func append(_ step: RecordedStep, on side: Side) throws -> Int? {
      try append(encoded: step.encoded(), description: step.description, on: side)
    }

    /// ``append(_:on:)`` for a step already encoded (``RecordedStep/encoded()``), so that a
    /// command encodes its step before it takes the lock.
    @discardableResult
    /// `data` is `nil` for a step known to be larger than the budget without encoding it:
    /// `size` bytes at least (see ``RecordedStep/leastEncodedSize``).
    mutating func append(
      encoded data: Data?, size: Int? = nil, description: String, on side: Side
    ) throws -> Int? {
      var tooLarge: Int?
      var data = data ?? Data()
      if data.count > byteBudget || size ?? 0 > byteBudget {
        tooLarge = max(data.count, size ?? 0)
        data = try RecordedStep(description: description, actions: [], tooLarge: tooLarge)
          .encoded()
      }
      let name = "\(index.next).step"
      do {
        try folder.write(data, to: name)
      } catch {
        throw DiaryError(
          "cannot write the undo history \(Terminal.escaped(folder.path(of: name))): "
            + DiaryError(error).message, exitCode: .cannotCreate)
      }
      index.next += 1
      let entry = Entry(file: name, bytes: data.count)
      if side == .undo { index.undo.append(entry) } else { index.redo.append(entry) }
      var bytes = index.bytes
      // The oldest first, the new step never.
      let keptUndo = side == .undo ? 1 : 0
      while index.undo.count > keptUndo
        && (index.undo.count > limit || bytes > byteBudget)
      {
        bytes -= index.undo[0].bytes
        dropped.append(index.undo.removeFirst().file)
      }
      let keptRedo = side == .redo ? 1 : 0
      while index.redo.count > keptRedo
        && (index.redo.count > limit || bytes > byteBudget)
      {
        bytes -= index.redo[0].bytes
        dropped.append(index.redo.removeFirst().file)
      }
      return tooLarge
    }

    /// Removes the step files the index does not list: those of a command that failed or was
    /// killed before the index listed them, or after it stopped listing them. One read of the
    /// folder.
    func removeUnlisted() {
      let listed = Set((index.undo + index.redo).map(\.file))
      for name in folder.names() where name.hasSuffix(".step") && !listed.contains(name) {
        folder.remove(name)
      }
    }

    /// Writes the index when it changed, then removes the step files it no longer lists.
    ///
    /// - Throws: A `DiaryError` when the index cannot be written (the step files stay; the
    ///   next update removes those it does not list).
    func save() throws {
      guard index != saved else { return }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      do {
        try folder.write(try encoder.encode(index), to: indexName)
      } catch {
        throw DiaryError(
          "cannot write the undo history \(Terminal.escaped(folder.path(of: indexName))): "
            + DiaryError(error).message, exitCode: .cannotCreate)
      }
      for file in dropped { folder.remove(file) }
    }
  }
}

/// The stores a command opened, so that what they changed becomes a step of the history.
@MainActor
final class StoreRecorder {
  /// Whether a store took in changes from elsewhere.
  private final class Reloads {
    var seen = false
  }

  private var steps: [() -> [RecordedAction]] = []
  /// For each list followed (see ``follow(_:in:order:_:)``): records the order the command
  /// leaves.
  private var listings: [@MainActor () -> Void] = []
  /// The lists whose order the command changed in a way its user cannot tell (see
  /// ``forget(_:)``).
  private var forgotten: Set<NumberedList> = []

  /// Keeps `store` to read its undo steps after the command.
  func opened<S: Store>(_ store: S) {
    steps.append { store.undoHistory.undoSteps.compactMap { RecordedAction(any: $0.action) } }
  }

  /// The actions that undo what the stores did, in the order to apply them: the last first.
  var inverses: [RecordedAction] { steps.flatMap { $0() }.reversed() }

  /// Follows `list` in `store`, just opened (`order` reads the list's order in a store):
  /// when its order is the one recorded (see ``ListedOrder``), ``recordListings()`` records
  /// the order the command leaves — unless the store took in changes from elsewhere on the
  /// way (a reload: another process's write, a conflict copy merged), which the user did not
  /// see.
  func follow<S: Store>(
    _ list: NumberedList, in store: S, order: @escaping @MainActor (S) -> ListedOrder,
    _ context: Context
  ) {
    let opened = order(store)
    guard ListedOrder.recorded(list, context) == opened else { return }
    let reloaded = Reloads()
    let token = store.onChange { change, _ in
      if change.action == nil { reloaded.seen = true }
    }
    listings.append { [unowned self] in
      withExtendedLifetime(token) {}
      let now = order(store)
      guard !reloaded.seen, !forgotten.contains(list), now != opened else { return }
      ListedOrder.record(now, of: list, replacing: opened, context)
    }
  }

  /// Leaves the order recorded for `list` as it was: the command reordered the list in a way
  /// its user cannot tell (`todos order`, `workouts sort`), so numbers typed next refuse
  /// until `list` shows the new order.
  func forget(_ list: NumberedList) {
    forgotten.insert(list)
  }

  /// Records the order of each list followed that the command changed.
  func recordListings() {
    for record in listings { record() }
  }
}
