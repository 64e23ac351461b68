import Foundation
import Stores

/// Where `diary` keeps its three files.
struct DataPaths: Equatable, Sendable {
  var settings: URL
  var todos: URL
  var workouts: URL

  /// `--data-dir DIR` if given, else `$DIARY_HOME`, else the XDG places:
  /// `$XDG_CONFIG_HOME/diary/settings.json` (default `~/.config`) and
  /// `$XDG_DATA_HOME/diary/{todos,workouts}.json` (default `~/.local/share`). XDG
  /// variables that are empty or relative are ignored, as the XDG specification says.
  static func resolve(
    dataDirectory: String?, environment: [String: String], home: String
  ) -> DataPaths {
    func folder(_ path: String) -> URL { URL(fileURLWithPath: path, isDirectory: true) }
    if let directory = dataDirectory ?? environment["DIARY_HOME"].flatMap({ $0.isEmpty ? nil : $0 })
    {
      let base = folder(directory)
      return DataPaths(
        settings: base.appendingPathComponent("settings.json"),
        todos: base.appendingPathComponent("todos.json"),
        workouts: base.appendingPathComponent("workouts.json"))
    }
    func xdg(_ name: String, default relative: String) -> URL {
      if let value = environment[name], value.hasPrefix("/") { return folder(value) }
      return folder(home).appendingPathComponent(relative, isDirectory: true)
    }
    let config = xdg("XDG_CONFIG_HOME", default: ".config").appendingPathComponent("diary")
    let data = xdg("XDG_DATA_HOME", default: ".local/share").appendingPathComponent("diary")
    return DataPaths(
      settings: config.appendingPathComponent("settings.json"),
      todos: data.appendingPathComponent("todos.json"),
      workouts: data.appendingPathComponent("workouts.json"))
  }
}

/// What a command runs with: where the data is, how to print, and what time it is.
struct Context: Sendable {
  var paths: DataPaths
  var json: Bool
  var terminal: Terminal
  var now: Date
  var timeZone: TimeZone

  @MainActor func settings() throws -> SettingsStore {
    try SettingsStore(contentsOf: paths.settings)
  }
  @MainActor func todos() throws -> TodosStore { try TodosStore(contentsOf: paths.todos) }
  @MainActor func workouts() throws -> WorkoutsStore {
    try WorkoutsStore(contentsOf: paths.workouts)
  }
}
