import Foundation

/// Writes JSON text in the layout of the store files — `JSONEncoder`'s with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, byte for byte — except that an
/// empty array or object is written `[]` or `{}` on one line.
///
/// The layout: two spaces of indentation per level, each element and member on a line of its
/// own, `"key" : value`; strings escape `"`, `\`, and the control characters below U+0020 (as
/// `\b`, `\f`, `\n`, `\r`, `\t`, or `\u00xx` in lower-case hex) and nothing else; numbers as
/// `JSONEncoder` spells them (see `writeNumber(_:)`).
///
/// Outside the package a writer is opaque: a type of your own writes itself with the
/// ``JSONCodable/write(to:)`` of the values it is made of (see ``JSONCodable``). Inside, the
/// caller writes members in sorted order (by their UTF-8 bytes, as `JSONEncoder` sorts them);
/// ``JSONObjectCodable`` models list their fields that way. Writing appends to one growing
/// buffer (or, streaming to a file, one that is sent on whenever it is full): O(1) amortised
/// per byte, and no allocation per value.
public struct JSONWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  /// The number of open arrays and objects.
  private(set) var depth = 0
  /// Whether the innermost open container has no element or member yet.
  private var isEmptyContainer = false

  /// Where the bytes go as they are written, for a writer that streams; `nil` while they are
  /// kept for ``finish()``. Unretained (so that `finish()` may `discard` the writer): the
  /// output outlives the writer, which lives only while the content is written.
  private let output: Unmanaged<FileOutput>?

  /// A writer whose buffer starts with room for `capacity` bytes (it grows as needed).
  package init(capacity: Int = 4096) {
    self.capacity = max(capacity, 64)
    base = Self.allocate(self.capacity)
    output = nil
  }

  /// A writer that sends its bytes on to `output` whenever about ``FileOutput/partSize`` of
  /// them are written: it holds one part in memory (after a value longer than a part, a
  /// buffer that holds it), never the whole.
  init(streamingTo output: FileOutput) {
    capacity = FileOutput.partSize
    base = Self.allocate(capacity)
    self.output = .passUnretained(output)
  }

  /// A writer for values that go into another writer's text at `depth` (that writer's
  /// ``depth`` where the value goes): the bytes it writes are those the other would, so that
  /// they can be kept and copied in with ``writeElements(_:count:)`` (see ``EncodedList``).
  init(depth: Int, capacity: Int = 256) {
    self.init(capacity: capacity)
    self.depth = depth
  }

  deinit {
    free(base)
  }

  /// The buffer is the C heap's, so that it grows with `realloc`: a large one is remapped,
  /// not copied, and never held twice. O(1) to allocate.
  private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
    guard let pointer = malloc(capacity) else { fatalError("out of memory: \(capacity) bytes") }
    return pointer.bindMemory(to: UInt8.self, capacity: capacity)
  }

  /// Sends the bytes not sent yet to the output of a writer that streams.
  consuming func finishStreaming() {
    sendToOutput()
  }

  /// The bytes written, handed over without a copy; for a writer that keeps them (one that
  /// streams ends with ``finishStreaming()``).
  package consuming func finish() -> Data {
    precondition(output == nil, "a streaming writer has sent its bytes on")
    let data = Data(
      bytesNoCopy: base, count: count, deallocator: .free)
    discard self
    return data
  }

  // MARK: Structure

  /// Opens an object: `{`. Write each member's key with ``member(_:)`` and then its value,
  /// in sorted order, then ``endObject()``.
  @inline(__always)
  package mutating func beginObject() {
    append(UInt8(ascii: "{"))
    depth += 1
    isEmptyContainer = true
  }

  /// Starts the member called `key`, a plain ASCII name that needs no escapes: the line
  /// break and indentation, then `"key" : `. Write its value next.
  @inline(__always)
  mutating func member(_ key: StaticString) {
    let length = key.utf8CodeUnitCount
    var output = startLine(reservingAlso: length + 4)
    output[0] = UInt8(ascii: "\"")
    (output + 1).update(from: key.utf8Start, count: length)
    output += length + 1
    // `" : `, one store.
    UnsafeMutableRawPointer(output).storeBytes(
      of: (0x203A_2022 as UInt32).littleEndian, as: UInt32.self)
    count = output + 4 - base
  }

  /// Starts a member whose key is any string, escaped as needed.
  package mutating func member(_ key: String) {
    count = startLine() - base
    writeString(key)
    append(" : ")
  }

  /// Closes the innermost object: `}` on a line of its own, or right after `{` when empty.
  @inline(__always)
  package mutating func endObject() {
    endContainer(UInt8(ascii: "}"))
  }

  /// Opens an array: `[`. Start each element with ``element()``, then ``endArray()``.
  @inline(__always)
  package mutating func beginArray() {
    append(UInt8(ascii: "["))
    depth += 1
    isEmptyContainer = true
  }

  /// Starts an element of the innermost array: the line break and indentation.
  @inline(__always)
  package mutating func element() {
    count = startLine() - base
  }

  /// Closes the innermost array: `]` on a line of its own, or right after `[` when empty.
  @inline(__always)
  package mutating func endArray() {
    endContainer(UInt8(ascii: "]"))
  }

  /// Writes the separator before an element or member (none before the first), a line break
  /// and the indentation of the current depth, with room for `extra` bytes more, and returns
  /// where the line goes on. The caller sets `count` past what it writes there.
  @inline(__always)
  private mutating func startLine(reservingAlso extra: Int = 0) -> UnsafeMutablePointer<UInt8> {
    let indentation = 2 &* depth
    reserve(indentation &+ 2 &+ 8 &+ extra)
    var output = base + count
    if !isEmptyContainer {
      output[0] = UInt8(ascii: ",")
      output += 1
    }
    isEmptyContainer = false
    output[0] = UInt8(ascii: "\n")
    Self.writeSpaces(indentation, at: output + 1)
    return output + 1 + indentation
  }

  @inline(__always)
  private mutating func endContainer(_ bracket: UInt8) {
    depth -= 1
    let indentation = 2 &* depth
    reserve(indentation &+ 2 &+ 8)
    var output = base + count
    if isEmptyContainer {
      isEmptyContainer = false
    } else {
      output[0] = UInt8(ascii: "\n")
      Self.writeSpaces(indentation, at: output + 1)
      output += 1 + indentation
    }
    output[0] = bracket
    count = output + 1 - base
  }

  /// Writes `length` spaces at `output`, eight at a time: up to seven bytes more are
  /// overwritten, so the caller reserved `length + 8` bytes.
  @inline(__always)
  private static func writeSpaces(_ length: Int, at output: UnsafeMutablePointer<UInt8>) {
    let raw = UnsafeMutableRawPointer(output)
    var offset = 0
    while offset < length {
      raw.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: offset, as: UInt64.self)
      offset &+= 8
    }
  }

  // MARK: Scalars

  /// Writes `null`.
  package mutating func writeNull() {
    append("null")
  }

  /// Writes `true` or `false`.
  @inline(__always)
  package mutating func writeBool(_ value: Bool) {
    value ? append("true") : append("false")
  }

  /// Writes `value` in decimal, two digits at a time. O(number of digits).
  @inline(__always)
  package mutating func writeInt(_ value: Int) {
    reserve(20)
    var magnitude = value.magnitude
    if value < 0 {
      base[count] = UInt8(ascii: "-")
      count += 1
    }
    if magnitude < 10 {
      base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
      count += 1
      return
    }
    var digits = 2
    var rest = magnitude / 100
    while rest > 0 {
      rest /= 10
      digits += 1
    }
    var position = count + digits
    while magnitude >= 100 {
      let pair = Int(truncatingIfNeeded: magnitude % 100)
      magnitude /= 100
      position -= 2
      copyPair(of: digitPairs, at: pair, to: base + position)
    }
    if magnitude >= 10 {
      let pair = Int(truncatingIfNeeded: magnitude)
      copyPair(of: digitPairs, at: pair, to: base + position - 2)
    } else {
      base[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
    }
    count += digits
  }

  /// Writes a finite `value` as `JSONEncoder` does: Swift's shortest round-trip spelling
  /// (`description`) without a trailing `.0` — `5`, `5.2`, `1e-05`, `1e+16`, `-0`.
  ///
  /// - Precondition: `value` is finite (the caller refuses NaN and infinities).
  package mutating func writeNumber(_ value: Double) {
    precondition(value.isFinite, "JSON has no \(value)")
    var digits = ASCIISink()
    value.write(to: &digits)
    digits.withBytes { bytes in
      var length = bytes.count
      if length >= 2 && bytes[length - 2] == UInt8(ascii: ".")
        && bytes[length - 1] == UInt8(ascii: "0")
      {
        length -= 2
      }
      append(UnsafeBufferPointer(rebasing: bytes[..<length]))
    }
  }

  /// Writes `text`, already valid JSON (a number's literal text, say), as it is.
  package mutating func writeRaw(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// Writes `text` as a JSON string, escaping what must be escaped. O(length), copying runs
  /// without escapes eight bytes at a time.
  package mutating func writeString(_ text: String) {
    // A native string's UTF-8 in place; a bridged one's through a contiguous copy.
    if text.utf8.withContiguousStorageIfAvailable({ writeString(utf8: $0) }) == nil {
      var text = text
      text.withUTF8 { writeString(utf8: $0) }
    }
  }

  /// ``writeString(_:)`` of the UTF-8 `bytes`.
  private mutating func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress else {
      append("\"\"")
      return
    }
    reserve(bytes.count + 2)
    base[count] = UInt8(ascii: "\"")
    count += 1
    if bytes.count >= 8 && bytes.count <= 16 {
      // A short string: two overlapping words, checked and copied without a call.
      let raw = UnsafeRawPointer(start)
      let first = raw.loadUnaligned(as: UInt64.self)
      let last = raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
      if Self.needsNoEscape(first) && Self.needsNoEscape(last) {
        let output = UnsafeMutableRawPointer(base + count)
        output.storeBytes(of: first, as: UInt64.self)
        output.storeBytes(of: last, toByteOffset: bytes.count - 8, as: UInt64.self)
        count += bytes.count
        base[count] = UInt8(ascii: "\"")
        count += 1
        return
      }
    }
    var runStart = 0
    var i = 0
    while i < bytes.count {
      i = Self.nextByteToEscape(start, count: bytes.count, from: i)
      guard i < bytes.count else { break }
      // The run before the escape, the escape (six bytes at most: `\u001f`), and what is
      // left of the string and its closing quote.
      reserve(i - runStart + 6 + bytes.count - i + 1)
      (base + count).update(from: start + runStart, count: i - runStart)
      count += i - runStart
      writeEscape(for: start[i])
      i += 1
      runStart = i
    }
    reserve(bytes.count - runStart + 1)
    (base + count).update(from: start + runStart, count: bytes.count - runStart)
    count += bytes.count - runStart
    base[count] = UInt8(ascii: "\"")
    count += 1
  }

  /// Whether none of the eight bytes of `word` is one a JSON string must escape.
  @inline(__always)
  private static func needsNoEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotes = word ^ (ones &* UInt64(Byte.quote))
    let backslashes = word ^ (ones &* UInt64(Byte.backslash))
    let mask =
      ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes
        | (word &- ones &* 0x20) & ~word) & ~word & 0x8080_8080_8080_8080
    return mask == 0
  }

  /// The offset of the first byte at or after `offset` that a JSON string must escape (`"`,
  /// `\` or a control character), or `count`.
  @inline(__always)
  private static func nextByteToEscape(
    _ bytes: UnsafePointer<UInt8>, count: Int, from offset: Int
  ) -> Int {
    var i = offset
    let ones: UInt64 = 0x0101_0101_0101_0101
    while i &+ 8 <= count {
      let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)
      let quotes = word ^ (ones &* UInt64(Byte.quote))
      let backslashes = word ^ (ones &* UInt64(Byte.backslash))
      // The high bit of each byte that is a quote, a backslash or below 0x20, ignoring bytes
      // of 0x80 and above (UTF-8 multi-byte sequences are copied as they are). The lowest
      // flagged byte is always a real hit (borrows only move upwards).
      let mask =
        ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes
          | (word &- ones &* 0x20) & ~word) & ~word & 0x8080_8080_8080_8080
      if mask != 0 {
        return i &+ mask.trailingZeroBitCount >> 3
      }
      i &+= 8
    }
    while i < count {
      let byte = bytes[i]
      if byte == Byte.quote || byte == Byte.backslash || byte < 0x20 {
        return i
      }
      i &+= 1
    }
    return count
  }

  /// Writes the escape of `byte`, a quote, a backslash or a control character.
  private mutating func writeEscape(for byte: UInt8) {
    base[count] = UInt8(ascii: "\\")
    let short: UInt8? =
      switch byte {
      case Byte.quote: Byte.quote
      case Byte.backslash: Byte.backslash
      case 0x08: UInt8(ascii: "b")
      case 0x0C: UInt8(ascii: "f")
      case Byte.lineFeed: UInt8(ascii: "n")
      case Byte.carriageReturn: UInt8(ascii: "r")
      case Byte.tab: UInt8(ascii: "t")
      default: nil
      }
    if let short {
      base[count + 1] = short
      count += 2
      return
    }
    let digits: StaticString = "0123456789abcdef"
    base[count + 1] = UInt8(ascii: "u")
    base[count + 2] = UInt8(ascii: "0")
    base[count + 3] = UInt8(ascii: "0")
    base[count + 4] = digits.utf8Start[Int(byte >> 4)]
    base[count + 5] = digits.utf8Start[Int(byte & 0xF)]
    count += 6
  }

  /// Writes `"` + the `length` ASCII bytes `body` writes into the buffer + `"`; `body` gets
  /// the address to write at and must write exactly `length` bytes. For values with a fixed
  /// layout (UUIDs, timestamps), which need no escapes.
  @inline(__always)
  mutating func writeQuoted(
    length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void
  ) {
    reserve(length + 2)
    base[count] = UInt8(ascii: "\"")
    body(base + count + 1)
    base[count + 1 + length] = UInt8(ascii: "\"")
    count += length + 2
  }

  /// Appends a line break: the end of a file.
  mutating func writeLineBreak() {
    append(UInt8(ascii: "\n"))
  }

  /// Writes `count` elements of the open array, which has none yet: `text` is what
  /// ``element()`` and the values would write (see ``init(depth:)``). O(its length); a writer
  /// that streams sends a long text on as it is, without copying it.
  mutating func writeElements(_ text: UnsafeBufferPointer<UInt8>, count: Int) {
    guard count > 0 else { return }
    isEmptyContainer = false
    if let output, text.count > capacity {
      sendToOutput()
      output.takeUnretainedValue().append(UnsafeRawBufferPointer(text))
    } else {
      append(text)
    }
  }

  /// Appends `bytes` as they are, of a writer that does not stream: text made as this
  /// writer makes it (see ``EncodedList``). O(their length).
  mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    append(bytes)
  }

  /// The number of bytes held, of a writer that does not stream.
  var byteCount: Int { count }

  /// Forgets what was written, keeping the buffer, of a writer that does not stream: a
  /// writer used again for many small values allocates once.
  mutating func removeAll() {
    precondition(output == nil, "a streaming writer has sent its bytes on")
    (count, depth, isEmptyContainer) = (0, 0, false)
  }

  /// Calls `body` with the bytes written so far, of a writer that does not stream.
  func withWrittenBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    body(UnsafeBufferPointer(start: base, count: count))
  }

  // MARK: The buffer

  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count &+ extra > capacity {
      grow(toHold: extra)
    }
  }

  /// Makes room for `extra` bytes more: a writer that streams first sends the bytes it holds
  /// to its output; otherwise (or for a value longer than the buffer) the buffer grows.
  @inline(never)
  private mutating func grow(toHold extra: Int) {
    if output != nil {
      sendToOutput()
      if extra <= capacity { return }
    }
    let newCapacity = max(2 * capacity, count + extra)
    guard let newBase = realloc(base, newCapacity) else {
      fatalError("out of memory: \(newCapacity) bytes")
    }
    base = newBase.bindMemory(to: UInt8.self, capacity: newCapacity)
    capacity = newCapacity
  }

  private mutating func sendToOutput() {
    guard let output, count > 0 else { return }
    output.takeUnretainedValue().append(UnsafeRawBufferPointer(start: base, count: count))
    count = 0
  }

  @inline(__always)
  private mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always)
  private mutating func append(_ text: StaticString) {
    reserve(text.utf8CodeUnitCount)
    (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    count += text.utf8CodeUnitCount
  }

  @inline(__always)
  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress else { return }
    reserve(bytes.count)
    (base + count).update(from: start, count: bytes.count)
    count += bytes.count
  }
}

/// Collects the ASCII that a number's `write(to:)` produces, on the stack: the standard
/// library hands a `Double`'s digits to `_writeASCII` without making a `String` of them.
struct ASCIISink: TextOutputStream {
  /// Room for the longest `Double` (`-2.2250738585072014e-308`, 24 bytes).
  private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  private(set) var count = 0

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { _writeASCII($0) }
  }

  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    withUnsafeMutableBytes(of: &storage) { raw in
      let length = min(buffer.count, raw.count - count)
      for k in 0..<length {
        raw[count + k] = buffer[k]
      }
      count += length
    }
  }

  /// Calls `body` with the bytes written.
  func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    withUnsafeBytes(of: storage) { raw in
      body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[..<count]))
    }
  }
}
