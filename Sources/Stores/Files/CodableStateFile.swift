import Foundation

/// A state whose file envelope `StateFileCoding` reads and writes through `Codable` rather
/// than through its fields: ``CodableStateFile``. Everything else of the envelope — the
/// validation, the version, a newer version refused, the migration, the errors naming the
/// file — is the same as for every store file.
protocol CodableEnvelope {
  /// Reads the state from the envelope `reader` holds, a validated object of the version this
  /// code writes, whose top-level keys the reader knows. O(*n*) in the size of the text.
  static func decodeEnvelope(_ reader: borrowing JSONReader) throws(JSONCodingError) -> Self

  /// Writes the state's envelope, `version` among its keys, to `writer` (which has written
  /// nothing yet), without the final line break. O(*n*) in the size of the text.
  func writeEnvelope(version: Int, to writer: inout JSONWriter) throws(JSONCodingError)
}

/// A ``CodableState`` in its file's envelope: the ``PersistentState`` through which a store
/// on a `CodableState` runs on the machinery every store file runs on (`JSONFileBacking`,
/// `StateFileCoding`), its members written by `JSONEncoder` and read by `JSONDecoder`
/// (see ``CodableEnvelope``). Wrapping a state and unwrapping it copies nothing it holds.
package struct CodableStateFile<Value: CodableState>: PersistentState, CodableEnvelope {
  /// The store's state.
  package var value: Value

  package init() {
    value = Value()
  }

  package init(_ value: Value) {
    self.value = value
  }

  package static var fileVersion: Int { Value.fileVersion }

  package mutating func keepMemoryOnlyState(from previous: Self) {
    value.keepMemoryOnlyState(from: previous.value)
  }

  package init(from decoder: any Decoder) throws {
    value = try Value(from: decoder)
  }

  package func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }

  /// Not used: the envelope of a `CodableState` is read and written whole, through
  /// ``CodableEnvelope``, never field by field.
  package static func jsonFields<Coder: JSONFieldCoder<Self> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    throw JSONCodingError("\(String(reflecting: Value.self)) is read and written through Codable")
  }

  /// Reads the older format `version` with the state's
  /// ``CodableState/migrate(fromVersion:decoder:)``, its decoder at the file's top-level
  /// value, where `reader` is.
  package static func migrate(
    fromVersion version: Int, reader: inout JSONReader
  ) throws(JSONCodingError) -> Self {
    let start = reader.position
    let end = JSONReader.endOfValue(reader.bytes, count: reader.count, at: start)
    let text = Data(bytes: reader.bytes + start, count: end - start)
    reader.skipValue()
    let decoder = CodableCoding.decoder()
    decoder.userInfo[CodableCoding.migratedVersion] = version
    do {
      return Self(try decoder.decode(Migrated<Value>.self, from: text).value)
    } catch {
      throw CodableCoding.codingError(error)
    }
  }

  static func decodeEnvelope(_ reader: borrowing JSONReader) throws(JSONCodingError) -> Self {
    let text = UnsafeBufferPointer(start: reader.bytes, count: reader.count)
    // The state reads its own keys, never the envelope's version: a copy of the text without
    // it (a copy costs little beside `JSONDecoder`).
    let members = reader.topLevelMembers()
    var versionMember: Int?
    for index in members.indices where reader.key(of: members[index], equals: "version") {
      versionMember = index
    }
    var state = Data()
    if let versionMember {
      let removed = span(ofMember: versionMember, of: members.map(\.key.start), in: text)
      state.reserveCapacity(text.count - removed.count)
      state.append(UnsafeBufferPointer(rebasing: text[..<removed.lowerBound]))
      state.append(UnsafeBufferPointer(rebasing: text[removed.upperBound...]))
    } else {
      state.append(text)
    }
    do {
      return Self(try CodableCoding.decoder().decode(Value.self, from: state))
    } catch {
      throw CodableCoding.codingError(error)
    }
  }

  /// The bytes to remove from the top-level object `text` to remove its member `index`, whose
  /// members' keys start at `keys` (in the order of the text), leaving valid JSON: up to the
  /// next member, or from the comma before it (or its start, when it is the only member) to
  /// the closing brace.
  private static func span(
    ofMember index: Int, of keys: [Int], in text: UnsafeBufferPointer<UInt8>
  ) -> Range<Int> {
    if index + 1 < keys.count { return keys[index]..<keys[index + 1] }
    let closingBrace = text.lastIndex(where: { !isWhitespace($0) }) ?? text.count
    guard index > 0 else { return keys[index]..<closingBrace }
    var comma = keys[index] - 1
    while comma > 0, isWhitespace(text[comma]) { comma -= 1 }
    return comma..<closingBrace
  }

  func writeEnvelope(version: Int, to writer: inout JSONWriter) throws(JSONCodingError) {
    let text = try CodableCoding.encode(value)
    let place = try Self.versionPlace(in: text, version: version)
    text.withUnsafeBytes { raw in
      let text = raw.bindMemory(to: UInt8.self)
      Self.append(UnsafeBufferPointer(rebasing: text[..<place.start]), to: &writer)
      place.member.withUnsafeBufferPointer { Self.append($0, to: &writer) }
      Self.append(UnsafeBufferPointer(rebasing: text[place.end...]), to: &writer)
    }
  }

  /// Refuses, naming `path`, a state whose `State()` cannot be written in an envelope: one
  /// that is not an object, or that has a key `"version"` of its own.
  package static func checkShape(path: String) throws(StoreFileError) {
    do throws(JSONCodingError) {
      _ = try versionPlace(in: CodableCoding.encode(Value()), version: fileVersion)
    } catch {
      throw StoreFileError(
        path: path, problem: .cannotEncode(keyPath: error.keyPath, detail: error.detail))
    }
  }

  /// ``versionPlace(in:version:)`` in `text`.
  private static func versionPlace(
    in text: Data, version: Int
  ) throws(JSONCodingError) -> (start: Int, member: [UInt8], end: Int) {
    try text.withUnsafeBytes {
      (raw: UnsafeRawBufferPointer) -> Result<
        (start: Int, member: [UInt8], end: Int), JSONCodingError
      > in
      do throws(JSONCodingError) {
        return .success(try versionPlace(in: raw.bindMemory(to: UInt8.self), version: version))
      } catch {
        return .failure(error)
      }
    }.get()
  }

  /// Where `"version" : version` goes in `text`, the object `JSONEncoder` wrote for the state
  /// (pretty-printed, sorted keys): the envelope is `text[..<start]`, then `member`, then
  /// `text[end...]` — the member on a line of its own, indented as the other members, at the
  /// place of its key in the sorted order, as `JSONEncoder` would put it.
  ///
  /// Keys are compared by their bytes as written: `JSONEncoder` sorts by the bytes of the keys
  /// and escapes only `"`, `\` and control characters, each escape beginning with `\`, which
  /// like them sorts before the letters of `version`, so the order is the same. (So does
  /// Apple's `JSONEncoder`, written in Swift since macOS 14 and iOS 17, unless an app linked
  /// against an older SDK runs it in its compatibility mode, which sorts as `NSString` does,
  /// numbers and case aside: `"version"` may then stand elsewhere among the keys — the file
  /// is as valid, and reads the same.)
  ///
  /// - Throws: When the text is not an object, or has a key `"version"` of its own.
  private static func versionPlace(
    in text: UnsafeBufferPointer<UInt8>, version: Int
  ) throws(JSONCodingError) -> (start: Int, member: [UInt8], end: Int) {
    guard let open = text.firstIndex(where: { !isWhitespace($0) }), text[open] == Byte.openBrace
    else {
      throw JSONCodingError(
        "\(String(reflecting: Value.self)) is written as \(kind(of: text)), not as an object: "
          + "a store file holds an object of keys beside \"version\" — keep the value in a "
          + "property of a struct")
    }
    // `JSONEncoder`'s text is valid JSON: its top-level members are found by skipping their
    // values, without validating it again.
    let members = JSONReader(bytes: text, topLevelKeys: []).members(ofObjectAt: open).members
    let keys = members.map(\.key)
    let name = Array("version".utf8)
    func key(_ record: KeyRecord) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: text[record.start + 1..<record.end])
    }
    if keys.contains(where: { key($0).elementsEqual(name) }) {
      throw JSONCodingError(
        key: "version",
        "the key \"version\" is the file's own (its format version): give the state's "
          + "property another key in its CodingKeys")
    }
    let line = Array("\"version\" : \(version)".utf8)
    guard let last = keys.last else {
      // `{` and `}` with nothing but white space between them.
      let close = text.lastIndex(where: { !isWhitespace($0) }) ?? text.count
      return (open + 1, Array("\n  ".utf8) + line + [Byte.lineFeed], close)
    }
    if let next = keys.first(where: { name.lexicographicallyPrecedes(key($0)) }) {
      let lineStart = startOfLine(at: next.start, in: text)
      let indentation = Array(text[lineStart..<next.start])
      return (lineStart, indentation + line + Array(",\n".utf8), lineStart)
    }
    // After the last member: at the end of its value, before the line break and the `}`.
    let close = text.lastIndex(where: { !isWhitespace($0) }) ?? text.count
    var valueEnd = close
    while valueEnd > 0, isWhitespace(text[valueEnd - 1]) { valueEnd -= 1 }
    let indentation = Array(text[startOfLine(at: last.start, in: text)..<last.start])
    return (valueEnd, Array(",\n".utf8) + indentation + line, valueEnd)
  }

  /// The offset of the first byte of the line `offset` is on.
  private static func startOfLine(at offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
    var start = offset
    while start > 0, text[start - 1] != Byte.lineFeed { start -= 1 }
    return start
  }

  /// What the JSON value `text` is, in words: "a list", "a string", …
  private static func kind(of text: UnsafeBufferPointer<UInt8>) -> String {
    switch text.first(where: { !isWhitespace($0) }) {
    case Byte.openBracket: "a list"
    case Byte.quote: "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): "true or false"
    case UInt8(ascii: "n"): "null"
    default: "a number"
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == Byte.space || byte == Byte.lineFeed || byte == Byte.carriageReturn || byte == Byte.tab
  }

  /// Appends `bytes` to `writer` in parts no longer than a part of a file (see
  /// ``FileOutput/partSize``): a writer that streams sends each on, holding one at a time.
  private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to writer: inout JSONWriter) {
    var start = 0
    while start < bytes.count {
      let end = min(start + FileOutput.partSize, bytes.count)
      writer.appendBytes(UnsafeBufferPointer(rebasing: bytes[start..<end]))
      start = end
    }
  }
}

/// The state an older file migrates to: decoded with the state's own migration, its version
/// in the decoder's `userInfo`.
private struct Migrated<Value: CodableState>: Decodable {
  var value: Value

  init(from decoder: any Decoder) throws {
    let version = decoder.userInfo[CodableCoding.migratedVersion] as? Int ?? 0
    value = try Value.migrate(fromVersion: version, decoder: decoder)
  }
}

/// Foundation's `JSONEncoder` and `JSONDecoder` set up for store files, and their errors as
/// ``JSONCodingError``s with key paths.
enum CodableCoding {
  /// The key of the version a migration reads, in its decoder's `userInfo`.
  static let migratedVersion = CodingUserInfoKey(rawValue: "Stores.migratedVersion")!

  /// An example in messages.
  private static let dateExample = "\"2026-11-29T07:30:00Z\""

  /// The bytes `JSONEncoder` writes for `value` with the store files' options: pretty-printed,
  /// sorted keys, slashes as they are, dates as exact UTC ISO 8601 timestamps.
  static func encode<Value: Encodable>(_ value: Value) throws(JSONCodingError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      guard let text = ISO8601Timestamp.string(from: date) else {
        throw EncodingError.invalidValue(
          date,
          EncodingError.Context(
            codingPath: encoder.codingPath, debugDescription: "its year is outside 1…9999"))
      }
      var container = encoder.singleValueContainer()
      try container.encode(text)
    }
    do {
      return try encoder.encode(value)
    } catch {
      throw codingError(error)
    }
  }

  /// A `JSONDecoder` that reads the dates ``encode(_:)`` writes (and any ISO 8601 timestamp
  /// the package's files hold), and nothing else as a date.
  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      guard var text = try? container.decode(String.self) else {
        throw DecodingError.typeMismatch(
          Date.self,
          DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "expected a date, a string such as \(dateExample)"))
      }
      switch text.withUTF8({ ISO8601Timestamp.parse($0) }) {
      case .date(let date):
        return date
      case .outOfRange:
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription: "expected a date in the years 1…9999 (UTC), found \(quoted(text))")
      case .invalid:
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription: "expected a date such as \(dateExample), found \(quoted(text))")
      }
    }
    return decoder
  }

  /// `error`, thrown by `JSONEncoder`, `JSONDecoder` or the state's own coding, as a
  /// ``JSONCodingError`` at the key path of its `codingPath` (`readings[3].celsius`).
  static func codingError(_ error: any Error) -> JSONCodingError {
    if let error = error as? JSONCodingError { return error }
    let result: JSONCodingError
    let path: [any CodingKey]
    switch error {
    case DecodingError.typeMismatch(_, let context):
      result = JSONCodingError(sentence(context.debugDescription), kind: .typeMismatch)
      path = context.codingPath
    case DecodingError.valueNotFound(let type, let context):
      result = JSONCodingError("expected \(type), found null", kind: .typeMismatch)
      path = context.codingPath
    case DecodingError.keyNotFound(let key, let context):
      result = JSONCodingError("missing key \(quoted(key.stringValue))", kind: .missingKey)
      path = context.codingPath
    case DecodingError.dataCorrupted(let context):
      result = JSONCodingError(sentence(context.debugDescription))
      path = context.codingPath
    case EncodingError.invalidValue(_, let context):
      result = JSONCodingError(sentence(context.debugDescription))
      path = context.codingPath
    default:
      return JSONCodingError(String(describing: error))
    }
    return path.reversed().reduce(result) { error, key in
      // An array's element: `JSONDecoder` and `JSONEncoder` name it "Index 3".
      if let index = key.intValue, key.stringValue == "Index \(index)" {
        return error.at(.index(index))
      }
      return error.at(.key(key.stringValue))
    }
  }

  /// Foundation's message as part of a sentence: its first letter lower-case (unless it begins
  /// a word in capitals), without a final full stop.
  private static func sentence(_ message: String) -> String {
    var text = message.hasSuffix(".") ? String(message.dropLast()) : message
    if let first = text.first, first.isUppercase,
      text.dropFirst().first.map({ !$0.isUppercase }) ?? true
    {
      text = first.lowercased() + text.dropFirst()
    }
    return text
  }
}
