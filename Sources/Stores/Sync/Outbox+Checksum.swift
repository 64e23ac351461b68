extension Outbox {
  /// A 64-bit checksum of bytes given in parts of any size, the same in every process and on
  /// every platform: the bytes as little-endian words in four independent lanes (each a
  /// multiply and a rotation per word, so the processor runs them side by side), folded with
  /// the count and mixed. It tells a whole copy from one cut short or mixed with older bytes;
  /// it is no defence against a forger (only this device writes an outbox). O(bytes), no
  /// allocation.
  struct Checksum {
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
      0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344, 0xa409_3822_299f_31d0, 0x082e_fa98_ec4e_6c89
    )
    /// The bytes of a block not yet full, at the start of ``block``.
    private var block: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0

    private static let blockSize = 32
    private static let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15

    /// Adds `bytes` after those given so far.
    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
      guard !bytes.isEmpty else { return }
      var offset = 0
      let pending = count % Self.blockSize
      count += bytes.count
      if pending > 0 {
        let taken = min(Self.blockSize - pending, bytes.count)
        withUnsafeMutableBytes(of: &block) {
          $0.baseAddress!.advanced(by: pending).copyMemory(
            from: bytes.baseAddress!, byteCount: taken)
        }
        offset = taken
        guard pending + taken == Self.blockSize else { return }
        let full = block
        add(full.0, full.1, full.2, full.3)
      }
      while bytes.count - offset >= Self.blockSize {
        add(
          word(bytes, offset), word(bytes, offset + 8), word(bytes, offset + 16),
          word(bytes, offset + 24))
        offset += Self.blockSize
      }
      if offset < bytes.count {
        withUnsafeMutableBytes(of: &block) {
          $0.baseAddress!.copyMemory(
            from: bytes.baseAddress! + offset, byteCount: bytes.count - offset)
        }
      }
    }

    /// The checksum of every byte given.
    func finalize() -> UInt64 {
      var sum =
        lanes.0.rotated(1) &+ lanes.1.rotated(7) &+ lanes.2.rotated(12) &+ lanes.3.rotated(18)
      var rest = block
      withUnsafeBytes(of: &rest) { bytes in
        for byte in bytes.prefix(count % Self.blockSize) {
          sum = (sum ^ UInt64(byte)) &* Self.multiplier
        }
      }
      sum ^= UInt64(count)
      sum = (sum ^ (sum >> 30)) &* 0xbf58_476d_1ce4_e5b9
      sum = (sum ^ (sum >> 27)) &* 0x94d0_49bb_1331_11eb
      return sum ^ (sum >> 31)
    }

    private func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
      UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private mutating func add(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
      lanes.0 = (lanes.0 &+ a &* Self.multiplier).rotated(31) &* 0xc6a4_a793_5bd1_e995
      lanes.1 = (lanes.1 &+ b &* Self.multiplier).rotated(31) &* 0xc6a4_a793_5bd1_e995
      lanes.2 = (lanes.2 &+ c &* Self.multiplier).rotated(31) &* 0xc6a4_a793_5bd1_e995
      lanes.3 = (lanes.3 &+ d &* Self.multiplier).rotated(31) &* 0xc6a4_a793_5bd1_e995
    }
  }
}

extension UInt64 {
  /// The bits rotated left by `count` (0 < `count` < 64).
  fileprivate func rotated(_ count: UInt64) -> UInt64 {
    (self << count) | (self >> (64 - count))
  }
}
