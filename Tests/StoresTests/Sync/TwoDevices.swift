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
