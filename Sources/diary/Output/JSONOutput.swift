import Foundation
import Stores

/// The `--json` output: pretty-printed with sorted keys, dates as in the data files.
enum JSONOutput {
  /// - Throws: A ``DiaryError`` (65) when a value cannot be JSON, such as a total distance
  ///   that overflowed to infinity in a file edited by hand.
  static func encode(_ value: some Encodable) throws(DiaryError) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601Timestamp.string(from: date) ?? "\(date)")
    }
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      throw DiaryError("cannot print this as JSON: \(Terminal.escaped("\(error)"))")
    }
  }
}

/// An item with the number `list` shows: the item's own fields plus `number`.
struct Numbered<Item: Encodable>: Encodable {
  var number: Int
  var item: Item

  private enum CodingKeys: String, CodingKey {
    case number
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(number, forKey: .number)
    try item.encode(to: encoder)
  }
}

extension Array where Element: Encodable {
  /// The elements with the numbers `list` shows: 1, 2, ….
  var numbered: [Numbered<Element>] {
    indexed().map { Numbered(number: $0.index + 1, item: $0.element) }
  }
}
