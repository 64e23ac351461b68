import Foundation
import Stores

/// What a command runs with: where the data is, how to print, and what time it is.
struct Context: Sendable {
  var paths: DiaryFiles
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
