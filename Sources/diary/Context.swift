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

  func settings() throws -> SettingsStore {
    let store = try SettingsStore(contentsOf: paths.settings)
    recorder.opened(store)
    return store
  }

  func todos() throws -> TodosStore {
    let store = try TodosStore(contentsOf: paths.todos)
    recorder.opened(store)
    return store
  }

  func workouts() throws -> WorkoutsStore {
    let store = try WorkoutsStore(contentsOf: paths.workouts)
    recorder.opened(store)
    return store
  }
}
