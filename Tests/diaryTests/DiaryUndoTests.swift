import Foundation
import StoreTesting
import Stores
import Testing

/// `diary undo` and `diary redo`, end to end: the built tool, its history beside the
/// machine's state, and other writers — another machine (a diary with another home) and a
/// diary racing it for the lock.
@MainActor
@Suite("diary undo and redo", .serialized)
struct DiaryUndoTests {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// A diary on the same data folder with another home and local state folder: another
  /// machine, with a device id and a history of its own.
  var otherMachine: DiaryProcess {
    var other = diary
    other.environment["HOME"] = folder.file("other-home").path
    other.environment["STORES_STATE_HOME"] = folder.file("other-state").path
    return other
  }

  /// The titles in order, done ones marked with `*`.
  func todos() -> [String] {
    let todos = try? TodosStore(contentsOf: folder.file("todos.json")).todos
    return todos?.map { $0.title + ($0.isDone ? "*" : "") } ?? []
  }

  @discardableResult
  func run(_ arguments: String..., as process: DiaryProcess? = nil) -> String {
    let result = (process ?? diary).run(arguments)
    #expect(result.exitCode == 0, "\(arguments): \(result.errorOutput)")
    #expect(result.errorOutput.isEmpty, "\(arguments): \(result.errorOutput)")
    return result.output
  }

  @Test("undo says what it undid, goes further back each time, and redo comes back")
  func undoAndRedo() {
    run("todos", "add", "Eggs")
    run("todos", "add", "Buy milk")
    run("todos", "remove", "1")
    #expect(todos() == ["Eggs"])
    #expect(run("undo") == "Undid: todos remove 1 (“Buy milk”)\n")
    #expect(todos() == ["Buy milk", "Eggs"])
    #expect(run("undo") == "Undid: todos add \"Buy milk\" (“Buy milk”)\n")
    #expect(todos() == ["Eggs"])
    #expect(run("redo") == "Redid: todos add \"Buy milk\" (“Buy milk”)\n")
    #expect(run("redo") == "Redid: todos remove 1 (“Buy milk”)\n")
    #expect(todos() == ["Eggs"])
    #expect(run("redo") == "Nothing to redo.\n")
    #expect(
      run("undo", "--json")
        == "{\n  \"skipped\" : [],\n  \"step\" : \"todos remove 1 (“Buy milk”)\"\n}\n")
    run("todos", "done", "1")
    #expect(run("redo") == "Nothing to redo.\n", "a new command drops what there was to redo")
    run("undo")
    run("undo")
    run("undo")
    #expect(todos() == [])
    #expect(
      run("undo")
        == "Nothing to undo: no diary command changed this data folder on this machine since.\n")
  }

  @Test("what another machine wrote since stays; what it changed is skipped and named")
  func otherMachineStays() {
    run("todos", "add", "Eggs")
    run("todos", "add", "Milk")
    run("todos", "add", "Bread")
    run("todos", "remove", "2")
    run("todos", "edit", "1", "--priority", "3")
    run("todos", "add", "Call mum", "--priority", "1", as: otherMachine)
    run("todos", "edit", "2", "--title", "Wholemeal bread", "--priority", "5", as: otherMachine)
    run("todos", "done", "3", as: otherMachine)
    #expect(todos() == ["Call mum", "Wholemeal bread", "Eggs*"])
    #expect(
      run("undo")
        == "Undid: todos edit 1 --priority 3 (“Bread”)\n"
        + "Skipped, changed by someone else meanwhile: \"Wholemeal bread\" (its priority changed meanwhile)\n"
    )
    #expect(run("undo") == "Undid: todos remove 2 (“Milk”)\n")
    #expect(todos() == ["Call mum", "Wholemeal bread", "Milk", "Eggs*"])
    let priorities = try? TodosStore(contentsOf: folder.file("todos.json")).todos.map(\.priority)
    #expect(priorities == [1, 5, 0, 0])
    #expect(
      run("undo", as: otherMachine) == "Undid: todos done 3 (“Eggs”)\n",
      "each machine undoes its own commands")
  }

  @Test("an ordering undone after another machine moved a todo keeps the move")
  func orderUndoKeepsMove() {
    run("todos", "add", "Eggs", "--date", "2026-11-03")
    run("todos", "add", "Milk", "--date", "2026-11-01")
    run("todos", "add", "Bread", "--date", "2026-11-02")
    run("todos", "order", "date")
    #expect(todos() == ["Milk", "Bread", "Eggs"])
    run("todos", "move", "3", "--to", "1", as: otherMachine)
    #expect(todos() == ["Eggs", "Milk", "Bread"])
    #expect(
      run("undo")
        == "Undid: todos order date\n"
        + "Skipped, changed by someone else meanwhile: \"Eggs\" (moved meanwhile)\n")
    #expect(todos() == ["Eggs", "Bread", "Milk"], "their move stays; the rest as before")
    run("redo")
    #expect(todos() == ["Eggs", "Milk", "Bread"])
  }

  @Test(
    "settings and workouts: a setting goes back to its value or its default; an import is one step")
  func settingsAndWorkouts() throws {
    run("settings", "set", "sleepGoal", "7")
    run("settings", "set", "sleepGoal", "6.5")
    #expect(run("undo") == "Undid: settings set sleepGoal 6.5\n")
    #expect(run("settings", "get", "sleepGoal") == "7\n")
    run("undo")
    let values = try SettingsStore(contentsOf: folder.file("settings.json")).state.values
    #expect(values["sleepGoal"] == nil, "not set: the default again")
    run("workouts", "add", "Run", "--distance", "5")
    let csv = folder.file("import.csv")
    try Data("name,distance,date\nSwim,1,2026-11-01\nRide,30,2026-11-02\n".utf8).write(to: csv)
    run("workouts", "import", csv.path)
    run("workouts", "sort", "distance")
    run("workouts", "remove", "1")
    let names = {
      (try? WorkoutsStore(contentsOf: folder.file("workouts.json")).state.workouts.map(\.name))
        ?? []
    }
    #expect(names() == ["Run", "Swim"])
    #expect(run("undo") == "Undid: workouts remove 1 (“Ride”)\n")
    #expect(names() == ["Ride", "Run", "Swim"])
    run("undo")
    #expect(run("undo").hasPrefix("Undid: workouts import "))
    #expect(names() == ["Run"])
  }

  @Test("the history lives beside the machine's state, not in the data folder")
  func historyPlace() throws {
    var process = diary
    let state = folder.file("another-state")
    process.environment["STORES_STATE_HOME"] = state.path
    run("todos", "add", "Eggs", as: process)
    let history = try FileManager.default.contentsOfDirectory(
      atPath: state.appendingPathComponent("diary/history").path)
    #expect(history.count == 1, "one folder per data folder: \(history)")
    let index = state.appendingPathComponent("diary/history/\(history.first ?? "")/steps.json")
    let attributes = try FileManager.default.attributesOfItem(atPath: index.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(
      run("undo")
        == "Nothing to undo: no diary command changed this data folder on this machine since.\n")
    #expect(run("undo", as: process) == "Undid: todos add Eggs (“Eggs”)\n")
    // Another data folder has a history of its own.
    let elsewhere = folder.file("elsewhere")
    #expect(run("--data-dir", elsewhere.path, "undo", as: process).hasPrefix("Nothing to undo"))
  }

  @Test(
    "undo racing another diary: both changes land, and the history keeps both",
    .enabled(if: TestPlatform.hasProcessFiles, "tells when diary reached the lock from /proc"),
    arguments: 0..<3)
  func racing(round: Int) throws {
    run("todos", "add", "Eggs")
    run("todos", "add", "Milk")
    run("todos", "remove", "1")
    let lock = try HeldLock(folder.file("todos.json.lock").path)
    let processes = try [["undo"], ["todos", "add", "Bread"]].map { arguments in
      let process = try BackgroundDiary(arguments, environment: diary.environment)
      try process.waitUntilItOpens(lock.path)
      return process
    }
    lock.release()
    let results = processes.map { $0.wait() }
    #expect(results.map(\.exitCode) == [0, 0], "\(results.map(\.errorOutput))")
    #expect(results[0].output == "Undid: todos remove 1 (“Milk”)\n")
    #expect(Set(todos()) == ["Bread", "Milk", "Eggs"])
    #expect(todos().last == "Eggs")
    // The add was recorded too: undoing it removes Bread, and only Bread.
    #expect(run("undo") == "Undid: todos add Bread (“Bread”)\n")
    #expect(Set(todos()) == ["Milk", "Eggs"])
  }

  @Test("help and usage name undo and redo; they take no arguments")
  func help() {
    #expect(
      run("help", "undo").hasPrefix(
        "OVERVIEW: Undo the last diary command that changed this data folder."))
    #expect(run("redo", "--help").contains("USAGE: diary redo"))
    let extra = diary.run("undo", "2")
    #expect(extra.exitCode == 64)
    #expect(extra.errorOutput == "diary: error: unexpected argument '2'\nusage: diary undo\n")
  }
}
