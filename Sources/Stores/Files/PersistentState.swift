import Foundation

/// A store state that can live in a JSON file.
///
/// The file is a versioned envelope: one JSON object holding `"version"` and the state's
/// own keys, pretty-printed with sorted keys so that it reads well and diffs well:
///
/// ```json
/// {
///   "sortType" : "distance",
///   "version" : 1,
///   "workouts" : [ … ]
/// }
/// ```
///
/// The state's keys are its fields as ``JSONObjectCodable`` describes them; the file holds
/// the bytes `JSONEncoder` would write for the state's `Codable` form (with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`), except that empty arrays and
/// objects are `[]` and `{}`. Dates are UTC ISO 8601 strings with as many fractional digits as
/// an exact round trip needs (see `ISO8601Timestamp`), so loading what was saved gives back
/// an equal state.
public protocol PersistentState: Codable, Equatable, Sendable, JSONObjectCodable {
  /// The state a missing file stands for.
  init()

  /// The file format version this code writes. Files with a higher version are refused;
  /// files with a lower one are read through ``migrate(fromVersion:reader:)`` — unless they
  /// are of ``fieldsReadSince`` or later.
  static var fileVersion: Int { get }

  /// The oldest format version whose files the state's fields (`jsonFields(_:)`) read as
  /// they are, because the versions since only added fields that a file may leave out: files
  /// of that version or later are read directly, older ones through
  /// ``migrate(fromVersion:reader:)``. ``fileVersion`` by default. A state merged across
  /// devices reads the stamps of each of these versions, so a new optional field needs no
  /// migration: raise ``fileVersion`` (so that older code refuses files it would lose the
  /// field of) and leave this where it was.
  static var fieldsReadSince: Int { get }

  /// Reads a file written in the older format `version`, where version 0 is a file whose
  /// top level is not an object with a `"version"` key (say, a bare list of items written
  /// by hand or by an older tool). `reader` is at the file's top-level value.
  ///
  /// The default implementation refuses every older version.
  static func migrate(
    fromVersion version: Int, reader: inout JSONReader
  ) throws(JSONCodingError) -> Self

  /// Carries over from `previous`, the state in memory, what the state keeps only in memory
  /// (not in its file), when the file is read again after another process changed it. The
  /// default keeps nothing: for states that are all in their file.
  mutating func keepMemoryOnlyState(from previous: Self)

  /// Whether two keys of the file are the same only when they are the same Unicode scalars,
  /// as JSON compares names, rather than up to canonical equivalence, as Swift compares
  /// `String`s (`false` by default): a state whose keys are its users' must say `true` and
  /// keep such keys apart itself.
  static var hasExactKeys: Bool { get }
}

extension PersistentState {
  public static var fileVersion: Int { 1 }
  public static var fieldsReadSince: Int { fileVersion }
  public static var hasExactKeys: Bool { false }

  public mutating func keepMemoryOnlyState(from previous: Self) {}

  public static func migrate(
    fromVersion version: Int, reader: inout JSONReader
  ) throws(JSONCodingError) -> Self {
    throw JSONCodingError(
      version == 0
        ? "expected an object with a \"version\" key"
        : "file version \(version) is no longer supported")
  }
}

/// Reads and writes the versioned envelope of a ``PersistentState`` with ``JSONReader`` and
/// ``JSONWriter``.
package enum StateFileCoding {
  /// Decodes the state in `data`, the content of the file at `path`, and its stamps:
  /// validates the text, then reads the state straight from it. O(n) in the size of the file;
  /// beyond the file, the state and its stamps, the memory used is O(nesting depth + number of
  /// top-level keys), and the text of the stamps while they are read.
  ///
  /// - Throws: ``StoreFileError`` naming `path`: `.malformedJSON` with the line and column
  ///   of the first syntax error (an empty file is one), `.invalidContent` with the key path
  ///   of a value of the wrong type or out of range, `.newerVersion`.
  // Specialised for the package's stores here, so that code in other modules (the tool,
  // the benchmarks) runs these rather than the generic code, many times slower.
  @_specialize(exported:true,where State == TodosStore.State, Sync == ListSync<TodosStore.State>)
  @_specialize(
    exported:true,where State == WorkoutsStore.State, Sync == ListSync<WorkoutsStore.State>
  )
  @_specialize(exported:true,where State == KeyValues, Sync == KeyValuesSync)
  package static func decode<State: PersistentState, Sync: StateSync<State>>(
    _ data: Data, path: String, sync: Sync.Type
  ) throws(StoreFileError) -> (State, Sync) {
    let (state, stamps) = try decode(data, path: path, stampsOf: Sync.self)
    return (state, try self.stamps(of: stamps, path: path))
  }

  /// Decodes the state in `data`, the content of the file at `path`, as
  /// ``decode(_:path:sync:)`` does, but leaves its stamps as the text they are (see
  /// ``StampsText``): what reading a file costs beyond its state is a copy of that text. A
  /// problem in the stamps is found when ``stamps(of:path:)`` reads them.
  // Specialised as `decode` is.
  @_specialize(exported:true,where State == TodosStore.State, Sync == ListSync<TodosStore.State>)
  @_specialize(
    exported:true,where State == WorkoutsStore.State, Sync == ListSync<WorkoutsStore.State>
  )
  @_specialize(exported:true,where State == KeyValues, Sync == KeyValuesSync)
  package static func decode<State: PersistentState, Sync: StateSync<State>>(
    _ data: Data, path: String, stampsOf sync: Sync.Type
  ) throws(StoreFileError) -> (State, StampsText<State, Sync>) {
    let result = data.withUnsafeBytes {
      (raw: UnsafeRawBufferPointer) -> Result<(State, StampsText<State, Sync>), StoreFileError> in
      let bytes = raw.bindMemory(to: UInt8.self)
      let topLevelKeys: [KeyRecord]
      do throws(JSONSyntaxError) {
        topLevelKeys = try JSONSyntax.validate(bytes, exactKeys: State.hasExactKeys)
      } catch {
        return .failure(
          StoreFileError(
            path: path,
            problem: .malformedJSON(line: error.line, column: error.column, detail: error.message)
          ))
      }
      var reader = JSONReader(bytes: bytes, topLevelKeys: topLevelKeys)
      do throws(EnvelopeError) {
        return .success(try readEnvelope(State.self, Sync.self, from: &reader))
      } catch {
        switch error {
        case .newerVersion(let found):
          return .failure(
            StoreFileError(
              path: path,
              problem: .newerVersion(
                found: found, supported: fileVersion(State.self, Sync.self))))
        case .content(let error):
          return .failure(
            StoreFileError(
              path: path, problem: .invalidContent(keyPath: error.keyPath, detail: error.detail))
          )
        }
      }
    }
    return try result.get()
  }

  private enum EnvelopeError: Error {
    case newerVersion(Int)
    case content(JSONCodingError)
  }

  /// The sync section of `State`'s files: ``ListSync`` for a ``SyncedList``,
  /// ``KeyValuesSync`` for settings, else ``NoSync``.
  package static func syncType<State: PersistentState>(
    of state: State.Type
  ) -> any StateSync<State>.Type {
    if let keyValues = KeyValuesSync.self as? any StateSync<State>.Type { return keyValues }
    if let list = State.self as? any SyncedList.Type {
      func listSync<List: SyncedList>(_ list: List.Type) -> Any.Type { ListSync<List>.self }
      if let sync = listSync(list) as? any StateSync<State>.Type { return sync }
    }
    return NoSync<State>.self
  }

  /// The state in `data`, the content of the file at `path`, without its stamps (see
  /// ``decode(_:path:sync:)``).
  package static func decode<State: PersistentState>(
    _ data: Data, path: String
  ) throws(StoreFileError) -> State {
    try decode(data, path: path, sync: syncType(of: State.self)).0
  }

  /// The file content for `state` as a file that has no stamps yet would be written (see
  /// ``encode(_:sync:path:)``).
  package static func encode<State: PersistentState>(
    _ state: State, path: String
  ) throws(StoreFileError) -> Data {
    func encode<Sync: StateSync<State>>(_ sync: Sync.Type) throws(StoreFileError) -> Data {
      try StateFileCoding.encode(state, sync: Sync(unstamped: state), path: path)
    }
    return try encode(syncType(of: State.self))
  }

  /// The version of the files written of `State` with `Sync`: the state's own, or one more
  /// for a state merged across devices, whose version 2 is version 1 with the `"sync"`
  /// section (and its version *n* + 1 its fields' version *n* with that section).
  static func fileVersion<State: PersistentState, Sync: StateSync<State>>(
    _ state: State.Type, _ sync: Sync.Type
  ) -> Int {
    Sync.self == NoSync<State>.self ? State.fileVersion : State.fileVersion + 1
  }

  /// Whether a file of `version` holds the `"sync"` section: from version 2 on, for a state
  /// merged across devices.
  private static func hasStamps<State: PersistentState, Sync: StateSync<State>>(
    version: Int, _ state: State.Type, _ sync: Sync.Type
  ) -> Bool {
    Sync.self != NoSync<State>.self && version >= 2
  }

  /// The stamps `text` holds, made ready for the state read beside them (see
  /// ``StateSync/reconcile(with:)``): decoded from the text of the file's `"sync"` section;
  /// when the file has none, unstamped. O(*n*) in the size of the state and the section.
  ///
  /// - Throws: ``StoreFileError`` `.invalidContent`, naming `path` and the place in the
  ///   section, when a stamp or another value of it is not valid.
  // Specialised as `decode` is.
  @_specialize(exported:true,where State == TodosStore.State, Sync == ListSync<TodosStore.State>)
  @_specialize(
    exported:true,where State == WorkoutsStore.State, Sync == ListSync<WorkoutsStore.State>
  )
  @_specialize(exported:true,where State == KeyValues, Sync == KeyValuesSync)
  package static func stamps<State: PersistentState, Sync: StateSync<State>>(
    of text: StampsText<State, Sync>, path: String
  ) throws(StoreFileError) -> Sync {
    var sync: Sync
    switch text.section {
    case .unstamped:
      return Sync(unstamped: text.state)
    case .missing:
      // A file of this version without its "sync" member lost it to a hand edit: nothing in
      // it is stamped.
      sync = Sync(unstamped: State())
    case .text(let bytes):
      let read = bytes.withUnsafeBufferPointer { bytes -> Result<Sync, JSONCodingError> in
        var reader = JSONReader(bytes: bytes, topLevelKeys: [])
        do throws(JSONCodingError) {
          return .success(try Sync(from: &reader))
        } catch {
          return .failure(error.at(.key("sync")))
        }
      }
      switch read {
      case .success(let read): sync = read
      case .failure(let error):
        throw StoreFileError(
          path: path, problem: .invalidContent(keyPath: error.keyPath, detail: error.detail))
      }
    }
    sync.reconcile(with: text.state)
    return sync
  }

  /// The state in the envelope at `reader`, and the text of its sync section: migrated from
  /// an older version, refused when newer.
  private static func readEnvelope<State: PersistentState, Sync: StateSync<State>>(
    _ type: State.Type, _ sync: Sync.Type, from reader: inout JSONReader
  ) throws(EnvelopeError) -> (State, StampsText<State, Sync>) {
    let written = fileVersion(State.self, Sync.self)
    guard reader.kind == .object else {
      let state = try content { () throws(JSONCodingError) in
        try State.migrate(fromVersion: 0, reader: &reader)
      }
      return (state, StampsText(.unstamped, of: state))
    }
    return try withUnsafeMutablePointer(to: &reader) { pointer throws(EnvelopeError) in
      var object = JSONObjectReader<State>(topLevelOf: pointer)
      let version: Int?
      do {
        version = try object.value(forKey: "version", as: Int.self)
      } catch {
        throw .content(JSONCodingError(key: "version", "expected a whole number 0 or more"))
      }
      guard let version else {
        // An object without a version: version 0 if the state reads one, else say what is
        // missing (rather than that the file is not a version-0 list).
        let state = try migrate(
          State.self, fromVersion: 0, reader: &pointer.pointee, at: object.start
        ) {
          JSONCodingError("missing key \"version\"", kind: .missingKey)
        }
        return (state, StampsText(.unstamped, of: state))
      }
      guard version >= 0 else {
        throw .content(JSONCodingError(key: "version", "expected a whole number 0 or more"))
      }
      if version > written {
        throw .newerVersion(version)
      }
      let stamped = hasStamps(version: version, State.self, Sync.self)
      let fieldsVersion = stamped ? version - 1 : version
      if fieldsVersion >= State.fieldsReadSince && fieldsVersion <= State.fileVersion {
        return try content { () throws(JSONCodingError) in
          let stamps = stamped ? object.text(forKey: "sync") : nil
          let state = try readState(from: &object)
          guard stamped else { return (state, StampsText(.unstamped, of: state)) }
          return (state, StampsText(stamps.map { .text($0) } ?? .missing, of: state))
        }
      }
      let state = try migrate(
        State.self, fromVersion: version, reader: &pointer.pointee, at: object.start
      ) {
        JSONCodingError(
          key: "version",
          "a file of version \(version) is a bare list, not an object; "
            + "write \"version\": \(written)")
      }
      return (state, StampsText(.unstamped, of: state))
    }
  }

  /// The state's own members of the envelope `object` reads: its fields — or, for a
  /// ``CodableState``'s envelope, the whole object through `JSONDecoder` (see
  /// ``CodableEnvelope``).
  private static func readState<State: PersistentState>(
    from object: inout JSONObjectReader<State>
  ) throws(JSONCodingError) -> State {
    if let envelope = State.self as? any CodableEnvelope.Type,
      let state = try envelope.decodeEnvelope(object.reader.pointee) as? State
    {
      return state
    }
    return try State.jsonFields(&object)
  }

  /// Migrates the top-level object at `start` from `version`; when the state's migration
  /// expects something else than an object there, throws `notAnObject()` instead.
  private static func migrate<State: PersistentState>(
    _ type: State.Type, fromVersion version: Int, reader: inout JSONReader, at start: Int,
    notAnObject: () -> JSONCodingError
  ) throws(EnvelopeError) -> State {
    reader.position = start
    do throws(JSONCodingError) {
      return try State.migrate(fromVersion: version, reader: &reader)
    } catch {
      throw .content(error.kind == .typeMismatch && error.path.isEmpty ? notAnObject() : error)
    }
  }

  /// The result of `body`, its error an ``EnvelopeError``.
  private static func content<Value>(
    _ body: () throws(JSONCodingError) -> Value
  ) throws(EnvelopeError) -> Value {
    do throws(JSONCodingError) {
      return try body()
    } catch {
      throw .content(error)
    }
  }

  /// The file content for `state` with its sync section: the envelope, pretty-printed with
  /// sorted keys, and a line break. O(n) in the size of the output, written into one growing
  /// buffer; what did not change since the last encoding with `cache` is copied from it.
  ///
  /// - Throws: ``StoreFileError`` `.cannotEncode` when a value cannot be written, such as
  ///   a date outside the years 1…9999.
  // Specialised as `decode` is.
  @_specialize(exported:true,where State == TodosStore.State, Sync == ListSync<TodosStore.State>)
  @_specialize(
    exported:true,where State == WorkoutsStore.State, Sync == ListSync<WorkoutsStore.State>
  )
  @_specialize(exported:true,where State == KeyValues, Sync == KeyValuesSync)
  package static func encode<State: PersistentState, Sync: StateSync<State>>(
    _ state: State, sync: Sync, path: String, cache: Sync.WriteCache? = nil
  ) throws(StoreFileError) -> Data {
    var writer = JSONWriter()
    try write(state, sync: sync, path: path, to: &writer, cache: cache)
    return writer.finish()
  }

  /// Writes the file content for `state` (see ``encode(_:sync:path:)``) to `output` as it is
  /// made, a part at a time: O(n), holding one part of it in memory — besides what `cache`,
  /// when given, keeps (see ``StateSync/WriteCache``): what did not change since its last
  /// write is copied from it.
  @_specialize(exported:true,where State == TodosStore.State, Sync == ListSync<TodosStore.State>)
  @_specialize(
    exported:true,where State == WorkoutsStore.State, Sync == ListSync<WorkoutsStore.State>
  )
  @_specialize(exported:true,where State == KeyValues, Sync == KeyValuesSync)
  static func write<State: PersistentState, Sync: StateSync<State>>(
    _ state: State, sync: Sync, path: String, to output: FileOutput, cache: Sync.WriteCache?
  ) throws(StoreFileError) {
    var writer = JSONWriter(streamingTo: output)
    try write(state, sync: sync, path: path, to: &writer, cache: cache)
    writer.finishStreaming()
  }

  @inline(__always)
  private static func write<State: PersistentState, Sync: StateSync<State>>(
    _ state: State, sync: Sync, path: String, to writer: inout JSONWriter,
    cache: Sync.WriteCache?
  ) throws(StoreFileError) {
    let version = fileVersion(State.self, Sync.self)
    if State.self is any CodableEnvelope.Type, let codable = state as? any CodableEnvelope {
      // A `CodableState`'s envelope, written whole by `JSONEncoder` (it has no stamps).
      do {
        try codable.writeEnvelope(version: version, to: &writer)
      } catch {
        throw StoreFileError(
          path: path, problem: .cannotEncode(keyPath: error.keyPath, detail: error.detail))
      }
      writer.writeLineBreak()
      return
    }
    var envelope = sync.envelope(writing: state, cache: cache)
    envelope.append(EnvelopeMember(key: "version") { writer in writer.writeInt(version) })
    envelope.sort { $0.key.precedesByUTF8($1.key) }
    writer.beginObject()
    do {
      try withUnsafePointer(to: state) { state throws(JSONCodingError) in
        try JSONObjectWriter.writeFields(of: state, to: &writer, envelope: envelope)
      }
    } catch {
      throw StoreFileError(
        path: path, problem: .cannotEncode(keyPath: error.keyPath, detail: error.detail))
    }
    writer.endObject()
    writer.writeLineBreak()
  }
}

/// The stamps of a file as the text it holds, with the state read beside them: decoded, and
/// made ready for that state, only when something needs them — a write, a merge — by
/// ``StateFileCoding/stamps(of:path:)``. So a file only read (opened to be shown, listed)
/// costs what its state costs: no stamp is parsed, no digest made, and the text kept is
/// smaller than the stamps it holds would be.
package struct StampsText<State: PersistentState, Sync: StateSync<State>>: Sendable {
  /// What the file holds of its stamps.
  enum Section: Sendable {
    /// The JSON text of its `"sync"` member (validated with the file).
    case text([UInt8])
    /// Nothing, though its version has stamps: the member was removed by hand.
    case missing
    /// Nothing: a file of an older version, written before stamps (see
    /// ``StateSync/init(unstamped:)``).
    case unstamped
  }

  let section: Section
  /// The state read from the file.
  let state: State

  init(_ section: Section, of state: State) {
    self.section = section
    self.state = state
  }

  /// Whether the section's text holds `text` anywhere: O(size of the section), no decoding.
  func mentions(_ text: StaticString) -> Bool {
    guard case .text(let bytes) = section else { return false }
    let needle = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    guard let first = needle.first, bytes.count >= needle.count else { return false }
    return bytes.withUnsafeBufferPointer { bytes in
      var start = 0
      while start + needle.count <= bytes.count {
        guard let found = bytes[start...(bytes.count - needle.count)].firstIndex(of: first)
        else { return false }
        if memcmp(bytes.baseAddress! + found, needle.baseAddress!, needle.count) == 0 {
          return true
        }
        start = found + 1
      }
      return false
    }
  }
}
