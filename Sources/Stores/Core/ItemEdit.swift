import Foundation

/// A change of a list item's fields, undone or done again by an edit action
/// (``TodosStore/Action/editTodos(_:)``, ``WorkoutsStore/Action/editWorkout(_:)``): the item
/// with ``from``'s id, whose fields holding ``from``'s values get ``to``'s.
public struct ItemEdit<Item: Identifiable & Equatable & Sendable>: Equatable, Sendable {
  /// The item as the change found it.
  public var from: Item
  /// The item as the change leaves it (the same id).
  public var to: Item

  public init(from: Item, to: Item) {
    self.from = from
    self.to = to
  }
}

extension ItemEdit: Codable where Item: Codable {}

/// A change of a todo's fields (see ``ItemEdit``).
public typealias TodoEdit = ItemEdit<Todo>

/// A change of a workout's fields (see ``ItemEdit``).
public typealias WorkoutEdit = ItemEdit<Workout>

extension ItemEdit where Item: ListItem {
  /// `item` with each field that holds `from`'s value set to `to`'s, where the field accepts
  /// it (a todo's title only when valid). O(number of fields).
  func applied(to item: Item) -> Item {
    Item.fieldTable.applying(from, to, to: item)
  }

  /// What a person calls the fields this edit changes that `item` no longer holds as `from`
  /// did ("title", "done").
  func conflicts(with item: Item) -> [String] {
    Item.fieldTable.conflicts(from: from, to: to, with: item)
  }
}
