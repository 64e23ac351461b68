import Foundation
import Stores

/// `diary todos …`: the todo list.
enum TodosCommands {
  static let group = CommandGroup(
    name: "todos", summary: "Keep a list of todos",
    commands: [
      List.self, Add.self, Edit.self, Done.self, Undone.self, Remove.self, Move.self, Order.self,
      RemoveCompleted.self,
    ])

  /// The numbers of todos, as the commands that take them declare them.
  fileprivate static func numbers<Command>(_ keyPath: WritableKeyPath<Command, [Int]> & Sendable)
    -> Argument<Command>
  {
    .list(keyPath, .integer(), label: "a todo number", summary: "The numbers of the todos")
  }

  struct List: ParsableCommand {
    static let name = "list"
    static let typedByMistake = ["ls", "show"]
    static let summary = "List the todos, numbered"
    static let options: [Option<List>] = [
      .flag(\.active, "active", summary: "Only the todos not done"),
      .flag(\.completed, "completed", summary: "Only the todos done", typedByMistake: ["--done"]),
      .option(
        \.search, "search", .text("TEXT"),
        summary: "Only titles containing TEXT (any case, any accents)"),
      .option(
        \.minimumPriority, "min-priority", .integer(), summary: "Only priorities of N or more"),
    ]
    static let discussion =
      "Numbers are those of the full list, also when filtered: use them with done, undone, "
      + "edit, remove and move. They name what this list showed: when the todos changed "
      + "elsewhere since (an app, another device), those commands ask for a new list."

    var active = false
    var completed = false
    var search: String?
    var minimumPriority: Int?

    func run(_ context: Context) throws {
      if active, completed {
        throw DiaryError.usage(
          "--active and --completed cannot be used together", Self.usage(in: "todos"))
      }
      let filter = TodoFilter(
        status: active ? .active : completed ? .completed : .all, text: search ?? "",
        minimumPriority: minimumPriority)
      let todos = try context.todos().todos
      ListedOrder.record(todos.lazy.map(\.id), of: .todos, context)
      let shown = todos.indexed().lazy.filter { filter.matches($0.element) }
      if context.json {
        return try JSONOutput.writeArray(
          shown.map { Numbered(number: $0.index + 1, item: $0.element) }, to: context.output)
      }
      if todos.isEmpty {
        return try context.output.line("No todos yet. Add one with: diary todos add \"Buy milk\"")
      }
      if shown.isEmpty {
        return try context.output.line(
          "No todos match (there \(todos.count == 1 ? "is" : "are") "
            + "\(Values.count(todos.count, "todo")) in all; see 'diary todos list').")
      }
      let table = TextTable(
        headers: ["#", "DONE", "PRIORITY", "DATE", "TITLE"],
        alignments: [.right, .left, .right, .left, .left])
      let timeZone = context.time.timeZone
      try table.write(shown, terminal: context.terminal, to: context.output) { index, todo in
        [
          String(index + 1), todo.isDone ? "[x]" : "[ ]", String(todo.priority),
          HumanDate.format(todo.date, timeZone: timeZone), todo.title,
        ]
      }
    }
  }

  struct Add: ParsableCommand {
    static let name = "add"
    static let summary = "Add a todo at the top of the list"
    static let arguments: [Argument<Add>] = [
      .value(\.title, .text("TITLE"), summary: "What to do, on one line")
    ]
    static let options: [Option<Add>] = [
      .option(\.priority, "priority", .integer(), summary: "Higher is more important"),
      .option(\.date, "date", .date, whenLeftOut: "now", summary: "When it is for"),
    ]
    static let discussion = "Example: diary todos add \"Buy milk\" --priority 2 --date tomorrow"

    var title = ""
    var priority = 0
    var date: Date?

    func run(_ context: Context) throws {
      let todo = Todo(
        title: try Values.oneLine(title, "TITLE"), date: date ?? context.time.now,
        priority: priority)
      guard todo.isValid else { throw DiaryError("a todo needs a title: TITLE is empty") }
      try context.todos().trySend(.addTodo(todo))
      context.output.recordSaved("added todo 1")
      if context.json {
        return try JSONOutput.write(Numbered(number: 1, item: todo), to: context.output)
      }
      try context.output.line("Added todo 1: \(Terminal.escaped(todo.title))")
    }
  }

  struct Edit: ParsableCommand {
    static let name = "edit"
    static let summary = "Change a todo's title, priority or date, keeping its place and id"
    static let arguments: [Argument<Edit>] = [
      .value(\.number, .integer(), label: "a todo number", summary: "The number of the todo")
    ]
    static let options: [Option<Edit>] = [
      .option(\.title, "title", .text("TITLE"), summary: "The new title, on one line"),
      .option(\.priority, "priority", .integer(), summary: "The new priority"),
      .option(\.date, "date", .date, summary: "The new date"),
    ]
    static let discussion = "Example: diary todos edit 2 --title \"Buy oat milk\" --priority 1"

    var number = 0
    var title: String?
    var priority: Int?
    var date: Date?

    func run(_ context: Context) throws {
      guard title != nil || priority != nil || date != nil else {
        throw DiaryError.usage(
          "nothing to change: give --title, --priority or --date", Self.usage(in: "todos"))
      }
      if let title {
        guard !Todo(title: try Values.oneLine(title, "--title")).title.isEmpty else {
          throw DiaryError("a todo needs a title: --title is empty")
        }
      }
      let store = try context.todos()
      let picked = try pick([number], in: store, context)
      let before = store.todos[number - 1]
      var after = before
      if let title { after.title = Todo(title: title).title }
      if let priority { after.priority = priority }
      if let date { after.date = date }
      try store.trySend(.updateTodo(after)) { state in
        try Values.requireStillThere(picked, in: state.todos.map(\.id), of: "todos")
        guard state.todos.first(where: { $0.id == before.id }) == before else {
          throw DiaryError(
            "todo \(number) was changed by another process meanwhile; nothing changed — see "
              + "'diary todos list'")
        }
      }
      let shown = (store.todos.firstIndex { $0.id == after.id } ?? 0) + 1
      if after != before { context.output.recordSaved("edited todo \(shown)") }
      if context.json {
        return try JSONOutput.write(Numbered(number: shown, item: after), to: context.output)
      }
      try context.output.line(
        after == before
          ? "Todo \(shown) already is so; nothing changed."
          : "Edited todo \(shown): \(Terminal.escaped(after.title)), priority \(after.priority), "
            + HumanDate.format(after.date, timeZone: context.time.timeZone))
    }
  }

  struct Done: ParsableCommand {
    static let name = "done"
    static let typedByMistake = ["check", "complete", "finish", "tick"]
    static let summary = "Mark todos done"
    static let arguments: [Argument<Done>] = [TodosCommands.numbers(\.numbers)]
    var numbers: [Int] = []

    func run(_ context: Context) throws { try mark(numbers, done: true, context) }
  }

  struct Undone: ParsableCommand {
    static let name = "undone"
    static let summary = "Mark todos not done"
    static let arguments: [Argument<Undone>] = [TodosCommands.numbers(\.numbers)]
    var numbers: [Int] = []

    func run(_ context: Context) throws { try mark(numbers, done: false, context) }
  }

  /// Marks the todos `numbers` done or not done, and says which already were.
  @MainActor
  private static func mark(_ numbers: [Int], done: Bool, _ context: Context) throws {
    let store = try context.todos()
    let picked = try pick(numbers, in: store, context)
    let pickedIDs = Set(picked.map(\.id))
    var unchanged: Set<UUID> = []
    try store.trySend(.markTodos(ids: pickedIDs, done: done)) { state in
      try Values.requireStillThere(picked, in: state.todos.map(\.id), of: "todos")
      unchanged = Set(
        state.todos.lazy.filter { pickedIDs.contains($0.id) && $0.isDone == done }.map(\.id))
    }
    let state = done ? "done" : "not done"
    let changed = picked.count - unchanged.count
    if changed > 0 {
      context.output.recordSaved("marked \(Values.count(changed, "todo")) \(state)")
    }
    try result(store, context) {
      let already = picked.filter { unchanged.contains($0.id) }.map(\.number)
      let was = Values.named(already, "Todo") + (already.count == 1 ? " was" : " were")
      guard changed > 0 else {
        return Values.named(already, "Todo") + (already.count == 1 ? " is" : " are")
          + " already \(state)."
      }
      return "Marked \(Values.count(changed, "todo")) \(state)."
        + (already.isEmpty ? "" : " \(was) already \(state).")
    }
  }

  struct Remove: ParsableCommand {
    static let name = "remove"
    static let typedByMistake = ["delete", "rm", "del"]
    static let summary = "Remove todos"
    static let arguments: [Argument<Remove>] = [TodosCommands.numbers(\.numbers)]
    var numbers: [Int] = []

    func run(_ context: Context) throws {
      let store = try context.todos()
      let picked = try pick(numbers, in: store, context)
      try store.trySend(.removeTodos(ids: Set(picked.map(\.id)))) { state in
        try Values.requireStillThere(picked, in: state.todos.map(\.id), of: "todos")
      }
      context.output.recordSaved("removed \(Values.count(picked.count, "todo"))")
      try result(store, context) { "Removed \(Values.count(picked.count, "todo"))." }
    }
  }

  struct Move: ParsableCommand {
    static let name = "move"
    static let summary = "Move todos to another place in the list"
    static let arguments: [Argument<Move>] = [
      .list(
        \.numbers, .integer(), label: "a todo number",
        summary: "The numbers of the todos, in the order they are to have")
    ]
    static let options: [Option<Move>] = [
      .option(
        \.position, "to", .integer(), placeholder: "P", isRequired: true,
        summary: "The number the first moved todo gets")
    ]
    static let discussion =
      "Example: diary todos move 5 4 --to 1 (todo 5 becomes 1, todo 4 becomes 2)"

    var numbers: [Int] = []
    var position = 1

    func run(_ context: Context) throws {
      let store = try context.todos()
      let picked = try pick(numbers, in: store, context)
      let last = store.todos.count - picked.count + 1
      guard (1...last).contains(position) else {
        throw DiaryError(
          "--to must be between 1 and \(last) to move \(Values.count(picked.count, "todo")), "
            + "not \(position)")
      }
      // The moved todos land before the todo that stays and ends up right after them.
      let movedIDs = picked.map(\.id)
      let moved = Set(movedIDs)
      let staying = store.todos.lazy.filter { !moved.contains($0.id) }
      let before = staying.dropFirst(position - 1).first?.id
      var isInPlace = false
      try store.trySend(.moveTodos(ids: movedIDs, before: before)) { state in
        let ids = state.todos.map(\.id)
        try Values.requireStillThere(picked, in: ids, of: "todos")
        let end: Int
        if let before {
          guard let index = ids.firstIndex(of: before) else {
            throw DiaryError(
              "the todo at \(position) was removed by another process meanwhile; nothing "
                + "changed — see 'diary todos list' for the numbers now")
          }
          end = index
        } else {
          end = ids.count
        }
        isInPlace = ids[..<end].suffix(movedIDs.count).elementsEqual(movedIDs)
      }
      let numbers = picked.map(\.number)
      if !isInPlace {
        context.output.recordSaved("moved \(Values.count(picked.count, "todo")) to \(position)")
      }
      try result(store, context) {
        guard isInPlace else {
          return "Moved \(Values.count(picked.count, "todo")) to \(position)."
        }
        let places = Array(position..<position + picked.count)
        return Values.named(numbers, "Todo") + (numbers.count == 1 ? " is" : " are")
          + " already at "
          + places.map(String.init).joined(separator: ", ", lastSeparator: " and ") + "."
      }
    }
  }

  /// How `todos order` sorts.
  enum Ordering: Choice {
    case date, priority

    var names: [String] {
      switch self {
      case .date: ["date"]
      case .priority: ["priority"]
      }
    }
  }

  struct Order: ParsableCommand {
    static let name = "order"
    static let summary = "Sort the list by date (earliest first) or priority (highest first)"
    static let arguments: [Argument<Order>] = [
      .value(\.ordering, .choice(), label: "the order", summary: "What to sort by")
    ]
    static let discussion = "Todos with the same date or priority keep their order."

    var ordering = Ordering.date

    func run(_ context: Context) throws {
      let store = try context.todos()
      try store.trySend(ordering == .date ? .orderByDate : .orderByPriority)
      context.recorder.forget(.todos)
      context.output.recordSaved("ordered the todos by \(ordering.name)")
      try result(store, context) { "Ordered by \(ordering.name)." }
    }
  }

  struct RemoveCompleted: ParsableCommand {
    static let name = "remove-completed"
    static let summary = "Remove every todo that is done"

    func run(_ context: Context) throws {
      let store = try context.todos()
      let done = store.todos.count(where: \.isDone)
      try store.trySend(.removeCompleted)
      if done > 0 {
        context.output.recordSaved("removed \(Values.count(done, "completed todo"))")
      }
      try result(store, context) {
        done == 0
          ? "No completed todos to remove." : "Removed \(Values.count(done, "completed todo"))."
      }
    }
  }

  /// The todos numbered `numbers`, in the order typed, as the numbers and the ids they name
  /// — refused when the list changed since `diary todos list` numbered it (see
  /// ``ListedOrder``).
  @MainActor
  private static func pick(_ numbers: [Int], in store: TodosStore, _ context: Context) throws
    -> [(number: Int, id: UUID)]
  {
    let todos = store.todos
    try ListedOrder.requireUnchanged(todos.lazy.map(\.id), of: .todos, context)
    return try Values.offsets(numbers, count: todos.count, of: "todos").map {
      ($0 + 1, todos[$0].id)
    }
  }

  /// After a change: the whole list as JSON, or `message` for people.
  @MainActor
  private static func result(_ store: TodosStore, _ context: Context, _ message: () -> String)
    throws
  {
    guard context.json else { return try context.output.line(message()) }
    // The list as numbered now: the numbers a script goes on with.
    ListedOrder.record(store.todos.lazy.map(\.id), of: .todos, context)
    try JSONOutput.writeArray(store.todos.numbered, to: context.output)
  }
}
