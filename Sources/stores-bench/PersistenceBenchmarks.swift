import Foundation
import Stores

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// 5. Persistence against the bare work: decoding the file, and encoding plus an atomic,
// durable write.

/// The todos file as plain Codable values, dates left as text: the least a decoder must do.
struct BareTodosFile: Codable {
  struct Todo: Codable {
    var id: UUID
    var title: String
    var date: String
    var isDone: Bool
    var priority: Int
  }

  var todos: [Todo]
  var version: Int
}

@inline(never)
func bareDecode(_ url: URL) -> BareTodosFile {
  try! JSONDecoder().decode(BareTodosFile.self, from: Data(contentsOf: url))
}

/// What an action cannot avoid: encode the state, write a temporary file, `fsync`, rename.
@inline(never)
func bareSave(_ file: BareTodosFile, to url: URL) {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  let data = try! encoder.encode(file)
  let temporary = url.path + ".bare-tmp"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
  fsync(descriptor)
  close(descriptor)
  rename(temporary, url.path)
}

@MainActor
func persistenceBenchmarks(_ report: Report, quick: Bool) {
  let n = quick ? 2_000 : 100_000
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let url = folder.appendingPathComponent("todos.json")
  let bareURL = folder.appendingPathComponent("bare.json")
  let todos = sampleTodos(n)
  let bareFile = BareTodosFile(
    todos: todos.map {
      .init(
        id: $0.id, title: $0.title, date: ISO8601Timestamp.string(from: $0.date)!,
        isDone: $0.isDone, priority: $0.priority)
    },
    version: 1)
  bareSave(bareFile, to: url)
  precondition((try! TodosStore(contentsOf: url)).todos == todos)
  let firstID = todos[0].id

  report.compare(
    "open a file-backed TodosStore vs JSONDecoder", size: "\(count(n)) todos", goal: "≤ 1.3×",
    ours: Side("", prepare: { () }) { _ in blackHole(try! TodosStore(contentsOf: url)) },
    baseline: Side("(read + decode)", prepare: { () }) { _ in blackHole(bareDecode(url)) })

  let store = try! TodosStore(contentsOf: url)
  report.compare(
    "one action on a file-backed store vs encode + write", size: "\(count(n)) todos",
    goal: "≤ 1.3×",
    ours: Side("", prepare: { () }) { _ in try! store.trySend(.toggleTodo(id: firstID)) },
    baseline: Side("(encode, write, fsync, rename)", prepare: { () }) { _ in
      bareSave(bareFile, to: bareURL)
    })

  let other = try! TodosStore(contentsOf: url)
  report.compare(
    "an action after another process wrote vs one after none", size: "\(count(n)) todos",
    goal: "(the reload)",
    ours: Side("", prepare: { try! other.trySend(.toggleTodo(id: firstID)) }) { _ in
      try! store.trySend(.toggleTodo(id: firstID))
    },
    baseline: Side("(no reload)", prepare: { try! store.refresh() }) { _ in
      try! store.trySend(.toggleTodo(id: firstID))
    })
}
