/// A value that could not be read from a store file or written to one: where it is, as a key
/// path such as `todos[3].priority`, and what is wrong.
///
/// The place is collected while the error travels up from where it happened: each object
/// adds its key and each array its index, so finding nothing wrong costs nothing.
public struct JSONCodingError: Error, Equatable, Sendable {
  /// One step of a key path: a key of an object or an index in an array.
  package enum PathComponent: Equatable, Sendable {
    case key(String)
    case index(Int)
  }

  /// What kind of problem it is.
  public enum Kind: Equatable, Sendable {
    /// The value has the wrong JSON type (a string where a number belongs, say).
    case typeMismatch
    /// A required key is missing from its object.
    case missingKey
    /// Anything else: a value out of range, a date that is not one, a rule of the model.
    case invalidValue
  }

  /// The place, outermost first; empty for the whole document.
  package private(set) var path: [PathComponent]
  /// The problem and what was expected, such as `expected a whole number, found 1.5`.
  public var detail: String
  /// What kind of problem it is.
  public var kind: Kind

  /// A problem with the value being read or written (the place is added as the error travels up).
  public init(_ detail: String, kind: Kind = .invalidValue) {
    self.path = []
    self.detail = detail
    self.kind = kind
  }

  /// A problem with the member `key` of the object being read or written.
  public init(key: String, _ detail: String, kind: Kind = .invalidValue) {
    self.init(detail, kind: kind)
    path = [.key(key)]
  }

  /// The same error, one level further out: inside `component`.
  package func at(_ component: PathComponent) -> Self {
    var error = self
    error.path.insert(component, at: 0)
    return error
  }

  /// The path as people read it: `todos[3].priority`; empty for the whole document.
  package var keyPath: String {
    var result = ""
    for component in path {
      switch component {
      case .key(let key): result += (result.isEmpty ? "" : ".") + key
      case .index(let index): result += "[\(index)]"
      }
    }
    return result
  }
}
