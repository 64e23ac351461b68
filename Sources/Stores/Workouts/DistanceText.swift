/// Distances as people type them — `5`, `.5`, `5.2km`, `1500 m`, `1650 yd`, `3.1 mi`,
/// `14.79 miles` — read the same way by `diary workouts add` and by the import.
package enum DistanceText {
  /// The largest number a distance can be typed with, in any unit: no workout is longer, and
  /// totals stay far from overflowing.
  package static let limit = 100_000.0

  /// The number and the unit typed after it (`nil` when there is none) of `text`: digits
  /// with an optional decimal part (a decimal comma too when `allowsDecimalComma`), from 0 to
  /// ``limit``, then optionally spaces and a unit — `m`, `km`, `yd`, `mi` or their long
  /// names (``DistanceUnit/spellings``), in any case. No sign, exponent, `nan` or `inf`;
  /// `nil` for anything else. The number is kept as the decimal typed, so that
  /// ``DistanceUnit/meters(of:)`` makes exact metres of it.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package static func parse(_ text: String, allowsDecimalComma: Bool = false)
    -> (value: ScaledDecimal, unit: DistanceUnit?)?
  {
    var number = Array(text.utf8.prefix { $0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: ".") })
    var rest = text.utf8.dropFirst(number.count)
    if allowsDecimalComma, !number.contains(UInt8(ascii: ".")), rest.first == UInt8(ascii: ",") {
      let fraction = rest.dropFirst().prefix { $0 &- UInt8(ascii: "0") < 10 }
      number += [UInt8(ascii: ".")] + fraction
      rest = rest.dropFirst(1 + fraction.count)
    }
    rest = rest.drop { $0 == UInt8(ascii: " ") }
    guard number.count(where: { $0 == UInt8(ascii: ".") }) <= 1, let value = ScaledDecimal(number),
      (0...limit).contains(value.double)
    else { return nil }
    guard !rest.isEmpty else { return (value, nil) }
    guard let unit = DistanceUnit(spelling: String(Substring(rest))) else { return nil }
    return (value, unit)
  }
}

extension DistanceText {
  /// The number and the unit of a distance in a file, `text`: as ``parse(_:allowsDecimalComma:)``
  /// reads it, but the number written in any locale's way (see ``DecimalText``), with `mark`
  /// as the decimal mark when it is known. A reading that could be either number keeps both
  /// when both are from 0 to ``limit``, else the one that is.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package static func parse(_ text: String, mark: WorkoutsImportOptions.DecimalMark?)
    -> (reading: DecimalText.Reading, unit: DistanceUnit?)?
  {
    let utf8 = text.utf8
    let number = utf8.prefix(while: DecimalText.isNumberByte)
    var rest = utf8[number.endIndex...]
    rest = rest.drop { $0 == UInt8(ascii: " ") }
    let unit: DistanceUnit?
    if rest.isEmpty {
      unit = nil
    } else {
      guard let typed = DistanceUnit(spelling: String(Substring(rest))) else { return nil }
      unit = typed
    }
    func inRange(_ value: ScaledDecimal) -> Bool { (0...limit).contains(value.double) }
    switch DecimalText.read(number, mark: mark) {
    case .number(let value, let shows)? where inRange(value):
      return (.number(value, shows: shows), unit)
    case .ambiguous(let separator, let asDecimal, let asGrouping)?:
      switch (inRange(asDecimal), inRange(asGrouping)) {
      case (true, true):
        return (
          .ambiguous(separator: separator, asDecimal: asDecimal, asGrouping: asGrouping), unit
        )
      case (true, false): return (.number(asDecimal, shows: nil), unit)
      case (false, true): return (.number(asGrouping, shows: nil), unit)
      case (false, false): return nil
      }
    default:
      return nil
    }
  }
}

extension DistanceUnit {
  /// The ways each unit is typed, the first its setting's name.
  package var spellings: [String] {
    switch self {
    case .kilometers: ["kilometers", "kilometres", "km"]
    case .miles: ["miles", "mi"]
    case .meters: ["meters", "metres", "m"]
    case .yards: ["yards", "yd"]
    }
  }

  /// The unit typed as `spelling` (see ``spellings``), in any case.
  package init?(spelling: String) {
    let typed = spelling.lowercased()
    guard let unit = Self.allCases.first(where: { $0.spellings.contains(typed) }) else {
      return nil
    }
    self = unit
  }
}
