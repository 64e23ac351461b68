/// The places of items in a merged list: keys that sort as the list does, so that a move is
/// a change of the moved items' keys alone, merged like any other field.
///
/// A key is a string of base-62 digits (`0`–`9`, `A`–`Z`, `a`–`z`, in ASCII order) read as a
/// fraction, never ending in `0`: between any two keys there is another.
package enum Position {
  private static let digits = Array(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
  private static let values: [UInt8: Int] = Dictionary(
    uniqueKeysWithValues: digits.enumerated().map { ($1, $0) })

  /// Whether `key` is a valid position key.
  package static func isValid(_ key: Substring) -> Bool {
    !key.isEmpty && key.utf8.count <= 1_000 && key.utf8.allSatisfy { values[$0] != nil }
      && key.utf8.last != digits[0]
  }

  /// `count` keys in ascending order, strictly between `low` and `high` (`nil`: no bound),
  /// spread evenly: O(`count` log `count`), each key O(log `count`) digits longer than the
  /// bounds' common part.
  package static func keys(_ count: Int, between low: String?, and high: String?) -> [String] {
    var keys: [String] = []
    keys.reserveCapacity(count)
    func spread(_ count: Int, _ low: [Int], _ high: [Int]?) {
      guard count > 0 else { return }
      let middle = midpoint(low, high)
      spread((count - 1) / 2, low, middle)
      keys.append(String(decoding: middle.map { digits[$0] }, as: UTF8.self))
      spread(count - 1 - (count - 1) / 2, middle, high)
    }
    spread(count, low.map(decode) ?? [], high.map(decode))
    return keys
  }

  private static func decode(_ key: String) -> [Int] { key.utf8.map { values[$0] ?? 0 } }

  /// A key strictly between `low` (a fraction; empty is 0) and `high` (`nil` is 1), which
  /// must be greater.
  private static func midpoint(_ low: [Int], _ high: [Int]?) -> [Int] {
    var prefix: [Int] = []
    var index = 0
    while true {
      let lowDigit = index < low.count ? low[index] : 0
      let highDigit = high.map { index < $0.count ? $0[index] : 0 } ?? digits.count
      if lowDigit == highDigit {
        prefix.append(lowDigit)
        index += 1
        continue
      }
      if highDigit - lowDigit > 1 {
        return prefix + [(lowDigit + highDigit) / 2]
      }
      // Adjacent digits: take the low digit, then any key above the rest of `low`.
      if let high, high.count > index + 1 {
        return prefix + [highDigit]
      }
      prefix.append(lowDigit)
      return prefix + midpoint(Array(low.dropFirst(index + 1)), nil)
    }
  }
}
