import Foundation

extension JSONValidator {
  /// The longest key quoted in a message, in Unicode scalars.
  static let keyLimit = 40

  /// Records the key whose quotes are at `start` and `end` in the innermost open object, and
  /// throws if that object already has an equal key.
  ///
  /// Keys are equal when their unescaped texts are canonically equivalent, as for Swift
  /// `String`s — or, with ``exactKeys``, the same Unicode scalars. The first ``linearKeyLimit`` keys of an object are compared by a linear scan of
  /// cheap fingerprints (their length and first eight bytes); after that the object gets an
  /// open-addressing hash table of full hashes, kept at most half full. Amortized O(length of
  /// the key).
  @inline(__always)
  mutating func recordKey(start: Int, end: Int, isPlain: Bool) throws(JSONSyntaxError) {
    let frame = objects.count - 1
    let firstKey = objects[frame].firstKey
    let keyCount = keys.count - firstKey
    if keyCount < Self.linearKeyLimit {
      let fingerprint =
        isPlain
        ? Self.fingerprint(bytes + start + 1, count: end - start - 1, readable: count - start - 1)
        : canonicalKey(start: start, end: end, isPlain: false).withUnsafeBufferPointer {
          Self.fingerprint($0.baseAddress ?? bytes, count: $0.count, readable: $0.count)
        }
      let key = KeyRecord(hash: fingerprint, start: start, end: end, isPlain: isPlain)
      for index in firstKey..<keys.count where keys[index].hash == fingerprint {
        if sameKey(keys[index], key) {
          throw duplicateKey(key, first: keys[index])
        }
      }
      keys.append(key)
      return
    }
    if keyCount == Self.linearKeyLimit {
      // From fingerprints to full hashes, for the table.
      for index in firstKey..<keys.count {
        keys[index].hash = fullHash(keys[index])
      }
      rebuildTable(frame: frame, capacity: 4 * Self.linearKeyLimit)
    } else if 2 * keyCount >= objects[frame].table.count {
      rebuildTable(frame: frame, capacity: 2 * objects[frame].table.count)
    }
    var key = KeyRecord(hash: 0, start: start, end: end, isPlain: isPlain)
    key.hash = fullHash(key)
    let slot = try findSlot(for: key, frame: frame)
    objects[frame].table[slot] = tableEntry(hash: key.hash, index: keys.count)
    keys.append(key)
  }

  /// The length and first eight bytes of the `count` bytes at `start` (of which `readable`
  /// can be read), mixed: equal keys have equal fingerprints.
  @inline(__always)
  static func fingerprint(_ start: UnsafePointer<UInt8>, count: Int, readable: Int) -> UInt64 {
    var word: UInt64 = 0
    if readable >= 8 {
      word = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
      if count < 8 {
        word &= (1 &<< UInt64(8 &* count)) &- 1
      }
    } else {
      for k in 0..<min(count, 8) {
        word |= UInt64(start[k]) &<< UInt64(8 &* k)
      }
    }
    return word ^ UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
  }

  /// The full hash of `key`'s canonical bytes.
  func fullHash(_ key: KeyRecord) -> UInt64 {
    if key.isPlain {
      return hashBytes(bytes + key.start + 1, count: key.end - key.start - 1)
    }
    return canonicalKey(start: key.start, end: key.end, isPlain: false).withUnsafeBufferPointer {
      hashBytes($0.baseAddress ?? bytes, count: $0.count)
    }
  }

  /// The table slot value for the key at `index` in `keys` with `hash`.
  @inline(__always)
  func tableEntry(hash: UInt64, index: Int) -> UInt64 {
    hash & 0xFFFF_FFFF_0000_0000 | UInt64(truncatingIfNeeded: index + 1) & 0xFFFF_FFFF
  }

  /// The empty slot of object `frame`'s table where `key` goes, or throws if an equal key is
  /// already there.
  @inline(__always)
  func findSlot(for key: KeyRecord, frame: Int) throws(JSONSyntaxError) -> Int {
    try objects[frame].table.withUnsafeBufferPointer { table throws(JSONSyntaxError) in
      let mask = table.count - 1
      let tag = key.hash & 0xFFFF_FFFF_0000_0000
      var slot = Int(truncatingIfNeeded: key.hash) & mask
      while true {
        let entry = table[slot]
        if entry == 0 {
          return slot
        }
        if entry & 0xFFFF_FFFF_0000_0000 == tag {
          let index = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
          if keys[index].hash == key.hash && sameKey(keys[index], key) {
            throw duplicateKey(key, first: keys[index])
          }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// Rebuilds the table of object `frame` with `capacity` slots (a power of two) from its keys.
  mutating func rebuildTable(frame: Int, capacity: Int) {
    var table = [UInt64](repeating: 0, count: capacity)
    let mask = capacity - 1
    for index in objects[frame].firstKey..<keys.count {
      let hash = keys[index].hash
      var slot = Int(truncatingIfNeeded: hash) & mask
      while table[slot] != 0 {
        slot = (slot + 1) & mask
      }
      table[slot] = tableEntry(hash: hash, index: index)
    }
    objects[frame].table = table
  }

  /// Whether two keys with the same hash are equal. O(length of the keys).
  func sameKey(_ a: KeyRecord, _ b: KeyRecord) -> Bool {
    if a.isPlain && b.isPlain {
      let length = a.end - a.start
      return length == b.end - b.start
        && memcmp(bytes + a.start + 1, bytes + b.start + 1, length - 1) == 0
    }
    return canonicalKey(start: a.start, end: a.end, isPlain: a.isPlain)
      == canonicalKey(start: b.start, end: b.end, isPlain: b.isPlain)
  }

  /// The bytes that identify a key (see ``JSONScanning/canonicalKey(_:start:end:isPlain:)``).
  func canonicalKey(start: Int, end: Int, isPlain: Bool) -> [UInt8] {
    if exactKeys && !isPlain {
      return JSONScanning.unescapedString(bytes, start: start, end: end)
    }
    return JSONScanning.canonicalKey(bytes, start: start, end: end, isPlain: isPlain)
  }

  /// The error for `key`, equal to the earlier key `first` of the same object.
  @inline(never)
  func duplicateKey(_ key: KeyRecord, first: KeyRecord) -> JSONSyntaxError {
    var shown = ""
    var scalars = 0
    for scalar in String(
      decoding: JSONScanning.unescapedString(bytes, start: key.start, end: key.end),
      as: UTF8.self
    )
    .unicodeScalars {
      if scalars == Self.keyLimit {
        shown += "…"
        break
      }
      shown += isPrintable(scalar) ? String(scalar) : codePoint(scalar.value)
      scalars += 1
    }
    let (line, column) = location(of: first.start)
    return error(
      at: key.start, "duplicate key '\(shown)' (first at line \(line), column \(column))")
  }
}

/// A fast 64-bit hash of `count` bytes at `start`, eight bytes at a time. Collisions are
/// harmless (keys with equal hashes are compared), only slower.
@inline(__always)
func hashBytes(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
  let prime: UInt64 = 0x0000_0100_0000_01B3
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(truncatingIfNeeded: count)
  var i = 0
  while i + 8 <= count {
    let word = UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)
    hash = (hash ^ word) &* prime
    hash ^= hash >> 32
    i += 8
  }
  while i < count {
    hash = (hash ^ UInt64(start[i])) &* prime
    i += 1
  }
  // Final mix (MurmurHash3's fmix64), so that the low bits used for table slots depend on all
  // bytes.
  hash = (hash ^ (hash >> 33)) &* 0xFF51_AFD7_ED55_8CCD
  hash = (hash ^ (hash >> 33)) &* 0xC4CE_B9FE_1A85_EC53
  return hash ^ (hash >> 33)
}
