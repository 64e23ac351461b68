import Foundation

extension TodosStore.State {
  /// The todos file's own key: `"todos"`, the list of todos, no two with one id.
  public static func jsonFields<Coder: JSONFieldCoder<Self> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let todos = try coder.field("todos", \.todos)
    return try coder.object { () throws(JSONCodingError) in
      let state = Self(todos: todos)
      guard state.hasUniqueIDs else { throw JSONCodingError(key: "todos", duplicateIDs) }
      return state
    }
  }

  /// Version 0 is a bare list of todos.
  public static func migrate(
    fromVersion version: Int, reader: inout JSONReader
  ) throws(JSONCodingError) -> Self {
    let state = Self(todos: try [Todo](from: &reader))
    guard state.hasUniqueIDs else { throw JSONCodingError(duplicateIDs) }
    return state
  }

  private static let duplicateIDs = "two todos have the same id"
}
