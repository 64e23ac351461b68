import Foundation
import StoreTesting
import Testing

@testable import Stores

/// StoreTesting's seeded generator, so that every run sees the same inputs.
typealias SeededGenerator = SeededRandom

/// Decodes any JSON value with `JSONDecoder`, keeping nothing: used to ask Foundation whether it
/// accepts a text.
struct AnyDecodable: Decodable {
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      return
    }
    if (try? container.decode(Bool.self)) != nil {
      return
    }
    if (try? container.decode(Double.self)) != nil {
      return
    }
    if (try? container.decode(String.self)) != nil {
      return
    }
    if (try? container.decode([AnyDecodable].self)) != nil {
      return
    }
    _ = try container.decode([String: AnyDecodable].self)
  }
}

/// The error `JSONSyntax.validate` throws for `bytes`, or nil when it accepts them.
func validationError(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONSyntaxError? {
  do {
    try JSONSyntax.validate(Data(bytes), maxDepth: maxDepth)
    return nil
  } catch {
    return error
  }
}

/// The error `JSONSyntax.validate` throws for the UTF-8 of `text`, or nil when it accepts it.
func validationError(_ text: String, maxDepth: Int = 512) -> JSONSyntaxError? {
  validationError(Array(text.utf8), maxDepth: maxDepth)
}

/// Whether `JSONDecoder` decodes `bytes` as some JSON value.
func foundationAccepts(_ bytes: [UInt8]) -> Bool {
  (try? JSONDecoder().decode(AnyDecodable.self, from: Data(bytes))) != nil
}
