extension Double {
  /// The number `text` holds, written as people and CSV files write decimals: `7`, `-0.5`,
  /// `.5`, `7.25`, `1e3` (`-0` reads as `0`); `nil` for anything else — `nan`, `inf`,
  /// hexadecimal, a `+` sign, a point without digits after it (`7.`), spaces around,
  /// trailing characters, a number too large for a `Double`, or one not zero that would
  /// round to zero (`1e-400`), as the store files refuse both.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package init?(decimal text: String) {
    guard Self.isDecimal(text), let value = Double(text), value.isFinite else { return nil }
    if value == 0
      && text.utf8.prefix(while: { $0 | 0x20 != UInt8(ascii: "e") }).contains(where: {
        (0x31...0x39).contains($0)
      })
    {
      return nil
    }
    self = value + 0
  }

  /// Whether `text` is `-?(digits)?(.digits)?([eE][+-]?digits)?`, with digits before or
  /// after the point.
  private static func isDecimal(_ text: String) -> Bool {
    var bytes = text.utf8[...]
    func digits() -> Int {
      let count = bytes.prefix { (0x30...0x39).contains($0) }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let whole = digits()
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    } else {
      guard whole > 0 else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
        bytes = bytes.dropFirst()
      }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }
}
