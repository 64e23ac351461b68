import Foundation
import StoreTesting
import Stores
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 34, items 6 and 7, end to end on the built `diary`: the undo history's lock is waited
/// for a bounded time, and the history costs what its steps cost — one file per step, pruned
/// to a byte budget, written as durably as the data files, with no litter left behind.
@MainActor
@Suite("diary's undo history: bounded, small, clean", .serialized)
struct DiaryUndoHistoryTests: @MainActor DiaryFolderSuite {
  let folder = TemporaryFolder()

  /// The most bytes of steps the history keeps (the README's figure).
  static let budget = 8_000_000

  /// A diary whose state folder, and so its history, is in the test's folder.
  var diary: DiaryProcess {
    var process = DiaryProcess(folder: folder.url)
    process.environment["STORES_STATE_HOME"] = folder.file("state").path
    return process
  }

  /// Where the history of the runs is: in the state folder `STORES_STATE_HOME` names, on
  /// every platform.
  var historyFolder: URL { folder.file("state/diary/history") }

  /// Every entry under the history folder, with its mode and size.
  func historyEntries() -> [(path: String, mode: mode_t, size: Int, isFolder: Bool)] {
    let root = historyFolder.path
    let names = FileManager.default.subpaths(atPath: root) ?? []
    return names.compactMap { name in
      var info = stat()
      let path = (root as NSString).appendingPathComponent(name)
      guard lstat(path, &info) == 0 else { return nil }
      return (
        path, info.st_mode & 0o7777, Int(info.st_size), info.st_mode & S_IFMT == S_IFDIR
      )
    }
  }

  /// The bytes of every file in the history.
  func historyBytes() -> Int {
    historyEntries().filter { !$0.isFolder }.reduce(0) { $0 + $1.size }
  }

  /// The step files, oldest first (as named: `N.step`).
  func stepFiles() -> [String] {
    historyEntries().map(\.path).filter { $0.hasSuffix(".step") }.sorted {
      let number = { (path: String) in
        Int((path as NSString).lastPathComponent.dropLast(5)) ?? 0
      }
      return number($0) < number($1)
    }
  }

  /// The titles in order.
  func todos() -> [String] {
    (try? TodosStore(contentsOf: folder.file("todos.json")).todos.map(\.title)) ?? []
  }

  func workoutCount() -> Int {
    (try? WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts.count) ?? -1
  }

  @discardableResult
  func run(_ arguments: String...) -> String {
    let result = diary.run(arguments)
    #expect(result.exitCode == 0, "\(arguments): \(result.errorOutput)")
    #expect(result.errorOutput.isEmpty, "\(arguments): \(result.errorOutput)")
    return result.output
  }

  /// A CSV file of `count` workouts named `Run TAG-N`.
  func csv(_ count: Int, tag: String) -> URL {
    var text = "name,distance,date,complexity\n"
    text.reserveCapacity(count * 40)
    for index in 0..<count {
      text += "Run \(tag)-\(index),\(index % 40).\(index % 100),2026-11-29,low\n"
    }
    return folder.write(text, to: "\(tag).csv")
  }

  @Test("a diary holding the history's lock too long: the change stays and says undo cannot")
  func heldHistoryLock() throws {
    run("todos", "add", "Eggs")
    let locks = historyEntries().map(\.path).filter { $0.hasSuffix(".lock") }
    try #require(locks.count == 1, "\(locks)")
    // Held by this process, which never lets go while diary runs: as a stopped diary would.
    let lock = try HeldLock(locks[0])
    let added = try runWithin(seconds: 60, ["todos", "add", "Milk"])
    #expect(added.exitCode == 0, "the change was made: \(added.errorOutput)")
    #expect(added.output == "Added todo 1: Milk\n")
    // The holder is named where the system tells it (Linux), else "another process".
    #expect(
      added.errorOutput.hasPrefix(
        "diary: warning: the change was made, but 'diary undo' cannot undo it: "))
    #expect(added.errorOutput.contains("the lock of the undo history \(locks[0])"))
    #expect(todos() == ["Milk", "Eggs"])
    let undo = try runWithin(seconds: 60, ["undo"])
    #expect(undo.exitCode == 75, "\(undo.errorOutput)")
    #expect(undo.errorOutput.contains(locks[0]) && undo.errorOutput.contains("nothing was changed"))
    #expect(todos() == ["Milk", "Eggs"])
    lock.release()
    #expect(run("undo") == "Undid: todos add Eggs (“Eggs”)\n", "Milk was not recorded")
    #expect(todos() == ["Milk"])
  }

  @Test("a step known to be too large without encoding it is told so, with its least size")
  func tooLargeWithoutEncoding() throws {
    // 70,000 names of 100 characters and more: at least 9.5 MB of undo, never encoded.
    let file = csv(70_000, tag: String(repeating: "x", count: 100))
    let imported = diary.run("workouts", "import", file.path)
    #expect(imported.exitCode == 0, "\(imported.errorOutput)")
    #expect(
      imported.errorOutput.contains("cannot undo it: its undo takes at least "),
      "\(imported.errorOutput)")
    #expect(imported.errorOutput.hasSuffix("more than the 8.0 MB the undo history keeps\n"))
    #expect(historyBytes() < Self.budget, "\(historyBytes()) bytes")
    #expect(run("undo").hasPrefix("Cannot undo workouts import \(file.path)"))
    #expect(workoutCount() == 70_000)
  }

  @Test("a step larger than the budget is not kept: a note in its place, the history small")
  func tooLargeStep() throws {
    run("workouts", "add", "Walk", "--distance", "2")
    let file = csv(80_000, tag: "big")
    let imported = diary.run("workouts", "import", file.path)
    #expect(imported.exitCode == 0, "\(imported.errorOutput)")
    #expect(
      imported.errorOutput.hasPrefix(
        "diary: warning: the change was made, but 'diary undo' cannot undo it: its undo takes "),
      "\(imported.errorOutput)")
    #expect(imported.errorOutput.hasSuffix("more than the 8.0 MB the undo history keeps\n"))
    #expect(historyBytes() < Self.budget, "\(historyBytes()) bytes")
    run("todos", "add", "Eggs")
    #expect(run("undo") == "Undid: todos add Eggs (“Eggs”)\n")
    let note = run("undo")
    #expect(note.hasPrefix("Cannot undo workouts import \(file.path) (“Run big-0”"), "\(note)")
    #expect(note.contains("Nothing was changed; 'diary undo' again goes on to the command before"))
    #expect(workoutCount() == 80_001)
    #expect(run("undo") == "Undid: workouts add Walk --distance 2 (“Walk”)\n")
    #expect(workoutCount() == 80_000)
    #expect(run("redo") == "Redid: workouts add Walk --distance 2 (“Walk”)\n")
    #expect(run("redo").hasPrefix("Cannot redo workouts import "))
    #expect(run("--json", "undo").contains("\"tooLarge\" : true"))
    #expect(historyBytes() < Self.budget)
  }

  @Test("the history is pruned by size: the oldest steps go, the newest stay, under budget")
  func prunedBySize() throws {
    for tag in ["a", "b", "c"] {
      let result = diary.run("workouts", "import", csv(30_000, tag: tag).path)
      #expect(result.exitCode == 0 && result.errorOutput.isEmpty, "\(result.errorOutput)")
      #expect(historyBytes() < Self.budget, "after \(tag): \(historyBytes()) bytes")
    }
    #expect(workoutCount() == 90_000)
    #expect(run("undo").hasPrefix("Undid: workouts import \(folder.file("c.csv").path)"))
    #expect(run("undo").hasPrefix("Undid: workouts import \(folder.file("b.csv").path)"))
    #expect(workoutCount() == 30_000)
    #expect(run("undo").hasPrefix("Nothing to undo"), "the oldest step was dropped")
    #expect(historyBytes() < Self.budget)
  }

  @Test("a command reads no other step; it leaves no temporaries, and every file is 0600")
  func oneStepAtATime() throws {
    run("todos", "add", "A")
    run("todos", "add", "B")
    let steps = stepFiles()
    try #require(steps.count == 2, "one file per step: \(historyEntries().map(\.path))")
    // The oldest step made unreadable: recording and undoing newer ones never read it.
    try Data("not a step".utf8).write(to: URL(fileURLWithPath: steps[0]))
    let stepFolder = (steps[0] as NSString).deletingLastPathComponent
    let key = (stepFolder as NSString).lastPathComponent
    // Litter of killed writers: temporary files (0644), a step no index lists, and the
    // history as version 1 kept it.
    let litter = [
      "\(stepFolder)/.syncthing.steps.json.0000000000abc.tmp",
      "\(stepFolder)/.syncthing.7.step.00000000000xy.tmp", "\(stepFolder)/99.step",
      "\(historyFolder.path)/\(key).json", "\(historyFolder.path)/\(key).json.4242.tmp",
    ]
    for path in litter {
      #expect(
        FileManager.default.createFile(
          atPath: path, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o644]))
    }
    run("todos", "add", "C")
    for path in litter {
      #expect(!FileManager.default.fileExists(atPath: path), "\(path) left")
    }
    for entry in historyEntries() {
      #expect(entry.mode == (entry.isFolder ? 0o700 : 0o600), "\(entry.path)")
    }
    #expect(run("undo") == "Undid: todos add C (“C”)\n")
    #expect(run("undo") == "Undid: todos add B (“B”)\n")
    let broken = diary.run("undo")
    #expect(broken.exitCode == 65)
    #expect(broken.errorOutput.contains("is missing or not valid"), "\(broken.errorOutput)")
    #expect(todos() == ["A"])
  }
}
