import Foundation
import StoreTesting
import Testing

@testable import Stores

#if !canImport(Darwin)
  import FileVersionClient
  import FileVersionStandIn
#endif

/// iCloud Drive's conflict versions, kept outside the folder: merged as copies are, marked
/// resolved once the merge is durable, then let go of.
@Suite("iCloud Drive's conflict versions")
@MainActor
struct ICloudVersionTests {
  let folder = TemporaryFolder()

  /// What a test's versions did: which were marked merged, whether the rest were let go of.
  final class Record {
    var marked: [String] = []
    var removedOthers = 0
  }

  /// Versions outside the folder at `urls`, named by their files' names, recorded in `record`.
  func versions(_ urls: [URL], _ record: Record) -> ConflictVersions {
    ConflictVersions(
      unresolved: { _ in
        urls.filter { url in !record.marked.contains(url.lastPathComponent) }.map { url in
          ConflictVersion(name: url.lastPathComponent, url: url) {
            record.marked.append(url.lastPathComponent)
          }
        }
      },
      removeMerged: { _ in record.removedOthers += 1 })
  }

  @Test("another device's version is merged into the file, then marked merged and let go of")
  func mergesAVersion() throws {
    let laptopFolder = folder.file("laptop")
    let phoneFolder = folder.file("phone")
    _ = try divergedVersions(laptop: laptopFolder, phone: phoneFolder) { phone in
      try phone.trySend(.toggleTodo(id: phone.todos[0].id))
      try phone.trySend(.addTodo(Todo(title: "Call Ann")))
    }

    let record = Record()
    let merging = try deviceStore(
      "laptop", in: laptopFolder,
      versions: versions([phoneFolder.appendingPathComponent("todos.json")], record))
    try merging.trySend(.addTodo(Todo(title: "Water plants")))
    #expect(merging.todos.map(\.title).sorted() == ["Buy milk", "Call Ann", "Water plants"])
    #expect(merging.todos.first { $0.title == "Buy milk" }?.isDone == true)
    #expect(record.marked == ["todos.json"] && record.removedOthers == 1)
    #expect(merging.lastError == nil)
    // Written: a store that knows no versions reads the merge from the file.
    #expect(try deviceStore("laptop", in: laptopFolder).todos == merging.todos)
  }

  @Test("refresh() merges a version that appeared, as it merges a copy")
  func refreshMerges() throws {
    let laptopFolder = folder.file("laptop")
    let phoneFolder = folder.file("phone")
    _ = try divergedVersions(laptop: laptopFolder, phone: phoneFolder) { phone in
      try phone.trySend(.addTodo(Todo(title: "Call Ann")))
    }

    let record = Record()
    let merging = try deviceStore(
      "laptop", in: laptopFolder,
      versions: versions([phoneFolder.appendingPathComponent("todos.json")], record))
    try merging.refresh()
    #expect(merging.todos.map(\.title).sorted() == ["Buy milk", "Call Ann"])
    #expect(record.marked == ["todos.json"] && record.removedOthers == 1)
  }

  @Test("a version that is not a valid file is left unresolved and reported; nothing is lost")
  func invalidVersionStays() throws {
    let laptopFolder = folder.file("laptop")
    let laptop = try deviceStore("laptop", in: laptopFolder)
    try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
    let broken = folder.file("broken.json")
    try Data("{ \"todos\" : [".utf8).write(to: broken)

    let record = Record()
    let merging = try deviceStore("laptop", in: laptopFolder, versions: versions([broken], record))
    try merging.trySend(.addTodo(Todo(title: "Water plants")))
    #expect(merging.todos.map(\.title).sorted() == ["Buy milk", "Water plants"])
    #expect(record.marked.isEmpty && record.removedOthers == 0)
    #expect(merging.lastError.map { "\($0)" }?.contains("broken.json") == true)
    #expect(FileManager.default.fileExists(atPath: broken.path))
  }

  #if !canImport(Darwin)
    // On Apple platforms the adapter runs against Foundation's own NSFileVersion, in Stores.
    @Test("the adapter names each version by the device that saved it, marks and lets go of them")
    func adapter() throws {
      ICloudDrive.addContainer(folder.url)
      let file = folder.file("todos.json")
      try Data("{}".utf8).write(to: file)
      let fromPhone = NSFileVersion(url: folder.file("v1.json"), savedOn: "Anna's iPhone")
      let unnamed = NSFileVersion(url: folder.file("v2.json"), savedOn: nil)
      NSFileVersion.register(fromPhone, for: file)
      NSFileVersion.register(unnamed, for: file)
      let iCloud = try #require(ICloudDriveFile(file, timeout: .seconds(10)))
      let versions = iCloud.conflictVersions()
      #expect(
        versions.map(\.name) == ["iCloud version from Anna's iPhone", "iCloud version v2.json"])
      #expect(versions.map(\.url) == [fromPhone.url, unnamed.url])
      versions[0].markResolved()
      #expect(fromPhone.isResolved && !unnamed.isResolved)
      #expect(iCloud.conflictVersions().map(\.url) == [unnamed.url])
      iCloud.removeOtherVersions()
      #expect(NSFileVersion.removedOtherVersions(of: file))
      #expect(iCloud.conflictVersions().isEmpty)
    }
  #endif
}
