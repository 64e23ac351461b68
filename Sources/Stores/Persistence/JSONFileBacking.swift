import Foundation

/// A store's state kept in a JSON file, each action a transaction. The persistence of every
/// file-backed store.
///
/// An action on a store opened on a file runs as:
/// 1. take an exclusive lock on a lock file beside the data file (`todos.json.lock`);
/// 2. if the file changed since this backing last read or wrote it — told cheaply by its
///    identity (device, inode, size, modification and change times) — reload it first;
/// 3. run the reducer (actions are pure, so replaying one on fresher state is safe);
/// 4. if the state changed, write it to a new temporary file in the same folder, `fsync`,
///    rename it over the data file, `fsync` the folder;
/// 5. release the lock; the store then notifies its observers.
///
/// The first transaction of a backing also removes the temporary files that writers killed
/// in the middle of step 4 left behind.
///
/// So two processes never lose each other's updates, a crash leaves the old file or the
/// new one, never a torn one, and what an action returned from is on disk. When the file
/// did not change, a transaction neither reads nor decodes it.
///
/// Reading never creates or writes anything: a missing file is the empty state, and the
/// folder (`0700`), the lock file and the data file (`0600`, or the old file's
/// permissions) are created by the first write. A symbolic link is followed: its target is
/// read and replaced, the link stays (a link to a missing folder is not followed into it:
/// writing fails).
@MainActor
final class JSONFileBacking<State: PersistentState>: StoreBacking {
  /// The data file's path as given (the link, when it is one).
  let path: String
  /// The identity of the file as last read or written; `nil` when it was missing.
  private var identity: FileIdentity?
  private var watcher: FileWatcher?
  /// Whether this backing has removed the temporary files of crashed writers.
  private var removedStaleTemporaries = false
  /// The file's decoding and encoding, made where the backing is opened and `State` is
  /// known, so that they run specialised for it (the backing itself is called through
  /// `any StoreBacking`, where generic code would run unspecialised, many times slower).
  private let decode: (Data) throws(StoreFileError) -> State
  private let encode: (State, _ capacity: Int) throws(StoreFileError) -> Data

  private init(
    path: String, decode: @escaping (Data) throws(StoreFileError) -> State,
    encode: @escaping (State, Int) throws(StoreFileError) -> Data
  ) {
    self.path = path
    self.decode = decode
    self.encode = encode
  }

  /// Opens the file at `url` and reads its state (the empty state when there is no file).
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is not a valid file of
  ///   this state; the file is left untouched.
  static func open(_ url: URL) throws(StoreFileError) -> (JSONFileBacking, State) {
    let path = url.standardizedFileURL.path
    let backing = JSONFileBacking(
      path: path,
      decode: { data throws(StoreFileError) in try StateFileCoding.decode(data, path: path) },
      encode: { state, capacity throws(StoreFileError) in
        try StateFileCoding.encode(state, path: path, capacity: capacity)
      })
    let (state, identity) = try backing.read(FileSystem.resolvingSymbolicLinks(path))
    backing.identity = identity
    return (backing, state)
  }

  func transaction(
    from current: State, _ update: (inout State) -> Bool
  ) throws -> BackingTransaction<State>? {
    let target = FileSystem.resolvingSymbolicLinks(path)
    var state = current
    // Whether `update` changed `state`; nil while it has not run on it.
    var changed: Bool?
    if try FileSystem.identity(of: target) == identity {
      // The state in memory is the stored one: an action that changes nothing needs no
      // lock and no write, and so creates no file.
      changed = update(&state)
      guard changed == true else { return nil }
    }
    // The data folder is created, never a folder a link points into: a dangling link whose
    // target's folder is missing fails to write.
    try FileSystem.createFolder((path as NSString).deletingLastPathComponent, for: path)
    return try FileSystem.withExclusiveLock(on: target) { () throws(StoreFileError) in
      if !removedStaleTemporaries {
        FileSystem.removeStaleTemporaries(of: target)
        removedStaleTemporaries = true
      }
      var newIdentity = identity
      var reloaded = false
      if try FileSystem.identity(of: target) != identity {
        (state, newIdentity) = try read(target)
        reloaded = state != current
        changed = nil
      }
      let didChange = changed ?? update(&state)
      if didChange {
        // Room for the file it replaces and a little more: written without growing.
        let capacity = Int(newIdentity?.size ?? 0) * 9 / 8 + 4096
        newIdentity = try FileSystem.replace(target, with: encode(state, capacity))
      }
      identity = newIdentity
      guard didChange || reloaded else { return nil }
      return BackingTransaction(state: state, reloaded: reloaded, changed: didChange)
    }
  }

  func reloadIfChanged() throws -> State? {
    let target = FileSystem.resolvingSymbolicLinks(path)
    guard try FileSystem.identity(of: target) != identity else { return nil }
    let (state, newIdentity) = try read(target)
    identity = newIdentity
    return state
  }

  func watch(onChange: @escaping @MainActor () -> Void) throws {
    guard watcher == nil else { return }
    let target = FileSystem.resolvingSymbolicLinks(path)
    watcher = FileWatcher(path: target) { onChange() }
  }

  func stopWatching() {
    watcher = nil
  }

  /// The state stored at `target` (the empty state when there is no file) and its identity.
  private func read(_ target: String) throws(StoreFileError) -> (
    state: State, identity: FileIdentity?
  ) {
    guard let (data, identity) = try FileSystem.read(target) else { return (State(), nil) }
    return (try decode(data), identity)
  }
}

extension Store where State: PersistentState {
  /// A core for a store kept in the JSON file at `url`, with the file's state (the empty
  /// state when there is no file). Each store's `init(contentsOf:)` is built on it.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public static func fileCore(contentsOf url: URL) throws(StoreFileError) -> StoreCore<Self> {
    let (backing, state) = try JSONFileBacking<State>.open(url)
    return StoreCore(state: state, backing: backing)
  }
}
