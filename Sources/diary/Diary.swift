import Foundation
import Stores

/// The `diary` command: parses a command line, runs the command, prints and says how to
/// exit. `main.swift` is a thin wrapper around ``run(_:environment:output:terminal:time:)``,
/// so that the whole tool can be tested in process as well as end to end.
@MainActor
enum Diary {
  /// The narrowest width help is wrapped to, however narrow the terminal.
  static let narrowestHelp = 40

  static let groups = [
    SettingsCommands.group, TodosCommands.group, WorkoutsCommands.group, SyncCommands.group,
    UndoCommands.undo, UndoCommands.redo,
  ]

  /// Runs `arguments`, printing to `output`; returns how to exit.
  ///
  /// An error is printed as one line, `diary: error: …` (with the usage line for a mistake
  /// in the command line), and nothing else: what was buffered for standard output is
  /// dropped. When the command had saved a change, the line says so ("added todo 1, but
  /// could not print: …"). With `--json`, the error is one line of JSON instead (see
  /// ``errorJSON(_:saved:)``), with the same exit code. When the reader of standard output
  /// went away (`| head`), the run ends quietly.
  ///
  /// `downloads` is how a command waits for a data file in iCloud Drive to be downloaded
  /// before it opens it (tests give one on the iCloud Drive stand-ins).
  static func run(
    _ arguments: [String], environment: [String: String], output: Output, terminal: Terminal,
    time: LocalTime, downloads: DownloadWait = DownloadWait()
  ) -> ExitCode {
    // Known before the line is parsed, so that a mistake in it is reported as JSON too.
    var json = Parser.asksForJSON(arguments)
    do {
      let parser = Parser(
        groups: groups, time: time, helpWidth: max(Self.narrowestHelp, terminal.columns))
      switch try parser.parse(arguments) {
      case .version(let asJSON):
        json = asJSON
        if json {
          try JSONOutput.write(Help.versionJSON, to: output)
        } else {
          try output.line(Help.versionLine)
        }
      case .help(let text):
        try output.line(text)
      case .run(let command, let globals):
        json = globals.json
        let context = Context(
          paths: try globals.dataDirectory.map {
            DiaryFiles(folder: URL(fileURLWithPath: $0, isDirectory: true))
          } ?? DiaryFiles.standard(environment: environment),
          json: globals.json, terminal: terminal, output: output, time: time,
          environment: environment, downloads: downloads)
        // What the command changed is recorded for `diary undo` even when it then fails to
        // print: the change was made.
        defer {
          UndoCommands.record(arguments, context)
          context.recorder.recordListings()
        }
        try command.run(context)
      }
      try output.flush()
      return .success
    } catch {
      output.discard()
      if let error = error as? OutputError, error.isBrokenPipe { return .success }
      var failure = DiaryError(error)
      if let saved = output.saved {
        failure.message =
          "\(saved), but could not print: \((error as? OutputError)?.reason ?? failure.message)"
      }
      output.message(
        json
          ? errorJSON(failure, saved: output.saved)
          : "diary: error: \(failure.message)" + (failure.usage.map { "\nusage: \($0)" } ?? ""))
      return failure.exitCode
    }
  }

  /// The error `--json` prints on standard error: one line of JSON, so that it is the last
  /// line there whatever warnings came before it, its keys sorted as in the output.
  ///
  /// ```json
  /// {"error": {"exitCode": 64, "message": "unknown command 'frob'", "saved": null, "usage": "diary …"}}
  /// ```
  ///
  /// `message` is the text `diary: error:` is followed by without `--json`, `exitCode` the
  /// code the process exits with, `usage` the usage line of a mistake in the command line (else
  /// `null`), and `saved` what the command saved before it failed ("added todo 1"; else
  /// `null`).
  static func errorJSON(_ failure: DiaryError, saved: String?) -> String {
    func string(_ text: String?) -> String {
      // A string is one line, its line breaks escaped; JSON can hold any.
      text.flatMap { try? JSONOutput.text(JSONValue.string($0)) } ?? "null"
    }
    return #"{"error": {"exitCode": \#(failure.exitCode.rawValue), "#
      + #""message": \#(string(failure.message)), "saved": \#(string(saved)), "#
      + #""usage": \#(string(failure.usage))}}"#
  }

  /// What a run inside a test printed and how it exited.
  struct Result: Equatable {
    var exitCode: ExitCode
    var output: String
    var errorOutput: String
  }

  /// Runs `arguments` with the output kept in memory.
  static func run(
    _ arguments: [String], environment: [String: String], terminal: Terminal,
    now: Date = Date(), timeZone: TimeZone = .current, downloads: DownloadWait = DownloadWait()
  ) -> Result {
    let standardOutput = TextSink()
    let standardError = TextSink()
    let exitCode = run(
      arguments, environment: environment,
      output: Output(standardOutput: standardOutput, standardError: standardError),
      terminal: terminal, time: LocalTime(now: now, timeZone: timeZone), downloads: downloads)
    return Result(
      exitCode: exitCode, output: standardOutput.text, errorOutput: standardError.text)
  }
}
