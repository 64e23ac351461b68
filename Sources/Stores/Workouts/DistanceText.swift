/// Distances as people type them — `5`, `.5`, `5.2km`, `3.1 mi`, `14.79 miles` — read the
/// same way by `diary workouts add` and by the import.
package enum DistanceText {
  /// The largest number a distance can be typed with, in any unit: no workout is longer, and
  /// totals stay far from overflowing.
  package static let limit = 100_000.0

  /// The number and the unit typed after it (`nil` when there is none) of `text`: digits
  /// with an optional decimal part (a decimal comma too when `allowsDecimalComma`), from 0 to
  /// ``limit``, then optionally spaces and a unit — `km`, `kilometers`, `kilometres`, `mi`,
  /// `miles`, in any case. No sign, exponent, `nan` or `inf`; `nil` for anything else.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package static func parse(_ text: String, allowsDecimalComma: Bool = false)
    -> (value: Double, unit: DistanceUnit?)?
  {
    var number = String(text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") })
    var rest = text.dropFirst(number.count)
    if allowsDecimalComma, !number.contains("."), rest.first == "," {
      let fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
      number += "." + fraction
      rest = rest.dropFirst(1 + fraction.count)
    }
    rest = rest.drop { $0 == " " }
    guard number.contains(where: \.isNumber), number.count(where: { $0 == "." }) <= 1,
      let value = Double(number), (0...limit).contains(value)
    else { return nil }
    guard !rest.isEmpty else { return (value, nil) }
    guard let unit = DistanceUnit(spelling: String(rest)) else { return nil }
    return (value, unit)
  }
}

extension DistanceUnit {
  /// The ways each unit is typed, the first its setting's name.
  package var spellings: [String] {
    switch self {
    case .kilometers: ["kilometers", "kilometres", "km"]
    case .miles: ["miles", "mi"]
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
