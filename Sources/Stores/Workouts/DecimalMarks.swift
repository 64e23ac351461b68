/// Numbers as files in every locale write them: `10.02` and `10,02`, `1,500` and `1.500`,
/// `1,500.5` and `1.500,5` — read by the import, which knows the decimal mark from its
/// options, from the file, or asks for it.
///
/// A number is digits with points and commas between them. One kind of mark, once, with a
/// number of digits after it other than three (`10,02`, `5.5`) is the decimal mark; several
/// of one kind (`1,500,000`) group thousands; both kinds (`1,500.5`, `1.500,5`): the last is
/// the decimal mark, the others group thousands in threes. What is left — one mark followed
/// by exactly three digits after one to three others (`1,500`, `1.500`) — could be either,
/// and is read as the decimal mark says, when it is known.
package enum DecimalText {
  /// What a number's text holds.
  package enum Reading: Equatable {
    /// The number, and the decimal mark its text shows the file uses (`nil`: it shows none,
    /// or only what was given).
    case number(ScaledDecimal, shows: WorkoutsImportOptions.DecimalMark?)
    /// `1,500` or `1.500` while the mark is not known: the number with `separator` as the
    /// decimal mark (1.5), and with it grouping thousands (1500).
    case ambiguous(separator: UInt8, asDecimal: ScaledDecimal, asGrouping: ScaledDecimal)
  }

  private static let comma = UInt8(ascii: ",")
  private static let point = UInt8(ascii: ".")

  /// Whether `byte` is a digit, a point or a comma: what a number is written with.
  package static func isNumberByte(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10 || byte == point || byte == comma
  }

  /// The number `text` spells — digits, points and commas only — with `mark` as the decimal
  /// mark when it is known; `nil` for anything else (marks side by side, groups not of
  /// three, a mark that `mark` says is not the decimal one where it must be).
  ///
  /// - Complexity: O(*n*) in the length of `text`; no allocation but the number's digits.
  package static func read(
    _ text: some BidirectionalCollection<UInt8>, mark: WorkoutsImportOptions.DecimalMark?
  ) -> Reading? {
    var commas = 0
    var points = 0
    var lastMark: UInt8 = 0
    for byte in text {
      if byte == comma {
        commas += 1
        lastMark = byte
      } else if byte == point {
        points += 1
        lastMark = byte
      }
    }
    guard commas + points > 0 else { return ScaledDecimal(text).map { .number($0, shows: nil) } }
    let decimalByte = mark.map { $0 == .comma ? comma : point }
    if commas > 0, points > 0 {
      // Both: the last is the decimal mark, the others group thousands.
      guard decimalByte == nil || decimalByte == lastMark,
        (lastMark == comma ? commas : points) == 1,
        let split = text.lastIndex(of: lastMark),
        isGrouped(text[..<split], by: lastMark == comma ? point : comma)
      else { return nil }
      return number(text[..<split], text[text.index(after: split)...]).map {
        .number($0, shows: lastMark == comma ? .comma : .point)
      }
    }
    let separator = lastMark
    let separatorMark: WorkoutsImportOptions.DecimalMark = separator == comma ? .comma : .point
    if commas + points > 1 {
      // Several of one kind: they group thousands.
      guard decimalByte != separator, isGrouped(text[...], by: separator) else { return nil }
      return number(text[...], []).map {
        .number($0, shows: separatorMark == .comma ? .point : .comma)
      }
    }
    guard let split = text.firstIndex(of: separator) else { return nil }
    let before = text[..<split]
    let after = text[text.index(after: split)...]
    let asDecimal = number(before, after)
    let couldGroup =
      after.count == 3 && (1...3).contains(before.count) && before.first != UInt8(ascii: "0")
      && isGrouped(text[...], by: separator)
    guard couldGroup, let asDecimal, let asGrouping = number(text[...], []) else {
      guard decimalByte == nil || decimalByte == separator else { return nil }
      return asDecimal.map { .number($0, shows: separatorMark) }
    }
    if let decimalByte {
      return .number(decimalByte == separator ? asDecimal : asGrouping, shows: nil)
    }
    return .ambiguous(separator: separator, asDecimal: asDecimal, asGrouping: asGrouping)
  }

  /// The problem of `number`, a number that `mark` — the decimal mark the options give —
  /// contradicts: one read without a mark (see ``read(_:mark:)``) but not with `mark`, as
  /// `4742.0` with a decimal comma; the message says what `mark` means and the fix: the number
  /// with its points and commas swapped (`4742,0`), which `mark` reads as the same number, or
  /// the import without `--decimal`. `nil` when `number` is not such a number.
  package static func contradiction(of number: String, mark: WorkoutsImportOptions.DecimalMark)
    -> String?
  {
    guard read(number.utf8, mark: mark) == nil, case .number? = read(number.utf8, mark: nil)
    else { return nil }
    let swapped = String(number.map { $0 == "." ? "," : $0 == "," ? "." : $0 })
    let meaning =
      mark == .comma
      ? "a comma before the decimals, points grouping thousands"
      : "a point before the decimals, commas grouping thousands"
    return "\(quoted(number)) is not a number as --decimal \(mark.rawValue) reads them (\(meaning))"
      + " — write it \(swapped), or import without --decimal"
  }

  /// Whether `text` is digits grouped by `separator` in threes: one to three digits, then
  /// three after each separator.
  private static func isGrouped(_ text: some Collection<UInt8>, by separator: UInt8) -> Bool {
    var group = 0
    var isFirst = true
    for byte in text {
      if byte == separator {
        guard isFirst ? (1...3).contains(group) : group == 3 else { return false }
        isFirst = false
        group = 0
      } else if byte &- UInt8(ascii: "0") < 10 {
        group += 1
      } else {
        return false
      }
    }
    return isFirst ? group > 0 : group == 3
  }

  /// The number of the digits of `whole` (separators left out) and of `fraction`.
  private static func number(
    _ whole: some Collection<UInt8>, _ fraction: some Collection<UInt8>
  ) -> ScaledDecimal? {
    guard fraction.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
    var digits: [UInt8] = []
    digits.reserveCapacity(whole.count + fraction.count + 1)
    for byte in whole where byte &- UInt8(ascii: "0") < 10 { digits.append(byte) }
    if !fraction.isEmpty {
      digits.append(point)
      digits += fraction
    }
    return ScaledDecimal(digits)
  }
}
