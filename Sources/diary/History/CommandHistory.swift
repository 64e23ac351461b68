import Foundation
import Stores

/// The undo and redo steps of the `diary` commands that changed one data folder on this
/// machine: kept beside the machine's own state, never in the (perhaps synced) data folder —
/// `$XDG_STATE_HOME/diary/history` (else `~/.local/state/diary/history`) on Linux,
/// `~/Library/Application Support/diary/history` on Apple platforms — one file per data
/// folder, named by a hash of its files' paths.
///
/// Each step holds the inverse actions of a command, by identity; `diary undo` sends them as
/// ordinary actions, in transactions on the files as they are then, so what others wrote
/// meanwhile stays. The file is read and written under a lock of its own and replaced
/// atomically; at most ``limit`` steps are kept on each side.
struct CommandHistory: Codable, Equatable {
  /// The version of the file's format.
  var version = 1
  /// The data files whose history this is, for people reading the file.
  var files: [String] = []
  /// The steps to undo, oldest first.
  var undo: [RecordedStep] = []
  /// The steps to redo, oldest first.
  var redo: [RecordedStep] = []

  static let limit = 100

  /// Adds a step to undo for a new command; the steps to redo are dropped.
  mutating func record(_ step: RecordedStep) {
    undo.append(step)
    redo.removeAll()
    if undo.count > Self.limit { undo.removeFirst(undo.count - Self.limit) }
  }

  /// The history file of the data folder of `paths`, in the state folder that `environment`
  /// names.
  ///
  /// - Throws: A ``DiaryError`` (78) when there is no usable home folder.
  static func url(for paths: DiaryFiles, environment: [String: String]) throws -> URL {
    let folder = try Platform.stateFolder(environment: environment)
      .appendingPathComponent("diary/history", isDirectory: true)
    return folder.appendingPathComponent(key(of: paths) + ".json")
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

  /// Runs `body` on the history in the file at `url` — an empty one when there is none —
  /// under the file's lock, and writes what it leaves there when it changed it.
  ///
  /// - Throws: What `body` throws (nothing is written then), or a `DiaryError` when the
  ///   history cannot be read, locked or written.
  static func update<Result>(
    at url: URL, files: DiaryFiles, _ body: (inout CommandHistory) throws -> Result
  ) throws -> Result {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw DiaryError(
        "cannot create the folder of the undo history \(Terminal.escaped(folder.path))",
        exitCode: .cannotCreate)
    }
    return try Platform.withLock(at: url.path + ".lock") {
      var history = CommandHistory(files: paths(of: files))
      if let data = FileManager.default.contents(atPath: url.path) {
        do {
          history = try JSONDecoder().decode(CommandHistory.self, from: data)
        } catch {
          throw DiaryError(
            "the undo history \(Terminal.escaped(url.path)) is not valid; remove it to start "
              + "a new one")
        }
      }
      let before = history
      let result = try body(&history)
      if history != before { try write(history, to: url) }
      return result
    }
  }

  /// Writes `history` to a temporary file beside `url`, then renames it over `url`.
  private static func write(_ history: CommandHistory, to url: URL) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let temporary = url.path + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
    guard
      let data = try? encoder.encode(history),
      FileManager.default.createFile(
        atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]),
      rename(temporary, url.path) == 0
    else {
      try? FileManager.default.removeItem(atPath: temporary)
      throw DiaryError(
        "cannot write the undo history \(Terminal.escaped(url.path))", exitCode: .cannotCreate)
    }
  }
}

/// The stores a command opened, so that what they changed becomes a step of the history.
@MainActor
final class StoreRecorder {
  private var steps: [() -> [RecordedAction]] = []

  /// Keeps `store` to read its undo steps after the command.
  func opened<S: Store>(_ store: S) {
    steps.append { store.undoHistory.undoSteps.compactMap { RecordedAction(any: $0.action) } }
  }

  /// The actions that undo what the stores did, in the order to apply them: the last first.
  var inverses: [RecordedAction] { steps.flatMap { $0() }.reversed() }
}
