import Foundation

/// Something to do: a one-line title, a date, whether it is done and a priority.
public struct Todo: Identifiable, Hashable, Codable, Sendable {
  /// The todo's identity, kept through every change.
  public var id: UUID
  /// One line of text. A todo whose title is empty (after trimming white space) is not
  /// valid: the stores ignore it and a file holding one is refused.
  public var title: String
  /// When the todo is due or was written down.
  public var date: Date
  /// How important the todo is: higher is more important; 0 is the default.
  public var priority: Int
  /// Whether the todo is done. (Stored last: a todo has no padding between its fields, see
  /// ``EncodedList``.)
  public var isDone: Bool

  /// A todo. `id` and `date` can be given, so that tests are deterministic.
  ///
  /// The title is normalised to one line: each line break (`\n`, `\r\n`, `\r`, and the
  /// other characters Swift's `Character.isNewline` knows) becomes a space, and white space around the title is trimmed. A todo
  /// list shows one line per todo, and a title pasted with a trailing newline should not
  /// break that.
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

  /// Whether the title has text: the stores ignore todos without.
  public var isValid: Bool { !title.isEmpty && title == title.normalizedToOneLine }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(UUID.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    date = try container.decode(Date.self, forKey: .date)
    isDone = try container.decode(Bool.self, forKey: .isDone)
    priority = try container.decode(Int.self, forKey: .priority)
    if let problem = Self.problem(withTitle: title) {
      throw DecodingError.dataCorruptedError(
        forKey: .title, in: container, debugDescription: problem)
    }
  }

  /// What is wrong with `title` as a stored todo's title (see ``isValid``), or `nil`.
  static func problem(withTitle title: String) -> String? {
    guard title.isEmpty || title != title.normalizedToOneLine else { return nil }
    return title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      ? "a title cannot be empty" : "a title must be one line without surrounding spaces"
  }
}
