import Foundation

/// Values as a person writes them in Swift, for descriptions and test failures: an action as
/// `.addTodo(Todo("Buy milk", priority: 2))`, not `Stores.TodosStore.Action.addTodo(…)`.
///
/// - Text is quoted and escaped (`"Buy milk"`), a date is in ISO 8601 (`2026-11-29T07:30:00Z`),
///   a time zone is `TimeZone(identifier: "Europe/Paris")`, an `IndexSet` its ranges
///   (`[1, 3...5]`); ids, URLs and decimals as their description.
/// - A structure or class that describes itself (`CustomStringConvertible` or
///   `CustomDebugStringConvertible`, not an error, not a Foundation or standard library type)
///   as its `String(reflecting:)`: ``Todo``, ``Workout``, ``JSONValue``.
/// - Anything else by reflection — honouring `CustomReflectable`, so only what a type shows:
///   an enum case as `.name(payload)`, a structure as `Name(label: value, …)`, a collection as
///   `[…]`, a dictionary as `[key: value]`, an optional as its value or `nil`.
package enum Readable {
  /// `value` as a person writes it. O(size of the value).
  package static func describe(_ value: Any) -> String {
    switch value {
    case let offsets as IndexSet:
      return "["
        + offsets.rangeView.map {
          $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound - 1)"
        }.joined(separator: ", ") + "]"
    case is String, is Character, is Substring: return String(reflecting: value)
    case let date as Date: return ISO8601Timestamp.string(from: date) ?? "\(date)"
    case let timeZone as TimeZone:
      return "TimeZone(identifier: \(String(reflecting: timeZone.identifier)))"
    case is UUID, is URL, is Decimal: return String(describing: value)
    default: break
    }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .struct || mirror.displayStyle == .class, describesItself(value) {
      return String(reflecting: value)
    }
    let children = mirror.children.map { (label: $0.label, value: describe($0.value)) }
    func list(_ open: String, _ close: String) -> String {
      let items = children.map { child in
        guard let label = child.label, !label.hasPrefix(".") else { return child.value }
        return "\(label): \(child.value)"
      }
      return open + items.joined(separator: ", ") + close
    }
    switch mirror.displayStyle {
    case .tuple: return list("(", ")")
    case .collection, .set: return list("[", "]")
    case .dictionary:
      let pairs = mirror.children.map {
        Mirror(reflecting: $0.value).children.map { describe($0.value) }
      }
      return "[" + pairs.map { $0.joined(separator: ": ") }.joined(separator: ", ") + "]"
    case .optional: return children.first?.value ?? "nil"
    case .enum:
      guard let payload = mirror.children.first else {
        let name = String(describing: value)  // a case without payload: its name
        return name.hasPrefix(".") ? name : ".\(name)"
      }
      let rendered = describe(payload.value)
      return ".\(payload.label ?? "")" + (rendered.hasPrefix("(") ? rendered : "(\(rendered))")
    case .struct, .class:
      guard !children.isEmpty else { return String(reflecting: value) }
      return list("\(mirror.subjectType)(", ")")
    default: return String(reflecting: value)
    }
  }

  /// Whether `value` has a description of its own that is not prose (an error's) nor
  /// Foundation's or the standard library's (`Data`'s "5 bytes").
  private static func describesItself(_ value: Any) -> Bool {
    guard value is any CustomStringConvertible || value is any CustomDebugStringConvertible,
      !(value is any Error)
    else { return false }
    let type = String(reflecting: Swift.type(of: value))
    return !type.hasPrefix("Swift.") && !type.hasPrefix("Foundation")
  }
}
