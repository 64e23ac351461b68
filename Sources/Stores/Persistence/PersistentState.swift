import Foundation

/// A store state that can live in a JSON file.
///
/// The file is a versioned envelope: one JSON object holding `"version"` and the state's
/// own keys, pretty-printed with sorted keys so that it reads well and diffs well:
///
/// ```json
/// {
///   "sortType" : "distance",
///   "version" : 1,
///   "workouts" : [ … ]
/// }
/// ```
///
/// Dates are UTC ISO 8601 strings with as many fractional digits as an exact round trip
/// needs (see ``ISO8601Timestamp``), so loading what was saved gives back an equal state.
public protocol PersistentState: Codable, Equatable, Sendable {
  /// The state a missing file stands for.
  init()

  /// The file format version this code writes. Files with a higher version are refused;
  /// files with a lower one are read through ``migrate(fromVersion:decoder:)``.
  static var fileVersion: Int { get }

  /// Reads a file written in the older format `version`, where version 0 is a file whose
  /// top level is not an object with a `"version"` key (say, a bare list of items written
  /// by hand or by an older tool).
  ///
  /// The default implementation refuses every older version.
  static func migrate(fromVersion version: Int, decoder: any Decoder) throws -> Self

  /// Carries over from `previous`, the state in memory, what the state keeps only in memory
  /// (not in its file), when the file is read again after another process changed it. The
  /// default keeps nothing: for states that are all in their file.
  mutating func keepMemoryOnlyState(from previous: Self)
}

extension PersistentState {
  public static var fileVersion: Int { 1 }

  public mutating func keepMemoryOnlyState(from previous: Self) {}

  public static func migrate(fromVersion version: Int, decoder: any Decoder) throws -> Self {
    throw DecodingError.dataCorrupted(
      .init(
        codingPath: [],
        debugDescription: version == 0
          ? "expected an object with a \"version\" key"
          : "file version \(version) is no longer supported"))
  }
}

/// Reads and writes the versioned envelope of a ``PersistentState``.
package enum StateFileCoding {
  private enum EnvelopeKey: String, CodingKey {
    case version
  }

  /// The envelope on the way out: `"version"` beside the state's own keys.
  private struct EncodedEnvelope<State: PersistentState>: Encodable {
    let state: State

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: EnvelopeKey.self)
      try container.encode(State.fileVersion, forKey: .version)
      try state.encode(to: encoder)
    }
  }

  /// The envelope on the way in, migrating older versions and refusing newer ones.
  private struct DecodedEnvelope<State: PersistentState>: Decodable {
    let state: State

    init(from decoder: any Decoder) throws {
      guard let container = try? decoder.container(keyedBy: EnvelopeKey.self) else {
        state = try State.migrate(fromVersion: 0, decoder: decoder)
        return
      }
      guard container.contains(.version) else {
        // An object without a version: version 0 if the state reads one, else say what is
        // missing (rather than that the file is not a version-0 list).
        do {
          state = try State.migrate(fromVersion: 0, decoder: decoder)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
          throw DecodingError.keyNotFound(
            EnvelopeKey.version, .init(codingPath: [], debugDescription: ""))
        }
        return
      }
      guard let version = try? container.decode(Int.self, forKey: .version), version >= 0 else {
        throw DecodingError.dataCorruptedError(
          forKey: .version, in: container, debugDescription: "expected a whole number 0 or more")
      }
      if version == State.fileVersion {
        state = try State(from: decoder)
      } else if version > State.fileVersion {
        throw NewerVersion(found: version)
      } else {
        do {
          state = try State.migrate(fromVersion: version, decoder: decoder)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
          throw DecodingError.dataCorruptedError(
            forKey: .version, in: container,
            debugDescription:
              "a file of version \(version) is a bare list, not an object; "
              + "write \"version\": \(State.fileVersion)")
        }
      }
    }
  }

  private struct NewerVersion: Error {
    let found: Int
  }

  /// Decodes the state in `data`, the content of the file at `path`.
  ///
  /// - Throws: ``StoreFileError`` naming `path`: `.malformedJSON` with the line and column
  ///   of the first syntax error (an empty file is one), `.invalidContent` with the key path
  ///   of a value of the wrong type or out of range, `.newerVersion`.
  package static func decode<State: PersistentState>(
    _ data: Data, path: String
  ) throws(StoreFileError) -> State {
    do {
      try JSONSyntax.validate(data)
    } catch {
      throw StoreFileError(
        path: path,
        problem: .malformedJSON(line: error.line, column: error.column, detail: error.message))
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = ISO8601Timestamp.date(from: text) else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription:
            "expected a date such as \"2026-11-29T07:30:00Z\", found \(quoted(text))")
      }
      return date
    }
    do {
      return try decoder.decode(DecodedEnvelope<State>.self, from: data).state
    } catch let error as NewerVersion {
      throw StoreFileError(
        path: path, problem: .newerVersion(found: error.found, supported: State.fileVersion))
    } catch let error as DecodingError {
      let (keyPath, detail) = describe(error)
      throw StoreFileError(path: path, problem: .invalidContent(keyPath: keyPath, detail: detail))
    } catch {
      throw StoreFileError(
        path: path, problem: .invalidContent(keyPath: "", detail: "\(error)"))
    }
  }

  /// The file content for `state`: the envelope, pretty-printed with sorted keys.
  ///
  /// - Throws: ``StoreFileError`` `.cannotEncode` when a value cannot be written, such as
  ///   a date outside the years 1…9999.
  package static func encode<State: PersistentState>(
    _ state: State, path: String
  ) throws(StoreFileError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      guard let text = ISO8601Timestamp.string(from: date) else {
        throw EncodingError.invalidValue(
          date,
          .init(
            codingPath: encoder.codingPath,
            debugDescription: "its year is outside 1…9999"))
      }
      var container = encoder.singleValueContainer()
      try container.encode(text)
    }
    do {
      var data = try encoder.encode(EncodedEnvelope(state: state))
      data.append(UInt8(ascii: "\n"))
      return data
    } catch let EncodingError.invalidValue(_, context) {
      throw StoreFileError(
        path: path,
        problem: .cannotEncode(
          keyPath: keyPath(context.codingPath), detail: context.debugDescription))
    } catch {
      throw StoreFileError(path: path, problem: .cannotEncode(keyPath: "", detail: "\(error)"))
    }
  }

  /// The place and the problem of a decoding error, in words.
  private static func describe(_ error: DecodingError) -> (keyPath: String, detail: String) {
    switch error {
    case .typeMismatch(let type, let context):
      return (keyPath(context.codingPath), "expected \(typeName(type)), found \(found(context))")
    case .valueNotFound(let type, let context):
      return (keyPath(context.codingPath), "expected \(typeName(type)), found null")
    case .keyNotFound(let key, let context):
      return (keyPath(context.codingPath), "missing key \"\(key.stringValue)\"")
    case .dataCorrupted(let context):
      return (keyPath(context.codingPath), context.debugDescription)
    @unknown default:
      return ("", "\(error)")
    }
  }

  /// `todos[3].priority` for a coding path.
  static func keyPath(_ path: [any CodingKey]) -> String {
    var result = ""
    for key in path {
      if let index = key.intValue {
        result += "[\(index)]"
      } else {
        result += (result.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return result
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is Bool.Type: "true or false"
    case is String.Type: "a string"
    case is Double.Type, is Float.Type: "a number"
    case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: "a whole number"
    case is [String: Any].Type: "an object"
    default:
      String(describing: type).hasPrefix("Array<")
        ? "a list" : String(describing: type).hasPrefix("Dictionary<") ? "an object" : "\(type)"
    }
  }

  /// What Foundation says it found instead, from "… but found a string instead."
  private static func found(_ context: DecodingError.Context) -> String {
    let text = context.debugDescription
    guard let range = text.range(of: "but found ") else { return "something else" }
    let found = text[range.upperBound...].replacingOccurrences(of: " instead.", with: "")
    switch found {
    case "number": return "a number"
    case "bool", "a bool": return "true or false"
    case "a dictionary", "dictionary": return "an object"
    case "an array", "array": return "a list"
    default: return found
    }
  }
}
