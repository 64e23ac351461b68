import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Two devices on files of their own that a sync engine joins by leaving copies beside them,
/// or by renaming one's version over the other's: copies (fresh or late) arrive between
/// actions and their locks, a program that does not stamp edits the file of the laptop's
/// running app, the phone's clock runs months ahead. Whatever the history, no acknowledged
/// add is lost, no removal comes back, a hand-edited title stays, and every file reads back.
@Suite("Two devices, copies, hand edits and a clock ahead: the merge's properties")
@MainActor
struct DevicesPropertyTests {
  let folder = TemporaryFolder()

  /// One step of the history.
  enum Step: Sendable, CustomStringConvertible {
    /// A device adds a todo.
    case add(phone: Bool)
    /// A device removes the todo at `offset % count`, if any.
    case remove(phone: Bool, offset: Int)
    /// A device ticks the todo at `offset % count`, if any.
    case toggle(phone: Bool, offset: Int)
    /// The engine leaves one device's file beside the other's, as a conflict copy: as it is
    /// now (`age` 0), or as it was `age` steps ago (a copy that took its time to arrive).
    case copy(toPhone: Bool, age: Int)
    /// The engine renames one device's file, as it was `age` steps ago, over the other's
    /// (it checked that file just before the other device's latest write).
    case replace(toPhone: Bool, age: Int)
    /// A program that does not stamp retitles the laptop's todo at `offset % count`; then
    /// the laptop's app sees the edit, or (`byNewProcess`) a new process that never read the
    /// file before adds a todo to it.
    case handEdit(offset: Int, byNewProcess: Bool)
    /// A program that does not stamp adds a todo to the laptop's file, at `offset % (count +
    /// 1)`, beside the stamps of the others; the laptop's app sees the edit.
    case handAdd(offset: Int)

    var description: String {
      switch self {
      case .add(let phone): "add(\(phone ? "phone" : "laptop"))"
      case .remove(let phone, let offset): "remove(\(phone ? "phone" : "laptop"), \(offset))"
      case .toggle(let phone, let offset): "toggle(\(phone ? "phone" : "laptop"), \(offset))"
      case .copy(let toPhone, let age): "copy(to \(toPhone ? "phone" : "laptop"), age \(age))"
      case .replace(let toPhone, let age):
        "replace(\(toPhone ? "phone" : "laptop"), age \(age))"
      case .handEdit(let offset, let byNewProcess):
        "handEdit(\(offset)\(byNewProcess ? ", then a new process" : ""))"
      case .handAdd(let offset): "handAdd(\(offset))"
      }
    }
  }

  /// The name Syncthing gives the `number`th conflict copy of `todos.json`.
  static func copyName(_ number: Int) -> String {
    "todos.sync-conflict-20261201-\(String(format: "%06d", number))-ABCDEFG.json"
  }

  static let steps = Gen<Step>.oneOf(
    Gen<Bool>.bool.map { Step.add(phone: $0) },
    Gen.zip(.bool, Gen<Int>.integer(in: 0...9)).map { Step.remove(phone: $0, offset: $1) },
    Gen.zip(.bool, Gen<Int>.integer(in: 0...9)).map { Step.toggle(phone: $0, offset: $1) },
    Gen.zip(.bool, Gen<Int>.oneOf(.constant(0), .integer(in: 1...10))).map {
      Step.copy(toPhone: $0, age: $1)
    },
    Gen.zip(.bool, Gen<Int>.integer(in: 0...3)).map { Step.replace(toPhone: $0, age: $1) },
    Gen.zip(Gen<Int>.integer(in: 0...9), .bool).map {
      Step.handEdit(offset: $0, byNewProcess: $1)
    },
    Gen<Int>.integer(in: 0...9).map { Step.handAdd(offset: $0) }
  ).array(maxCount: 30)

  @Test(
    "no acknowledged add lost, no removal back, hand edits and additions kept, every file readable")
  func histories() throws {
    var round = 0
    check(Self.steps, iterations: 80) { steps in
      round += 1
      let laptopFolder = folder.file("laptop\(round)")
      let phoneFolder = folder.file("phone\(round)")
      for place in [laptopFolder, phoneFolder] {
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
      }
      let ahead: Int64 = 120 * 86_400_000
      // Each device's processes share its clock, as `HybridClock.local` does.
      @MainActor func store(_ phone: Bool) throws -> TodosStore {
        TodosStore(
          core: try TodosStore.fileCore(
            contentsOf: (phone ? phoneFolder : laptopFolder).appendingPathComponent("todos.json"),
            clock: HybridClock(
              device: DeviceID(phone ? "phone" : "laptop")!,
              sharingWith: folder.file("\(phone ? "phone" : "laptop")\(round).clock")
            ) {
              Int64(Date().timeIntervalSince1970 * 1000) + (phone ? ahead : 0)
            }))
      }
      let stores = [try store(false), try store(true)]
      var added: Set<UUID> = []
      var removed: Set<UUID> = []
      var titles: [UUID: String] = [:]
      var contested: Set<UUID> = []
      var copies = 0
      // Each device's file after each step (nil while it has none).
      var laptopVersions: [Data?] = []
      var phoneVersions: [Data?] = []
      for (number, step) in steps.enumerated() {
        defer {
          laptopVersions.append(
            try? Data(contentsOf: laptopFolder.appendingPathComponent("todos.json")))
          phoneVersions.append(
            try? Data(contentsOf: phoneFolder.appendingPathComponent("todos.json")))
        }
        switch step {
        case .add(let phone):
          let todo = Todo(title: "t\(number)")
          try stores[phone ? 1 : 0].trySend(.addTodo(todo))
          added.insert(todo.id)
        case .remove(let phone, let offset):
          let store = stores[phone ? 1 : 0]
          guard !store.todos.isEmpty else { continue }
          let id = store.todos[offset % store.todos.count].id
          try store.trySend(.removeTodos(ids: [id]))
          removed.insert(id)
        case .toggle(let phone, let offset):
          let store = stores[phone ? 1 : 0]
          guard !store.todos.isEmpty else { continue }
          let id = store.todos[offset % store.todos.count].id
          try store.trySend(.toggleTodo(id: id))
          // An edit stamped after a removal elsewhere brings the todo back: either may win.
          contested.insert(id)
        case .copy(let toPhone, let age):
          let versions = toPhone ? laptopVersions : phoneVersions
          guard !versions.isEmpty,
            let version = versions[versions.count - 1 - min(age, versions.count - 1)]
          else { continue }
          copies += 1
          try version.write(
            to: (toPhone ? phoneFolder : laptopFolder).appendingPathComponent(
              Self.copyName(copies)))
        case .replace(let toPhone, let age):
          let versions = toPhone ? laptopVersions : phoneVersions
          guard !versions.isEmpty,
            let version = versions[versions.count - 1 - min(age, versions.count - 1)]
          else { continue }
          let target = (toPhone ? phoneFolder : laptopFolder)
          let incoming = target.appendingPathComponent(".syncthing.todos.json.tmp")
          try version.write(to: incoming)
          try requireEqual(
            rename(incoming.path, target.appendingPathComponent("todos.json").path), 0, "rename")
        case .handEdit(let offset, let byNewProcess):
          // Whatever version of the file the laptop's app last read: the edit is told from
          // the file's stamps alone (one the engine replaces before anyone read it is the
          // engine's to keep as a copy).
          let url = laptopFolder.appendingPathComponent("todos.json")
          guard let data = try? Data(contentsOf: url),
            var object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            var todos = object["todos"] as? [[String: Any]], !todos.isEmpty
          else { continue }
          let index = offset % todos.count
          let title = "hand\(number)"
          todos[index]["title"] = title
          object["todos"] = todos
          try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            .write(to: url)
          if let id = (todos[index]["id"] as? String).flatMap(UUID.init) {
            titles[id] = title
            // The version edited may hold a todo removed since (the engine put an older
            // version back): an edit after a removal brings it back, as a toggle does.
            contested.insert(id)
          }
          // The edit is read before the engine may replace the file: by the app (its watch
          // would), or first by a new process on the laptop, which adds a todo and exits —
          // then by the app, which sees that write too (a write of a process that exited is
          // the app's to keep only once the app has seen it: README, "Limits").
          if byNewProcess {
            let todo = Todo(title: "t\(number)")
            try store(false).trySend(.addTodo(todo))
            added.insert(todo.id)
          }
          try stores[0].refresh()
        case .handAdd(let offset):
          let url = laptopFolder.appendingPathComponent("todos.json")
          guard let data = try? Data(contentsOf: url),
            var object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            var todos = object["todos"] as? [[String: Any]], var todo = todos.first
          else { continue }
          let id = UUID()
          todo["id"] = id.uuidString
          todo["title"] = "handAdd\(number)"
          todos.insert(todo, at: offset % (todos.count + 1))
          object["todos"] = todos
          try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            .write(to: url)
          added.insert(id)
          try stores[0].refresh()
        }
      }
      // The engine delivers each device's file to the other, both ways, then both look —
      // three times: a hand edit that met a copy as one is stamped when the laptop reads it,
      // and wins from its next write on.
      for (from, to) in Array(
        repeating: [(laptopFolder, phoneFolder), (phoneFolder, laptopFolder)], count: 3
      ).joined() {
        copies += 1
        try? FileManager.default.copyItem(
          at: from.appendingPathComponent("todos.json"),
          to: to.appendingPathComponent(Self.copyName(copies)))
        for store in stores { try store.refresh() }
      }
      for store in stores {
        let ids = store.todos.map(\.id)
        try requireEqual(Set(ids).count, ids.count, "no todo twice")
        try requireEqual(
          added.subtracting(removed).subtracting(contested).subtracting(ids), [], "no add lost")
        try requireEqual(
          Set(ids).intersection(removed.subtracting(contested)), [], "no removal back")
        for todo in store.todos where titles[todo.id] != nil {
          try requireEqual(todo.title, titles[todo.id]!, "the hand edit stays")
        }
      }
      try requireEqual(stores[0].todos, stores[1].todos, "the devices agree")
      for place in [laptopFolder, phoneFolder] {
        let reread = try TodosStore(contentsOf: place.appendingPathComponent("todos.json"))
        try requireEqual(reread.todos, stores[0].todos, "the file reads back")
      }
    }
  }
}
