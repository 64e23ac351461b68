/// Times as people and files write them — `45:00`, `1:02:03`, `00:31:24.5` (`00:31:24,5`),
/// `45m`, `1h2m`, `90s` — read the same way by `diary workouts add` and by the import (which
/// also reads plain seconds, `4742` or `4742.0`, as Strava writes them), and written as
/// `1:02:03`.
package enum DurationText {
  /// The seconds `text` spells, or `nil`: `M:SS` or `H:MM:SS` (the first part any number of
  /// digits, the others two, seconds with an optional decimal part after a point or a
  /// comma), or units in order — `h`, `m`, `s`, each with whole digits, at least one (`1h2m`,
  /// `45m`, `1h 30m`, `90s`). A bare number is not a time here (`45` could be minutes); the
  /// import reads one as seconds, as its other numbers. Spaces around are not taken.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  package static func seconds(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return nil }
    if bytes.contains(UInt8(ascii: ":")) { return clock(bytes) }
    if let last = bytes.last, last &- UInt8(ascii: "0") < 10 || last == UInt8(ascii: ".") {
      return nil
    }
    return units(bytes)
  }

  /// `H:MM:SS` or `M:SS`.
  private static func clock(_ bytes: [UInt8]) -> Double? {
    let parts = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count) else { return nil }
    var total = 0.0
    for (index, part) in parts.enumerated() {
      let isFirst = index == 0
      let isLast = index == parts.count - 1
      let whole = part.prefix { $0 &- UInt8(ascii: "0") < 10 }
      let rest = part.dropFirst(whole.count)
      guard !whole.isEmpty, isFirst ? whole.count <= 6 : whole.count == 2 else { return nil }
      var value = Double(Int(String(decoding: whole, as: UTF8.self)) ?? 0)
      if !rest.isEmpty {
        // A decimal part, on the seconds only: `00:04:40.37`, or `00:04:40,37` as a decimal
        // comma writes it (in a clock, a comma cannot group thousands).
        guard isLast, rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: ","),
          rest.count > 1, rest.dropFirst().allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }),
          let fraction = Double("0." + String(decoding: rest.dropFirst(), as: UTF8.self))
        else { return nil }
        value += fraction
      }
      if !isFirst { guard value < 60 else { return nil } }
      total = total * 60 + value
    }
    return total
  }

  /// `1h2m3s`, each unit at most once, in that order, spaces between allowed.
  private static func units(_ bytes: [UInt8]) -> Double? {
    var total = 0.0
    var number = ""
    var nextUnit = 0  // The units still allowed start here: h, m, s.
    let units: [(UInt8, Double)] = [
      (UInt8(ascii: "h"), 3_600), (UInt8(ascii: "m"), 60), (UInt8(ascii: "s"), 1),
    ]
    var sawUnit = false
    for byte in bytes {
      if byte &- UInt8(ascii: "0") < 10 {
        guard number.count < 9 else { return nil }
        number.append(Character(UnicodeScalar(byte)))
      } else if byte == UInt8(ascii: " ") {
        continue
      } else if let index = units.firstIndex(where: { $0.0 == byte | 0x20 }), index >= nextUnit,
        let value = Double(number)
      {
        total += value * units[index].1
        number = ""
        nextUnit = index + 1
        sawUnit = true
      } else {
        return nil
      }
    }
    return sawUnit && number.isEmpty ? total : nil
  }

  /// `seconds` as a clock: `1:02:03`, `45:00`, `0:07` — whole seconds, rounded, or with the
  /// tenths and hundredths a time has (`4:40.37`); `—` for a time that is not one (NaN, an
  /// infinity, or more than 10^15 seconds either way).
  package static func format(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e15 else { return "—" }
    // In 64 bits: 248 days and more do not fit in a 32-bit `Int` (watchOS).
    let hundredths = Int64((seconds * 100).rounded())
    let whole = hundredths / 100
    let (hours, minutes, secondsPart) = (whole / 3_600, whole / 60 % 60, whole % 60)
    var text =
      hours > 0
      ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secondsPart))"
      : "\(minutes):\(twoDigits(secondsPart))"
    let fraction = hundredths % 100
    if fraction != 0 {
      text += fraction % 10 == 0 ? ".\(fraction / 10)" : ".\(twoDigits(fraction))"
    }
    return text
  }

  private static func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
