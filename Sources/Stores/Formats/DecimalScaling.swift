/// A decimal number as its digits and a power of ten — `1508.76` is `150876` × 10⁻² — so
/// that it can be multiplied by a power of ten exactly, by moving its point, rather than
/// rounded twice through a `Double`: the kilometres a file holds become metres and back
/// without a digit changing.
package struct ScaledDecimal: Equatable, Sendable {
  /// The significant digits, ASCII, without leading zeros (`"0"` for zero).
  private var digits: [UInt8]
  /// The power of ten the digits are multiplied by.
  private var exponent: Int

  /// The number `text` spells: digits with an optional point and an optional exponent
  /// (`1508.76`, `.5`, `5.`, `1e-05`, `1.5E+20`), no sign; `nil` for anything else.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package init?(_ text: some Collection<UInt8>) {
    var digits: [UInt8] = []
    var exponent = 0
    var sawDigit = false
    var sawPoint = false
    var index = text.startIndex
    while index != text.endIndex {
      let byte = text[index]
      if byte &- UInt8(ascii: "0") < 10 {
        sawDigit = true
        if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
        if sawPoint { exponent -= 1 }
      } else if byte == UInt8(ascii: "."), !sawPoint {
        sawPoint = true
      } else {
        break
      }
      index = text.index(after: index)
    }
    guard sawDigit else { return nil }
    if index != text.endIndex {
      guard text[index] | 0x20 == UInt8(ascii: "e") else { return nil }
      index = text.index(after: index)
      var sign = 1
      if index != text.endIndex,
        text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")
      {
        sign = text[index] == UInt8(ascii: "-") ? -1 : 1
        index = text.index(after: index)
      }
      var power = 0
      var sawExponentDigit = false
      while index != text.endIndex, text[index] &- UInt8(ascii: "0") < 10 {
        // Beyond any Double's range either way: kept from overflowing.
        power = min(power * 10 + Int(text[index] &- UInt8(ascii: "0")), 100_000)
        sawExponentDigit = true
        index = text.index(after: index)
      }
      guard sawExponentDigit, index == text.endIndex else { return nil }
      exponent += sign * power
    }
    // Trailing zeros go into the exponent: one spelling per number.
    while digits.last == UInt8(ascii: "0") {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty {
      digits = [UInt8(ascii: "0")]
      exponent = 0
    }
    self.digits = digits
    self.exponent = exponent
  }

  /// The digits of `value`, finite and 0 or more, as Swift's shortest spelling that reads
  /// back as it (`description`) has them.
  package init(_ value: Double) {
    precondition(value.isFinite && value >= 0, "a decimal of \(value)")
    // `description` of a finite, non-negative Double (`-0` made 0) is always such a spelling.
    self = Self(Array((value + 0).description.utf8))!
  }

  /// This number times 10^`power`, exactly.
  package func scaled(by power: Int) -> ScaledDecimal {
    var scaled = self
    if digits != [UInt8(ascii: "0")] { scaled.exponent += power }
    return scaled
  }

  /// This number times `factor`, 0 or more, exactly. O(number of digits).
  package func multiplied(by factor: Int) -> ScaledDecimal {
    // In 64 bits, whatever `Int`'s width (32 bits on watchOS): 9 × factor + carry fits.
    let factor = Int64(factor)
    precondition(factor >= 0 && factor < 1 << 32, "a factor of \(factor)")
    var product: [UInt8] = []
    var carry: Int64 = 0
    for digit in digits.reversed() {
      let value = Int64(digit &- UInt8(ascii: "0")) * factor + carry
      product.append(UInt8(ascii: "0") + UInt8(value % 10))
      carry = value / 10
    }
    while carry > 0 {
      product.append(UInt8(ascii: "0") + UInt8(carry % 10))
      carry /= 10
    }
    // Back in order, as ``init(_:)`` spells a number: no leading or trailing zeros.
    return ScaledDecimal(product.reversed() + Array("e\(exponent)".utf8))!
  }

  /// The `Double` nearest to the number (infinity when it is too large for one).
  package var double: Double {
    Double(String(decoding: digits, as: UTF8.self) + "e\(exponent)") ?? .infinity
  }

  /// The number spelled plainly when that is short — `1.50876`, `5200`, `0.0005` — else with
  /// an exponent (`1.5e-12`): a JSON number either way. O(number of digits), plus the zeros
  /// a plain spelling needs, at most about twenty.
  package var text: String {
    let count = digits.count
    let pointAt = count + exponent  // Digits before the point.
    var text: [UInt8] = []
    if exponent >= 0, pointAt <= 21 {
      text = digits + Array(repeating: UInt8(ascii: "0"), count: exponent)
    } else if exponent < 0, pointAt > 0 {
      text = Array(digits[..<pointAt]) + [UInt8(ascii: ".")] + digits[pointAt...]
    } else if exponent < 0, pointAt > -6 {
      text =
        [UInt8(ascii: "0"), UInt8(ascii: ".")]
        + Array(repeating: UInt8(ascii: "0"), count: -pointAt) + digits
    } else {
      text = [digits[0]]
      if count > 1 { text += [UInt8(ascii: ".")] + digits[1...] }
      text += Array("e\(pointAt - 1)".utf8)
    }
    return String(decoding: text, as: UTF8.self)
  }
}
