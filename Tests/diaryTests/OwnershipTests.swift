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

  @Test(
    "root writing a user's file keeps its owner, group and mode; new files get the folder's",
    .enabled(if: TestPlatform.isRoot, "needs root to give files to another user"))
  @MainActor
  func keepsTheOwner() throws {
    let (uid, gid): (uid_t, gid_t) = (54_321, 54_322)
    let data = folder.file("user")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    #expect(chown(data.path, uid, gid) == 0)
    let user = DiaryProcess(folder: data)
    #expect(user.run("todos", "add", "first").exitCode == 0)
    for name in ["todos.json", "todos.json.lock"] {
      let info = try fileInfo(data.appendingPathComponent(name))
      #expect((info.st_uid, info.st_gid) == (uid, gid), "\(name) belongs to the folder's owner")
      #expect(info.st_mode & 0o777 == 0o600, "\(name)")
    }
    chmod(data.appendingPathComponent("todos.json").path, 0o640)
    #expect(user.run("todos", "add", "second").exitCode == 0)
    let info = try fileInfo(data.appendingPathComponent("todos.json"))
    #expect((info.st_uid, info.st_gid) == (uid, gid))
    #expect(info.st_mode & 0o777 == 0o640)
    let nested = DiaryProcess(folder: data.appendingPathComponent("sub/folder"))
    #expect(nested.run("settings", "set", "sleepGoal", "7").exitCode == 0)
    let created = try fileInfo(data.appendingPathComponent("sub"))
    #expect((created.st_uid, created.st_gid) == (uid, gid))
    #expect(created.st_mode & 0o777 == 0o700)
  }

  @Test(
    "a restrictive umask still makes files the next write can replace",
    arguments: [
      "0277", "0377", "0777",
    ])
  @MainActor
  func umask(mask: String) throws {
    var masked = DiaryProcess(folder: folder.file("data"))
    masked.launcher = ["/bin/sh", "-c", "umask \(mask); exec \"$0\" \"$@\""]
    for title in ["one", "two", "three"] {
      let result = masked.run("todos", "add", title)
      #expect(result.exitCode == 0, "\(result.errorOutput)")
    }
    #expect(masked.run("settings", "set", "sleepGoal", "6").exitCode == 0)
    #expect(masked.run("settings", "set", "sleepGoal", "7").exitCode == 0)
    #expect(try fileInfo(folder.file("data")).st_mode & 0o777 == 0o700)
    for name in ["todos.json", "todos.json.lock", "settings.json"] {
      #expect(try fileInfo(folder.file("data/\(name)")).st_mode & 0o777 == 0o600, "\(name)")
    }
    #expect(try TodosStore(contentsOf: folder.file("data/todos.json")).todos.count == 3)
  }

  @Test(
    "root refuses a lock or data file of a third user planted in another user's folder",
    .enabled(if: TestPlatform.isRoot, "needs root to give files to other users"))
  @MainActor func filesOfAThirdUser() throws {
    let data = folder.file("user")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    #expect(chown(data.path, 54_321, 54_321) == 0)
    let user = DiaryProcess(folder: data)
    #expect(user.run("todos", "add", "first").exitCode == 0)
    #expect(chown(data.appendingPathComponent("todos.json.lock").path, 12_345, 12_345) == 0)
    #expect(user.run("todos", "add", "second").exitCode == 73)
    #expect(chown(data.appendingPathComponent("todos.json.lock").path, 54_321, 54_321) == 0)
    #expect(chown(data.appendingPathComponent("todos.json").path, 12_345, 12_345) == 0)
    let result = user.run("todos", "add", "second")
    #expect(result.exitCode == 73)
    #expect(result.errorOutput.contains("belongs to user 12345"), "\(result.errorOutput)")
    #expect(try TodosStore(contentsOf: data.appendingPathComponent("todos.json")).todos.count == 1)
  }

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

  func fileInfo(_ url: URL) throws -> stat {
    var info = stat()
    try #require(lstat(url.path, &info) == 0, "\(url.path)")
    return info
  }
}
