import Foundation
import Stores

/// The moment and the time zone that dates on the command line are read in: `today`, a day
/// such as `2026-11-29` and a local time such as `2026-11-29T07:30` are those of `timeZone`.
struct LocalTime: Sendable {
  var now: Date
  /// The time zone, looked up when first asked for: a command that reads and shows no local
  /// date never loads the system's time zone data (3.4 MB of a process's memory on Linux).
  var timeZone: TimeZone { zone() }
  private let zone: @Sendable () -> TimeZone

  /// The time `now` in the time zone `timeZone` gives, evaluated each time it is asked for
  /// (`TimeZone.current` is looked up once by Foundation, then kept).
  init(now: Date, timeZone: @autoclosure @escaping @Sendable () -> TimeZone) {
    self.now = now
    zone = timeZone
  }
}

/// The type of an argument, an option or a setting's value: how its text is read, what is
/// expected when it cannot be, and how a value is shown. Declaring an argument or option with
/// a type (see ``Argument`` and ``Option``) gives it its parsing, its error (exit 65), its
/// did-you-mean and the placeholder and values of its help line.
struct ValueType<Value: Sendable>: Sendable {
  /// The placeholder in usage lines and help: `N`, `DATE`, `date|priority`.
  var placeholder: String
  /// What a valid value is, to end "--priority must be …": "a whole number", "low, medium or
  /// high".
  var expected: String
  /// The values a mistyped one is compared with for a did-you-mean (a choice's names).
  var suggestions: [String] = []
  /// The values, for the help line of an option of this type: a choice's names, the forms of
  /// a date; `nil` when the placeholder says enough.
  var valuesHelp: String? = nil
  /// Every value, for a type with few (a choice's cases, `true` and `false`); else empty.
  var cases: [Value] = []
  /// The value of `text`, or `nil` when it is not one.
  var read: @Sendable (_ text: String, _ time: LocalTime) -> Value?
  /// `value` as it is typed.
  var format: @Sendable (Value) -> String

  /// The value of `text` for the argument or option `label`.
  ///
  /// - Throws: "`label` must be `expected`, not '`text`'", with a did-you-mean (exit 65).
  func parse(_ text: String, label: String, time: LocalTime) throws(DiaryError) -> Value {
    guard let value = read(text, time) else {
      throw DiaryError(
        "\(label) must be \(expected), not '\(Terminal.escaped(text))'" + suggestion(for: text))
    }
    return value
  }

  /// " — did you mean 'x'?" for a mistyped `text`, or nothing.
  func suggestion(for text: String) -> String {
    Suggestion.phrase(for: text, among: suggestions)
  }
}

extension ValueType where Value == Int {
  /// A whole number such as `3` or `-2`: digits only, no `+`, in the range of `Int`. (Where
  /// the valid numbers depend on a list, the command checks them against the list.)
  static func integer() -> Self {
    ValueType(
      placeholder: "N", expected: "a whole number",
      read: { text, _ in text.hasPrefix("+") ? nil : Int(text, radix: 10) },
      format: { String($0) })
  }
}

extension ValueType where Value == Double {
  /// A decimal number such as `7.5`, `.5`, `-2` or `1e3`: not `nan`, `inf`, hexadecimal or
  /// with spaces around.
  static var number: Self {
    ValueType(
      placeholder: "NUMBER", expected: "a number", read: { text, _ in Double(decimal: text) },
      format: numberText)
  }
}

extension ValueType where Value == Bool {
  /// `true` or `false`, also `yes`/`no`, `on`/`off` and `1`/`0`, in any case.
  static var boolean: Self {
    let spellings = ["true", "false", "yes", "no", "on", "off", "1", "0"]
    return ValueType(
      placeholder: "true|false", expected: spellings.joined(separator: ", ", lastSeparator: " or "),
      suggestions: spellings, cases: [true, false],
      read: { text, _ in
        switch text.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
      },
      format: { String($0) })
  }
}

extension ValueType where Value == String {
  /// Any text, as typed.
  static func text(_ placeholder: String) -> Self {
    ValueType(
      placeholder: placeholder, expected: "text", read: { text, _ in text }, format: { $0 })
  }

  /// A folder's path: any text but the empty one.
  static var folder: Self {
    ValueType(
      placeholder: "DIR", expected: "a folder's path",
      read: { text, _ in text.isEmpty ? nil : text },
      format: { $0 })
  }
}

/// A value typed as one of a few names, in any case: `date|priority`, `low|medium|high`.
protocol Choice: CaseIterable, Sendable {
  /// The names this value is typed as, in any case; the first is the one shown.
  var names: [String] { get }
  /// The placeholder in usage lines and help; the names, such as `date|priority`, by default.
  static var placeholder: String { get }
}

extension Choice {
  static var placeholder: String { allCases.map(\.name).joined(separator: "|") }

  /// The name shown.
  var name: String { names[0] }
}

extension ValueType where Value: Choice {
  /// One of the cases of `Value`, by any of its names, in any case.
  static func choice(_: Value.Type = Value.self) -> Self {
    ValueType(
      placeholder: Value.placeholder,
      expected: Value.allCases.map(\.name).joined(separator: ", ", lastSeparator: " or "),
      suggestions: Value.allCases.flatMap(\.names),
      valuesHelp: Value.placeholder == Value.allCases.map(\.name).joined(separator: "|")
        ? nil : Value.allCases.map(\.name).joined(separator: ", ", lastSeparator: " or "),
      cases: Array(Value.allCases),
      read: { text, _ in
        let typed = text.lowercased()
        return Value.allCases.first { $0.names.contains(typed) }
      },
      format: \.name)
  }
}

extension Array where Element == String {
  /// "a, b or c".
  func joined(separator: String, lastSeparator: String) -> String {
    guard let last, count > 1 else { return first ?? "" }
    return dropLast().joined(separator: separator) + lastSeparator + last
  }
}

/// A number as `diary` shows it and reads it back: a whole number without a fraction (`8`),
/// any other as Swift writes it (`7.5`, `1e+20`).
func numberText(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

extension ValueType where Value == (WorkoutsImportOptions.Field, String) {
  /// `FIELD=HEADER`: the CSV column that holds a field, such as `name=Activity Name`.
  static var column: Self {
    ValueType(
      placeholder: "FIELD=HEADER",
      expected:
        "FIELD=HEADER, FIELD one of "
        + WorkoutsImportOptions.Field.allCases.map(\.rawValue).joined(
          separator: ", ", lastSeparator: " or "),
      suggestions: WorkoutsImportOptions.Field.allCases.map(\.rawValue),
      read: { text, _ in
        guard let equals = text.firstIndex(of: "="),
          let field = WorkoutsImportOptions.Field(rawValue: text[..<equals].lowercased()),
          !text[text.index(after: equals)...].isEmpty
        else { return nil }
        return (field, String(text[text.index(after: equals)...]))
      },
      format: { "\($0.0.rawValue)=\($0.1)" })
  }
}

extension ValueType where Value == DatePattern {
  /// A date format such as `%d/%m/%Y` (see ``DatePattern``).
  static var datePattern: Self {
    ValueType(
      placeholder: "PATTERN",
      expected: "a date format with %Y, %m (or %b) and %d, such as %d/%m/%Y",
      read: { text, _ in try? DatePattern(text) },
      format: \.pattern)
  }
}
