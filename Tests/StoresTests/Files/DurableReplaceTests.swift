import Foundation
import StoreTesting
import Testing

@testable import Stores

/// The order of a durable replace's two flushes, recorded through its seam: what each flush
/// finds on disk is what a crash at that moment would leave to the drive.
@Suite("Flushes of a durable replace")
struct DurableReplaceTests {
  let folder = TemporaryFolder()

  /// Replaces `notes.json` (holding "old") with "new" through `flushes`.
  func replace(_ flushes: FileSystem.Flushes) throws {
    let url = folder.write("old", to: "notes.json")
    let data = try DataFolder(opening: folder.url.path, for: url.path)
    _ = try FileSystem.replace(
      "notes.json", in: data, creating: false, path: url.path, flushes: flushes
    ) { output in
      Array("new".utf8).withUnsafeBytes { output.append($0) }
    }
  }

  @Test("the new file is flushed whole before the rename, the folder after it, once each")
  func order() throws {
    let url = folder.file("notes.json")
    var steps: [String] = []
    try replace(
      FileSystem.Flushes(
        beforeRename: { file in
          var info = stat()
          fstat(file, &info)
          // The new file holds all its bytes; its name is still the old file's.
          steps.append("before: \(info.st_size) bytes, name \(text(url) ?? "none")")
          return 0
        },
        afterRename: { folder, file in
          var opened = stat()
          var named = stat()
          fstat(file, &opened)
          fstatat(folder, "notes.json", &named, 0)
          // The folder's entry is now the new file.
          steps.append(
            "after: name \(text(url) ?? "none"), same file \(FileKey(opened) == FileKey(named))")
        }))
    #expect(steps == ["before: 3 bytes, name old", "after: name new, same file true"])
  }

  @Test("a failed flush before the rename replaces nothing and leaves no file behind")
  func failedFlush() {
    var flushedAfter = false
    #expect(throws: StoreFileError.self) {
      try replace(
        FileSystem.Flushes(beforeRename: { _ in EIO }, afterRename: { _, _ in flushedAfter = true })
      )
    }
    #expect(text(folder.file("notes.json")) == "old")
    #expect(folder.names == ["notes.json"])
    #expect(!flushedAfter)
  }
}
