import Foundation
import Stores

/// The `--json` output: pretty-printed with sorted keys, dates as in the data files, and
/// empty arrays and objects as `[]` and `{}`.
enum JSONOutput {
  /// Writes `value` as JSON, and a line break.
  ///
  /// - Throws: A ``DiaryError`` (65) when a value cannot be JSON, such as a total distance
  ///   that overflowed to infinity in a file edited by hand; an ``OutputError``.
  @MainActor
  static func write(_ value: some Encodable, to output: Output) throws {
    try output.write(encode(value)[...])
    try output.write("\n")
  }

  /// Writes `elements` as a JSON array, a block of them at a time, so that a list of any
  /// length is never one string; the text is the same as that of the whole array at once.
  @MainActor
  static func writeArray<Elements: Collection>(_ elements: Elements, to output: Output) throws
  where Elements.Element: Encodable {
    guard !elements.isEmpty else { return try output.line("[]") }
    try output.write("[\n")
    var rest = elements[...]
    while !rest.isEmpty {
      let block = rest.prefix(1_000)
      rest = rest.dropFirst(block.count)
      // "[\n" + the elements + "\n]": the elements, as they are inside the whole array.
      try output.write(encode(Array(block)).dropFirst(2).dropLast(2))
      try output.write(rest.isEmpty ? "\n]\n" : ",\n")
    }
  }

  private static func encode(_ value: some Encodable) throws(DiaryError) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(ISO8601Timestamp.string(from: date) ?? "\(date)")
    }
    do {
      return compactingEmpties(Array(try encoder.encode(value)))
    } catch {
      throw DiaryError("cannot print this as JSON: \(Terminal.escaped("\(error)"))")
    }
  }

  /// `json` with each empty array or object, which `JSONEncoder` prints over lines
  /// (`[\n\n  ]`), as `[]` or `{}`. Strings are copied as they are.
  static func compactingEmpties(_ json: [UInt8]) -> [UInt8] {
    // An empty array or object is the only place a line is empty: strings escape line breaks.
    guard
      json.withUnsafeBufferPointer({ bytes in
        bytes.indices.dropFirst().contains { bytes[$0] == 0x0A && bytes[$0 - 1] == 0x0A }
      })
    else { return json }
    var result: [UInt8] = []
    result.reserveCapacity(json.count)
    var index = 0
    var inString = false
    while index < json.count {
      let byte = json[index]
      result.append(byte)
      index += 1
      if inString {
        if byte == UInt8(ascii: "\\"), index < json.count {
          result.append(json[index])
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
        var next = index
        while next < json.count, [0x20, 0x0A, 0x0D, 0x09].contains(json[next]) { next += 1 }
        if next < json.count, json[next] == close {
          result.append(close)
          index = next + 1
        }
      default:
        break
      }
    }
    return result
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
  var numbered: LazyMapCollection<IndexedCollection<Self>, Numbered<Element>> {
    indexed().lazy.map { Numbered(number: $0.index + 1, item: $0.element) }
  }
}
