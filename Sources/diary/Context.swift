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

  func settings() throws -> SettingsStore { try SettingsStore(contentsOf: paths.settings) }
  func todos() throws -> TodosStore { try TodosStore(contentsOf: paths.todos) }
  func workouts() throws -> WorkoutsStore { try WorkoutsStore(contentsOf: paths.workouts) }
}
