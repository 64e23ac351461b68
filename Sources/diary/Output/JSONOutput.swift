import Foundation
import Stores

/// A value `--json` prints, written with the package's ``JSONWriter``.
protocol JSONPrintable {
  /// Writes the value.
  ///
  /// - Throws: ``JSONCodingError`` for a value JSON cannot hold, such as a number that is not
  ///   finite.
  func write(to writer: inout JSONWriter) throws(JSONCodingError)
}

/// A report, a setting: any value, its objects' keys sorted.
extension JSONValue: JSONPrintable {}

/// The `--json` output, written by the package's JSON writer as the data files are:
/// pretty-printed with sorted keys, empty arrays and objects as `[]` and `{}`, items and dates
/// exactly as in the files.
enum JSONOutput {
  /// Writes `value` as JSON, and a line break.
  ///
  /// - Throws: A ``DiaryError`` (65) when a value cannot be JSON, such as a total distance
  ///   that overflowed to infinity in a file edited by hand; an ``OutputError``.
  @MainActor
  static func write(_ value: some JSONPrintable, to output: Output) throws {
    var writer = JSONWriter()
    do throws(JSONCodingError) {
      try value.write(to: &writer)
    } catch {
      throw failure(error)
    }
    try output.write(writer.finish())
    try output.write("\n")
  }

  /// `value` as ``write(_:to:)`` prints it, without the line break.
  ///
  /// - Throws: ``JSONCodingError`` for a value JSON cannot hold.
  static func text(_ value: some JSONPrintable) throws(JSONCodingError) -> String {
    var writer = JSONWriter()
    try value.write(to: &writer)
    return String(decoding: writer.finish(), as: UTF8.self)
  }

  /// Writes `elements` as a JSON array, a block of them at a time, so that a list of any
  /// length is never one string; the text is the same as that of the whole array at once.
  ///
  /// - Complexity: O(*n*) in the length of the text; the memory used is that of a block.
  @MainActor
  static func writeArray<Elements: Collection>(_ elements: Elements, to output: Output) throws
  where Elements.Element: JSONPrintable {
    guard !elements.isEmpty else { return try output.line("[]") }
    var rest = elements[...]
    var index = 0
    while !rest.isEmpty {
      let block = rest.prefix(1_000)
      rest = rest.dropFirst(block.count)
      // The array's `[` and the block's elements as inside the whole array; the `[` stands
      // for the `,` after the elements before.
      var writer = JSONWriter()
      writer.beginArray()
      for element in block {
        writer.element()
        do throws(JSONCodingError) {
          try element.write(to: &writer)
        } catch {
          throw failure(error.at(.index(index)))
        }
        index += 1
      }
      let text = writer.finish()
      if index > block.count { try output.write(",") }
      try output.write(index == block.count ? text : text.dropFirst())
    }
    try output.write("\n]\n")
  }

  private static func failure(_ error: JSONCodingError) -> DiaryError {
    let place = error.keyPath.isEmpty ? "" : "\(error.keyPath): "
    return DiaryError("cannot print this as JSON: \(Terminal.escaped(place + error.detail))")
  }
}

/// An item with the number `list` shows: the item's fields as the data files write them
/// (``JSONObjectCodable``), plus `number`.
struct Numbered<Item: JSONObjectCodable>: JSONPrintable {
  var number: Int
  var item: Item

  func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    try item.write(to: &writer, adding: [EnvelopeMember(key: "number") { $0.writeInt(number) }])
  }
}

extension Array where Element: JSONObjectCodable {
  /// The elements with the numbers `list` shows: 1, 2, ….
  var numbered: LazyMapCollection<IndexedCollection<Self>, Numbered<Element>> {
    indexed().lazy.map { Numbered(number: $0.index + 1, item: $0.element) }
  }
}

extension JSONValue {
  /// A whole number.
  init(_ value: Int) {
    self = .number(JSONNumber(value))
  }

  /// A number; one that is not finite is refused when written.
  init(_ value: Double) {
    self = .number(JSONNumber(value))
  }

  /// Text.
  init(_ value: String) {
    self = .string(value)
  }

  /// `value` as `transform` makes it, or `null`.
  init<Wrapped>(_ value: Wrapped?, _ transform: (Wrapped) -> JSONValue) {
    self = value.map(transform) ?? .null
  }
}
