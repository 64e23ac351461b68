import Foundation
import Stores

/// Renders values as Swift expressions that rebuild them, for the replayable programs of
/// stateful tests: `.toggleTodo(id: UUID(uuidString: "…")!)`, `Todo(id: …, title: "a", …)`.
///
/// Text, numbers (JSON numbers too), `Bool`, `Date`, `UUID`, `URL`, `IndexSet`, optionals,
/// arrays, sets, dictionaries, tuples and enums render exactly; a structure or class renders
/// as a call of its memberwise initialiser (`Type(property: value, …)`), which compiles when
/// the type has one that takes its stored properties in order — as `Todo` and `Workout` do.
enum SwiftCode {
  /// The Swift expression that rebuilds `value`, where its type is known from the context
  /// (enum cases are written `.name`). O(size of the value).
  static func expression(_ value: Any) -> String {
    switch value {
    case let text as String: return literal(text)
    case let text as Substring: return literal(String(text))
    case let character as Character: return literal(String(character))
    case let number as Double: return double(number)
    case let number as Float: return double(Double(number))
    case let date as Date:
      return "Date(timeIntervalSinceReferenceDate: \(double(date.timeIntervalSinceReferenceDate)))"
    case let id as UUID: return "UUID(uuidString: \"\(id.uuidString)\")!"
    case let url as URL: return "URL(string: \(literal(url.absoluteString)))!"
    case let offsets as IndexSet:
      return offsets.isEmpty ? "IndexSet()" : "IndexSet(\(Array(offsets)))"
    case let flag as Bool: return "\(flag)"
    case let number as any BinaryInteger: return "\(number)"
    // A JSON number is a literal: its digits as written.
    case let number as JSONNumber: return number.text
    default: break
    }
    let mirror = Mirror(reflecting: value)
    let children = Array(mirror.children)
    switch mirror.displayStyle {
    case .optional:
      return children.first.map { expression($0.value) } ?? "nil"
    case .collection:
      return "[" + children.map { expression($0.value) }.joined(separator: ", ") + "]"
    case .set:
      return "[" + children.map { expression($0.value) }.sorted().joined(separator: ", ") + "]"
    case .dictionary:
      guard !children.isEmpty else { return "[:]" }
      let pairs = children.map { child in
        Mirror(reflecting: child.value).children.map { expression($0.value) }
          .joined(separator: ": ")
      }
      return "[" + pairs.sorted().joined(separator: ", ") + "]"
    case .tuple:
      return "(" + arguments(children) + ")"
    case .enum:
      guard let payload = children.first else { return ".\(value)" }
      let name = ".\(payload.label ?? "")"
      let inner = Mirror(reflecting: payload.value)
      if inner.displayStyle == .tuple {
        return name + "(" + arguments(Array(inner.children)) + ")"
      }
      return name + "(" + expression(payload.value) + ")"
    case .struct, .class:
      return typeName(type(of: value)) + "(" + arguments(children) + ")"
    default:
      return "\(value)"
    }
  }

  /// `label: value, …`, without the labels reflection makes up for unlabeled tuple elements.
  private static func arguments(_ children: [Mirror.Child]) -> String {
    children.map { child in
      guard let label = child.label, !label.hasPrefix(".") else { return expression(child.value) }
      return "\(label): \(expression(child.value))"
    }.joined(separator: ", ")
  }

  /// The type's name as written in the module that declares it (`TodosStore.State`).
  static func typeName(_ type: Any.Type) -> String {
    let qualified = String(reflecting: type)
    guard let dot = qualified.firstIndex(of: ".") else { return qualified }
    return String(qualified[qualified.index(after: dot)...])
  }

  /// A number that reads back as exactly the same `Double`.
  private static func double(_ number: Double) -> String {
    if number.isNaN { return ".nan" }
    if number.isInfinite { return number < 0 ? "-.infinity" : ".infinity" }
    return "\(number)"
  }

  /// A string literal: characters that are invisible, combine with their neighbours or are not
  /// allowed in a literal are written as escapes.
  private static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case " ": result += " "
      default:
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .spacingMark, .enclosingMark, .lineSeparator,
          .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate, .unassigned:
          result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default:
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
