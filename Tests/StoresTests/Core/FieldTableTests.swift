import Foundation
import Testing

@testable import Stores

/// Each list item's fields are declared once, in its ``FieldTable``: these tests fail when a
/// stored property is missing from the table, or the file coding reads another list.
@Suite struct FieldTableTests {
  @Test func everyStoredPropertyOfATodoIsInItsTable() {
    #expect(problems(of: Todo(title: "Buy milk")) == [])
  }

  @Test func everyStoredPropertyOfAWorkoutIsInItsTable() throws {
    #expect(problems(of: try Workout(name: "Run", distance: 5)) == [])
  }

  /// `Todo` and `Workout` write their own `Codable` forms (undo's history in `diary` holds
  /// them): the same keys as their tables and file coding.
  @Test func theCodableFormsHoldEveryFieldOfTheTables() throws {
    func keys<Item: ListItem & Encodable>(_ item: Item) throws -> [String] {
      let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(item))
      return ((object as? [String: Any]) ?? [:]).keys.sorted()
    }
    let todo = Todo(title: "Buy milk")
    #expect(try keys(todo) == (Todo.fieldTable.fields.map(\.name) + ["id"]).sorted())
    // A duration and a sport, which the `Codable` form leaves out when they are not known.
    let workout = try Workout(
      name: "Run", distance: 5, duration: WorkoutDuration(elapsed: 1_800), sport: .run)
    #expect(try keys(workout) == (Workout.fieldTable.fields.map(\.name) + ["id"]).sorted())
    #expect(try JSONDecoder().decode(Todo.self, from: JSONEncoder().encode(todo)) == todo)
    #expect(try JSONDecoder().decode(Workout.self, from: JSONEncoder().encode(workout)) == workout)
  }

  /// What a field added to `Todo` and not to its table looks like: the check names it.
  @Test func aFieldMissingFromTheTableIsNamed() {
    let problems = problems(of: TaggedTodo(id: UUID(), title: "Buy milk", tags: ["home"]))
    #expect(problems == ["the stored property tags is not in the table of TaggedTodo"])
  }

  @Test func conflictsAreNamedAsAPersonCallsTheFields() {
    let todo = Todo(title: "Buy milk")
    var done = todo
    done.isDone = true
    done.title = "Buy oat milk"
    var changedMeanwhile = todo
    changedMeanwhile.isDone = true
    #expect(TodoEdit(from: todo, to: done).conflicts(with: changedMeanwhile) == ["done"])
    #expect(TodoEdit(from: todo, to: done).conflicts(with: todo) == [])
  }

  @Test func anEditSetsOnlyTheFieldsStillAsItFoundThemAndOnlyValidValues() {
    let todo = Todo(title: "Buy milk", priority: 1)
    var edited = todo
    edited.title = " "
    edited.priority = 3
    edited.isDone = true
    var current = todo
    current.priority = 2
    let applied = TodoEdit(from: todo, to: edited).applied(to: current)
    #expect(applied.title == "Buy milk")  // an empty title is not set
    #expect(applied.priority == 2)  // changed meanwhile: kept
    #expect(applied.isDone)
  }

  @Test func theWriteCacheComparesTheFieldsNotThePadding() {
    var a = Todo(id: UUID(), title: "a", date: Date(timeIntervalSince1970: 0))
    var b = a
    withUnsafeMutableBytes(of: &b) { bytes in
      // The bytes after `isDone`, before `priority`: padding.
      let padding = MemoryLayout<Todo>.offset(of: \Todo.isDone)! + 1
      for offset in padding..<MemoryLayout<Todo>.offset(of: \Todo.priority)! {
        bytes[offset] = 0xAB
      }
    }
    #expect(Todo.fieldTable.hasSameBits(&a, &b))
    b.priority = 1
    #expect(!Todo.fieldTable.hasSameBits(&a, &b))
    b.priority = a.priority
    b.isDone.toggle()
    #expect(!Todo.fieldTable.hasSameBits(&a, &b))
  }

  /// The problems of `item`'s table: a stored property it does not list (the id aside), a
  /// field its file coding does not read by the table's declaration, or reads under another
  /// key.
  private func problems<Item: ListItem>(of item: Item) -> [String] {
    // A workout stores its distance as `storedDistance` (its public `distance` is the
    // kilometres, computed), under the key "distance".
    let stored = Set(
      Mirror(reflecting: item).children.compactMap(\.label).map {
        Item.self == Workout.self && $0 == "storedDistance" ? "distance" : $0
      })
    let table = Item.fieldTable.fields.map(\.name)
    var recorder = FieldRecorder(item: item)
    _ = try? Item.jsonFields(&recorder)
    var problems: [String] = []
    for name in stored.subtracting(table + ["id"]).sorted() {
      problems.append("the stored property \(name) is not in the table of \(Item.self)")
    }
    if recorder.keys.sorted() != (table + ["id"]).sorted() {
      problems.append("the file coding of \(Item.self) reads \(recorder.keys), not \(table)")
    }
    return problems
  }
}

/// Records the keys an item's file coding visits.
private struct FieldRecorder<Object>: JSONFieldCoder {
  let item: Object
  var keys: [String] = []

  mutating func field<Value: JSONCodable>(
    _ key: StaticString, _ value: KeyPath<Object, Value>
  ) throws(JSONCodingError) -> Value {
    keys.append(key.description)
    return item[keyPath: value]
  }

  mutating func object(_ make: () throws(JSONCodingError) -> Object) throws(JSONCodingError) {}
}

/// A todo with a field added and not put in its table.
struct TaggedTodo: ListItem, Codable {
  var id: UUID
  var title: String
  var tags: [String]

  enum Field {
    static let title = ItemField("title", \TaggedTodo.title) { $1.title = $0 }
  }
  static let fieldTable = FieldTable(id: \.id, Field.title)

  static func jsonFields<Coder: JSONFieldCoder<TaggedTodo> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let id = try coder.field("id", \.id)
    let title = try coder.field(Field.title)
    return try coder.object { TaggedTodo(id: id, title: title, tags: []) }
  }
}
