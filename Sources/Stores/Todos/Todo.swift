import Foundation

/// Why a todo is not valid.
public enum TodoError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The title is empty after trimming white space.
  case emptyTitle
  /// The title is not one line without white space around it: a file or `Codable` data
  /// holds titles as ``Todo/init(id:title:date:isDone:priority:)`` leaves them.
  case titleNotOneLine

  public var description: String {
    switch self {
    case .emptyTitle: "a title cannot be empty"
    case .titleNotOneLine: "a title must be one line without surrounding spaces"
    }
  }
}

/// Something to do: a one-line title, a date, whether it is done and a priority.
///
/// Validation, as for ``Workout``: the initialiser normalises the title to one line,
/// trimmed; a todo whose title is then empty is not valid (``isValid``; ``problem`` says
/// why). A `Todo` is a value whose fields can be set, so an invalid one can be made: the
/// stores ignore it. A file or `Codable` data refuses a title that is empty or not
/// normalised, rather than change it — one check, `problem(withTitle:)`, for the stores,
/// `Codable` and the file format.
public struct Todo: Identifiable, Hashable, Codable, Sendable {
  /// The todo's identity, kept through every change.
  public var id: UUID
  /// One line of text. A todo whose title is empty (after trimming white space) is not
  /// valid: the stores ignore it and a file holding one is refused.
  public var title: String
  /// When the todo is due or was written down.
  public var date: Date
  /// Whether the todo is done.
  public var isDone: Bool
  /// How important the todo is: higher is more important; 0 is the default.
  public var priority: Int

  /// A todo. `id` and `date` can be given, so that tests are deterministic.
  ///
  /// The title is normalised to one line: each line break (`\n`, `\r\n`, `\r`, and the
  /// other characters Swift's `Character.isNewline` knows) becomes a space, and white
  /// space around the title is trimmed. A todo list shows one line per todo, and a title
  /// pasted with a trailing newline should not break that.
  public init(
    id: UUID = UUID(), title: String, date: Date = Date(), isDone: Bool = false,
    priority: Int = 0
  ) {
    self.id = id
    self.title = title.normalizedToOneLine
    self.date = date
    self.isDone = isDone
    self.priority = priority
  }

  /// Whether the title has text and is one line, trimmed: the stores ignore todos without.
  public var isValid: Bool { problem == nil }

  /// Why the todo is not valid — its title is empty, or not one line, trimmed (a title set
  /// after the initialiser) — or `nil`. O(length of the title).
  public var problem: TodoError? { Self.problem(withTitle: title) }

  /// A todo whose `title` is taken as it is, refused unless valid: a todo read from a file
  /// or a decoder.
  ///
  /// - Throws: ``TodoError``.
  init(
    id: UUID, validating title: String, date: Date, isDone: Bool, priority: Int
  ) throws(TodoError) {
    if let problem = Self.problem(withTitle: title) { throw problem }
    self.id = id
    self.title = title
    self.date = date
    self.isDone = isDone
    self.priority = priority
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        id: container.decode(UUID.self, forKey: .id),
        validating: container.decode(String.self, forKey: .title),
        date: container.decode(Date.self, forKey: .date),
        isDone: container.decode(Bool.self, forKey: .isDone),
        priority: container.decode(Int.self, forKey: .priority))
    } catch let error as TodoError {
      throw DecodingError.dataCorruptedError(
        forKey: .title, in: container, debugDescription: error.description)
    }
  }

  /// What is wrong with `title` as a todo's title, or `nil` when it is one line, trimmed, and
  /// not empty: the one check of a todo. O(length of the title).
  static func problem(withTitle title: String) -> TodoError? {
    guard title.isEmpty || title != title.normalizedToOneLine else { return nil }
    return title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      ? .emptyTitle : .titleNotOneLine
  }
}
