import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A store on `todos.json` in `folder`, stamping as the device `name`, whose wall clock runs
/// `ahead` milliseconds ahead (behind when negative), and whose file's versions outside the
/// folder are `versions`.
@MainActor
func deviceStore(
  _ name: String, in folder: URL, ahead: Int64 = 0, versions: ConflictVersions? = nil
) throws -> TodosStore {
  TodosStore(
    core: try TodosStore.fileCore(
      contentsOf: folder.appendingPathComponent("todos.json"),
      clock: HybridClock(device: DeviceID(Substring(name))!) {
        Int64(Date().timeIntervalSince1970 * 1000) + ahead
      }, versions: versions))
}

/// Rewrites the file at `url` as a program that does not stamp would: `edit` changes its
/// JSON object; the stamps stay as they were.
func editByHand(_ url: URL, _ edit: (inout [String: Any]) -> Void) throws {
  var object = try #require(
    try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  edit(&object)
  try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    .write(to: url)
}

/// Two versions of one file: the laptop's, in `laptopFolder`, where "Buy milk" was added, and
/// the phone's, in `phoneFolder`, a copy of it that `phoneEdits` changed. Returns the
/// laptop's store.
@MainActor
func divergedVersions(
  laptop laptopFolder: URL, phone phoneFolder: URL, phoneEdits: (TodosStore) throws -> Void
) throws -> TodosStore {
  let laptop = try deviceStore("laptop", in: laptopFolder)
  try laptop.trySend(.addTodo(Todo(title: "Buy milk")))
  try FileManager.default.createDirectory(at: phoneFolder, withIntermediateDirectories: true)
  try FileManager.default.copyItem(
    at: laptopFolder.appendingPathComponent("todos.json"),
    to: phoneFolder.appendingPathComponent("todos.json"))
  try phoneEdits(try deviceStore("phone", in: phoneFolder))
  return laptop
}

/// A suite whose devices keep their files in folders of their own below its `folder`.
protocol DeviceFolderSuite {
  var folder: TemporaryFolder { get }
}

extension DeviceFolderSuite {
  /// The folder `name` below the suite's folder, made if it is not there.
  func subfolder(_ name: String) throws -> URL {
    let url = folder.file(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The phone's folder, `phone` below the suite's folder, made if it is not there.
  func phoneFolder() throws -> URL {
    let phone = folder.file("phone")
    try FileManager.default.createDirectory(at: phone, withIntermediateDirectories: true)
    return phone
  }

  /// The name of the phone's conflict copy number `number` of `todos.json`, as Syncthing
  /// names one.
  func copyName(_ number: Int = 0) -> String {
    "todos.sync-conflict-20261201-1350\(10 + number)-PHONE12.json"
  }

  /// Puts `version` in place of the suite's `todos.json` as Syncthing does: a new file renamed
  /// over it.
  func engineRenames(_ version: URL) throws {
    let incoming = folder.file(".syncthing.todos.json.incoming.tmp")
    try FileManager.default.copyItem(at: version, to: incoming)
    #expect(rename(incoming.path, folder.file("todos.json").path) == 0)
  }

  /// Runs `body` while another process holds the lock of the suite's `todos.json`.
  func whileLocked(_ body: () throws -> Void) throws {
    let lock = open(folder.file("todos.json.lock").path, O_RDWR | O_CREAT, 0o600)
    defer { close(lock) }
    try #require(flock(lock, LOCK_EX) == 0)
    try body()
  }
}

extension StoreFileError {
  /// Whether this is a wait for a lock that timed out.
  var isLockTimeout: Bool {
    if case .lockTimedOut = problem { true } else { false }
  }
}
