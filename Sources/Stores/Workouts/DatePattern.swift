import Foundation

/// A date format in the style of `strptime`, for the dates of files that use none of the forms
/// import reads by itself (ISO 8601, `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`): `%m/%d/%Y`,
/// `%d.%m.%Y %H:%M`, Strava's `%b %d, %Y, %I:%M:%S %p` (and, from accounts in German and
/// French, `%d.%m.%Y, %H:%M:%S` and `%d %b %Y à %H:%M:%S`).
///
/// Directives: `%Y` year (1–4 digits), `%y` two-digit year (69–99: 19xx, else 20xx), `%m`
/// month, `%d` / `%e` day, `%H` hour 0–23, `%I` hour 1–12 with `%p` (`AM`/`PM`), `%M`
/// minute, `%S` second (1–2 digits each), `%b` / `%h` / `%B` a month name — English, full or
/// its first three letters (`Jan`), or French, full or as French abbreviates it (`janv.`,
/// `févr.`, `mars`, `août`), a point after it taken too —, `%%` a percent sign. A space
/// matches one or more spaces; any other character matches itself. Letters are read in any
/// case; the day and time are in the time zone given. Missing fields are the start of the
/// day or year.
public struct DatePattern: Equatable, Hashable, Sendable {
  /// The pattern as written.
  public let pattern: String
  private let parts: [Part]

  private enum Part: Equatable, Hashable, Sendable {
    case literal(Character)
    case spaces
    case year, shortYear, month, monthName, day, hour, hour12, minute, second, meridiem
  }

  /// Why a pattern is not one.
  public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// The pattern `pattern`.
  ///
  /// - Throws: ``Invalid`` for an unknown directive, or a pattern without a year, month and
  ///   day.
  public init(_ pattern: String) throws(Invalid) {
    var parts: [Part] = []
    var characters = pattern.makeIterator()
    while let character = characters.next() {
      guard character == "%" else {
        parts.append(character == " " ? .spaces : .literal(character))
        continue
      }
      guard let directive = characters.next() else {
        throw Invalid(description: "the date format ends with a lone %")
      }
      switch directive {
      case "Y": parts.append(.year)
      case "y": parts.append(.shortYear)
      case "m": parts.append(.month)
      case "b", "h", "B": parts.append(.monthName)
      case "d", "e": parts.append(.day)
      case "H": parts.append(.hour)
      case "I": parts.append(.hour12)
      case "M": parts.append(.minute)
      case "S": parts.append(.second)
      case "p": parts.append(.meridiem)
      case "%": parts.append(.literal("%"))
      default:
        throw Invalid(
          description:
            "the date format has %\(directive), which is not known — use %Y %y %m %b %d %H %I "
            + "%M %S %p")
      }
    }
    guard parts.contains(where: { $0 == .year || $0 == .shortYear }),
      parts.contains(where: { $0 == .month || $0 == .monthName }), parts.contains(.day)
    else {
      throw Invalid(
        description: "the date format needs a year (%Y), a month (%m or %b) and a day (%d)")
    }
    guard parts.contains(.hour12) == parts.contains(.meridiem) else {
      throw Invalid(description: "the date format needs %I and %p together")
    }
    self.pattern = pattern
    self.parts = parts
  }

  private static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
  ]

  /// The French names of the months, full and abbreviated as French writes them (the point
  /// after the abbreviation is read apart), lowercased: Strava's dates from an account in
  /// French (`7 janv. 2024 à 00:05:00`).
  private static let frenchMonths = [
    ["janvier", "janv"], ["février", "févr"], ["mars"], ["avril", "avr"], ["mai"], ["juin"],
    ["juillet", "juil"], ["août"], ["septembre", "sept"], ["octobre", "oct"],
    ["novembre", "nov"], ["décembre", "déc"],
  ]

  /// The month `name` (lowercased) names: English, full or its first three letters, or
  /// French (see ``frenchMonths``); `nil` for none.
  private static func month(named name: String) -> Int? {
    let english = months.firstIndex { $0 == name || name.count == 3 && $0.hasPrefix(name) }
    return (english ?? frenchMonths.firstIndex { $0.contains(name) }).map { $0 + 1 }
  }

  /// The instant `text` names in `timeZone`, or `nil` when it does not match or is not a real
  /// date. O(*n*) in the length of `text`.
  public func date(from text: String, in timeZone: TimeZone) -> Date? {
    let characters = Array(text.trimmingCharacters(in: .whitespaces))
    var index = 0
    func number(maxDigits: Int) -> Int? {
      var value = 0
      var digits = 0
      while digits < maxDigits, index < characters.count,
        let digit = characters[index].wholeNumberValue, characters[index].isASCII
      {
        value = value * 10 + digit
        digits += 1
        index += 1
      }
      return digits == 0 ? nil : value
    }
    var (year, month, day, hour, minute, second) = (0, 1, 1, 0, 0, 0)
    var isPM: Bool?
    for (position, part) in parts.enumerated() {
      switch part {
      case .literal(let character):
        guard index < characters.count, characters[index].lowercased() == character.lowercased()
        else { return nil }
        index += 1
      case .spaces:
        guard index < characters.count, characters[index] == " " else { return nil }
        while index < characters.count, characters[index] == " " { index += 1 }
      case .year:
        guard let value = number(maxDigits: 4), value >= 1 else { return nil }
        year = value
      case .shortYear:
        guard let value = number(maxDigits: 2) else { return nil }
        year = value < 69 ? 2000 + value : 1900 + value
      case .month:
        guard let value = number(maxDigits: 2), (1...12).contains(value) else { return nil }
        month = value
      case .monthName:
        var letters = ""
        while index < characters.count, characters[index].isLetter {
          letters.append(characters[index])
          index += 1
        }
        guard let found = Self.month(named: letters.lowercased()) else { return nil }
        month = found
        // The point of an abbreviation (`janv.`, `Jan.`), unless the pattern writes it.
        if index < characters.count, characters[index] == ".",
          parts.dropFirst(position + 1).first != .literal(".")
        {
          index += 1
        }
      case .day:
        guard let value = number(maxDigits: 2), value >= 1 else { return nil }
        day = value
      case .hour:
        guard let value = number(maxDigits: 2), value < 24 else { return nil }
        hour = value
      case .hour12:
        guard let value = number(maxDigits: 2), (1...12).contains(value) else { return nil }
        hour = value
      case .minute:
        guard let value = number(maxDigits: 2), value < 60 else { return nil }
        minute = value
      case .second:
        guard let value = number(maxDigits: 2), value < 60 else { return nil }
        second = value
      case .meridiem:
        guard index + 1 < characters.count, characters[index + 1].lowercased() == "m" else {
          return nil
        }
        switch characters[index].lowercased() {
        case "a": isPM = false
        case "p": isPM = true
        default: return nil
        }
        index += 2
      }
    }
    guard index == characters.count, day <= CivilDate.daysInMonth(year: year, month: month)
    else { return nil }
    if let isPM { hour = hour % 12 + (isPM ? 12 : 0) }
    let local =
      Int64(CivilDate.days(year: year, month: month, day: day)) * 86_400
      + Int64(hour * 3_600 + minute * 60 + second)
    return LocalDate.instant(ofLocalSecond: local, in: timeZone)
  }
}
