import Foundation
import Stores

/// `diary todos …`: the todo list.
enum TodosCommands {
  static let group = CommandGroup(
    name: "todos", summary: "Keep a list of todos.",
    commands: [
      Command(
        name: "list", summary: "List the todos, numbered.",
        options: [
          .init(name: "active", summary: "Only the todos not done."),
          .init(name: "completed", summary: "Only the todos done."),
          .init(
            name: "search", valueName: "TEXT",
            summary: "Only titles containing TEXT (any case, any accents)."),
          .init(name: "min-priority", valueName: "N", summary: "Only priorities of N or more."),
        ],
        discussion:
          "Numbers are those of the full list, also when filtered: use them with done, remove and move.",
        run: list),
      Command(
        name: "add", summary: "Add a todo at the top of the list.",
        arguments: [.init(name: "TITLE", summary: "What to do, on one line.")],
        options: [
          .init(name: "priority", valueName: "N", summary: "Higher is more important (default 0)."),
          .init(
            name: "date", valueName: "DATE",
            summary: "YYYY-MM-DD, today, yesterday or ISO 8601 (default now)."),
        ],
        discussion: "Example: diary todos add \"Buy milk\" --priority 2",
        run: add),
      Command(
        name: "done", summary: "Mark todos done.",
        arguments: [.init(name: "N", summary: "The numbers of the todos.", isRepeated: true)],
        run: { try setDone(true, $0, $1) }),
      Command(
        name: "undone", summary: "Mark todos not done.",
        arguments: [.init(name: "N", summary: "The numbers of the todos.", isRepeated: true)],
        run: { try setDone(false, $0, $1) }),
      Command(
        name: "remove", summary: "Remove todos.",
        arguments: [.init(name: "N", summary: "The numbers of the todos.", isRepeated: true)],
        run: remove),
      Command(
        name: "move", summary: "Move todos to another place in the list.",
        arguments: [.init(name: "N", summary: "The numbers of the todos.", isRepeated: true)],
        options: [
          .init(
            name: "to", valueName: "N", summary: "The number the first moved todo gets.",
            isRequired: true)
        ],
        discussion: "Example: diary todos move 4 5 --to 1   (todos 4 and 5 become 1 and 2)",
        run: move),
      Command(
        name: "order",
        summary: "Sort the list by date (earliest first) or priority (highest first).",
        arguments: [.init(name: "BY", summary: "date or priority.")],
        discussion: "Todos with the same date or priority keep their order.",
        run: order),
      Command(
        name: "remove-completed", summary: "Remove every todo that is done.", run: removeCompleted),
    ])

  @MainActor
  private static func list(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    if parsed.flag("active"), parsed.flag("completed") {
      throw DiaryError(
        "--active and --completed cannot be used together", exitCode: .usage, usage: parsed.usage)
    }
    let filter = TodoFilter(
      status: parsed.flag("active") ? .active : parsed.flag("completed") ? .completed : .all,
      text: parsed.option("search") ?? "",
      minimumPriority: try parsed.option("min-priority").map {
        try Values.integer($0, for: "--min-priority")
      })
    let store = try context.todos()
    let shown = store.todos(matching: filter)
    if context.json {
      return try JSONOutput.encode(shown.map { Numbered(number: $0.index + 1, item: $0.element) })
    }
    if store.todos.isEmpty { return "No todos yet. Add one with: diary todos add \"Buy milk\"" }
    if shown.isEmpty {
      let all = store.todos.count
      return
        "No todos match (there \(all == 1 ? "is" : "are") \(count(all)) in all; see 'diary todos list')."
    }
    return table(shown, context)
  }

  @MainActor
  private static func add(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let priority =
      try parsed.option("priority").map { try Values.integer($0, for: "--priority") } ?? 0
    let date = try parsed.option("date").map { try Values.date($0, in: context) } ?? context.now
    let todo = Todo(title: parsed.arguments[0], date: date, priority: priority)
    guard todo.isValid else { throw DiaryError("a todo needs a title: TITLE is empty") }
    let store = try context.todos()
    try store.trySend(.addTodo(todo))
    if context.json { return try JSONOutput.encode(Numbered(number: 1, item: todo)) }
    return "Added todo 1: \(Terminal.escaped(todo.title))"
  }

  @MainActor
  private static func setDone(_ isDone: Bool, _ parsed: ParsedCommand, _ context: Context) throws
    -> String
  {
    let store = try context.todos()
    let picked = try pick(parsed.arguments, in: store)
    try store.trySend(.markTodos(ids: Set(picked.map(\.id)), done: isDone)) { state in
      try Values.requireStillThere(picked, in: state.todos.map(\.id), of: "todos")
    }
    return try result(store, context) {
      "Marked \(count(picked.count)) \(isDone ? "done" : "not done")."
    }
  }

  @MainActor
  private static func remove(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let store = try context.todos()
    let picked = try pick(parsed.arguments, in: store)
    try store.trySend(.removeTodos(ids: Set(picked.map(\.id)))) { state in
      try Values.requireStillThere(picked, in: state.todos.map(\.id), of: "todos")
    }
    return try result(store, context) { "Removed \(count(picked.count))." }
  }

  @MainActor
  private static func move(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let target = parsed.option("to") ?? ""
    let store = try context.todos()
    let picked = try pick(parsed.arguments, in: store)
    let last = store.todos.count - picked.count + 1
    let position = try Values.integer(target, for: "--to")
    guard (1...last).contains(position) else {
      throw DiaryError("--to must be between 1 and \(last) to move \(count(picked.count))")
    }
    // The moved todos land before the todo that stays and ends up right after them.
    let movedIDs = Set(picked.map(\.id))
    let staying = store.todos.filter { !movedIDs.contains($0.id) }
    let before = position - 1 < staying.count ? staying[position - 1].id : nil
    try store.trySend(.moveTodos(ids: picked.map(\.id), before: before)) { state in
      let ids = state.todos.map(\.id)
      try Values.requireStillThere(picked, in: ids, of: "todos")
      if let before, !ids.contains(before) {
        throw DiaryError(
          "the todo at \(position) was removed by another process meanwhile; nothing changed "
            + "— see 'diary todos list' for the numbers now")
      }
    }
    return try result(store, context) { "Moved \(count(picked.count)) to \(position)." }
  }

  @MainActor
  private static func order(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let action: TodosStore.Action
    switch parsed.arguments[0].lowercased() {
    case "date": action = .orderByDate
    case "priority": action = .orderByPriority
    case let other:
      throw DiaryError(
        "cannot order by '\(Terminal.escaped(other))': use date or priority"
          + Suggestion.phrase(for: other, among: ["date", "priority"]),
        exitCode: .usage, usage: parsed.usage)
    }
    let store = try context.todos()
    try store.trySend(action)
    return try result(store, context) { "Ordered by \(parsed.arguments[0].lowercased())." }
  }

  @MainActor
  private static func removeCompleted(_ parsed: ParsedCommand, _ context: Context) throws -> String
  {
    let store = try context.todos()
    let done = store.todos.filter(\.isDone).count
    try store.trySend(.removeCompleted)
    return try result(store, context) {
      done == 0 ? "No completed todos to remove." : "Removed \(count(done, "completed todo"))."
    }
  }

  /// The todos numbered `numbers`, in the order typed, as the numbers and the ids they name.
  @MainActor
  private static func pick(_ numbers: [String], in store: TodosStore) throws
    -> [(number: Int, id: UUID)]
  {
    let todos = store.todos
    return try Values.offsets(numbers, count: todos.count, of: "todos").map {
      ($0 + 1, todos[$0].id)
    }
  }

  /// After a change: the whole list as JSON, or `message` for people.
  @MainActor
  private static func result(_ store: TodosStore, _ context: Context, _ message: () -> String)
    throws -> String
  {
    guard context.json else { return message() }
    return try JSONOutput.encode(store.todos.numbered)
  }

  /// "1 todo", "3 todos".
  private static func count(_ count: Int, _ noun: String = "todo") -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }

  private static func table(_ shown: [(index: Int, element: Todo)], _ context: Context) -> String {
    var table = TextTable(
      headers: ["#", "DONE", "PRIORITY", "DATE", "TITLE"],
      alignments: [.right, .left, .right, .left, .left])
    for (index, todo) in shown {
      table.rows.append([
        "\(index + 1)", todo.isDone ? "[x]" : "[ ]", "\(todo.priority)",
        HumanDate.format(todo.date, timeZone: context.timeZone), todo.title,
      ])
    }
    return table.render(context.terminal)
  }
}
