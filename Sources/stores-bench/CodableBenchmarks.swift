import Foundation
import Observation
import Stores

// 10. A store of one's own through Codable (`CodableState`) against the same model with its
// fields described once (`PersistentState`, `jsonFields`): what the fast path saves, and what
// the envelope adds to Foundation's coders.

/// An item of a store of one's own: the fields of a todo, `Codable` and described once.
struct BenchItem: Codable, Equatable, Sendable, JSONObjectCodable {
  var id: UUID
  var title: String
  var date: Date
  var isDone: Bool
  var priority: Int

  static func jsonFields<Coder: JSONFieldCoder<BenchItem> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let date = try coder.field("date", \.date)
    let id = try coder.field("id", \.id)
    let isDone = try coder.field("isDone", \.isDone)
    let priority = try coder.field("priority", \.priority)
    let title = try coder.field("title", \.title)
    return try coder.object {
      BenchItem(id: id, title: title, date: date, isDone: isDone, priority: priority)
    }
  }
}

/// The items through `Codable` alone.
struct CodableItems: CodableState {
  var items: [BenchItem] = []
}

/// The same items, their fields described once: the fast path.
struct FieldItems: PersistentState {
  var items: [BenchItem] = []

  static func jsonFields<Coder: JSONFieldCoder<FieldItems> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let items = try coder.field("items", \.items)
    return try coder.object { FieldItems(items: items) }
  }
}

/// A store of one's own on either state, whose action toggles an item.
@MainActor @Observable
final class ItemsStore<State: Equatable & Sendable & ItemsState>: Store {
  enum Action: Sendable { case toggle(Int) }

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    guard case .toggle(let index) = action, state.items.indices.contains(index) else {
      return false
    }
    state.items[index].isDone.toggle()
    return true
  }

  @ObservationIgnored let core: StoreCore<ItemsStore>

  init(core: (ItemsStore.Type) throws -> StoreCore<ItemsStore>) rethrows {
    self.core = try core(ItemsStore.self)
  }
}

/// A state holding items.
protocol ItemsState {
  var items: [BenchItem] { get set }
}

extension CodableItems: ItemsState {}
extension FieldItems: ItemsState {}

/// `n` items, as `sampleTodos` makes todos.
func sampleItems(_ n: Int) -> [BenchItem] {
  sampleTodos(n).map {
    BenchItem(id: $0.id, title: $0.title, date: $0.date, isDone: $0.isDone, priority: $0.priority)
  }
}

/// `JSONEncoder` with the store files' options and dates, alone: no envelope.
@inline(never)
func foundationEncode(_ state: CodableItems) -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  encoder.dateEncodingStrategy = .custom { date, encoder in
    var container = encoder.singleValueContainer()
    try container.encode(ISO8601Timestamp.string(from: date)!)
  }
  return try! encoder.encode(state)
}

/// `JSONDecoder` with the store files' dates, alone: no validation, no envelope.
@inline(never)
func foundationDecode(_ data: Data) -> CodableItems {
  let decoder = JSONDecoder()
  decoder.dateDecodingStrategy = .custom { decoder in
    ISO8601Timestamp.date(from: try decoder.singleValueContainer().decode(String.self))!
  }
  return try! decoder.decode(CodableItems.self, from: data)
}

@MainActor
func codableBenchmarks(_ report: Report, quick: Bool) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }

  for n in quick ? [1000] : [10_000, 100_000] {
    let items = sampleItems(n)
    let codable = CodableStateFile(CodableItems(items: items))
    let fields = FieldItems(items: items)
    let data = try! StateFileCoding.encode(codable, path: "items.json")
    // The same file either way.
    precondition(try! StateFileCoding.encode(fields, path: "items.json") == data)
    let size = "\(count(n)) items"
    report.compare(
      "encode a Codable state vs the same model's jsonFields", size: size,
      goal: "(what jsonFields saves)", bytes: data.count,
      ours: Side("", prepare: { () }) { _ in
        blackHole(try! StateFileCoding.encode(codable, path: "items.json"))
      },
      baseline: Side("(jsonFields)", prepare: { () }) { _ in
        blackHole(try! StateFileCoding.encode(fields, path: "items.json"))
      })
    report.compare(
      "decode a Codable state vs the same model's jsonFields", size: size,
      goal: "(what jsonFields saves)", bytes: data.count,
      ours: Side("", prepare: { () }) { _ in
        let state: CodableStateFile<CodableItems> = try! StateFileCoding.decode(
          data, path: "items.json")
        blackHole(state)
      },
      baseline: Side("(jsonFields)", prepare: { () }) { _ in
        let state: FieldItems = try! StateFileCoding.decode(data, path: "items.json")
        blackHole(state)
      })
    // The package's todos, the same fields, coded by the same generic code specialised
    // for them inside the package: what a model in another module does not get.
    let todos = TodosStore.State(todos: sampleTodos(n))
    let unstamped = NoSync(unstamped: todos)
    precondition(
      try! StateFileCoding.encode(todos, sync: unstamped, path: "todos.json").count
        == data.count)
    report.compare(
      "encode the same model's jsonFields vs the package's own todos", size: size,
      goal: "(specialised in the package)", bytes: data.count,
      ours: Side("", prepare: { () }) { _ in
        blackHole(try! StateFileCoding.encode(fields, path: "items.json"))
      },
      baseline: Side("(TodosStore.State, version 1)", prepare: { () }) { _ in
        blackHole(try! StateFileCoding.encode(todos, sync: unstamped, path: "todos.json"))
      })
    report.compare(
      "encode a Codable state vs JSONEncoder alone", size: size, goal: "≈ 1× (the envelope)",
      ours: Side("", prepare: { () }) { _ in
        blackHole(try! StateFileCoding.encode(codable, path: "items.json"))
      },
      baseline: Side("(JSONEncoder, same options and dates)", prepare: { () }) { _ in
        blackHole(foundationEncode(codable.value))
      })
    report.compare(
      "decode a Codable state vs JSONDecoder alone", size: size,
      goal: "≈ 1× (validation, the envelope)",
      ours: Side("", prepare: { () }) { _ in
        let state: CodableStateFile<CodableItems> = try! StateFileCoding.decode(
          data, path: "items.json")
        blackHole(state)
      },
      baseline: Side("(JSONDecoder, same dates)", prepare: { () }) { _ in
        blackHole(foundationDecode(data))
      })
  }

  let n = quick ? 1000 : 10_000
  let items = sampleItems(n)
  let codableURL = folder.appendingPathComponent("codable.json")
  let fieldsURL = folder.appendingPathComponent("fields.json")
  let codableStore = try! ItemsStore<CodableItems> { try $0.fileCore(contentsOf: codableURL) }
  let fieldsStore = try! ItemsStore<FieldItems> { try $0.fileCore(contentsOf: fieldsURL) }
  try! StateFileCoding.encode(CodableStateFile(CodableItems(items: items)), path: "")
    .write(to: codableURL)
  try! StateFileCoding.encode(FieldItems(items: items), path: "").write(to: fieldsURL)
  try! codableStore.refresh()
  try! fieldsStore.refresh()
  precondition(codableStore.state.items == items && fieldsStore.state.items == items)
  report.compare(
    "one action on a file-backed Codable store vs the jsonFields store", size: "\(count(n)) items",
    goal: "(what jsonFields saves an action)", times: 21,
    ours: Side("", prepare: { () }) { _ in try! codableStore.trySend(.toggle(0)) },
    baseline: Side("(jsonFields)", prepare: { () }) { _ in try! fieldsStore.trySend(.toggle(0)) })
}
