import Foundation
import Stores

/// The `diary` command: parses a command line, runs the command, and says what to print
/// and how to exit. `main.swift` is a thin wrapper around ``run(_:environment:)``, so the
/// whole tool can be tested in process as well as end to end.
enum Diary {
  static let groups = [SettingsCommands.group, TodosCommands.group, WorkoutsCommands.group]

  /// What a run prints and how it exits.
  struct Result: Equatable {
    var exitCode: ExitCode
    var output: String
    var errorOutput: String
  }

  @MainActor
  static func run(
    _ arguments: [String], environment: [String: String], terminal: Terminal? = nil,
    now: Date = Date(), timeZone: TimeZone = .current
  ) -> Result {
    do {
      switch try Parser(groups: groups).parse(arguments) {
      case .version:
        return Result(exitCode: .success, output: Help.version, errorOutput: "")
      case .help(let text):
        return Result(exitCode: .success, output: text, errorOutput: "")
      case .run(let parsed, let globals):
        let context = Context(
          paths: try globals.dataDirectory.map {
            DiaryFiles(folder: URL(fileURLWithPath: $0, isDirectory: true))
          } ?? DiaryFiles.standard(environment: environment),
          json: globals.json,
          terminal: terminal ?? .forStandardOutput(environment: environment),
          now: now, timeZone: timeZone)
        let output = try parsed.command.run(parsed, context)
        return Result(exitCode: .success, output: output, errorOutput: "")
      }
    } catch {
      let error = DiaryError(error)
      var message = "diary: error: \(error.message)"
      if let usage = error.usage { message += "\nusage: \(usage)" }
      return Result(exitCode: error.exitCode, output: "", errorOutput: message)
    }
  }
}
