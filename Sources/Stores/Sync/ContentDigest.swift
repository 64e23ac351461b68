import Foundation

/// A short digest of a value's JSON text, written beside the value's stamp: a value changed
/// under its old stamp — by a program that does not stamp (an editor, `jq`, a script) —
/// no longer matches it, and is then the newest change, even for a process that never saw
/// the value before (see ``StateSync/reconcile(with:)``).
///
/// Two base-36 digits of the FNV-1a hash of the value's text as ``JSONWriter`` writes it (so
/// a file laid out again, with the same values, still matches): an edit goes unseen once in
/// 1,296, and is then taken as it is (its tie with the old value elsewhere is broken by their
/// text, as before digests). The same on every device and platform.
package struct ContentDigest: Hashable, Sendable {
  /// The digest, below 36².
  let value: UInt16

  /// The number of digits a digest is written with.
  static let width = 2

  /// The digest of `value`'s JSON text.
  package init<Value: JSONCodable>(of value: Value) {
    var writer = JSONWriter(capacity: 64)
    self.init(of: value, writingWith: &writer)
  }

  /// The digest of `value`'s JSON text, written with `writer` (emptied first): one writer
  /// serves the digests of a whole list.
  package init<Value: JSONCodable>(of value: Value, writingWith writer: inout JSONWriter) {
    writer.removeAll()
    try? value.write(to: &writer)
    self = writer.withWrittenBytes { Self(bytes: $0) }
  }

  /// The digest of an id: of its 16 bytes (no text is made: one is made per item of every
  /// list written and read).
  package init(of id: UUID) {
    self = withUnsafeBytes(of: id.uuid) { Self(bytes: $0.bindMemory(to: UInt8.self)) }
  }

  /// The digest of `bytes`: their FNV-1a hash, modulo 36².
  private init(bytes: UnsafeBufferPointer<UInt8>) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    self.value = UInt16(hash % 1_296)
  }

  private init(value: UInt16) { self.value = value }

  private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

  /// Appends the digest's two digits to `text`.
  func append(to text: inout [UInt8]) {
    text.append(Self.digits[Int(value / 36)])
    text.append(Self.digits[Int(value % 36)])
  }

  /// The digests written one after another in `text`, or `nil` when it is not `count` of
  /// them.
  static func digests(_ text: Substring.UTF8View, count: Int) -> [ContentDigest]? {
    guard text.count == count * width else { return nil }
    var result: [ContentDigest] = []
    result.reserveCapacity(count)
    var high: UInt16?
    for byte in text {
      guard let digit = digits.firstIndex(of: byte) else { return nil }
      if let first = high {
        result.append(ContentDigest(value: first * 36 + UInt16(digit)))
        high = nil
      } else {
        high = UInt16(digit)
      }
    }
    return result
  }
}

extension ContentDigest {
  /// The digest of a settings value: of its JSON text with each number spelled as its
  /// `Double` is (a value keeps its number's literal text, see ``JSONNumber``), so that a
  /// program that writes `7.0` as `7`, or `1E5` as `100000`, changes no digest.
  package init(of value: JSONValue) {
    var writer = JSONWriter(capacity: 64)
    self.init(of: value.respellingNumbers, writingWith: &writer)
  }
}

extension JSONValue {
  /// The value with each number spelled as its `Double` is: what a settings value's digest
  /// is made of, so that `7` and `7.0`, or `1E5` and `100000`, are one value. O(size).
  package var respellingNumbers: JSONValue {
    switch self {
    case .number(let number): .number(JSONNumber(number.double))
    case .array(let elements): .array(elements.map(\.respellingNumbers))
    case .object(let members): .object(members.mapValues(\.respellingNumbers))
    case .null, .bool, .string: self
    }
  }
}
