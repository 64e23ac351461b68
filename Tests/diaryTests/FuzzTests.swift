import Foundation
import StoreTesting
import TestSupport
import Testing

@testable import diary

/// Random command lines through the whole tool, and the fuzzer's regression corpus.
@MainActor
@Suite("Fuzzing")
struct FuzzTests {
  let folder = TemporaryFolder()

  /// Tokens a command line is made of: every name the tool knows, near misses, values of
  /// every kind, and hostile text.
  static let tokens = Gen<String>.frequency([
    (
      6,
      .element(of: [
        "settings", "todos", "workouts", "help", "list", "get", "set", "reset", "path", "add",
        "done", "undone", "remove", "move", "order", "remove-completed", "sort", "stats",
        "sleepGoal", "isNotificationsEnabled", "distanceUnit", "date", "priority", "distance",
        "complexity", "--json", "--help", "-h", "--version", "--", "--active", "--completed",
        "--search", "--min-priority", "--priority", "--date", "--to", "--distance",
        "--complexity", "--priority=2", "--to=1", "1", "2", "0", "-1", "3", "99999999999999999999",
        "7.5", "nan", "yes", "miles", "high", "today", "2026-11-29", "", " ", "--bogus", "-x",
        "--type", "string", "bool", "theme", "none", "5km", "3.1 mi", ".5", "-.5", "tomorrow",
        "2026-11-29T07:30", "1000-01-01", "--data-dir=", "-v", "-j", "--done",
      ])
    ),
    (1, .string(maxCount: 12)),
    (1, .element(of: ["\u{1B}[31m", "\0", "\u{202E}", "é\u{301}", "🏃🏽‍♀️", "\n"])),
  ])

  @Test(
    "any command line: an exit code of sysexits, text that cannot drive a terminal, no file changed by a failure"
  )
  func randomCommandLines() throws {
    let lines = Gen<[String]>.array(of: Self.tokens, maxCount: 8)
    let allowed: Set<ExitCode> = [.success, .usage, .dataError, .noInput, .cannotCreate]
    check(lines, iterations: 300) { arguments in
      let before = folder.snapshot()
      let result = Diary.run(
        arguments,
        environment: [
          "DIARY_HOME": folder.url.path, "HOME": folder.file("home").path,
          "STORES_STATE_HOME": folder.file("state").path,
        ],
        terminal: Terminal(usesColor: false))
      try require(allowed.contains(result.exitCode), "exit \(result.exitCode)")
      try require(!result.errorOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\0" })
      if result.exitCode != .success {
        try requireEqual(folder.snapshot(), before, "a failed command changed a file")
        try require(
          result.errorOutput.hasPrefix(
            Parser.asksForJSON(arguments) ? #"{"error": {"exitCode": "# : "diary: error: "),
          result.errorOutput)
      }
      try require(
        !FileManager.default.fileExists(atPath: folder.file("home").path),
        "wrote outside the data folder")
    }
  }

  @Test("every input that ever crashed the file fuzzer is read or refused cleanly now")
  func fuzzRegressions() throws {
    let corpus = try FileManager.default.contentsOfDirectory(
      atPath: fixturesFolder.appendingPathComponent("fuzz").path
    ).filter { $0 != "README.md" }.map { fixturesFolder.appendingPathComponent("fuzz/\($0)").path }
    let hostile = ["settings", "todos", "workouts"].flatMap { kind in
      ((try? FileManager.default.contentsOfDirectory(
        atPath: fixturesFolder.appendingPathComponent("hostile/\(kind)").path)) ?? [])
        .map { fixturesFolder.appendingPathComponent("hostile/\(kind)/\($0)").path }
    }
    let replay = Process()
    replay.executableURL = BuildProducts.executable("stores-fuzz")
    replay.arguments = corpus + hostile
    try replay.run()
    replay.waitUntilExit()
    #expect(replay.terminationReason == .exit && replay.terminationStatus == 0)
  }
}
