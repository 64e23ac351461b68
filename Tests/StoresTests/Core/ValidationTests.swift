import Foundation
import StoreTesting
import Stores
import Testing

/// One validation and normalisation model for todos and workouts: the initialisers normalise
/// text to one line, trimmed; what cannot be valid is refused; a file and `Codable` data hold
/// text as the initialisers leave it, and refuse any other.
@MainActor
@Suite("Validation of todos and workouts")
struct ValidationTests {
  let folder = TemporaryFolder()

  /// Strings with line breaks and white space around them now and then.
  static let texts = Gen<String>.oneOf(
    .string(maxCount: 8),
    Gen<(String, String, String)>.zip(
      .element(of: ["", " ", "\n", "\t", "\r\n", "\u{2028}", " \n "]), .string(maxCount: 6),
      .element(of: ["", " ", "\n", "\u{85}", "\t "])
    ).map { $0 + $1 + $2 })

  @Test("a title and a name are normalised alike, and refused alike when empty")
  func oneNormalisation() {
    check(Self.texts) { text in
      let todo = Todo(title: text)
      let workout = try? Workout(name: text, distance: 1)
      try requireEqual(
        workout?.name ?? "", todo.title, "one normalisation for \(text.debugDescription)")
      try require(todo.isValid == (workout != nil), "valid alike: \(text.debugDescription)")
      try require(!todo.title.contains(where: \.isNewline), "one line")
      try require(
        todo.title.first?.isWhitespace != true && todo.title.last?.isWhitespace != true,
        "trimmed")
    }
  }

  @Test("Codable and the file take a title or a name exactly when the initialiser leaves it so")
  func oneRuleForFilesAndCodable() {
    check(Self.texts) { text in
      let isStored = Todo(title: text).title == text && !text.isEmpty
      let todoData = try JSONEncoder().encode([
        "id": "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", "title": text,
      ])
      let todoObject =
        String(decoding: todoData, as: UTF8.self).dropLast()
        + #","date":0,"isDone":false,"priority":0}"#
      let decodedTodo = try? JSONDecoder().decode(Todo.self, from: Data(todoObject.utf8))
      try require((decodedTodo != nil) == isStored, "Codable todo: \(text.debugDescription)")
      let workoutData = try JSONEncoder().encode([
        "id": "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C11", "name": text, "complexity": "low",
      ])
      let workoutObject =
        String(decoding: workoutData, as: UTF8.self).dropLast()
        + #","date":0,"distance":1}"#
      let decodedWorkout = try? JSONDecoder().decode(Workout.self, from: Data(workoutObject.utf8))
      try require((decodedWorkout != nil) == isStored, "Codable workout: \(text.debugDescription)")

      let todosURL = folder.file("todos.json")
      let workoutsURL = folder.file("workouts.json")
      try writeFile(todosURL, list: "todos", item: "title", text: text, extra: Self.todoFields)
      try writeFile(
        workoutsURL, list: "workouts", item: "name", text: text, extra: Self.workoutFields)
      let todos = try? TodosStore(contentsOf: todosURL)
      let workouts = try? WorkoutsStore(contentsOf: workoutsURL)
      try require((todos != nil) == isStored, "todos file: \(text.debugDescription)")
      try require((workouts != nil) == isStored, "workouts file: \(text.debugDescription)")
      if isStored {
        try requireEqual(todos?.todos.first?.title, text)
        try requireEqual(workouts?.state.workouts.first?.name, text)
      }
    }
  }

  static let todoFields =
    #""date" : "2026-11-29T07:00:00Z", "id" : "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01", "#
    + #""isDone" : false, "priority" : 0"#
  static let workoutFields =
    #""complexity" : "low", "date" : "2026-11-20T07:00:00Z", "distance" : 5, "#
    + #""id" : "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C11""#

  /// Writes a version-1 file of one item whose `item` field is `text`.
  func writeFile(_ url: URL, list: String, item: String, text: String, extra: String) throws {
    let quoted = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    let json = #"{ "version" : 1, "\#(list)" : [ { \#(extra), "\#(item)" : \#(quoted) } ] }"#
    try Data(json.utf8).write(to: url)
  }

  @Test(
    "a title or a name that is not one line is refused in a file with the place and the rule",
    arguments: [
      (
        "todos", "title", "Buy milk\n",
        "todos[0].title: a title must be one line without surrounding spaces"
      ),
      ("todos", "title", " ", "todos[0].title: a title cannot be empty"),
      (
        "workouts", "name", "Run\n",
        "workouts[0].name: a name must be one line without surrounding spaces"
      ),
      (
        "workouts", "name", " Run",
        "workouts[0].name: a name must be one line without surrounding spaces"
      ),
      ("workouts", "name", "\n", "workouts[0].name: a workout needs a name"),
    ])
  func refusedInFile(list: String, item: String, text: String, expected: String) throws {
    let url = folder.file("\(list)-refused.json")
    try writeFile(
      url, list: list, item: item, text: text,
      extra: list == "todos" ? Self.todoFields : Self.workoutFields)
    let before = contents(url)
    let error = #expect(throws: StoreFileError.self) {
      if list == "todos" {
        _ = try TodosStore(contentsOf: url)
      } else {
        _ = try WorkoutsStore(contentsOf: url)
      }
    }
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    #expect(contents(url) == before)
  }

  @Test("the fixture with a workout name on two lines is refused and left as it is")
  func nameFixture() throws {
    let url = folder.copy(fixture: "workouts/name-not-one-line.json")
    let before = contents(url)
    let error = #expect(throws: StoreFileError.self) { try WorkoutsStore(contentsOf: url) }
    #expect(
      error?.description.contains(
        "workouts[0].name: a name must be one line without surrounding spaces") == true,
      "\(String(describing: error))")
    #expect(contents(url) == before)
  }

  @Test("the errors are named for their type and say the rule")
  func errors() throws {
    #expect(TodoError.emptyTitle.description == "a title cannot be empty")
    #expect(
      TodoError.titleNotOneLine.description
        == "a title must be one line without surrounding spaces")
    #expect(
      WorkoutError.nameNotOneLine.description
        == "a name must be one line without surrounding spaces")
    #expect(throws: WorkoutError.emptyName) { try Workout(name: " \n ", distance: 1) }
    #expect(try Workout(name: " Run\n", distance: 1).name == "Run")
    #expect(Todo(title: " Buy\nmilk ").title == "Buy milk")
    var todo = Todo(title: "Buy milk")
    #expect(todo.problem == nil)
    todo.title = "Buy\nmilk"
    #expect(todo.problem == .titleNotOneLine && !todo.isValid)
    todo.title = " "
    #expect(todo.problem == .emptyTitle && !todo.isValid)
  }
}
