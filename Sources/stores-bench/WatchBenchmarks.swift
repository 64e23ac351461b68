import Dispatch
import Foundation
import Stores

// 8. The watch: what a watching store costs another process's writer during a burst, how
// many reloads it makes of it, and how soon it sees a single change.

/// A data folder with a todos file of `count` todos, and that file's content with `count`
/// todos again, each version's first title `v0`, `v1`, …
private func watchedFolder(_ count: Int) -> (URL, (Int) -> Data) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-watch-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let version = { (index: Int) -> Data in
    let todos = (0..<count).map { item in
      #"{"date": "2026-11-29T07:30:00Z", "id": "\#(String(format: "00000000-0000-4000-8000-%012X", item))", "#
        + #""isDone": false, "priority": 0, "title": "v\#(index) \#(item)"}"#
    }
    return Data((#"{"todos": ["# + todos.joined(separator: ", ") + #"], "version": 1}"#).utf8)
  }
  try! version(0).write(to: folder.appendingPathComponent("todos.json"))
  return (folder, version)
}

/// Replaces the file `writes` times with the next versions (a new file renamed into place,
/// as a writer does), on a thread of its own, while the main thread takes the watch's events;
/// returns the writer's time.
@MainActor
private func burst(into file: URL, writes: Int, versions: [Data]) -> Double {
  let done = DispatchSemaphore(value: 0)
  let elapsed = UnsafeMutablePointer<Double>.allocate(capacity: 1)
  defer { elapsed.deallocate() }
  let path = file.path
  nonisolated(unsafe) let result = elapsed
  Thread.detachNewThread {
    let start = DispatchTime.now().uptimeNanoseconds
    for index in 0..<writes {
      let temporary = path + ".\(index).tmp"
      try? versions[index % versions.count].write(to: URL(fileURLWithPath: temporary))
      rename(temporary, path)
    }
    result.pointee = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    done.signal()
  }
  while done.wait(timeout: .now()) == .timedOut {
    RunLoop.main.run(until: Date().addingTimeInterval(0.001))
  }
  return elapsed.pointee
}

func watchBenchmarks(_ report: Report, quick: Bool) {
  let repeats = min(report.repeats, 3)
  let writes = quick ? 200 : 2_000
  let todos = quick ? 10 : 1_000
  let (watched, unwatched, reloads, latency) = MainActor.assumeIsolated {
    let (folder, version) = watchedFolder(todos)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("todos.json")
    let versions = (1...8).map(version)
    let store = try! TodosStore(contentsOf: file)
    var reloads = 0
    let token = store.onChange { change, _ in if change == .reload { reloads += 1 } }
    defer { token.cancel() }
    var (watched, unwatched): ([Double], [Double]) = ([], [])
    for round in 0..<repeats {
      for watching in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        if watching { try! store.watch() } else { store.stopWatching() }
        let time = burst(into: file, writes: writes, versions: versions)
        RunLoop.main.run(until: Date().addingTimeInterval(0.1))
        (watching ? { watched.append(time) } : { unwatched.append(time) })()
      }
    }
    store.stopWatching()

    // The latency of one change: from the rename to the store's callback.
    try! store.watch()
    var latencies: [Double] = []
    var seen = 0
    let latencyToken = store.onChange { change, _ in if change == .reload { seen += 1 } }
    defer { latencyToken.cancel() }
    for single in (0..<repeats).map({ version(100 + $0) }) {
      RunLoop.main.run(until: Date().addingTimeInterval(0.1))
      let before = seen
      let start = DispatchTime.now().uptimeNanoseconds
      let temporary = file.path + ".one.tmp"
      try! single.write(to: URL(fileURLWithPath: temporary))
      rename(temporary, file.path)
      let giveUp = Date().addingTimeInterval(5)
      while seen == before && Date() < giveUp {
        RunLoop.main.run(until: Date().addingTimeInterval(0.0005))
      }
      latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    store.stopWatching()
    return (median(watched), median(unwatched), reloads / repeats, median(latencies))
  }
  report.note(
    "a writer's burst with a store watching the file vs with none",
    size: "\(count(writes)) writes of \(count(todos)) todos", ours: watched, baseline: unwatched,
    baselineLabel: "(no watcher)", goal: "≈ 1× (reloads coalesced)")
  print(
    "| reloads of the watching store in one burst of \(format(watched)) | | \(reloads) | | | "
      + "≤ 40 a second |")
  print(
    "| one write seen by a watching store (its callback) | \(count(todos)) todos | "
      + "\(format(latency)) | | | ≤ 50 ms |")
}
