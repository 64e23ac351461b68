import Foundation
import StoreTesting
import Stores
import Testing

/// The built-in stores tested exhaustively as an app's own tests test them: with
/// `import Stores` and `import StoreTesting` alone, no `@testable` — every field an expected
/// state sets is public — and each deliberate mistake fails with a diff of public fields only.
@MainActor
@Suite("Built-in stores, tested from an app")
struct BuiltInStoresTests {
  let folder = TemporaryFolder()
  let utc = TimeZone(identifier: "UTC")!
  let csv = "name,distance,date\nRun,5,2026-11-29\nSwim,1.5,2026-11-30\n"

  func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  /// What failed in `failures`, from the first difference on: the lines of the diff.
  func differences(_ failures: [String]) -> String? {
    guard failures.count == 1, let start = failures[0].range(of: " from the expected value:\n")
    else { return nil }
    return String(failures[0][start.upperBound...])
  }

  /// Imports `csv` from a file, asserting every step; `expected` is the workouts expected.
  func importWorkouts(expecting expected: @escaping (Workout, Workout) -> [Workout]) async throws {
    let file = folder.file("runs.csv")
    try Data(csv.utf8).write(to: file)
    let tester = StoreTester(WorkoutsStore(environment: .test()))
    let run = try Workout(
      id: Gen<UUID>.testID(0), name: "Run", distance: 5, date: date("2026-11-29T00:00:00Z"))
    let swim = try Workout(
      id: Gen<UUID>.testID(1), name: "Swim", distance: 1.5, date: date("2026-11-30T00:00:00Z"))
    await tester.send(.importWorkouts(from: file, options: WorkoutsImportOptions(timeZone: utc))) {
      $0.importStatus = .importing(
        WorkoutsImportProgress(file: file.path, bytesRead: 0, totalBytes: 0, rows: 0))
    }
    await tester.receive(\.finishImport) {
      $0.workouts = expected(run, swim)
      $0.importStatus = .finished(
        WorkoutsImportSummary(file: file.path, added: 2, skipped: [], distancesWithoutUnit: 2))
    }
    await tester.undo { $0.workouts = [] }
    await tester.finish()
  }

  @Test("the workouts import, every step asserted")
  func workoutsImport() async throws {
    try await importWorkouts { run, swim in [run, swim] }
  }

  @Test("a workout missing from an import's expected state is named, and no index of ids")
  func workoutsImportMistake() async throws {
    let failures = try await failuresReported {
      try await importWorkouts { run, _ in [run] }
    }
    #expect(
      differences(failures)
        == "  .workouts[1]: Workout(\"Swim\", distance: 1.5, date: 2026-11-30T00:00:00Z),"
        + " expected nothing")
  }

  /// Edits a todo, undoes and redoes the edit, asserting every step; `expected` changes the
  /// state expected after the edit.
  func editTodo(expecting expected: @escaping (inout TodosStore.State) -> Void) async {
    let milk = Todo(
      id: Gen<UUID>.testID(0), title: "Buy milk", date: date("2026-11-29T07:30:00Z"), priority: 2)
    var oatMilk = milk
    oatMilk.title = "Buy oat milk"
    oatMilk.priority = 3
    let tester = StoreTester(TodosStore(todos: [milk]))
    await tester.send(.updateTodo(oatMilk), expected)
    #expect("\(tester.store.undoHistory)" == #"UndoHistory(undo: ["Edit Todo"], redo: [])"#)
    await tester.undo { $0.todos = [milk] }
    await tester.redo { $0.todos = [oatMilk] }
    await tester.finish()
  }

  @Test("a todo's edit, undone and redone, every step asserted")
  func todoEditWithUndo() async {
    await editTodo {
      $0.todos[0].title = "Buy oat milk"
      $0.todos[0].priority = 3
    }
  }

  @Test("a todo's field an edit changed and the expected state does not is named")
  func todoEditMistake() async {
    let failures = await failuresReported {
      await editTodo { $0.todos[0].title = "Buy oat milk" }
    }
    #expect(differences(failures) == "  .todos[0].priority: 3, expected 2")
    #expect(failures.first?.contains(#"after sending .updateTodo(Todo("Buy oat milk", "#) == true)
  }

  /// Changes a setting, asserting it; `expected` is the value expected.
  func changeSetting(expecting expected: JSONValue) async {
    let tester = StoreTester(SettingsStore(values: ["theme": .string("dark")]))
    await tester.send(.set(key: "sleepGoal", value: .number(7.5))) {
      $0.values["sleepGoal"] = expected
    }
    await tester.finish()
  }

  @Test("a setting's change, asserted")
  func settingChange() async {
    await changeSetting(expecting: .number(7.5))
  }

  @Test("a setting's value other than expected is named by its key")
  func settingChangeMistake() async {
    let failures = await failuresReported { await changeSetting(expecting: .number(8)) }
    #expect(differences(failures) == #"  .values["sleepGoal"].number: 7.5, expected 8"#)
  }
}

/// The tester's undo and redo, from an app.
@MainActor
@Suite("Undo through the tester, from an app")
struct TesterUndoTests {
  @Test("undo and redo with no step fail, naming what was missing, and change nothing")
  func nothingToUndo() async {
    let tester = StoreTester(TodosStore())
    let failures = await failuresReported {
      await tester.undo()
      await tester.redo()
    }
    #expect(
      failures == [
        "expected to undo a step, but there is no step to undo",
        "expected to redo a step, but there is no step to redo",
      ])
    await tester.finish()
  }

  @Test("an undo the expected state gets wrong fails, naming the step undone")
  func wrongUndo() async {
    let milk = Todo(id: Gen<UUID>.testID(0), title: "Buy milk")
    let tester = StoreTester(TodosStore())
    await tester.send(.addTodo(milk)) { $0.todos = [milk] }
    let failures = await failuresReported {
      await tester.undo()
    }
    #expect(
      failures == [
        #"the state changed after undoing "Add Todo", but no closure asserts a change (pass one "#
          + #"that makes it): 1 difference from the expected value:"#
          + "\n" + #"  .todos[0]: missing, expected Todo("Buy milk")"#
      ])
    await tester.finish()
  }
}
