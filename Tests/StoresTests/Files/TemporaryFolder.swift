import Foundation
import StoreTesting
import Testing

@testable import Stores

/// The bytes of the file at `url`, or `nil` when there is none.
func contents(_ url: URL) -> Data? {
  try? Data(contentsOf: url)
}

/// The text of the file at `url`, or `nil` when there is none.
func text(_ url: URL) -> String? {
  contents(url).map { String(decoding: $0, as: UTF8.self) }
}

/// The permission bits of the file at `url`.
func permissions(_ url: URL) -> Int {
  var info = stat()
  guard stat(url.path, &info) == 0 else { return -1 }
  return Int(info.st_mode & 0o7777)
}

/// Makes `folder` refuse new files, or records an issue when it cannot on this machine.
func makeReadOnly(_ folder: URL, sourceLocation: SourceLocation = #_sourceLocation) {
  if !TemporaryFolder.makeReadOnly(folder) {
    Issue.record("cannot make \(folder.path) read-only here", sourceLocation: sourceLocation)
  }
}

/// The repository's `Fixtures` folder.
let fixturesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Fixtures")

extension TemporaryFolder {
  /// Copies the fixture at `path` (relative to `Fixtures/`) into the folder as `name`.
  @discardableResult
  func copy(fixture path: String, as name: String? = nil) -> URL {
    copy(fixturesFolder.appendingPathComponent(path), as: name)
  }
}

/// The settings file at `url` as its values alone would be written, without the stamps of
/// its sync section (as a version 1 file): what the tests of values compare.
func settingsText(_ url: URL) -> String? {
  guard let data = contents(url),
    let state: KeyValues = try? StateFileCoding.decode(data, path: url.path)
  else { return nil }
  return try? codecFile(state)
}

extension TemporaryFolder {
  /// A todos store on the file `name` in the folder, saving in the background.
  @MainActor
  func backgroundTodosStore(_ name: String) throws -> TodosStore {
    let store = try TodosStore(contentsOf: file(name))
    store.saveMode = .inBackground
    return store
  }

  /// A todos store on `data/todos.json` in the folder, saving in the background, and the
  /// folder `data`: for tests that make that folder refuse writes.
  @MainActor
  func backgroundTodosStoreInFolderOfItsOwn() throws -> (TodosStore, URL) {
    let data = file("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    return (try backgroundTodosStore("data/todos.json"), data)
  }

  /// The todos in the file `name` in the folder, read by a new store.
  @MainActor
  func todos(in name: String) throws -> [Todo] {
    try TodosStore(contentsOf: file(name)).todos
  }
}
