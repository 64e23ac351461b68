import Foundation

extension Todo: ListItem {
  /// A todo's fields besides its id, each declared once (see ``FieldTable``).
  package enum Field {
    package static let date = ItemField("date", \Todo.date) { $1.date = $0 }
    package static let isDone = ItemField("isDone", \Todo.isDone, label: "done") {
      $1.isDone = $0
    }
    package static let priority = ItemField("priority", \Todo.priority) { $1.priority = $0 }
    /// Set by an edit only to a valid title.
    package static let title = ItemField(
      "title", \Todo.title, accepts: { Todo.problem(withTitle: $0) == nil },
      set: { $1.title = $0 })
  }

  public static let fieldTable = FieldTable(
    id: \.id, Field.date, Field.isDone, Field.priority, Field.title)
}

extension TodosStore.State: SyncedList {
  public static var itemsName: StaticString { "todos" }
  public var syncedItems: [Todo] { todos }

  public func replacingItems(_ items: [Todo]) -> Self { Self(todos: items) }

  public static func itemsInPlace(_ old: [Todo], _ new: [Todo]) -> (count: Int, changed: [Int]) {
    sameIDsInPlace(old, new)
  }
}
