import Foundation

extension Todo: JSONObjectCodable {
  /// A todo in a file:
  /// `{ "date" : "2026-11-29T09:00:00Z", "id" : "6F1C…", "isDone" : false, "priority" : 2,
  /// "title" : "Buy milk" }`. A title that is empty or not one line, trimmed, is refused
  /// (`Todo.problem(withTitle:)`).
  public static func jsonFields<Coder: JSONFieldCoder<Todo> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let date = try coder.field(Field.date)
    let id = try coder.field("id", \.id)
    let isDone = try coder.field(Field.isDone)
    let priority = try coder.field(Field.priority)
    let title = try coder.field(Field.title)
    return try coder.object { () throws(JSONCodingError) in
      do throws(TodoError) {
        return try Todo(
          id: id, validating: title, date: date, isDone: isDone, priority: priority)
      } catch {
        throw JSONCodingError(key: "title", error.description)
      }
    }
  }
}
