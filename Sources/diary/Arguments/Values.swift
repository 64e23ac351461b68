import Foundation

/// The numbers `list` shows, checked against the list they name.
enum Values {
  /// The 0-based offsets of the 1-based `numbers` in a list of `count` items, each once, in
  /// the order typed.
  ///
  /// - Throws: A ``DiaryError`` (65) naming the first number that is not in the list.
  static func offsets(_ numbers: [Int], count: Int, of items: String) throws(DiaryError) -> [Int] {
    var offsets: [Int] = []
    for number in numbers {
      guard number >= 1 else {
        throw DiaryError("there is no \(items.dropLast()) \(number): numbers start at 1")
      }
      guard number <= count else {
        throw DiaryError(
          "there is no \(items.dropLast()) \(number): the list has "
            + (count == 0
              ? "no \(items)" : count == 1 ? "1 \(items.dropLast())" : "\(count) \(items)")
            + " — see 'diary \(items) list'")
      }
      if !offsets.contains(number - 1) { offsets.append(number - 1) }
    }
    return offsets
  }

  /// Refuses a change whose items are not all in `current` any more: another process
  /// removed one since the list was read, so its number now names another item.
  ///
  /// - Parameter picked: The numbers typed and the ids they named when the list was read.
  static func requireStillThere(
    _ picked: [(number: Int, id: UUID)], in current: some Sequence<UUID>, of items: String
  ) throws(DiaryError) {
    let present = Set(current)
    guard let gone = picked.first(where: { !present.contains($0.id) }) else { return }
    throw DiaryError(
      "\(items.dropLast()) \(gone.number) was removed by another process meanwhile; nothing "
        + "changed — see 'diary \(items) list' for the numbers now")
  }

  /// `text` when it is on one line, the rule for titles and names alike.
  ///
  /// - Throws: "`label` must be one line: it has a line break — type it without one" (65).
  static func oneLine(_ text: String, _ label: String) throws(DiaryError) -> String {
    // Only white space: the command says what is missing instead.
    guard text.contains(where: \.isNewline), !text.allSatisfy(\.isWhitespace) else { return text }
    throw DiaryError("\(label) must be one line: it has a line break — type it without one")
  }

  /// "Todo 1", "Todos 1 and 3", "Workouts 2, 4 and 5".
  static func named(_ numbers: [Int], _ noun: String) -> String {
    (numbers.count == 1 ? "\(noun) " : "\(noun)s ")
      + numbers.map(String.init).joined(separator: ", ", lastSeparator: " and ")
  }

  /// "1 todo", "3 todos".
  static func count(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }
}
