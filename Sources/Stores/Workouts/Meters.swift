/// A workout's distance in metres, as ``Workout`` stores it, written to files (and read from
/// them) in kilometres with the decimal point moved three places: the metres read back are
/// exactly the metres written. A file of an older version, which held kilometres as a
/// `Double`, keeps them to 15 significant digits: the 16th and 17th digits of a sum such as
/// `0.1 + 0.2` (`0.30000000000000004` km) may change at the first write, to the nearest
/// metres a `Double` holds, and stay as written from then on.
package struct Meters: Hashable, Sendable {
  /// The metres: finite, 0 or more, never `-0`.
  package let value: Double

  /// `value` metres, `-0` made `0`.
  package init(_ value: Double) {
    self.value = value + 0
  }

  /// The metres in `kilometers`, finite and 0 or more, taken as the decimal its shortest
  /// spelling is (`1.005` is 1,005 m, where `1.005 * 1000` is 1,004.9999999999999).
  package init(kilometers: Double) {
    self.init(ScaledDecimal(kilometers).scaled(by: 3).double)
  }

  /// The kilometres, spelled as a file holds them: the metres' shortest spelling with the
  /// point moved (`1508.76` → `1.50876`).
  package var kilometersText: String { ScaledDecimal(value).scaled(by: -3).text }
}

extension Meters: JSONCodable {
  /// Reads a number of kilometres, moving its point: `21.1` is 21,100 m exactly.
  package init(from reader: inout JSONReader) throws(JSONCodingError) {
    guard reader.kind == .number else { throw reader.typeMismatch(expected: "a number") }
    let text = reader.numberBytes()
    guard text.first != UInt8(ascii: "-") else {
      // Refused by the workout with the rest of its checks; `-0` is 0.
      self.init(JSONNumber.double(text) * 1000)
      return
    }
    // A JSON number that is not negative is always a decimal `ScaledDecimal` reads.
    self.init(ScaledDecimal(text)?.scaled(by: 3).double ?? .nan)
  }

  /// Writes the kilometres (see ``kilometersText``).
  ///
  /// - Throws: When the metres are not finite.
  package func write(to writer: inout JSONWriter) throws(JSONCodingError) {
    guard value.isFinite, value >= 0 else {
      throw JSONCodingError("\(value) is not a distance JSON can hold")
    }
    writer.writeRaw(kilometersText)
  }
}
