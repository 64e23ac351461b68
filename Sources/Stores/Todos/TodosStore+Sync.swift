import Foundation

extension TodosStore.State: SyncedList {
  package static var itemsName: StaticString { "todos" }
  package var syncedItems: [Todo] { todos }

  package static let itemFields: [SyncField<Todo>] = [
    SyncField("date", \.date) { $1.date = $0 },
    SyncField("isDone", \.isDone) { $1.isDone = $0 },
    SyncField("priority", \.priority) { $1.priority = $0 },
    SyncField("title", \.title) { $1.title = $0 },
  ]

  package func replacingItems(_ items: [Todo]) -> Self { Self(todos: items) }

  package static func itemsInPlace(_ old: [Todo], _ new: [Todo]) -> (count: Int, changed: [Int]) {
    sameIDsInPlace(old, new)
  }

  package static func hasSameBits(_ a: UnsafePointer<Todo>, _ b: UnsafePointer<Todo>) -> Bool {
    Stores.hasSameBits(a, b, at: \.id) && Stores.hasSameBits(a, b, at: \.title)
      && Stores.hasSameBits(a, b, at: \.date) && Stores.hasSameBits(a, b, at: \.isDone)
      && Stores.hasSameBits(a, b, at: \.priority)
  }
}
