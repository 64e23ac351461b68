import Foundation
import Stores

/// Parses the values of arguments and options strictly, with errors that say what was
/// expected (exit 65).
enum Values {
  /// A whole number, such as `3` or `-2`: digits only, in range.
  static func integer(_ text: String, for what: String) throws(DiaryError) -> Int {
    guard let value = Int(text), !text.hasPrefix("+") else {
      throw DiaryError("\(what) must be a whole number, not '\(Terminal.escaped(text))'")
    }
    return value
  }

  /// The 0-based offsets of the 1-based `numbers` in a list of `count` items, each once, in
  /// the order typed.
  static func offsets(_ numbers: [String], count: Int, of items: String) throws(DiaryError)
    -> [Int]
  {
    var offsets: [Int] = []
    for text in numbers {
      let number = try integer(text, for: "a \(items.dropLast()) number")
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

  /// A date: `today`, `yesterday`, `2026-11-29` or ISO 8601 such as `2026-11-29T07:30:00Z`.
  static func date(_ text: String, in context: Context) throws(DiaryError) -> Date {
    guard let date = HumanDate.parse(text, now: context.now, timeZone: context.timeZone) else {
      throw DiaryError(
        "invalid date '\(Terminal.escaped(text))': use YYYY-MM-DD, today, yesterday or ISO 8601 "
          + "such as 2026-11-29T07:30:00Z")
    }
    return date
  }

  /// A distance in kilometres: a decimal number from 0 to 100,000 (no workout is longer,
  /// and totals stay far from overflowing).
  static func distance(_ text: String) throws(DiaryError) -> Double {
    guard let value = Double(parsing: text), (0...100_000).contains(value) else {
      throw DiaryError(
        "invalid distance '\(Terminal.escaped(text))': give kilometres as a number from 0 to "
          + "100,000, such as 5.2")
    }
    return value + 0
  }
}
