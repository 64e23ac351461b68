import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Removals across devices: a tombstone is kept until every writer's clock is past its
/// lifetime, even a clock months ahead; a version older than that which brings back a
/// removed item is merged and reported as a forgotten removal — as a copy, as the file a
/// running store finds renamed over its own, whatever copy came first — and a new device's
/// first copy, which brings nothing back, is not.
@Suite("Tombstones: kept until every writer's clock is past their lifetime")
@MainActor
struct TombstoneHorizonTests: DeviceFolderSuite {
  let folder = TemporaryFolder()

  static let day: Int64 = 86_400_000

  @Test("a device whose clock runs 100 days ahead keeps a removal another device's copy lacks")
  func clockAhead() throws {
    let phoneFolder = folder.file("phone")
    let laptopFolder = folder.file("laptop")
    for place in [phoneFolder, laptopFolder] {
      try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
    }
    let laptop = try deviceStore("laptop", in: laptopFolder)
    let milk = Todo(title: "Buy milk")
    try laptop.trySend(.addTodo(milk))
    try laptop.trySend(.addTodo(Todo(title: "Call Ann")))
    // The laptop's version before the removal, as a device that never saw it still has it.
    let before = try Data(contentsOf: laptopFolder.appendingPathComponent("todos.json"))
    // The phone, 100 days ahead, wrote the file once, then syncs the laptop's removal.
    let phoneFile = phoneFolder.appendingPathComponent("todos.json")
    try before.write(to: phoneFile)
    try deviceStore("phone", in: phoneFolder, ahead: 100 * 86_400_000)
      .trySend(.addTodo(Todo(title: "Water plants")))
    try laptop.trySend(.removeTodos(ids: [milk.id]))
    try FileManager.default.copyItem(
      at: laptopFolder.appendingPathComponent("todos.json"),
      to: phoneFolder.appendingPathComponent("todos.sync-conflict-20261201-135016-LAPTOP1.json"))
    let phone = try deviceStore("phone", in: phoneFolder, ahead: 100 * 86_400_000)
    try phone.trySend(.addTodo(Todo(title: "Pay rent")))
    #expect(!phone.todos.contains { $0.id == milk.id })
    // The version from before the removal arrives: the removal holds.
    try before.write(
      to: phoneFolder.appendingPathComponent("todos.sync-conflict-20261201-135017-TABLET1.json"))
    try phone.refresh()
    #expect(!phone.todos.contains { $0.id == milk.id }, "the removal is kept")
    #expect(Set(phone.todos.map(\.title)) == ["Call Ann", "Water plants", "Pay rent"])
  }

  @Test(
    "a version from before the tombstones' horizon that brings a forgotten removal back is reported, as a copy or as the file"
  )
  func forgottenRemovalReported() throws {
    // A tablet that never changed the file kept the laptop's version from 100 days ago.
    let milk = Todo(title: "Buy milk")
    try deviceStore("laptop", in: folder.url, ahead: -100 * 86_400_000).trySend(.addTodo(milk))
    let old = try Data(contentsOf: folder.file("todos.json"))
    // The laptop removed it, and has since dropped the removal.
    try deviceStore("laptop", in: folder.url, ahead: -95 * 86_400_000)
      .trySend(.removeTodos(ids: [milk.id]))
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(text(folder.file("todos.json"))?.contains("Buy milk") == false, "forgotten")
    let copy = "todos.sync-conflict-20261201-135016-TABLET1.json"
    try old.write(to: folder.file(copy))
    let reader = try deviceStore("laptop", in: folder.url)
    try reader.refresh()
    #expect(reader.todos.map(\.title).sorted() == ["Buy milk", "Call Ann"], "it comes back")
    #expect(reader.core.mergeReport.forgottenRemovals.map(\.name) == [copy])
    #expect(reader.core.mergeReport.forgottenRemovals.map(\.count) == [1])
    // The other way round: the old version renamed over the file, the newer one a copy.
    try reader.trySend(.removeTodos(ids: [milk.id]))
    let newer = try Data(contentsOf: folder.file("todos.json"))
    try deviceStore("laptop", in: folder.url, ahead: 91 * 86_400_000).trySend(
      .toggleTodo(id: reader.todos[0].id))
    try Data(contentsOf: folder.file("todos.json")).write(to: folder.file(copy))
    try old.write(to: folder.file("todos.json"))
    let other = try deviceStore("laptop", in: folder.url, ahead: 91 * 86_400_000)
    try other.refresh()
    // Weighed against the laptop's outbox (its newer version) and against the copy: both say
    // the old file brought it back.
    #expect(other.core.mergeReport.forgottenRemovals.map(\.count) == [1, 1])
    #expect(other.core.mergeReport.forgottenRemovals.map(\.name) == ["todos.json", copy])
    // A version as old whose every item the file knows brings nothing back: nothing said.
    try newer.write(to: folder.file(copy))
    try other.refresh()
    #expect(other.core.mergeReport.merged == [copy])
    #expect(other.core.mergeReport.forgottenRemovals.isEmpty)
  }

  @Test("once every writer's clock is past their lifetime, tombstones are dropped")
  func dropped() throws {
    let laptop = try deviceStore("laptop", in: folder.url)
    let milk = Todo(title: "Buy milk")
    try laptop.trySend(.addTodo(milk))
    try laptop.trySend(.removeTodos(ids: [milk.id]))
    #expect(text(folder.file("todos.json"))?.contains("Buy milk") == true, "the tombstone")
    try deviceStore("laptop", in: folder.url, ahead: 91 * 86_400_000)
      .trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(text(folder.file("todos.json"))?.contains("Buy milk") == false, "dropped")
  }

  // MARK: Forgotten removals

  /// A store that runs finds its file replaced by a version from before the tombstones'
  /// horizon (a backup put back, or another device's old version renamed over it without a
  /// copy): the store merges back what it knew and the old version's todo, whose removal was
  /// forgotten, comes back — reported, as when the old version arrives as a copy.
  @Test("a forgotten removal brought back by the merge-back of a running store is reported")
  func forgottenRemovalOnMergeBack() throws {
    let milk = Todo(title: "Buy milk")
    try deviceStore("laptop", in: folder.url, ahead: -100 * Self.day).trySend(.addTodo(milk))
    let old = try Data(contentsOf: folder.file("todos.json"))
    try deviceStore("laptop", in: folder.url, ahead: -95 * Self.day).trySend(
      .removeTodos(ids: [milk.id]))
    let running = try deviceStore("laptop", in: folder.url)
    try running.trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(text(folder.file("todos.json"))?.contains("Buy milk") == false, "forgotten")
    // The old version is renamed over the file (a new inode, as a sync engine or a restore
    // does), with no copy beside it.
    let incoming = folder.file(".syncthing.todos.json.tmp")
    try old.write(to: incoming)
    #expect(rename(incoming.path, folder.file("todos.json").path) == 0)
    try running.refresh()
    #expect(Set(running.todos.map(\.title)) == ["Buy milk", "Call Ann"], "it came back")
    #expect(
      running.core.mergeReport.forgottenRemovals.map(\.count) == [1],
      "the revival is reported: \(running.core.mergeReport.forgottenRemovals)")
  }

  /// A new device (or one whose diary was started anew) writes the file before its first
  /// sync: its version knows none of the file's todos, because it never saw them — not
  /// because it removed them. Merging it brings nothing back, and nothing is reported: its
  /// writers share none with the file's, so it can have removed nothing of it.
  @Test("a new device's first copy, which brings nothing back, is not reported")
  func newDeviceCopyIsNotAForgottenRemoval() throws {
    let laptopFolder = try subfolder("laptop")
    let phoneFolder = try subfolder("phone")
    try deviceStore("laptop", in: laptopFolder, ahead: -100 * Self.day)
      .trySend(.addTodo(Todo(title: "Buy milk")))
    try deviceStore("laptop", in: laptopFolder).trySend(.addTodo(Todo(title: "Call Ann")))
    try deviceStore("phone", in: phoneFolder).trySend(.addTodo(Todo(title: "Pay rent")))
    try FileManager.default.copyItem(
      at: phoneFolder.appendingPathComponent("todos.json"),
      to: laptopFolder.appendingPathComponent("todos.sync-conflict-20261201-135016-PHONE12.json"))
    let laptop = try deviceStore("laptop", in: laptopFolder)
    let before = Set(laptop.todos.map(\.id))
    try laptop.refresh()
    #expect(laptop.core.mergeReport.merged.count == 1)
    #expect(Set(laptop.todos.map(\.title)) == ["Buy milk", "Call Ann", "Pay rent"])
    #expect(before.isSubset(of: Set(laptop.todos.map(\.id))), "nothing of the file was gone")
    #expect(
      laptop.core.mergeReport.forgottenRemovals.isEmpty,
      "nothing came back: \(laptop.core.mergeReport.forgottenRemovals)")
  }

  /// Two copies arrive together: a tablet's, made offline 150 days ago (a device the file
  /// never heard of), and the phone's version from 100 days ago holding a todo the laptop
  /// removed 95 days ago and has since forgotten. The phone's copy is reported whether or not
  /// the tablet's is merged first: each copy is weighed against the file as stored, not
  /// against the writers an earlier copy's old clock lowered.
  @Test(
    "a forgotten removal is reported whatever other copy is merged before it",
    arguments: [false, true])
  func forgottenRemovalAfterAnOldDevicesCopy(withTablet: Bool) throws {
    let laptopFolder = try subfolder("laptop")
    let tabletFolder = try subfolder("tablet")
    try deviceStore("tablet", in: tabletFolder, ahead: -150 * Self.day)
      .trySend(.addTodo(Todo(title: "Tablet todo")))
    let bread = Todo(title: "Buy bread")
    try deviceStore("laptop", in: laptopFolder, ahead: -100 * Self.day).trySend(.addTodo(bread))
    let old = try Data(contentsOf: laptopFolder.appendingPathComponent("todos.json"))
    try deviceStore("laptop", in: laptopFolder, ahead: -95 * Self.day)
      .trySend(.removeTodos(ids: [bread.id]))
    try deviceStore("laptop", in: laptopFolder).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(
      text(laptopFolder.appendingPathComponent("todos.json"))?.contains("Buy bread") == false,
      "forgotten")
    let tabletCopy = "todos.sync-conflict-20261201-000000-TABLET1.json"
    let phoneCopy = "todos.sync-conflict-20261202-000000-PHONE12.json"
    if withTablet {
      try FileManager.default.copyItem(
        at: tabletFolder.appendingPathComponent("todos.json"),
        to: laptopFolder.appendingPathComponent(tabletCopy))
    }
    try old.write(to: laptopFolder.appendingPathComponent(phoneCopy))
    let laptop = try deviceStore("laptop", in: laptopFolder)
    try laptop.refresh()
    #expect(laptop.core.mergeReport.merged == (withTablet ? [tabletCopy, phoneCopy] : [phoneCopy]))
    #expect(laptop.todos.contains { $0.id == bread.id }, "it came back")
    #expect(
      laptop.core.mergeReport.forgottenRemovals.map(\.name).contains(phoneCopy),
      "the phone's copy brought it back: \(laptop.core.mergeReport.forgottenRemovals)")
  }

  /// A version 1 file (a device still on the previous release, or a backup from before the
  /// upgrade) arrives as a copy holding a todo the laptop removed 95 days ago and has since
  /// forgotten: its todos are stamped ``Stamp/origin``, so the merge brings the todo back —
  /// reported, as every todo of a version without stamps that the file does not know is.
  @Test("a version 1 copy that brings back a forgotten removal is reported")
  func forgottenRemovalFromAVersion1Copy() throws {
    let bread = Todo(title: "Buy bread", date: Date(timeIntervalSince1970: 1_750_000_000))
    try deviceStore("laptop", in: folder.url, ahead: -100 * Self.day).trySend(.addTodo(bread))
    try deviceStore("laptop", in: folder.url, ahead: -95 * Self.day).trySend(
      .removeTodos(ids: [bread.id]))
    try deviceStore("laptop", in: folder.url).trySend(.addTodo(Todo(title: "Call Ann")))
    #expect(text(folder.file("todos.json"))?.contains("Buy bread") == false, "forgotten")
    let copy = "todos.sync-conflict-20261202-000000-TABLET1.json"
    try Data(
      """
      { "todos" : [ { "id" : "\(bread.id.uuidString)", "title" : "Buy bread",
          "date" : "2025-06-15T15:06:40Z", "isDone" : false, "priority" : 0 } ],
        "version" : 1 }
      """.utf8
    ).write(to: folder.file(copy))
    let laptop = try deviceStore("laptop", in: folder.url)
    try laptop.refresh()
    #expect(laptop.core.mergeReport.merged == [copy])
    #expect(laptop.todos.contains { $0.id == bread.id }, "it came back")
    #expect(
      laptop.core.mergeReport.forgottenRemovals.map(\.name) == [copy],
      "reported: \(laptop.core.mergeReport.forgottenRemovals)")
  }
}
