import Foundation
import StoreTesting
import Stores
import Testing

/// Owners and permissions of the files written: `0600` files and `0700` folders whatever the
/// umask; root keeps a file's owner, group and mode, gives new files the folder's owner, and
/// refuses another user's lock or data file; a file without permission is refused and kept.
@Suite("Owners and permissions", .serialized)
struct OwnershipTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("a data file without read or write permission is refused and kept")
  func permissions() throws {
    let file = folder.copy(
      fixturesFolder.appendingPathComponent("todos/sample.json"), as: "todos.json")
    #expect(TemporaryFolder.makeReadOnly(file))
    expectFailure(["todos", "add", "x"], exitCode: 73, message: file.path)
    #expect(diary.run("todos", "list").exitCode == 0)
    TemporaryFolder.makeWritable(file)

    chmod(file.path, 0)
    defer { chmod(file.path, 0o600) }
    var unprivileged = diary
    if TestPlatform.isRoot {
      // Root reads anything: run diary without the capabilities that let it.
      unprivileged.launcher = TestPlatform.rootWithoutOverride
    }
    // The data, without the machine's home (its local state: the device id).
    func data() -> [String: Data] { folder.snapshot().filter { !$0.key.hasPrefix("home/") } }
    let before = data()
    let result = unprivileged.run(["todos", "list"])
    #expect(result.exitCode == 66, "\(result.errorOutput)")
    #expect(result.errorOutput.contains("cannot read \(file.path): Permission denied"))
    #expect(data() == before)
  }
}
