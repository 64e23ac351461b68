import Foundation
import StoreTesting
import Stores
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's limits — the file size limit (`ulimit -f`), the process limit (`ulimit -u`)
/// — and lock waits on a stopped holder: each ends in a clear error, never a killed process,
/// a file left behind, or threads and descriptors piling up.
@Suite("Reliability: limits and waits", .serialized)
struct LimitTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }
  static let writer = DiaryProcess.builtProduct("stores-writer")

  /// Runs `binary` with `arguments` through `sh -c "SETUP; exec …"`, and returns its exit
  /// status (a signal that killed it as 128 + the signal) and its standard error.
  func run(
    _ binary: URL, _ arguments: [String], after setup: String, output: String = "/dev/null"
  ) throws -> (status: Int32, errorOutput: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "\(setup); exec \"$0\" \"$@\" > '\(output)'", binary.path] + arguments
    process.environment = diary.environment
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorOutput = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let status = process.terminationStatus + (process.terminationReason == .uncaughtSignal ? 128 : 0)
    return (status, errorOutput)
  }

  @Test("a file size limit fails diary's write with 74, not SIGXFSZ, and leaves nothing")
  func fileSizeLimitInDiary() throws {
    let original = todosFile(count: 20_000)
    let url = folder.write(original, to: "todos.json")
    let result = try run(DiaryProcess.binary, ["todos", "add", "x"], after: "ulimit -f 2048")
    #expect(result.status == 74, "\(result.errorOutput)")
    #expect(result.errorOutput == "diary: error: cannot write \(url.path): File too large\n")
    #expect(try String(contentsOf: url, encoding: .utf8) == original)
    #expect(folder.names == ["todos.json", "todos.json.lock"], "no temporary file is left")
  }

  @Test("a file size limit fails an export to a file with 74, not SIGXFSZ")
  func fileSizeLimitOnOutput() throws {
    let workouts = (0..<20_000).map { index in
      #"{"complexity": "low", "date": "2026-11-29T07:30:00Z", "distance": 5, "#
        + #""id": "\#(String(format: "00000000-0000-4000-8000-%012X", index))", "#
        + #""name": "run \#(index)"}"#
    }
    folder.write(
      #"{"version": 1, "workouts": ["# + workouts.joined(separator: ",") + "]}",
      to: "workouts.json")
    let export = folder.file("export.csv").path
    let result = try run(
      DiaryProcess.binary, ["workouts", "export"], after: "ulimit -f 64", output: export)
    #expect(result.status == 74, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("File too large"), "\(result.errorOutput)")
  }

  @Test("a file size limit fails the library's write with an error, and leaves nothing")
  func fileSizeLimitInTheLibrary() throws {
    let url = folder.write(todosFile(count: 20_000), to: "todos.json")
    let result = try run(Self.writer, ["todos", url.path, "1", "x"], after: "ulimit -f 2048")
    #expect(result.status == 74, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("File too large"), "\(result.errorOutput)")
    #expect(folder.names == ["todos.json", "todos.json.lock"], "no temporary file is left")
  }
}
