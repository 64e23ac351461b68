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

  /// The longest key a file may hold: longer ones are refused when read.
  package static let longestReadable = 1_000

  /// The longest key this library makes: a list whose next key would be longer is given new
  /// keys (see ``ListSync``), far from ``longestReadable``.
  package static let longestMade = 40

  /// Whether `key` is a valid position key.
  package static func isValid(_ key: Substring) -> Bool {
    !key.isEmpty && key.utf8.count <= longestReadable
      && key.utf8.allSatisfy { values[$0] != nil } && key.utf8.last != digits[0]
  }

  /// `count` keys in ascending order, strictly between `low` and `high` (`nil`: no bound).
  ///
  /// Between two keys, the keys are spread evenly: O(`count` log `count`), each key
  /// O(log `count`) digits longer than the bounds' common part. Before the first key or after
  /// the last, they follow it closely, one step of its last digit apart, with a power of two
  /// of digits, doubled until there is room: so that adding at the top or the
  /// bottom again and again makes keys that grow with the log of the number of adds, not
  /// with the adds (a list that only ever grows at its top needs 4 digits for its first
  /// 3,900 adds, 8 for its first 14 million).
  package static func keys(_ count: Int, between low: String?, and high: String?) -> [String] {
    guard count > 0 else { return [] }
    switch (low, high) {
    case (nil, let high?): return keys(count, below: decode(high))
    case (let low?, nil): return keys(count, above: decode(low))
    default: return spread(count, between: low, and: high)
    }
  }

  /// See ``keys(_:between:and:)``: between two keys, or in an empty list.
  private static func spread(_ count: Int, between low: String?, and high: String?) -> [String] {
    var keys: [String] = []
    keys.reserveCapacity(count)
    func spread(_ count: Int, _ low: [Int], _ high: [Int]?) {
      guard count > 0 else { return }
      let middle = midpoint(low, high)
      spread((count - 1) / 2, low, middle)
      keys.append(text(middle))
      spread(count - 1 - (count - 1) / 2, middle, high)
    }
    spread(count, low.map(decode) ?? [], high.map(decode))
    return keys
  }

  /// `count` keys below `high`, one step of their last digit apart, the last one step below
  /// `high`: with `high`'s digits, or twice as many, or four times… until they fit above 0.
  private static func keys(_ count: Int, below high: [Int]) -> [String] {
    var length = stepLength(high)
    while true {
      var key = high + Array(repeating: 0, count: length - high.count)
      if subtract(count, from: &key), key.contains(where: { $0 != 0 }) {
        var keys: [String] = []
        keys.reserveCapacity(count)
        for _ in 0..<count {
          keys.append(text(key))
          _ = subtract(-1, from: &key)
        }
        return keys
      }
      length *= 2
    }
  }

  /// `count` keys above `low`, one step of their last digit apart, the first one step above
  /// `low`: with `low`'s digits, or twice as many… until they fit below 1.
  private static func keys(_ count: Int, above low: [Int]) -> [String] {
    var length = stepLength(low)
    while true {
      var last = low + Array(repeating: 0, count: length - low.count)
      if subtract(-count, from: &last) {
        var key = low + Array(repeating: 0, count: length - low.count)
        var keys: [String] = []
        keys.reserveCapacity(count)
        for _ in 0..<count {
          _ = subtract(-1, from: &key)
          keys.append(text(key))
        }
        return keys
      }
      length *= 2
    }
  }

  /// The number of digits whose last one a step next to `key` changes: the least power of
  /// two not below its length — so that keys made one after another, whose trailing zeros
  /// are dropped, keep stepping by the same amount.
  private static func stepLength(_ key: [Int]) -> Int {
    var length = 1
    while length < key.count { length *= 2 }
    return length
  }

  /// Subtracts `amount` (adds, when negative) units of the last digit from the fraction
  /// `digits`; returns whether the result stays within 0 and 1 (`digits` is then that
  /// result; otherwise it is left wrapped).
  private static func subtract(_ amount: Int, from digits: inout [Int]) -> Bool {
    let base = Self.digits.count
    var carry = -amount
    var index = digits.count - 1
    while carry != 0, index >= 0 {
      let sum = digits[index] + carry
      digits[index] = ((sum % base) + base) % base
      carry = (sum - digits[index]) / base
      index -= 1
    }
    return carry == 0
  }

  /// The key of `digits`, its trailing zeros dropped.
  private static func text(_ digits: [Int]) -> String {
    var end = digits.count
    while end > 0, digits[end - 1] == 0 { end -= 1 }
    return String(decoding: digits[..<end].map { Self.digits[$0] }, as: UTF8.self)
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
