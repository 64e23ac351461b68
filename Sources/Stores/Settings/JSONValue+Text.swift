import Foundation

extension JSONValue {
  /// The value the JSON text `text` holds — any value, not only an object — or `nil` when it
  /// is not valid JSON (an object with a key twice is not, nor nesting deeper than 512).
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  public init?(parsing text: String) {
    var text = text
    guard let value = text.withUTF8({ Self.parse($0) }) else { return nil }
    self = value
  }

  /// The value the JSON text in `data` holds, or `nil` when it is not valid JSON.
  init?(parsing data: Data) {
    guard let value = data.withUnsafeBytes({ Self.parse($0.bindMemory(to: UInt8.self)) }) else {
      return nil
    }
    self = value
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
    guard let keys = try? JSONSyntax.validate(bytes) else { return nil }
    var reader = JSONReader(bytes: bytes, topLevelKeys: keys)
    return try? JSONValue(from: &reader)
  }

  /// The value as JSON text in UTF-8, as the files write it; `nil` for a number that is not
  /// finite or nesting deeper than 512.
  var data: Data? {
    var writer = JSONWriter()
    do throws(JSONCodingError) {
      try write(to: &writer)
    } catch {
      return nil
    }
    return writer.finish()
  }

  /// The value as JSON text, as the files write it (`"dark"`, `7`, `true`).
  package var jsonText: String {
    data.map { String(decoding: $0, as: UTF8.self) } ?? description
  }

  /// The value as compact JSON for a message: at most `limit` characters, cut with "…".
  func shortDescription(_ limit: Int = 60) -> String {
    let text = description
    return text.count <= limit ? text : text.prefix(limit - 1) + "…"
  }
}
