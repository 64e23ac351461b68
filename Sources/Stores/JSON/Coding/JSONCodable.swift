/// A value that can be written to a store file and read back from one, with ``JSONWriter``
/// and ``JSONReader``: the store files' fast path, beside `Codable`.
///
/// `Bool`, `Int`, `Double`, `String`, `UUID`, `Date` (an exact ISO 8601 timestamp), arrays,
/// optionals, dictionaries with `String` keys and ``JSONValue`` conform; an object describes
/// its fields once with ``JSONObjectCodable``, an enumeration stored by name conforms to
/// ``JSONNamedCases``. Any other type of your own is stored as one of those:
///
/// ```swift
/// struct Celsius: JSONCodable {
///   var degrees: Double
///   init(degrees: Double) { self.degrees = degrees }
///   init(from reader: inout JSONReader) throws(JSONCodingError) {
///     degrees = try Double(from: &reader)
///   }
///   func write(to writer: inout JSONWriter) throws(JSONCodingError) {
///     try degrees.write(to: &writer)
///   }
/// }
/// ```
public protocol JSONCodable {
  /// Reads a value from `reader`, which is positioned at it, and moves past it.
  ///
  /// - Throws: ``JSONCodingError`` when the value is of another type or is not valid.
  init(from reader: inout JSONReader) throws(JSONCodingError)

  /// Writes the value.
  ///
  /// - Throws: ``JSONCodingError`` when the value cannot be written (a date outside the years
  ///   1…9999, a number that is not finite).
  func write(to writer: inout JSONWriter) throws(JSONCodingError)

  /// The value of a member that its object leaves out, or `nil` when the member is required
  /// (the default); `Optional` gives `nil` — a missing optional is `nil`.
  static var valueOfMissingMember: Self? { get }

  /// Writes the value at `value`, in place: an array writes its elements so, without copying
  /// them out. The default implementation writes `value.pointee`.
  static func write(_ value: UnsafePointer<Self>, to writer: inout JSONWriter)
    throws(JSONCodingError)

  /// Whether the value is left out of its object rather than written (`false` by default;
  /// `true` for `Optional.none`, as `JSONEncoder` leaves out `nil` members).
  var isLeftOut: Bool { get }
}

extension JSONCodable {
  public static func write(_ value: UnsafePointer<Self>, to writer: inout JSONWriter)
    throws(JSONCodingError)
  {
    try value.pointee.write(to: &writer)
  }

  public static var valueOfMissingMember: Self? { nil }
  public var isLeftOut: Bool { false }
}

/// An object of a store file, described once: its fields — key, type and where the value
/// is — and how to make the object from them, in one function used for both writing and
/// reading.
///
/// ```swift
/// extension Todo: JSONObjectCodable {
///   public static func jsonFields<Coder: JSONFieldCoder<Todo> & ~Copyable>(
///     _ coder: inout Coder
///   ) throws(JSONCodingError) -> Coder.Result {
///     let date = try coder.field("date", \.date)
///     let id = try coder.field("id", \.id)
///     …
///     return try coder.object { Todo(id: id, …) }
///   }
/// }
/// ```
///
/// List the fields in the order of their keys' UTF-8 bytes, the order `JSONEncoder`'s
/// `.sortedKeys` writes them in. Writing visits each field and never calls the closure given
/// to `object`; reading reads each field, finds its key whatever the order in the text, and
/// makes the object with the closure, which may check the values and throw.
public protocol JSONObjectCodable: JSONCodable {
  /// Visits every field with `coder`, then makes the object with `coder.object`.
  static func jsonFields<Coder: JSONFieldCoder<Self> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result
}

/// What ``JSONObjectCodable/jsonFields(_:)`` describes an object to: a writer of its fields or
/// a reader of them.
public protocol JSONFieldCoder<Object>: ~Copyable {
  associatedtype Object
  /// What ``object(_:)`` returns: nothing for a writer, the object for a reader.
  associatedtype Result

  /// The field with `key`, whose value is at `value` in the object: a writer writes it and
  /// returns it, a reader reads it and returns it.
  mutating func field<Value: JSONCodable>(
    _ key: StaticString, _ value: KeyPath<Object, Value>
  ) throws(JSONCodingError) -> Value

  /// Ends the object: a reader makes it with `make` (from the values its fields returned); a
  /// writer does not call `make`.
  mutating func object(
    _ make: () throws(JSONCodingError) -> Object
  ) throws(JSONCodingError) -> Result
}

extension JSONObjectCodable {
  public init(from reader: inout JSONReader) throws(JSONCodingError) {
    self = try JSONObjectReader<Self>.read(from: &reader)
  }

  public func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    try withUnsafePointer(to: self) { value throws(JSONCodingError) in
      try Self.write(value, to: &writer)
    }
  }

  public static func write(_ value: UnsafePointer<Self>, to writer: inout JSONWriter)
    throws(JSONCodingError)
  {
    writer.beginObject()
    try JSONObjectWriter.writeFields(of: value, to: &writer)
    writer.endObject()
  }
}

extension JSONObjectCodable {
  /// Writes the object with `members` among its fields, each at its sorted place: the
  /// fields as the files write them, plus the `"number"` that `diary --json` adds to an item.
  ///
  /// - Precondition: `members` are sorted by key, and no field has their keys.
  // Specialised for the package's items, so that the tool runs these rather than the generic
  // code, many times slower.
  @_specialize(exported:true,where Self == Todo)
  @_specialize(exported:true,where Self == Workout)
  package func write(
    to writer: inout JSONWriter, adding members: [EnvelopeMember]
  ) throws(JSONCodingError) {
    writer.beginObject()
    try withUnsafePointer(to: self) { value throws(JSONCodingError) in
      try JSONObjectWriter.writeFields(of: value, to: &writer, envelope: members)
    }
    writer.endObject()
  }
}

/// A member written among an object's fields at its sorted place: a file envelope's
/// `"version"` and `"sync"` section, the `"number"` of an item `diary --json` prints. A
/// member with a field's key is written in the field's place, instead of it: a list written
/// from the text of its last write (``EncodedList``).
package struct EnvelopeMember {
  let key: StaticString
  let write: (inout JSONWriter) throws(JSONCodingError) -> Void

  /// The member `key`, whose value `write` writes.
  package init(
    key: StaticString, write: @escaping (inout JSONWriter) throws(JSONCodingError) -> Void
  ) {
    self.key = key
    self.write = write
  }
}

/// Writes the fields of an object, each as a member of the open object.
struct JSONObjectWriter<Object: JSONObjectCodable>: JSONFieldCoder, ~Copyable {
  let object: UnsafePointer<Object>
  let writer: UnsafeMutablePointer<JSONWriter>
  /// The envelope's members still to write, in sorted order.
  var envelope: ArraySlice<EnvelopeMember>
  #if DEBUG
    /// The key written last, to check that fields are listed in order.
    var previousKey: StaticString?
  #endif

  /// Writes the fields of `object` as members of the object `writer` has open, with each
  /// member of `envelope` (sorted by key) at its sorted place among them.
  @inline(__always)
  static func writeFields(
    of object: UnsafePointer<Object>, to writer: inout JSONWriter,
    envelope: [EnvelopeMember] = []
  ) throws(JSONCodingError) {
    try withUnsafeMutablePointer(to: &writer) { pointer throws(JSONCodingError) in
      var coder = JSONObjectWriter(object: object, writer: pointer, envelope: envelope[...])
      try Object.jsonFields(&coder)
    }
  }

  // Inlined into each model's `jsonFields`, where `value` is a literal key path that then
  // compiles to a plain load (applied at run time, a key path costs more than the write).
  @inline(__always)
  mutating func field<Value: JSONCodable>(
    _ key: StaticString, _ value: KeyPath<Object, Value>
  ) throws(JSONCodingError) -> Value {
    #if DEBUG
      if let previousKey {
        assert(
          precedes(previousKey, key), "\(Object.self): list \(key) before \(previousKey)")
      }
      previousKey = key
    #endif
    while let member = envelope.first, precedes(member.key, key) {
      try writeEnvelopeMember()
    }
    if let member = envelope.first, !precedes(key, member.key) {
      // A member of the envelope with the field's key writes the field (see `EnvelopeMember`).
      try writeEnvelopeMember()
    } else if !object.pointee[keyPath: value].isLeftOut {
      writer.pointee.member(key)
      do throws(JSONCodingError) {
        try object.pointee[keyPath: value].write(to: &writer.pointee)
      } catch {
        throw error.at(.key("\(key)"))
      }
    }
    // What the description's reader side needs; unused here, so optimised away.
    return object.pointee[keyPath: value]
  }

  mutating func object(_ make: () throws(JSONCodingError) -> Object) throws(JSONCodingError) {
    while !envelope.isEmpty { try writeEnvelopeMember() }
  }

  private mutating func writeEnvelopeMember() throws(JSONCodingError) {
    let member = envelope.removeFirst()
    writer.pointee.member(member.key)
    do throws(JSONCodingError) {
      try member.write(&writer.pointee)
    } catch {
      throw error.at(.key("\(member.key)"))
    }
  }

  private func precedes(_ first: StaticString, _ second: StaticString) -> Bool {
    first.precedesByUTF8(second)
  }
}

extension StaticString {
  /// Whether this key sorts before `other` by their UTF-8 bytes, as a file's keys are.
  func precedesByUTF8(_ other: StaticString) -> Bool {
    UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
      .lexicographicallyPrecedes(
        UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount))
  }
}

/// Reads the fields of an object: in the order of the text while they come in the order they
/// are listed (as in every file this package writes), else by looking their keys up.
struct JSONObjectReader<Object: JSONObjectCodable>: JSONFieldCoder, ~Copyable {
  let reader: UnsafeMutablePointer<JSONReader>
  /// The offset of the next member's key, while reading in order; `nil` after the last.
  var next: Int?
  /// The members, once a field was not the next member.
  var members: [JSONReader.Member]?
  /// The offset of the object's `{`.
  let start: Int
  /// The offset just after the object's `}`, once known.
  var end: Int?

  /// Reads an `Object` at the reader's position.
  static func read(from reader: inout JSONReader) throws(JSONCodingError) -> Object {
    guard reader.bytes[reader.position] == Byte.openBrace else {
      throw reader.typeMismatch(expected: "an object")
    }
    return try withUnsafeMutablePointer(to: &reader) { pointer throws(JSONCodingError) in
      let start = pointer.pointee.position
      pointer.pointee.advance(to: start + 1)
      let first = pointer.pointee.position
      let isEmpty = pointer.pointee.bytes[first] == Byte.closeBrace
      var coder = JSONObjectReader(
        reader: pointer, next: isEmpty ? nil : first, start: start,
        end: isEmpty ? first + 1 : nil)
      return try Object.jsonFields(&coder)
    }
  }

  init(
    reader: UnsafeMutablePointer<JSONReader>, next: Int?, start: Int, end: Int?
  ) {
    self.reader = reader
    self.next = next
    self.start = start
    self.end = end
  }

  /// A reader of the fields of the document's top-level object, looked up by key.
  init(topLevelOf reader: UnsafeMutablePointer<JSONReader>) {
    self.reader = reader
    next = nil
    members = reader.pointee.topLevelMembers()
    start = reader.pointee.position
    end = reader.pointee.count
  }

  @inline(__always)
  mutating func field<Value: JSONCodable>(
    _ key: StaticString, _ value: KeyPath<Object, Value>
  ) throws(JSONCodingError) -> Value {
    guard let found = try self.value(forKey: key, as: Value.self) else {
      if let missing = Value.valueOfMissingMember {
        return missing
      }
      throw JSONCodingError("missing key \"\(key)\"", kind: .missingKey)
    }
    return found
  }

  /// The value of the member `key`, or `nil` when the object has none.
  mutating func value<Value: JSONCodable>(
    forKey key: StaticString, as type: Value.Type
  ) throws(JSONCodingError) -> Value? {
    guard let inOrder = moveToValue(ofKey: key) else { return nil }
    let found = try read(Value.self, key: key)
    if inOrder { passMember() }
    return found
  }

  /// The JSON text of the value of the member `key`, as the file holds it (a copy), or `nil`
  /// when the object has none: to be read later, with a reader of its own. O(its length).
  mutating func text(forKey key: StaticString) -> [UInt8]? {
    guard let inOrder = moveToValue(ofKey: key) else { return nil }
    let start = reader.pointee.position
    let end = JSONReader.endOfValue(reader.pointee.bytes, count: reader.pointee.count, at: start)
    let text = Array(UnsafeBufferPointer(start: reader.pointee.bytes + start, count: end - start))
    reader.pointee.advance(to: end)
    if inOrder { passMember() }
    return text
  }

  /// Moves the reader to the value of the member `key` and says whether it is the next
  /// member, read in order (then ``passMember()`` must follow its reading); `nil`, having
  /// moved nothing, when the object has no such member.
  @inline(__always)
  private mutating func moveToValue(ofKey key: StaticString) -> Bool? {
    if members == nil, let next, reader.pointee.keyIs(key, at: next) {
      // The next member: read it in place, then move on to the one after.
      reader.pointee.advance(to: next + key.utf8CodeUnitCount + 2)  // At the colon.
      reader.pointee.advance(to: reader.pointee.position + 1)
      return true
    }
    if members == nil {
      let (members, end) = reader.pointee.members(ofObjectAt: start)
      self.members = members
      self.end = end
    }
    guard let member = members?.first(where: { reader.pointee.key(of: $0, equals: key) })
    else { return nil }
    reader.pointee.position = member.value
    return false
  }

  /// Moves past the separator after the member just read in order, to the next member.
  @inline(__always)
  private mutating func passMember() {
    let separator = reader.pointee.position
    reader.pointee.advance(to: separator + 1)
    if reader.pointee.bytes[separator] == Byte.closeBrace {
      next = nil
      end = separator + 1
    } else {
      next = reader.pointee.position
    }
  }

  private func read<Value: JSONCodable>(
    _ type: Value.Type, key: StaticString
  ) throws(JSONCodingError) -> Value {
    do throws(JSONCodingError) {
      return try Value(from: &reader.pointee)
    } catch {
      throw error.at(.key("\(key)"))
    }
  }

  mutating func object(
    _ make: () throws(JSONCodingError) -> Object
  ) throws(JSONCodingError) -> Object {
    if end == nil {
      // Members no field asked for are left: skip them.
      end = reader.pointee.members(ofObjectAt: start).end
    }
    reader.pointee.advance(to: end!)
    return try make()
  }
}
