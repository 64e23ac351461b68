import Foundation
import StoreTesting
import Testing

@testable import Stores

/// A store on `todos.json` in `folder`, stamping as the device `name`, whose file's versions
/// outside the folder are `versions`.
@MainActor
func deviceStore(
  _ name: String, in folder: URL, versions: ConflictVersions? = nil
) throws -> TodosStore {
  TodosStore(
    core: try TodosStore.fileCore(
      contentsOf: folder.appendingPathComponent("todos.json"),
      clock: HybridClock(device: DeviceID(Substring(name))!), versions: versions))
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
