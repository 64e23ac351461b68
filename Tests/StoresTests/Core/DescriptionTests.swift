import Foundation
import Stores
import Testing

@testable import StoreTesting

/// What a person reads: descriptions of values, actions, changes and histories as Swift writes
/// them, and test diffs that name only what the public state holds.
@MainActor
@Suite("Descriptions and diffs")
struct DescriptionTests {
  let date = Date(timeIntervalSinceReferenceDate: 817_600_000)  // 2026-11-28T23:06:40Z
  var milk: Todo { Todo(id: Gen<UUID>.testID(0), title: "Buy milk", date: date, priority: 2) }
  var run: Workout {
    get throws { try Workout(id: Gen<UUID>.testID(1), name: "Run", distance: 5.2, date: date) }
  }

  @Test("values as a person writes them: a todo, a workout, a date, a time zone")
  func values() throws {
    #expect("\(milk)" == #"Todo("Buy milk", priority: 2)"#)
    var done = milk
    done.isDone = true
    done.priority = 0
    #expect("\(done)" == #"Todo("Buy milk", isDone: true)"#)
    #expect("\(try run)" == #"Workout("Run", distance: 5.2, date: 2026-11-28T23:06:40Z)"#)
    let ride = try Workout(
      name: "Ride", meters: 20_000, date: date, complexity: .high,
      duration: WorkoutDuration(elapsed: 3_600), sport: .ride)
    #expect(
      "\(ride)"
        == #"Workout("Ride", distance: 20, date: 2026-11-28T23:06:40Z, complexity: .high, "#
        + #"duration: WorkoutDuration(elapsed: 3600.0, moving: nil), sport: "ride")"#)
    #expect(Report.describe(date) == "2026-11-28T23:06:40Z")
    let options = WorkoutsImportOptions(timeZone: TimeZone(identifier: "Europe/Paris")!)
    #expect(Report.describe(options).contains(#"timeZone: TimeZone(identifier: "Europe/Paris")"#))
  }

  @Test("actions and changes as Swift writes them, without module or type names")
  func actionsAndChanges() throws {
    #expect(
      Report.describe(TodosStore.Action.addTodo(milk))
        == #".addTodo(Todo("Buy milk", priority: 2))"#)
    #expect(Report.describe(WorkoutsStore.Action.sort(by: .distance)) == ".sort(by: .distance)")
    #expect(Report.describe(WorkoutsStore.Action.cancelImport) == ".cancelImport")
    #expect(
      Report.describe(SettingsStore.Action.set(key: "sleepGoal", value: .number(7.5)))
        == #".set(key: "sleepGoal", value: .number(7.5))"#)
    #expect(
      Report.describe([StoreChange<WorkoutsStore.Action>.reload, .action(.cancelImport)])
        == "[.reload, .action(.cancelImport)]")
    let store = TodosStore()
    var changes: [String] = []
    let token = store.onChange { change, _ in changes.append("\(change)") }
    store.send(.addTodo(milk))
    #expect(changes == [#".action(.addTodo(Todo("Buy milk", priority: 2)))"#])
    #expect("\(StoreChange<TodosStore.Action>.reload)" == ".reload")
    token.cancel()
  }

  @Test("a history as its steps' names")
  func histories() {
    let store = TodosStore()
    store.send(.addTodo(milk))
    var oatMilk = milk
    oatMilk.title = "Buy oat milk"
    store.send(.updateTodo(oatMilk))
    store.undo()
    #expect(
      "\(store.undoHistory)" == #"UndoHistory(undo: ["Add Todo"], redo: ["Edit Todo"])"#)
    let step = UndoHistory<TodosStore.Action>.Step(
      action: .removeTodos(ids: [milk.id]), name: "Add Todo")
    #expect(
      "\(step)"
        == #"Step(action: .removeTodos(ids: [00000000-0000-0000-0000-000000000000]), "#
        + #"name: "Add Todo")"#)
  }

  @Test("a diff of the workouts' state names public fields only: no ids, no stored distance")
  func workoutsDiff() throws {
    let expected = WorkoutsStore.State(workouts: [try run])
    var actual = expected
    let swim = try Workout(id: Gen<UUID>.testID(2), name: "Swim", distance: 1.5, date: date)
    _ = WorkoutsStore.reduce(&actual, .addWorkout(swim))
    _ = WorkoutsStore.reduce(
      &actual, .updateWorkout(try Workout(id: run.id, name: "Run", distance: 6, date: date)))
    #expect(
      Diff.report(actual, expected)
        == "2 differences from the expected value:\n"
        + "  .workouts[0].distance: 6.0, expected 5.2\n"
        + #"  .workouts[1]: Workout("Swim", distance: 1.5, date: 2026-11-28T23:06:40Z), "#
        + "expected nothing")
  }

  @Test("a diff of a sorted and an unsorted state names the sort")
  func sortedDiff() throws {
    let expected = WorkoutsStore.State(workouts: [try run])
    var actual = expected
    _ = WorkoutsStore.reduce(&actual, .sort(by: .distance))
    #expect(
      Diff.report(actual, expected)
        == "1 difference from the expected value:\n  .sortType: .distance, expected nil")
  }

  @Test("a diff of the settings names a key as the dictionary it is")
  func settingsDiff() {
    let expected = SettingsStore.State(["sleepGoal": .number(7.5)])
    var actual = expected
    actual.values["sleepGoal"] = .number(8)
    actual.values["theme"] = .string("dark")
    #expect(
      Diff.report(actual, expected)
        == "2 differences from the expected value:\n"
        + #"  .values["sleepGoal"].number: 8, expected 7.5"# + "\n"
        + #"  .values["theme"]: .string("dark"), expected nothing"#)
    #expect("\(actual.values)" == #"["sleepGoal": .number(8), "theme": .string("dark")]"#)
  }
}
