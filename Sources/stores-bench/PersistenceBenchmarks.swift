import Foundation
import Stores

// 5. Persistence against the physical limit — reading the file's bytes, and replacing them
// durably — and against Foundation's JSONEncoder and JSONDecoder on the same file.

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

/// `JSONEncoder` with the options of the store files, dates already text.
@inline(never)
func bareEncode(_ file: BareTodosFile) -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  return try! encoder.encode(file)
}

/// What an action cannot avoid: encode the state, write a temporary file, `fsync`, rename.
@inline(never)
func bareSave(_ file: BareTodosFile, to url: URL) {
  let data = bareEncode(file)
  let temporary = url.path + ".bare-tmp"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
  fsync(descriptor)
  close(descriptor)
  rename(temporary, url.path)
}

/// The physical limit of an action on a file: replacing its bytes durably — a temporary
/// file in the same folder, `write`, `fsync`, `rename` over the file, `fsync` the folder.
@inline(never)
func durableReplace(_ bytes: [UInt8], at url: URL) {
  let temporary = url.path + ".limit-tmp"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeBytes {
      write(descriptor, $0.baseAddress! + offset, $0.count - offset)
    }
    precondition(written > 0, "cannot write \(temporary)")
    offset += written
  }
  fsync(descriptor)
  close(descriptor)
  rename(temporary, url.path)
  let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  fsync(folder)
  close(folder)
}

/// ``durableReplace(_:at:)`` with the bytes written as a file-backed store writes them: in
/// parts, each sent on to the disk at once (`FileOutput`), so that the `fsync` has less to do.
@inline(never)
func streamedReplace(_ bytes: [UInt8], at url: URL) {
  let temporary = url.path + ".limit-tmp"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  let output = FileOutput(descriptor)
  bytes.withUnsafeBytes { all in
    for start in stride(from: 0, to: all.count, by: FileOutput.partSize) {
      output.append(
        UnsafeRawBufferPointer(rebasing: all[start..<min(start + FileOutput.partSize, all.count)]))
    }
  }
  precondition(output.failure == 0, "cannot write \(temporary)")
  fsync(descriptor)
  close(descriptor)
  rename(temporary, url.path)
  let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  fsync(folder)
  close(folder)
}

/// The file of `state` in format 2, as a store on several devices writes it: each todo added
/// by an action of its own, a minute apart, every tenth toggled since, with the digests of
/// every todo's id and fields beside its stamps.
func stampedTodosFile(_ state: TodosStore.State) -> Data {
  let device = DeviceID(Substring("phone"))!
  let now: Int64 = 1_764_600_000_000
  let count = state.todos.count
  let positions = Position.keys(count, between: nil, and: nil)
  let stamps = (0..<count).map { index in
    let added = Stamp(milliseconds: now - Int64(count - index) * 60_000, device: device)
    var fields = FieldStamps(repeating: added, count: 4)
    if index.isMultiple(of: 10) { fields[1] = Stamp(milliseconds: now, device: device) }
    return ItemStamps(fields: fields, position: positions[index], positioned: added)
  }
  let sync = ListSync<TodosStore.State>(items: stamps, removed: [:], state: [])
  return try! StateFileCoding.encode(state, sync: sync, path: "stamped.json")
}

/// The physical limit of opening a file: reading its bytes into memory.
@inline(never)
func readBytes(_ url: URL) -> [UInt8] {
  let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
  defer { close(descriptor) }
  var info = stat()
  fstat(descriptor, &info)
  var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
  var count = 0
  while count < bytes.count {
    let got = bytes.withUnsafeMutableBytes {
      read(descriptor, $0.baseAddress! + count, $0.count - count)
    }
    precondition(got > 0, "cannot read \(url.path)")
    count += got
  }
  return bytes
}

@MainActor
func persistenceBenchmarks(_ report: Report, quick: Bool) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }

  for n in quick ? [1000] : [1000, 10_000] {
    let url = folder.appendingPathComponent("todos-\(n).json")
    let limitURL = folder.appendingPathComponent("limit-\(n).json")
    let todos = sampleTodos(n)
    let firstID = todos[0].id
    try! StateFileCoding.encode(TodosStore.State(todos: todos), path: url.path)
      .write(to: url)
    let fileStore = try! TodosStore(contentsOf: url)
    precondition(fileStore.todos == todos)
    // The limit is that of the bytes the store writes: with the stamps its first action adds
    // (their size is the line "stamps, digests and tombstones: the file's size").
    try! fileStore.trySend(.toggleTodo(id: firstID))
    let bytes = readBytes(url)
    report.compare(
      "one action on a file-backed store vs replacing its bytes durably",
      size: "\(count(n)) todos", goal: "≤ 1.5×", times: 21,
      ours: Side("", prepare: { () }) { _ in try! fileStore.trySend(.toggleTodo(id: firstID)) },
      baseline: Side("(write, fsync, rename, fsync folder)", prepare: { () }) { _ in
        durableReplace(bytes, at: limitURL)
      })
    report.compare(
      "one action on a file-backed store vs replacing its bytes as it does",
      size: "\(count(n)) todos",
      goal: "(the encoding's cost)", times: 21,
      ours: Side("", prepare: { () }) { _ in try! fileStore.trySend(.toggleTodo(id: firstID)) },
      baseline: Side("(the same, streamed in parts)", prepare: { () }) {
        _ in streamedReplace(bytes, at: limitURL)
      })
  }

  let n = quick ? 2_000 : 100_000
  let url = folder.appendingPathComponent("todos.json")
  let bareURL = folder.appendingPathComponent("bare.json")
  let todos = sampleTodos(n)
  let state = TodosStore.State(todos: todos)
  let bareFile = BareTodosFile(
    todos: todos.map {
      .init(
        id: $0.id, title: $0.title, date: ISO8601Timestamp.string(from: $0.date)!,
        isDone: $0.isDone, priority: $0.priority)
    },
    version: 1)
  bareSave(bareFile, to: url)
  // Written seconds before it is opened, as `url` is: a file changed in the last seconds is
  // hashed when read (see `FileVersion`), which would weigh on one side only.
  let stampedURL = folder.appendingPathComponent("stamped.json")
  try! stampedTodosFile(state).write(to: stampedURL)
  let data = try! Data(contentsOf: url)
  // The state's own fields, as a version 1 file holds them: what JSONEncoder writes too.
  let withoutStamps = NoSync(unstamped: state)
  precondition(
    try! StateFileCoding.encode(state, sync: withoutStamps, path: url.path) == data + [0x0A])
  precondition((try! TodosStore(contentsOf: url)).todos == todos)
  precondition((try! TodosStore(contentsOf: stampedURL)).todos == todos)
  let firstID = todos[0].id

  report.compare(
    "encode a todos file vs JSONEncoder", size: "\(count(n)) todos", goal: "≤ 0.2× (≥ 5× MB/s)",
    bytes: data.count,
    ours: Side("", prepare: { () }) { _ in
      blackHole(try! StateFileCoding.encode(state, sync: withoutStamps, path: url.path))
    },
    baseline: Side("(JSONEncoder, dates as text)", prepare: { () }) { _ in
      blackHole(bareEncode(bareFile))
    })
  report.compare(
    "decode a todos file vs JSONDecoder", size: "\(count(n)) todos",
    goal: "≤ 0.33× (≥ 3× MB/s)", bytes: data.count,
    ours: Side("", prepare: { () }) { _ in
      let decoded: TodosStore.State = try! StateFileCoding.decode(data, path: url.path)
      blackHole(decoded)
    },
    baseline: Side("(JSONDecoder, dates as text)", prepare: { () }) { _ in
      blackHole(try! JSONDecoder().decode(BareTodosFile.self, from: data))
    })
  report.compare(
    "open a file-backed TodosStore vs JSONDecoder", size: "\(count(n)) todos", goal: "≤ 0.5×",
    ours: Side("", prepare: { () }) { _ in blackHole(try! TodosStore(contentsOf: url)) },
    baseline: Side("(read + decode)", prepare: { () }) { _ in blackHole(bareDecode(url)) })
  report.compare(
    "open a format-2 TodosStore vs the same todos in format 1", size: "\(count(n)) todos",
    goal: "≤ 1.2×",
    ours: Side("", prepare: { () }) { _ in blackHole(try! TodosStore(contentsOf: stampedURL)) },
    baseline: Side("(format 1: no stamps)", prepare: { () }) { _ in
      blackHole(try! TodosStore(contentsOf: url))
    })
  report.compare(
    "open a file-backed TodosStore vs reading its bytes", size: "\(count(n)) todos",
    goal: "(the limit)", bytes: data.count,
    ours: Side("", prepare: { () }) { _ in blackHole(try! TodosStore(contentsOf: url)) },
    baseline: Side("(open, read, close)", prepare: { () }) { _ in blackHole(readBytes(url)) })

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
