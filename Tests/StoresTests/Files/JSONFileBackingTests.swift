import Foundation
import StoreTesting
import Stores
import Testing

@MainActor
@Suite("JSON file persistence")
struct JSONFileBackingTests {
  let folder = TemporaryFolder()

  @Test("a missing file is the empty state, and reading creates nothing")
  func missingFile() throws {
    let url = folder.file("data/notes.json")
    let store = try NotesStore(contentsOf: url)
    #expect(store.state.notes.isEmpty)
    try store.refresh()
    store.send(.clear)
    #expect(folder.names.isEmpty)
  }

  @Test("the first write creates the folder 0700 and the file 0600, pretty and sorted")
  func firstWrite() throws {
    let url = folder.file("new/deeper/notes.json")
    let store = try NotesStore(contentsOf: url)
    let date = Date(timeIntervalSinceReferenceDate: 817_630_200.25)
    try store.trySend(.add(.init(text: "hello / world", date: date)))
    #expect(permissions(folder.file("new")) == 0o700)
    #expect(permissions(folder.file("new/deeper")) == 0o700)
    #expect(permissions(url) == 0o600)
    #expect(permissions(folder.file("new/deeper/notes.json.lock")) == 0o600)
    #expect(
      text(url) == """
        {
          "notes" : [
            {
              "date" : "2026-11-29T07:30:00.25Z",
              "text" : "hello / world"
            }
          ],
          "version" : 1
        }

        """)
  }

  @Test("what was saved loads back equal, dates to the last bit")
  func roundTrip() throws {
    let url = folder.file("notes.json")
    let store = try NotesStore(contentsOf: url)
    let dates = [
      Date(), Date(timeIntervalSinceReferenceDate: -1e-7),
      Date(timeIntervalSince1970: -5e9 + 1 / 3),
    ]
    for (index, date) in dates.enumerated() {
      try store.trySend(.add(.init(text: "\(index)", date: date)))
    }
    let reopened = try NotesStore(contentsOf: url)
    #expect(reopened.state == store.state)
    #expect(reopened.state.notes.map(\.date) == dates)
  }

  @Test("a date that cannot be written fails the action and changes nothing")
  func unwritableDate() throws {
    let url = folder.file("notes.json")
    let store = try NotesStore(contentsOf: url)
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.add(.init(text: "too old", date: .distantPast)))
    }
    #expect(error?.description.contains("notes[0].date: its year is outside 1…9999") == true)
    #expect(store.state.notes.isEmpty)
    #expect(folder.names == ["notes.json.lock"])
  }

  @Test("a file of many parts is written as encoded at once; a failure at its end, not at all")
  func streamedFile() throws {
    // About 1 MB in notes of 200 bytes, and one note longer than a part: written in parts.
    let url = folder.file("notes.json")
    let long = String(repeating: "long ", count: 100_000)
    let notes = (0..<5_000).map {
      NotesStore.Note(text: "\($0) " + String(repeating: "x", count: 200), date: Date())
    }
    folder.write(
      try StateFileCoding.encode(NotesStore.State(notes: notes), path: url.path), to: "notes.json")
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: long, date: Date())))
    try store.trySend(.add(.init(text: "last", date: Date())))
    let written = try Data(contentsOf: url)
    #expect(written.count > 4 * 256 * 1024)
    #expect(written == (try StateFileCoding.encode(store.state, path: url.path)))

    // The note that cannot be written comes last, after the first parts went to the file.
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.add(.init(text: "too old", date: .distantPast)))
    }
    #expect(error?.description.contains("notes[5002].date: its year is outside 1…9999") == true)
    #expect(store.state.notes.count == 5_002)
    #expect(try Data(contentsOf: url) == written)
    #expect(folder.names == ["notes.json", "notes.json.lock"])
  }

  @Test("replacing the file keeps its permissions")
  func keepsPermissions() throws {
    let url = folder.write(#"{"version": 1, "notes": []}"#, to: "notes.json")
    chmod(url.path, 0o644)
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "x", date: Date())))
    #expect(permissions(url) == 0o644)
  }

  @Test(
    "the lock file stays empty and untouched (nothing for a sync engine to carry); a process id an older version wrote is cleared"
  )
  func lockFileNeverChanges() throws {
    let url = folder.file("notes.json")
    let lock = url.path + ".lock"
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "1", date: Date())))
    #expect(text(URL(fileURLWithPath: lock)) == "")
    // Dated back: any write of the lock file would move its modification time to now.
    var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, lock, &times, 0) == 0)
    try store.trySend(.add(.init(text: "2", date: Date())))
    try NotesStore(contentsOf: url).trySend(.add(.init(text: "3", date: Date())))
    let modified =
      try FileManager.default.attributesOfItem(atPath: lock)[.modificationDate] as? Date
    #expect(modified == Date(timeIntervalSince1970: 1_000_000))
    #expect(text(URL(fileURLWithPath: lock)) == "")

    // The process id an earlier version wrote is cleared; anything else is left as it is.
    try "99999999\n".write(toFile: lock, atomically: false, encoding: .utf8)
    try store.trySend(.add(.init(text: "4", date: Date())))
    #expect(text(URL(fileURLWithPath: lock)) == "")
    try "not a pid".write(toFile: lock, atomically: false, encoding: .utf8)
    try store.trySend(.add(.init(text: "5", date: Date())))
    #expect(text(URL(fileURLWithPath: lock)) == "not a pid")
    #expect(try NotesStore(contentsOf: url).state.notes.count == 5)
  }

  @Test("version 0, a bare list, is read and written back as version 1")
  func migratesVersionZero() throws {
    let url = folder.write(#"[{"text": "old", "date": "2020-01-01T00:00:00Z"}]"#, to: "notes.json")
    let store = try NotesStore(contentsOf: url)
    #expect(store.state.notes.map(\.text) == ["old"])
    try store.trySend(.add(.init(text: "new", date: Date())))
    #expect(text(url)?.contains(#""version" : 1"#) == true)
    #expect(try NotesStore(contentsOf: url).state.notes.map(\.text) == ["old", "new"])
  }

  @Test(
    "an invalid file is refused with the place and the problem, and never touched",
    arguments: [
      ("{\n  \"notes\": [1,]\n}", "line 2, column"),
      ("", "line 1, column 1"),
      (
        #"{"version": 2, "notes": []}"#,
        "newer version (file version 2; this version reads up to 1)"
      ),
      (
        #"{"version": 1, "notes": [{"text": 5, "date": "2020-01-01T00:00:00Z"}]}"#,
        "notes[0].text: expected a string, found a number"
      ),
      (
        #"{"version": 1, "notes": [{"text": "x", "date": "yesterday"}]}"#,
        "notes[0].date: expected a date"
      ),
      (#"{"version": 1}"#, "missing key \"notes\""),
      (#"{"version": "1", "notes": []}"#, "version: expected a whole number"),
      (#""notes""#, "expected"),
      (#"{"version": 1.5, "notes": []}"#, "version: expected a whole number 0 or more"),
      (#"{"version": -1, "notes": []}"#, "version: expected a whole number 0 or more"),
      (#"{"version": 1e30, "notes": []}"#, "version: expected a whole number 0 or more"),
      (#"{"notes": []}"#, "missing key \"version\""),
      (
        #"{"version": 0, "notes": []}"#,
        "version: a file of version 0 is a bare list, not an object"
      ),
    ])
  func invalidFile(content: String, expected: String) throws {
    let url = folder.write(content, to: "notes.json")
    let error = #expect(throws: StoreFileError.self) { try NotesStore(contentsOf: url) }
    #expect(error?.description.contains(url.path) == true)
    #expect(
      error?.description.contains(expected) == true, "\(error.map(String.init(describing:)) ?? "")")
    #expect(text(url) == content)
    #expect(folder.names == ["notes.json"])
  }

  @Test("a file that turns invalid is never overwritten by an action")
  func invalidAfterOpening() throws {
    let url = folder.file("notes.json")
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "a", date: Date())))
    let broken = "{ broken"
    try Data(broken.utf8).write(to: url)
    #expect(throws: StoreFileError.self) { try store.trySend(.add(.init(text: "b", date: Date()))) }
    #expect(text(url) == broken)
    #expect(store.state.notes.map(\.text) == ["a"])
  }

  @Test("a folder where the file should be is refused")
  func directoryInsteadOfFile() throws {
    let url = folder.file("notes.json")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let error = #expect(throws: StoreFileError.self) { try NotesStore(contentsOf: url) }
    #expect(error?.problem == .notARegularFile)
  }

  @Test("a write into a read-only folder throws and changes neither memory nor disk")
  func readOnlyFolder() throws {
    let sub = folder.file("locked")
    let url = sub.appendingPathComponent("notes.json")
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "kept", date: Date())))
    let before = contents(url)
    makeReadOnly(sub)
    defer { TemporaryFolder.makeWritable(sub) }
    let error = #expect(throws: StoreFileError.self) {
      try store.trySend(.add(.init(text: "lost", date: Date())))
    }
    guard case .cannotWrite = error?.problem else {
      Issue.record("expected cannotWrite, got \(String(describing: error))")
      return
    }
    #expect(store.state.notes.map(\.text) == ["kept"])
    #expect(contents(url) == before)
    store.send(.clear)
    #expect(store.lastError is StoreFileError)
    #expect(store.state.notes.map(\.text) == ["kept"])
  }

  @Test("a symbolic link is followed: the target is replaced, the link stays")
  func symbolicLink() throws {
    let target = folder.write(#"{"version": 1, "notes": []}"#, to: "real/notes.json")
    let link = folder.file("notes.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let store = try NotesStore(contentsOf: link)
    try store.trySend(.add(.init(text: "via link", date: Date())))
    let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    #expect(text(target)?.contains("via link") == true)
    #expect(try NotesStore(contentsOf: target).state == store.state)
  }

  @Test("a symbolic link is followed; a dangling one reads as empty and creates its target")
  func symbolicLinks() throws {
    for kind in FileKind.allCases {
      let target = folder.copy(kind.sample, as: "real-\(kind.rawValue).json")
      let link = folder.file("link-\(kind.rawValue).json")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
      try kind.change(link)
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
      #expect(contents(target) != (try? Data(contentsOf: kind.sample)))

      let dangling = folder.file("dangling-\(kind.rawValue).json")
      let missing = folder.file("missing-\(kind.rawValue).json")
      try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: missing)
      try kind.open(dangling)
      try kind.change(dangling)
      #expect(FileManager.default.fileExists(atPath: missing.path))

      // A link into a folder that does not exist is not followed into it: no folder is made.
      let astray = folder.file("astray-\(kind.rawValue).json")
      let nowhere = folder.file("nowhere/\(kind.rawValue).json")
      try FileManager.default.createSymbolicLink(at: astray, withDestinationURL: nowhere)
      try kind.open(astray)
      #expect(throws: StoreFileError.self) { try kind.change(astray) }
      #expect(!FileManager.default.fileExists(atPath: folder.file("nowhere").path))
    }
  }

  @Test("two stores on one file never lose each other's actions")
  func twoStoresOneFile() throws {
    let url = folder.file("notes.json")
    let first = try NotesStore(contentsOf: url)
    let second = try NotesStore(contentsOf: url)
    var firstChanges: [String] = []
    let token = first.onChange { change, _ in
      firstChanges.append(change.action == nil ? "reload" : "action")
    }
    let date = Date()
    for index in 0..<10 {
      try first.trySend(.add(.init(text: "first \(index)", date: date)))
      try second.trySend(.add(.init(text: "second \(index)", date: date)))
    }
    #expect(first.state.notes.count == 19)
    #expect(second.state.notes.count == 20)
    try first.refresh()
    #expect(first.state == second.state)
    #expect(try NotesStore(contentsOf: url).state == second.state)
    #expect(firstChanges.filter { $0 == "action" }.count == 10)
    token.cancel()
  }

  @Test("refresh reloads only when the file changed, and notifies once")
  func refresh() throws {
    let url = folder.file("notes.json")
    let store = try NotesStore(contentsOf: url)
    var reloads = 0
    let token = store.onChange { change, _ in if change.action == nil { reloads += 1 } }
    try store.refresh()
    try store.trySend(.add(.init(text: "mine", date: Date())))
    try store.refresh()
    #expect(reloads == 0)
    try NotesStore(contentsOf: url).trySend(.clear)
    try store.refresh()
    try store.refresh()
    #expect(reloads == 1)
    #expect(store.state.notes.isEmpty)
    token.cancel()
  }

  @Test("the watch notices another process's write and ignores the store's own")
  func watchesOtherProcesses() async throws {
    let url = folder.file("notes.json")
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "mine", date: Date())))
    try store.watch()
    var changes: [String] = []
    let token = store.onChange { change, _ in
      changes.append(change.action == nil ? "reload" : "action")
    }
    try store.trySend(.add(.init(text: "mine too", date: Date())))
    try await Task.sleep(for: .milliseconds(300))
    #expect(changes == ["action"])

    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = [
      "-c", #"printf '{"version": 1, "notes": []}' > "$0.tmp" && mv "$0.tmp" "$0""#, url.path,
    ]
    try writer.run()
    writer.waitUntilExit()
    #expect(await eventually { store.state.notes.isEmpty })
    #expect(changes == ["action", "reload"])
    token.cancel()
  }

  @Test("the watch notices another store's write on the same file")
  func watchesOtherStores() async throws {
    let url = folder.file("notes.json")
    let watching = try NotesStore(contentsOf: url)
    try watching.watch()
    let other = try NotesStore(contentsOf: url)
    try other.trySend(.add(.init(text: "from the other", date: Date())))
    #expect(await eventually { watching.state.notes.count == 1 })
    watching.stopWatching()
    try other.trySend(.clear)
    try await Task.sleep(for: .milliseconds(300))
    #expect(watching.state.notes.count == 1)
  }

  @Test("the watch goes on when its folder is removed and made anew at once (rm -rf; mkdir)")
  func watchSurvivesTheFolderMadeAnew() async throws {
    let data = folder.file("data")
    let url = data.appendingPathComponent("notes.json")
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "before", date: Date())))
    try store.watch()
    // While the main actor waits, the folder goes and comes back (on ext4, with the inode
    // number it had), with a file in it: the watch of the old folder is gone.
    try shell(
      #"rm -rf "$0" && mkdir "$0" && printf '{"version": 1, "notes": []}' > "$0/notes.json""#,
      data.path)
    #expect(await eventually { store.state.notes.isEmpty }, "the new folder's file is read")
    try shell(
      #"printf '{"version": 1, "notes": [{"date": "2026-11-29T07:30:00Z", "text": "new"}]}' "#
        + #"> "$0.tmp" && mv "$0.tmp" "$0""#, url.path)
    #expect(
      await eventually { store.state.notes.map(\.text) == ["new"] }, "the new folder is watched")
  }

  @Test("the watch of a folder that does not exist yet starts when it is made")
  func watchWaitsForTheFolder() async throws {
    let data = folder.file("later/data")
    let url = data.appendingPathComponent("notes.json")
    let store = try NotesStore(contentsOf: url)
    try store.watch()
    try shell(
      #"mkdir -p "$0" && printf '{"version": 1, "notes": [{"date": "2026-11-29T07:30:00Z", "#
        + #""text": "first"}]}' > "$0/notes.json""#, data.path)
    #expect(await eventually { store.state.notes.map(\.text) == ["first"] })
    try shell(#"printf '{"version": 1, "notes": []}' > "$0.tmp" && mv "$0.tmp" "$0""#, url.path)
    #expect(await eventually { store.state.notes.isEmpty }, "the folder is watched")
  }

  @Test("a burst of 1,000 writes by another writer costs a watching store a few reloads")
  func watchCoalescesBursts() async throws {
    let url = folder.file("todos.json")
    let store = try TodosStore(contentsOf: url)
    var reloads = 0
    let token = store.onChange { change, _ in if change == .reload { reloads += 1 } }
    defer { token.cancel() }
    try store.watch()
    // Another writer's versions, each renamed into place, as fast as it can, while the main
    // actor is free to take the watch's events.
    let path = url.path
    await Task.detached {
      for index in 0..<1_000 {
        let text =
          #"{"todos": [{"date": "2026-11-29T07:30:00Z", "id": "00000000-0000-4000-8000-000000000000", "#
          + #""isDone": false, "priority": 0, "title": "v\#(index)"}], "version": 1}"#
        let temporary = path + ".\(index).tmp"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        rename(temporary, path)
      }
    }.value
    #expect(await eventually { store.todos.first?.title == "v999" }, "the last version is read")
    #expect(reloads < 100, "\(reloads) reloads for 1,000 writes")
  }

  @Test("events lost to a full queue still reach every watching store")
  func watchAfterOverflow() async throws {
    let url = folder.file("a/notes.json")
    let store = try NotesStore(contentsOf: url)
    try store.trySend(.add(.init(text: "before", date: Date())))
    try store.watch()
    let busy = folder.file("b")
    try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
    let neighbour = try NotesStore(contentsOf: busy.appendingPathComponent("notes.json"))
    try neighbour.watch()
    // While the main actor is held, far more events than the system queues (16,384 by
    // default) in the neighbour's folder, then the change to the store's file.
    for index in 0..<20_000 {
      let name = busy.appendingPathComponent("\(index)").path
      close(open(name, O_CREAT | O_WRONLY, 0o600))
      unlink(name)
    }
    try Data(#"{"notes": [], "version": 1}"#.utf8).write(to: folder.file("a/new.json"))
    #expect(rename(folder.file("a/new.json").path, url.path) == 0)
    #expect(await eventually { store.state.notes.isEmpty }, "the change is seen")
  }

  /// Runs `script` with `sh -c`, `argument` as its `$0`, and waits for it: another process.
  func shell(_ script: String, _ argument: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, argument]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(script)")
  }
}
