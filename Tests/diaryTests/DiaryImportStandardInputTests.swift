import Foundation
import StoreTesting
import Stores
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `diary workouts import -`: standard input is descriptor 0 itself, on every platform — read
/// from its current offset to its end (as `cat` reads it: the offset it shares with the shell
/// ends at the end), its flags never changed, a non-blocking pipe waited on rather than spun
/// on — named "standard input" in messages, and given once.
@Suite("diary workouts import -: standard input")
struct DiaryImportStandardInputTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @MainActor
  func workouts() throws -> [Workout] {
    try WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts
  }

  /// A CSV file of `count` runs named from `first` on.
  func runs(_ count: Int, from first: Int = 0) -> String {
    "name,distance,date\n"
      + (first..<first + count).map { "Run \($0),\($0 % 7 + 1),2026-11-29\n" }.joined()
  }

  @Test("a pipe is read to its end and named standard input, in the report and in errors")
  @MainActor
  func pipe() throws {
    let result = diary.run(["workouts", "import", "-"], input: Data(runs(5_000).utf8))
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(result.output == "Added 5000 workouts from standard input.\n")
    #expect(try workouts().count == 5_000)
    let bad = diary.run(
      ["workouts", "import", "-"], input: Data("name,distance\nRun,far\n".utf8))
    #expect(bad.exitCode == 65)
    #expect(bad.errorOutput.hasPrefix("diary: error: standard input: "), "\(bad.errorOutput)")
    let json = diary.run(["--json", "workouts", "import", "-"], input: Data(runs(2).utf8))
    #expect(json.output.contains("\"file\" : \"standard input\""), "\(json.output)")
  }

  @Test("a regular file as standard input is read from the offset the shell left it at, to its end")
  @MainActor
  func regularFileFromItsOffset() throws {
    // What `{ read line; diary workouts import -; } < file` does: the first line was read by
    // another command. Reading the file from its start would take that line for the header.
    let skipped = "a line another command read\n"
    let file = folder.write(skipped + runs(3), to: "input.csv")
    let input = try FileHandle(forReadingFrom: file)
    defer { try? input.close() }
    try input.seek(toOffset: UInt64(skipped.utf8.count))
    let result = diary.run(["workouts", "import", "-"], standardInput: input)
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(result.output == "Added 3 workouts from standard input.\n")
    #expect(try workouts().map(\.name) == ["Run 0", "Run 1", "Run 2"])
    // The offset is shared: the next command after diary finds the end, as after `cat`.
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
    #expect(try Int(input.offset()) == size)
  }

  @Test("- on a device or a folder (/dev/null, a closed input) says so and how to pipe a file in")
  func deviceOrFolder() throws {
    // No input given: the process's standard input is /dev/null.
    let fix = "such as diary workouts import - < activities.csv"
    let null = diary.run("workouts", "import", "-")
    #expect(null.exitCode == 66)
    #expect(
      null.errorOutput.hasPrefix(
        "diary: error: - reads the workouts from standard input, which is a device or a folder, "
          + "not a file, pipe or socket: pipe a file in, \(fix)\n"), "\(null.errorOutput)")
    #expect(!null.errorOutput.contains("choose another path"))
    let input = try #require(FileHandle(forReadingAtPath: folder.url.path))
    defer { try? input.close() }
    let directory = diary.run(["workouts", "import", "-"], standardInput: input)
    #expect(directory.exitCode == 66)
    #expect(directory.errorOutput.contains(fix), "\(directory.errorOutput)")
  }

  @Test("- given twice is refused: it can be read only once")
  func twice() {
    let file = folder.write(runs(2), to: "runs.csv")
    for arguments in [["-", "-"], ["-", file.path, "-"]] {
      expectFailure(
        ["workouts", "import"] + arguments, exitCode: 64,
        message: "- (standard input) is given twice, but it can be read only once: give it once")
    }
  }

  @Test("a non-blocking pipe as standard input is waited on, not spun on, and left non-blocking")
  @MainActor
  func nonBlockingPipe() throws {
    let pipe = Pipe()
    let reading = pipe.fileHandleForReading.fileDescriptor
    #expect(fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK) == 0)
    // The same open file description as diary's descriptor 0, to see its flags afterwards.
    let probe = dup(reading)
    defer { close(probe) }
    let text = runs(1_000)
    let half = text.utf8.count / 2
    let writing = pipe.fileHandleForWriting
    Thread.detachNewThread {
      // Half, then nothing for a while: a reader that spins burns that while in CPU time.
      try? writing.write(contentsOf: Data(text.utf8.prefix(half)))
      Thread.sleep(forTimeInterval: 1)
      try? writing.write(contentsOf: Data(text.utf8.dropFirst(half)))
      try? writing.close()
    }
    // The shell's `times` tells the CPU time diary took (its second line: its children).
    var timed = diary
    timed.launcher = ["/bin/sh", "-c", "\"$0\" \"$@\"; status=$?; times >&2; exit $status"]
    let result = timed.run(["workouts", "import", "-"], standardInput: pipe.fileHandleForReading)
    #expect(result.exitCode == 0, "\(result.errorOutput)")
    #expect(result.output == "Added 1000 workouts from standard input.\n")
    #expect(try workouts().count == 1_000)
    let lines = result.errorOutput.split(separator: "\n")
    let seconds = try #require(lines.last).split(separator: " ").map { time in
      // "0m0.012000s"
      let parts = time.dropLast().split(separator: "m")
      return (Double(parts.first ?? "") ?? .infinity) * 60 + (Double(parts.last ?? "") ?? 0)
    }
    #expect(seconds.count == 2 && seconds.reduce(0, +) < 0.5, "\(result.errorOutput)")
    #expect(fcntl(probe, F_GETFL) & O_NONBLOCK != 0, "diary changed its standard input's flags")
  }
}
