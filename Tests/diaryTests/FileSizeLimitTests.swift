import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// The file size limit (`ulimit -f`): a write it stops part way — `diary`'s, the library's, an
/// export's — fails with a clear error (74), never SIGXFSZ, replaces nothing and leaves
/// nothing behind.
@Suite("The file size limit", .serialized)
struct FileSizeLimitTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }
  static let writer = BuildProducts.executable("stores-writer")

  @Test("a write that fails part way through a large file replaces nothing and leaves nothing")
  @MainActor
  func writeFailingPartWay() throws {
    // 20,000 todos, about 4 MB: written in many parts, of which the first fit under the
    // file size limit (1 or 2 MB, as the shell counts its blocks) and a later one does not.
    let original = todosFile(count: 20_000)
    let url = folder.write(original, to: "todos.json")
    var limited = diary
    limited.launcher = ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f 2048; exec \"$0\" \"$@\""]
    let result = limited.run("todos", "add", "one too many")
    #expect(result.exitCode == 74)
    #expect(
      result.errorOutput
        == "diary: error: cannot write \(url.path): File too large\n", "\(result.errorOutput)")
    #expect(try String(contentsOf: url, encoding: .utf8) == original)
    // Beside the data, only the machine's home (its local state: the device id).
    #expect(folder.names == ["home", "todos.json", "todos.json.lock"])
    // Without the limit, the same command writes the whole file.
    #expect(diary.run("todos", "add", "one too many").exitCode == 0)
    #expect(try TodosStore(contentsOf: url).todos.count == 20_001)
  }

  @Test("a file size limit fails diary's write with 74, not SIGXFSZ, and leaves nothing")
  func fileSizeLimitInDiary() throws {
    let original = todosFile(count: 20_000)
    let url = folder.write(original, to: "todos.json")
    let result = try run(DiaryProcess.binary, ["todos", "add", "x"], after: "ulimit -f 2048")
    #expect(result.status == 74, "\(result.errorOutput)")
    #expect(result.errorOutput == "diary: error: cannot write \(url.path): File too large\n")
    #expect(try String(contentsOf: url, encoding: .utf8) == original)
    // Beside the data, at most the machine's home (its local state: the device id).
    #expect(
      folder.names.filter { $0 != "home" } == ["todos.json", "todos.json.lock"],
      "no temporary file is left")
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
    // Beside the data, at most the machine's home (its local state: the device id).
    #expect(
      folder.names.filter { $0 != "home" } == ["todos.json", "todos.json.lock"],
      "no temporary file is left")
  }
}
