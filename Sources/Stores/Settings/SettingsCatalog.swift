import Foundation

/// The key catalog: a file beside the settings file (`settings.keys.json` beside
/// `settings.json`) that describes the keys apps registered — so that another program on the
/// same file, such as `diary`, lists, reads, checks and resets an app's keys as its own.
///
/// ```json
/// {
///   "keys" : [
///     {
///       "allowed" : { "max" : 10, "min" : 0 },
///       "default" : 5,
///       "name" : "volume",
///       "summary" : "Volume",
///       "type" : "integer"
///     }
///   ],
///   "version" : 1
/// }
/// ```
///
/// Each entry is a ``SettingsKeyDescription``: `name`, `type` (a ``SettingKind``), `default`
/// (as the settings file stores it), `summary`, and when they apply `optional`,
/// `enumeration`, `allowed` (`{"min": …, "max": …}`, a list of values, or words), `rule`
/// (`true`: a rule of code only the app checks) and, for a value of type `json` whose type
/// tells it, `shape` (a ``SettingShape``: the fields of a `Codable` value and the kind of
/// each, an enumeration's cases, a list's elements). An entry without a shape — one an older
/// version wrote — is not checked beyond its type.
///
/// **Written by the app, only when it changes.** A `SettingsStore` opened on a file with
/// registered keys records them (see `SettingsStore.init(contentsOf:keys:lockTimeout:)`):
/// it reads the catalog, and writes it only when an entry of its keys is missing or differs
/// — the catalog is the union of what every program on the file registered (an app and its
/// widget, two versions of the app on two devices), each key as the last program that
/// registered it describes it, in the order first registered. Entries of other keys are kept
/// as they are, even those this version does not read. It is written as the settings file
/// is: under the settings file's lock (waiting at most a tenth of a second), to a temporary
/// file renamed over it, durably, `0600`. Also before the settings file exists — a store
/// that only reads records its keys, so that `diary` knows them — when the folder is there
/// and this process may write in it; never beside a settings file this process may not
/// write. A catalog that could not be written (no folder yet, the lock held, a link in its
/// place) is tried again after the store's next change; the app works the same without it.
///
/// **Read by others, never trusted.** ``read(besideSettingsAt:)`` never throws and never
/// writes: a catalog that is a link, not a regular file, larger than ``maxSize``, not JSON or
/// of another form is ignored, and so is each entry that is not valid (an unknown type, a
/// default not of its type, a name given twice or a built-in key's name) — with one
/// ``problem`` line.
///
/// On a folder a sync engine shares, each device's app writes the same bytes for the same
/// keys, so the engine has nothing to reconcile; two versions of the app that describe one
/// key differently make the catalog change as each opens. When two devices wrote it at once,
/// the next store that records its keys merges the engine's conflict copies of the catalog
/// (`settings.keys.sync-conflict-….json`; see `ConflictCopies`) into it — the union again —
/// and removes them once that is durable. Deleting the catalog is harmless: the app writes it
/// again when it next opens its store.
package struct SettingsCatalog: Equatable, Sendable {
  /// The keys described, in the catalog's order.
  package var keys: [SettingsKeyDescription]
  /// Why the catalog, or some of its entries, were ignored — one line — or `nil`.
  package var problem: String?

  /// The version of the catalogs this code writes and reads.
  static let version = 1
  /// The largest catalog read: 1 MB.
  package static let maxSize = 1 << 20

  /// The name of the catalog beside the settings file `name`: `settings.keys.json` beside
  /// `settings.json` (`prefs.keys.json` beside `prefs`).
  package static func fileName(forSettingsFile name: String) -> String {
    (name.hasSuffix(".json") ? String(name.dropLast(5)) : name) + ".keys.json"
  }

  /// The catalog beside the settings file at `url` (beside its target, when it is a link):
  /// no keys when there is none. Never throws, never writes; O(size of the catalog).
  package static func read(besideSettingsAt url: URL) -> SettingsCatalog {
    guard let place = try? Place(url),
      let folder = try? DataFolder(opening: place.folderPath, for: place.path)
    else { return SettingsCatalog(keys: []) }
    return SettingsCatalog(File.load(place.name, in: folder).content, name: place.name)
  }

  /// The catalog `data` holds, as the catalog file `name` (named in ``problem``). Never
  /// throws; O(size of `data`).
  package init(parsing data: Data, name: String) {
    self.init(Content(data), name: name)
  }

  /// The catalog of `content`, read from the file `name`.
  private init(_ content: Content, name: String) {
    switch content {
    case .missing: self.init(keys: [])
    case .invalid(let reason), .newer(let reason):
      self.init(keys: [], problem: "the key catalog \(name) is ignored: \(reason)")
    case .entries(let entries):
      var keys: [SettingsKeyDescription] = []
      var names: Set<KeyValues.Name> = Set(SettingsKeys.builtIn.map { KeyValues.Name($0.name) })
      var invalid: [String] = []
      for (index, entry) in entries.enumerated() {
        do throws(InvalidEntry) {
          let key = try SettingsKeyDescription(entry: entry)
          guard names.insert(KeyValues.Name(key.name)).inserted else {
            throw InvalidEntry("names a key described before, or a built-in one")
          }
          keys.append(key)
        } catch {
          invalid.append("entry \(index + 1)\(Self.named(entry)) \(error.reason)")
        }
      }
      guard let first = invalid.first else {
        self.init(keys: keys)
        return
      }
      let count = invalid.count == 1 ? "1 entry" : "\(invalid.count) entries"
      self.init(
        keys: keys,
        problem: "\(count) of the key catalog \(name) ignored: \(first)"
          + (invalid.count > 1 ? " (and \(invalid.count - 1) more)" : ""))
    }
  }

  private init(keys: [SettingsKeyDescription], problem: String? = nil) {
    self.keys = keys
    self.problem = problem
  }

  /// What a catalog file holds.
  private enum Content {
    case missing
    /// Not a catalog: why.
    case invalid(String)
    /// A catalog of a newer version, which this version neither reads nor writes: why.
    case newer(String)
    /// A catalog of this version: its entries, valid or not.
    case entries([JSONValue])

    /// The content of a catalog file whose bytes are `data`: at most ``maxSize`` of them,
    /// JSON, an object with `"version"` and `"keys"`.
    init(_ data: Data) {
      guard data.count <= SettingsCatalog.maxSize else {
        self = .invalid("it is larger than 1 MB")
        return
      }
      guard let json = JSONValue(parsing: data) else {
        self = .invalid("it is not valid JSON")
        return
      }
      guard case .object(let members) = json, case .number(let number)? = members["version"],
        let version = number.integer
      else {
        self = .invalid(#"it is not an object with a "version""#)
        return
      }
      guard version <= SettingsCatalog.version else {
        self = .newer(
          "it is of version \(version), newer than this version reads "
            + "(\(SettingsCatalog.version))")
        return
      }
      guard version == SettingsCatalog.version, case .array(let entries)? = members["keys"] else {
        self = .invalid(#"it is not {"version": 1, "keys": […]}"#)
        return
      }
      self = .entries(entries)
    }
  }

  /// ` ("theme")` for an entry with a name, for messages.
  private static func named(_ entry: JSONValue) -> String {
    guard case .object(let members) = entry, case .string(let name)? = members["name"] else {
      return ""
    }
    return " (\(JSONValue.string(name).shortDescription(40)))"
  }

  /// Brings the catalog beside the settings file at `url` up to date with `keys` (see
  /// ``SettingsCatalog``): writes it when an entry of `keys` is missing or differs, under the
  /// settings file's lock. O(size of the catalog).
  ///
  /// - Returns: Whether the catalog is up to date — also when it is not this version's to
  ///   write (a newer one); `false` when it is to be tried again, after a change of the
  ///   store: there is no folder for the settings file yet, or it could not be written.
  @discardableResult
  static func record(_ keys: [SettingsKeyDescription], besideSettingsAt url: URL) -> Bool {
    guard !keys.isEmpty else { return true }
    do {
      let place = try Place(url)
      // Only beside a settings file this process writes (root too respects a file made
      // read-only, as the store's writes do), or where it would: in the folder that is there
      // for it, when this process may write in it.
      var info = stat()
      if stat(place.target, &info) == 0 {
        guard info.st_mode & 0o222 != 0, access(place.target, W_OK) == 0 else { return false }
      } else {
        guard errno == ENOENT, access(place.folderPath, W_OK) == 0 else { return false }
      }
      let folder = try DataFolder(opening: place.folderPath, for: place.path)
      let copies = ConflictCopies.copies(of: place.name, inFolder: place.folderPath)
      guard File.load(place.name, in: folder).merging(keys) != nil || !copies.isEmpty else {
        return true
      }
      let settingsName = (place.target as NSString).lastPathComponent
      return try FileLock.withLock(
        of: settingsName, in: folder, timeout: .milliseconds(100), path: place.path
      ) { _ in
        FileSystem.removeStaleTemporaries(of: place.name, in: folder)
        let file = File.load(place.name, in: folder)
        // The copies a sync engine made of the catalog: their entries join the union.
        var merged: [String] = []
        var others: [JSONValue] = []
        for copy in ConflictCopies.copies(of: place.name, inFolder: place.folderPath) {
          guard case .entries(let entries) = File.load(copy, in: folder).content else { continue }
          others += entries
          merged.append(copy)
        }
        if let entries = file.merging(keys, others: others) {
          var writer = JSONWriter()
          let catalog = JSONValue.object([
            "keys": .array(entries), "version": .number(JSONNumber(Self.version)),
          ])
          try catalog.write(to: &writer)
          writer.writeLineBreak()
          let bytes = writer.finish()
          _ = try FileSystem.replace(
            place.name, in: folder, creating: file.identity == nil, replacing: file.identity,
            path: place.catalogPath
          ) { output in bytes.withUnsafeBytes { output.append($0) } }
        }
        // Only once their entries are durable are the copies removed.
        for copy in merged { unlinkat(folder.descriptor, copy, 0) }
        return true
      }
    } catch {
      return false
    }
  }

  /// Where a catalog is: beside the target of the settings file's path.
  private struct Place {
    /// The settings file's path, as given (named in errors).
    let path: String
    /// The settings file's path with its links followed.
    let target: String
    let folderPath: String
    /// The catalog's name in the folder.
    let name: String
    var catalogPath: String { (folderPath as NSString).appendingPathComponent(name) }

    init(_ url: URL) throws(StoreFileError) {
      path = url.standardizedFileURL.path
      target = try FileSystem.resolvingLinks(path)
      folderPath = (target as NSString).deletingLastPathComponent
      name = SettingsCatalog.fileName(forSettingsFile: (target as NSString).lastPathComponent)
    }
  }

  /// A catalog file as read.
  private struct File {
    var content: Content
    /// The identity of the file read, or `nil` when there is none (or it could not be
    /// opened).
    var identity: FileIdentity?

    /// The catalog `name` in `folder`: a regular file (a link is not followed), of at most
    /// ``SettingsCatalog/maxSize`` bytes.
    static func load(_ name: String, in folder: DataFolder) -> File {
      let path = (folder.path as NSString).appendingPathComponent(name)
      let opened: OpenFile
      do throws(StoreFileError) {
        guard let file = try OpenFile(name, in: folder.descriptor, path: path) else {
          return File(content: .missing)
        }
        opened = file
      } catch {
        if case .notARegularFile = error.problem {
          return File(content: .invalid("it is a link, or not a regular file"))
        }
        return File(content: .invalid("it cannot be read"))
      }
      guard opened.identity.size <= SettingsCatalog.maxSize else {
        return File(content: .invalid("it is larger than 1 MB"), identity: opened.identity)
      }
      guard let data = try? opened.contents(path: path) else {
        return File(content: .invalid("it cannot be read"), identity: opened.identity)
      }
      return File(content: Content(data), identity: opened.identity)
    }

    /// The entries of the catalog once `others` (those of its conflict copies) join it and
    /// `keys` are recorded in it, or `nil` when it already describes each as it is (or is of
    /// a newer version). Each key's entry replaces the first entry of its name, in place, or
    /// comes last; other entries that are objects stay as they are, and those of `others`
    /// whose names it lacks come after them; a repeat of a name goes. O(entries + keys).
    func merging(_ keys: [SettingsKeyDescription], others: [JSONValue] = []) -> [JSONValue]? {
      if case .newer = content { return nil }
      var entries: [JSONValue] = []
      if case .entries(let read) = content { entries = read }
      var index: [KeyValues.Name: Int] = [:]
      var merged: [JSONValue] = []
      for entry in entries + others {
        guard case .object(let members) = entry else { continue }
        if case .string(let name)? = members["name"] {
          guard index[KeyValues.Name(name)] == nil else { continue }
          index[KeyValues.Name(name)] = merged.count
        }
        merged.append(entry)
      }
      for key in keys {
        if let place = index[KeyValues.Name(key.name)] {
          merged[place] = key.json
        } else {
          index[KeyValues.Name(key.name)] = merged.count
          merged.append(key.json)
        }
      }
      if case .entries = content, merged == entries { return nil }
      return merged
    }
  }
}

/// Why a catalog entry is not a valid ``SettingsKeyDescription``.
package struct InvalidEntry: Error {
  package let reason: String

  init(_ reason: String) {
    self.reason = reason
  }
}

// MARK: - Entries

extension SettingsKeyDescription {
  /// The description as a catalog entry: `{"name", "type", "default", "summary"}`, with
  /// `"optional"`, `"enumeration"` and `"rule"` when true and `"allowed"` unless any value
  /// of the kind is.
  package var json: JSONValue {
    var members: [String: JSONValue] = [
      "name": .string(name), "type": .string(kind.rawValue), "default": defaultValue,
      "summary": .string(summary),
    ]
    if isOptional { members["optional"] = .bool(true) }
    if isEnumeration { members["enumeration"] = .bool(true) }
    if hasRule { members["rule"] = .bool(true) }
    if let shape { members["shape"] = shape.json }
    switch allowedValues {
    case .any: break
    case .range(let min, let max): members["allowed"] = .object(["min": min, "max": max])
    case .oneOf(let values): members["allowed"] = .array(values)
    case .described(let words): members["allowed"] = .string(words)
    }
    return .object(members)
  }

  /// The description a catalog entry holds.
  ///
  /// - Throws: ``InvalidEntry`` when it is not an object, lacks a name (or has an empty one),
  ///   a type this version knows or a default of that type, or has a field of the wrong
  ///   type — an allowed value not of the type, say.
  package init(entry: JSONValue) throws(InvalidEntry) {
    guard case .object(let members) = entry else { throw InvalidEntry("is not an object") }
    func flag(_ key: String) throws(InvalidEntry) -> Bool {
      switch members[key] {
      case nil: return false
      case .bool(let value)?: return value
      default: throw InvalidEntry("has \"\(key)\" that is not true or false")
      }
    }
    guard case .string(let name)? = members["name"], !name.isEmpty else {
      throw InvalidEntry("has no name")
    }
    guard case .string(let type)? = members["type"], let kind = SettingKind(rawValue: type) else {
      throw InvalidEntry(
        "has a \"type\" that is not one of "
          + SettingKind.allCases.map(\.rawValue).joined(separator: ", "))
    }
    var summary = ""
    switch members["summary"] {
    case nil: break
    case .string(let text)?: summary = text
    default: throw InvalidEntry("has a summary that is not text")
    }
    guard let defaultValue = members["default"] else { throw InvalidEntry("has no default") }
    self.init(
      name: name, kind: kind, isOptional: try flag("optional"),
      isEnumeration: try flag("enumeration"), defaultValue: defaultValue, summary: summary,
      hasRule: try flag("rule"), shape: members["shape"].map(SettingShape.init(json:)))
    guard isOfKind(defaultValue) else {
      throw InvalidEntry("has a default that is not \(expected)")
    }
    // A shape its default does not fit is not the key's: not checked.
    if let shape, defaultValue != .null, shape.problem(with: defaultValue) != nil {
      self.shape = nil
    }
    switch members["allowed"] {
    case nil: allowedValues = .any
    case .string(let words)?: allowedValues = .described(words)
    case .array(let values)?:
      guard values.allSatisfy(isOfKind) else {
        throw InvalidEntry("allows a value that is not \(expected)")
      }
      allowedValues = .oneOf(values)
    case .object(let bounds)?:
      guard bounds.count == 2, let min = bounds["min"], let max = bounds["max"],
        isOfKind(min), isOfKind(max), min != .null, max != .null
      else { throw InvalidEntry(#"has "allowed" that is not {"min": …, "max": …} of its type"#) }
      allowedValues = .range(min: min, max: max)
    default: throw InvalidEntry(#"has "allowed" that is neither a list, a range nor words"#)
    }
  }
}
