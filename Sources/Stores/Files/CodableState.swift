import Foundation

/// A store state kept in a JSON file through its `Codable` form alone: no field is described
/// by hand.
///
/// ```swift
/// struct State: CodableState {
///   var readings: [Reading] = []  // Reading: Codable, Equatable, Sendable
/// }
/// // In the store: core = try ThermometerStore.fileCore(contentsOf: url)
/// ```
///
/// The file is the envelope every store file is, reached the same way: one JSON object with
/// `"version"` (``fileVersion``) beside the state's own top-level keys, and each action a
/// transaction on it — lock, reload when another process wrote, reduce, write a temporary
/// file, `fsync`, rename — so two processes never lose each other's writes, a crash leaves
/// the old file or the new one, and `watch()` and `refresh()` reload it (the store's core
/// comes from `fileCore(contentsOf:)`, as for a ``PersistentState``). Its bytes are those
/// `JSONEncoder` writes, with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`, for
/// the state with a `version` property, and a line break; every `Date` in it, however deep,
/// is an exact UTC ISO 8601 timestamp (`"2026-11-29T07:30:00.25Z"`), as in the package's
/// other files, so what was saved loads back equal.
///
/// **What a state must be.** Its top level is an object of keys: a state that encodes as a
/// list or a single value (an `Array`, an enumeration with a raw value, a custom
/// `encode(to:)` into a single-value container) is refused with a clear error when its store
/// opens — keep such a value in a property of a struct. `"version"` is the envelope's key: a
/// state that encodes a key `"version"` of its own is refused when its store opens, or by the
/// write that would hold one (nothing is written) — give that property another key in its
/// `CodingKeys`. The state never reads the envelope's version (a property of its own named
/// so stays as the state had it).
///
/// **Errors.** A file that is not valid is never overwritten: opening or acting fails with a
/// ``StoreFileError`` naming the file — `.malformedJSON` with the line and column of a syntax
/// error, `.invalidContent` with the key path of a value of the wrong type or missing
/// (`readings[3].celsius`, from `DecodingError`'s `codingPath`) and what was expected,
/// `.newerVersion` for a file of a later format. An error thrown by the state's own
/// `init(from:)` is reported with its description. Nothing traps.
///
/// **What it costs.** Encoding and decoding go through Foundation's `JSONEncoder` and
/// `JSONDecoder` — O(*n*) in the size of the file, at their speed (20–30 MB/s here) — and the
/// envelope adds little to them (finding the state's top-level keys, validating what is read).
/// An action encodes and writes the whole file: on 10,000 items of five fields, ≈ 80 ms. When
/// that matters, conform the state to ``PersistentState`` instead and describe its fields once
/// in ``JSONObjectCodable/jsonFields(_:)``: the same file, 4–7× faster to write and read for a
/// model of your own (see the Performance article).
///
/// **Keys it does not know.** A top-level key of the file that the state does not decode —
/// added by hand, or by a newer build of the app that kept the same ``fileVersion`` — is read
/// past, and gone from the file after the next action: the file holds what the state
/// encodes. Raise ``fileVersion`` when a build adds keys that an older build must not drop
/// (the older one then refuses the file rather than rewrite it).
///
/// **Devices.** A `CodableState` has no stamps, so the conflict copies a sync engine leaves
/// beside its file (`…sync-conflict-….json`) are not merged, nor read: they stay where the
/// engine put them, and the file holds the version the engine kept. Only the package's own
/// lists and settings, which stamp every field, merge them.
///
/// A state that conforms to both `CodableState` and ``PersistentState`` makes
/// `fileCore(contentsOf:)` ambiguous: conform to one.
public protocol CodableState: Codable, Equatable, Sendable {
  /// The state a missing file stands for.
  init()

  /// The file format version this code writes (1 by default). Files with a higher version
  /// are refused; files with a lower one are read through
  /// ``migrate(fromVersion:decoder:)``.
  static var fileVersion: Int { get }

  /// Reads a file written in the older format `version`, where version 0 is a file whose
  /// top level is not an object with a `"version"` key (say, a bare list written by hand or
  /// by an older tool). `decoder` decodes the file's whole top-level value — the object with
  /// its `"version"` for a version 1 or later — with the file's dates.
  ///
  /// The default implementation refuses every older version.
  static func migrate(fromVersion version: Int, decoder: any Decoder) throws -> Self

  /// Carries over from `previous`, the state in memory, what the state keeps only in memory
  /// (the properties its `CodingKeys` leave out), when the file is read again after another
  /// process changed it. The default keeps nothing.
  mutating func keepMemoryOnlyState(from previous: Self)
}

extension CodableState {
  public static var fileVersion: Int { 1 }

  public mutating func keepMemoryOnlyState(from previous: Self) {}

  public static func migrate(fromVersion version: Int, decoder: any Decoder) throws -> Self {
    throw JSONCodingError(
      version == 0
        ? "expected an object with a \"version\" key"
        : "file version \(version) is no longer supported")
  }
}

extension Store where State: CodableState {
  /// A core for a store kept in the JSON file at `url` through the state's `Codable` form,
  /// with the file's state (the empty state, `State()`, when there is no file), whose effects
  /// use `environment`, and whose actions wait at most `lockTimeout` for another process's
  /// lock. Reading the file creates nothing; the first action that changes the state writes
  /// it. See ``CodableState`` for the file and its errors.
  ///
  /// Opening encodes `State()` once, to refuse at once a state whose top level is not an
  /// object or that has a `"version"` key of its own; then it reads and decodes the file,
  /// O(*n*) in its size.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is not a valid file of
  ///   this state (the file is left untouched), or `.cannotEncode` when the state cannot be
  ///   written to such a file at all.
  public static func fileCore(
    contentsOf url: URL, environment: StoreEnvironment = .live,
    lockTimeout: Duration = .defaultLockTimeout
  ) throws(StoreFileError) -> StoreCore<Self> {
    let path = url.standardizedFileURL.path
    try CodableStateFile<State>.checkShape(path: path)
    let (file, state) = try JSONFileBacking<
      CodableStateFile<State>, NoSync<CodableStateFile<State>>
    >.open(
      url, lockTimeout: lockTimeout, clock: .local, versions: nil,
      coordination: Platform.fileCoordination(for:timeout:))
    return StoreCore(
      state: state.value, backing: CodableStateBacking(file), environment: environment)
  }
}

/// The backing of a store on a ``CodableState``: the file's own backing, whose state is the
/// store's state in its envelope (``CodableStateFile``). Each call is passed on, the state
/// wrapped and unwrapped on the way — O(1), no copy of what it holds.
final class CodableStateBacking<Value: CodableState>: StoreBacking, @unchecked Sendable {
  typealias File = JSONFileBacking<CodableStateFile<Value>, NoSync<CodableStateFile<Value>>>
  let file: File

  init(_ file: File) {
    self.file = file
  }

  func transaction(
    from current: Value, _ update: (inout Value) throws -> Bool
  ) throws -> BackingTransaction<Value>? {
    try file.transaction(from: CodableStateFile(current)) { try update(&$0.value) }.map {
      BackingTransaction(state: $0.state.value, reloaded: $0.reloaded, changed: $0.changed)
    }
  }

  func reloadIfChanged(from current: Value) throws -> Value? {
    try file.reloadIfChanged(from: CodableStateFile(current))?.value
  }

  func keepMemoryOnlyState(_ state: inout Value, from memory: Value) {
    var file = CodableStateFile(state)
    self.file.keepMemoryOnlyState(&file, from: CodableStateFile(memory))
    state = file.value
  }

  @MainActor func watch(onChange: @escaping @MainActor () -> Void) throws {
    try file.watch(onChange: onChange)
  }

  @MainActor func stopWatching() {
    file.stopWatching()
  }
}
