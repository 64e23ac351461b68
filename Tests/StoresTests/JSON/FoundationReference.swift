import Foundation
import Stores

/// What the store files were before the codec: a state's `Codable` form in the versioned
/// envelope, through `JSONEncoder` and `JSONDecoder` with the files' options and exact dates.
/// The codec must agree with it (but for empty arrays and objects, now `[]` and `{}`).
enum FoundationReference {
  private enum EnvelopeKey: String, CodingKey {
    case version
  }

  private struct Envelope<State: PersistentState>: Codable {
    var state: State

    init(state: State) {
      self.state = state
    }

    init(from decoder: any Decoder) throws {
      state = try State(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: EnvelopeKey.self)
      try container.encode(State.fileVersion, forKey: .version)
      try state.encode(to: encoder)
    }
  }

  /// The file `JSONEncoder` writes for `state`, with empty arrays and objects as `[]` and
  /// `{}`.
  static func file<State: PersistentState>(_ state: State) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      guard let text = ISO8601Timestamp.string(from: date) else {
        throw EncodingError.invalidValue(date, .init(codingPath: [], debugDescription: "year"))
      }
      try container.encode(text)
    }
    let text = String(decoding: try encoder.encode(Envelope(state: state)), as: UTF8.self)
    // JSONEncoder writes an empty container across two lines: `[`, an empty line, `]`.
    let empty = try Regex(#"([\[{])\n\n *([\]}])"#)
    return text.replacing(empty) { "\($0.output[1].substring!)\($0.output[2].substring!)" }
      + "\n"
  }

  /// The state `JSONDecoder` reads from `data` (a file of the current version).
  static func state<State: PersistentState>(_ data: Data) throws -> State {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601Timestamp.date(from: text) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: text)
      }
      return date
    }
    return try decoder.decode(Envelope<State>.self, from: data).state
  }
}
