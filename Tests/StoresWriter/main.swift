import Foundation
import Stores
import TestSupport

// A small writer on the library, for the crash and concurrency tests: makes COUNT changes to
// the file, one action each, and prints `ack N` once the Nth is on disk.
//
//   stores-writer todos|workouts|keyvalue|settings|codable FILE COUNT TAG
//
// todos and workouts add "TAG N"; keyvalue sets the key "TAG-N" to N; settings sets
// sleepGoal to N % 25; codable adds the note "TAG N" to a store on a `CodableState`
// (CodableNotes.swift).
//
//   stores-writer remove-todo|remove-workout|toggle-todo FILE 1 NAME
//
// removes the todo titled (the workout named) NAME from FILE — or ticks the todo titled NAME
// — in one transaction, and prints `ack 0` once that is on disk (`absent` when the file holds
// none): a change by a short-lived process that names what it changed, whatever the file
// holds by then.
//
//   stores-writer set-setting FILE 1 KEY=VALUE
//
// sets the setting KEY of the settings FILE to the text VALUE in one transaction, and prints
// `ack 0` once that is on disk.
//
//   stores-writer hold FILE SECONDS TAG
//
// takes the lock of the todos FILE, prints `locked`, and keeps it SECONDS before adding
// "TAG": a lock holder that can be stopped or killed at a known moment.
//
//   stores-writer attempts FILE COUNT TAG
//
// makes COUNT attempts to add "TAG" to the todos FILE, each waiting at most 20 ms for the
// lock, and prints each one's outcome (`added`, `timed out`, `cannot wait: MESSAGE`); on
// Linux, also the process's threads and descriptors before and after (`threads T fds F`).
//
//   stores-writer watch FOLDER RENAMES STORES
//
// opens STORES watching todos stores on FOLDER/todos.json, then RENAMES times renames FOLDER
// away and makes it anew, letting the watchers see each; on Linux, prints the process's
// inotify instances and watches (`inotify I watches W`).
//
// With STORES_WRITER_CLOCK_AHEAD_MS set, the kinds todos, workouts, settings, set-setting,
// remove-todo, remove-workout and toggle-todo stamp their changes by the device's clock with its wall
// clock that many milliseconds ahead: a device whose clock runs ahead.

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[3]) else {
  FileHandle.standardError.write(Data("usage: stores-writer KIND FILE COUNT TAG\n".utf8))
  exit(64)
}
let (kind, url, tag) = (arguments[1], URL(fileURLWithPath: arguments[2]), arguments[4])

/// The device's clock (``HybridClock/local``), its wall clock moved ahead by
/// `STORES_WRITER_CLOCK_AHEAD_MS` when set.
let clock: HybridClock = {
  let environment = ProcessInfo.processInfo.environment
  guard let ahead = Int64(environment["STORES_WRITER_CLOCK_AHEAD_MS"] ?? ""), ahead != 0 else {
    return .local
  }
  return HybridClock(
    device: DeviceID.local,
    sharingWith: DeviceID.localStateFolder(environment: environment)?
      .appendingPathComponent("stores/clock")
  ) { Int64(Date().timeIntervalSince1970 * 1000) + ahead }
}()

@MainActor func todosStore(_ url: URL) throws -> TodosStore {
  TodosStore(core: try TodosStore.fileCore(contentsOf: url, clock: clock))
}

@MainActor func workoutsStore(_ url: URL) throws -> WorkoutsStore {
  WorkoutsStore(core: try WorkoutsStore.fileCore(contentsOf: url, clock: clock))
}

MainActor.assumeIsolated {
  do {
    switch kind {
    case "todos":
      let store = try todosStore(url)
      for index in 0..<count {
        try store.trySend(.addTodo(Todo(title: "\(tag) \(index)")))
        print("ack \(index)")
        fflush(nil)
      }
    case "workouts":
      let store = try workoutsStore(url)
      for index in 0..<count {
        try store.trySend(
          .addWorkout(try Workout(name: "\(tag) \(index)", distance: Double(index))))
        print("ack \(index)")
        fflush(nil)
      }
    case "codable":
      let store = try CodableNotesStore(contentsOf: url)
      for index in 0..<count {
        try store.trySend(.add(.init(text: "\(tag) \(index)", date: Date())))
        print("ack \(index)")
        fflush(nil)
      }
    case "remove-todo":
      let store = try todosStore(url)
      let ids = Set(store.todos.filter { $0.title == tag }.map(\.id))
      if !ids.isEmpty { try store.trySend(.removeTodos(ids: ids)) }
      print(ids.isEmpty ? "absent" : "ack 0")
    case "toggle-todo":
      let store = try todosStore(url)
      let todo = store.todos.first { $0.title == tag }
      if let todo { try store.trySend(.toggleTodo(id: todo.id)) }
      print(todo == nil ? "absent" : "ack 0")
    case "remove-workout":
      let store = try workoutsStore(url)
      let ids = Set(store.state.workouts.filter { $0.name == tag }.map(\.id))
      if !ids.isEmpty { try store.trySend(.removeWorkouts(ids: ids)) }
      print(ids.isEmpty ? "absent" : "ack 0")
    case "set-setting":
      let settings = try SettingsStore(contentsOf: url, clock: clock)
      let parts = tag.split(separator: "=", maxSplits: 1).map(String.init)
      try settings.trySend(.set(key: parts[0], value: .string(parts.last!)))
      print("ack 0")
    case "keyvalue":
      let file = try SettingsStore(contentsOf: url)
      for index in 0..<count {
        try file.trySend(.set(key: "\(tag)-\(index)", value: .number(JSONNumber(index))))
        print("ack \(index)")
        fflush(nil)
      }
    case "hold":
      let store = try TodosStore(contentsOf: url)
      // Another write first, so that the action below reloads under the lock.
      try TodosStore(contentsOf: url).trySend(.addTodo(Todo(title: "\(tag) first")))
      try store.trySend(.addTodo(Todo(title: tag))) { _ in
        print("locked")
        fflush(nil)
        sleep(UInt32(count))
      }
    case "attempts":
      let store = try TodosStore(contentsOf: url, lockTimeout: .milliseconds(20))
      printResources()
      for _ in 0..<count {
        do {
          try store.trySend(.addTodo(Todo(title: tag)))
          print("added")
        } catch let error as StoreFileError {
          switch error.problem {
          case .lockTimedOut: print("timed out")
          case .cannotWaitForLock: print("cannot wait: \(error)")
          default: throw error
          }
        }
      }
      printResources()
      fflush(nil)
    case "watch":
      let folder = url
      let stores = try (0..<Int(tag)!).map { _ in
        let store = try TodosStore(contentsOf: folder.appendingPathComponent("todos.json"))
        try store.watch()
        return store
      }
      for index in 0..<count {
        try FileManager.default.moveItem(
          at: folder, to: folder.deletingLastPathComponent().appendingPathComponent("old-\(index)"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        RunLoop.main.run(until: Date().addingTimeInterval(0.05))
      }
      RunLoop.main.run(until: Date().addingTimeInterval(0.2))
      withExtendedLifetime(stores) { printInotify() }
      fflush(nil)
    case "background":
      // Sends COUNT adds in groups, saving in the background, and prints `ack N` for each
      // once `saved` says it is in the file (see BackgroundSavingAttackTests).
      let store = try TodosStore(contentsOf: url)
      store.saveMode = .inBackground
      Task { @MainActor in
        var index = 0
        while index < count {
          let end = min(index + 1 + index % 9, count)
          for number in index..<end { store.send(.addTodo(Todo(title: "\(tag) \(number)"))) }
          await store.saved
          if let error = store.lastError {
            FileHandle.standardError.write(Data("stores-writer: \(error)\n".utf8))
            exit(74)
          }
          for number in index..<end { print("ack \(number)") }
          fflush(nil)
          index = end
        }
        exit(0)
      }
    case "settings":
      let settings = try SettingsStore(contentsOf: url, clock: clock)
      for index in 0..<count {
        try settings.set(\.sleepGoal, to: Double(index % 25))
        print("ack \(index)")
        fflush(nil)
      }
    default:
      FileHandle.standardError.write(Data("stores-writer: unknown kind \(kind)\n".utf8))
      exit(64)
    }
  } catch {
    FileHandle.standardError.write(Data("stores-writer: \(error)\n".utf8))
    exit(74)
  }
}
// The background kind's Task and its writer's callbacks run on the main queue.
if kind == "background" { dispatchMain() }

/// Prints `threads T fds F`: this process's threads and open descriptors (Linux).
func printResources() {
  #if os(Linux)
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    print("threads \(threads.count) fds \(descriptors.count)")
  #endif
}

/// Prints `inotify I watches W`: this process's inotify instances and their watches (Linux).
func printInotify() {
  #if os(Linux)
    var (instances, watches) = (0, 0)
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
      let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/\(entry)")
      guard target == "anon_inode:inotify" else { continue }
      instances += 1
      let info = (try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8)) ?? ""
      watches += info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.count
    }
    print("inotify \(instances) watches \(watches)")
  #endif
}
