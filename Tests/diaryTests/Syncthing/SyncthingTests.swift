import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// Issues 25 and 41 on a real sync engine: real Syncthing nodes on loopback (see
/// ``SyncthingNodes``), each "device" running `diary` and library writers on its own copy of
/// the data folder, linked and cut off — two devices, and three with one clock ahead.
@Suite(
  "Devices on real Syncthing", .serialized,
  .enabled(if: SyncthingNodes.isInstalled, "needs syncthing (Debian package; .ci/run installs it)"))
struct SyncthingTests {
  let folder = TemporaryFolder()

  /// `diary` playing `device`: its data folder is the device's synced folder.
  func diary(_ device: SyncthingNodes.Device) -> DiaryProcess {
    var diary = DiaryProcess(folder: device.folder)
    diary.environment = device.environment(diary.environment)
    return diary
  }

  @Test(
    "edits on both devices, linked and cut off, leave no lock or temporary file to sync, nor a conflict copy of one"
  )
  func noLitter() throws {
    var clock = ContinuousClock.now
    func lap() -> Duration {
      defer { clock = ContinuousClock.now }
      return ContinuousClock.now - clock
    }
    let nodes = try SyncthingNodes(in: folder.url)
    let started = lap()
    defer { nodes.stop() }
    let devices = nodes.devices
    // Linked: each device adds within a few seconds of the other.
    for round in 0..<3 {
      for device in devices {
        #expect(diary(device).run("todos", "add", "\(device.name) linked \(round)").exitCode == 0)
      }
    }
    let editedLinked = lap()
    let linked = try nodes.settle()
    _ = lap()
    try nodes.pause()
    let paused = lap()
    for round in 0..<3 {
      for device in devices {
        let diary = diary(device)
        #expect(diary.run("todos", "add", "\(device.name) cut off \(round)").exitCode == 0)
        #expect(
          diary.run("workouts", "add", "\(device.name) \(round)", "--distance", "5").exitCode == 0)
        #expect(diary.run("settings", "set", "sleepGoal", "\(6 + round)").exitCode == 0)
      }
    }
    let editedCutOff = lap()
    try nodes.resume()
    let resumed = lap()
    let reconnected = try nodes.settle()
    print(
      "syncthing: started in \(started), 6 edits linked in \(editedLinked), settled in \(linked), "
        + "paused in \(paused), 9 edits cut off in \(editedCutOff), resumed in \(resumed), "
        + "settled in \(reconnected); copies: "
        + devices.map { "\($0.name) \($0.conflictCopies)" }.joined(separator: ", "))
    for device in devices {
      let litter = device.names.filter { $0.hasSuffix(".lock") && $0.contains("conflict") }
      #expect(litter.isEmpty, "\(device.name): conflict copies of lock files")
      #expect(device.temporaries.isEmpty, "\(device.name): \(device.names)")
      for name in ["todos.json.lock", "workouts.json.lock", "settings.json.lock"] {
        #expect(device.contents[name] == Data(), "\(device.name): \(name) is there, empty")
      }
    }
  }

  @Test("a scan in the middle of a write never gives its temporary file to the other device")
  func temporaryFileMidWrite() throws {
    let nodes = try SyncthingNodes(in: folder.url)
    defer { nodes.stop() }
    let (a, b) = (nodes.devices[0], nodes.devices[1])
    var rows = "name,distance\n"
    for index in 0..<30_000 { rows += "Run \(index),\(index % 42)\n" }
    let csv = folder.write(rows, to: "rows.csv")
    let writer = try WriterProcess(
      DiaryProcess.binary, ["workouts", "import", csv.path],
      environment: a.environment(diary(a).environment))
    // Stopped while its temporary file is there, which the scan then finds.
    var temporary: String?
    while temporary == nil && writer.process.isRunning {
      temporary = a.temporaries.first
    }
    let found = try #require(temporary, "the import wrote no temporary file")
    TestPlatform.send(SIGSTOP, to: writer.process.processIdentifier)
    defer { TestPlatform.send(SIGCONT, to: writer.process.processIdentifier) }
    try nodes.settle()
    #expect(a.names.contains(found), "still being written")
    #expect(b.temporaries.isEmpty, "b got \(b.names)")

    TestPlatform.send(SIGCONT, to: writer.process.processIdentifier)
    while writer.process.isRunning { usleep(10_000) }
    #expect(writer.kill().succeeded, "\(writer.errorOutput)")
    try nodes.settle()
    #expect(a.temporaries.isEmpty, "\(a.names)")
    #expect(a.contents == b.contents, "both devices hold the same files")
    #expect(a.contents["workouts.json"] != nil)
  }

  /// What the devices acknowledged: the titles of the todos and the names of the workouts
  /// added (each unique), and those removed.
  struct Ledger {
    var todos: Set<String> = []
    var workouts: Set<String> = []
    var removedTodos: Set<String> = []
    var removedWorkouts: Set<String> = []
    /// The todos ticked after a removal of them elsewhere: a later edit, which the merge
    /// keeps (a removal wins only over the edits made before it).
    var editedAfterRemoval: Set<String> = []
    /// The devices that ticked each todo, but for a device that removed it since (its
    /// removal saw its tick, and is stamped after it). Where a device's clock runs ahead —
    /// and the devices that saw its stamps follow it, each as far as it saw — a tick made
    /// before a removal on another device that did not see it may still be stamped after the
    /// removal, and then outlives it: the later stamp wins (see "Limits" in the Devices and
    /// Sync article).
    var tickedOn: [String: Set<String>] = [:]

    /// Notes that `device` ticked the todo `title`.
    mutating func tick(_ title: String, on device: String) {
      tickedOn[title, default: []].insert(device)
      if removedTodos.contains(title) { editedAfterRemoval.insert(title) }
    }

    /// Notes that `device` removed the todo `title`.
    mutating func remove(_ title: String, on device: String) {
      removedTodos.insert(title)
      tickedOn[title]?.remove(device)
    }
  }

  @Test(
    "diary and a library writer edit on both devices, linked and cut off: after reconnecting nothing is lost or revived, the folders agree byte for byte, no copy is left"
  )
  func acceptance() throws {
    try rounds { seed, roundFolder in
      var random = SeededRandom(seed: seed)
      let nodes = try SyncthingNodes(in: roundFolder)
      defer { nodes.stop() }
      let devices = nodes.devices
      var ledger = Ledger()
      for phase in 0..<4 {
        let cutOff = phase % 2 == 1
        if cutOff { try nodes.pause() }
        for step in 0..<10 {
          let device = devices[Int(random.next(below: 2))]
          try edit(
            device, tag: "\(device.name)\(phase).\(step)", linked: !cutOff, &random, &ledger)
        }
        if cutOff { try nodes.resume() }
      }
      try converge(nodes, seed: seed)
      try check(devices, ledger, seed: seed, tickMayOutliveRemoval: false)
    }
  }

  @Test(
    "three devices, the phone's clock an hour ahead, each cut off in turn: after reconnecting nothing is lost or revived, every conflict is kept, the folders agree byte for byte, no copy is left, within 2 minutes"
  )
  func threeDevices() throws {
    try rounds { seed, roundFolder in
      var random = SeededRandom(seed: seed)
      let nodes = try SyncthingNodes(in: roundFolder, count: 3)
      defer { nodes.stop() }
      // A laptop, a desktop and a phone, whose writers stamp an hour ahead.
      let devices = nodes.devices
      devices[2].writerClockAhead = .seconds(3_600)
      var ledger = Ledger()
      // The phone's writer first, so that its stamps run ahead in every round.
      let aheadSince = Date()
      try #require(try write("todos", on: devices[2], tag: "c start", &ledger) == 3)
      // Linked, then each device cut off in turn — the phone first — with linked spells between.
      let cutOffs = [nil, devices[2], nil, devices[0], nil, devices[1]]
      // The settings changed on both sides of a cut, neither seeing the other's change: by
      // key, the values each side set.
      var contested: [String: Set<String>] = [:]
      for (phase, cutOff) in cutOffs.enumerated() {
        if let cutOff {
          try nodes.cutOff(cutOff)
          let linked = devices.filter { $0 !== cutOff }[Int(random.next(below: 2))]
          let key = "contested\(phase)"
          try #require(try set(key, to: cutOff.name, on: cutOff))
          try #require(try set(key, to: linked.name, on: linked))
          contested[key] = [cutOff.name, linked.name]
        }
        for step in 0..<8 {
          let device = devices[Int(random.next(below: 3))]
          try edit(
            device, tag: "\(device.name)\(phase).\(step)", linked: device !== cutOff, &random,
            &ledger)
        }
        if let cutOff { try nodes.reconnect(cutOff) }
      }
      try converge(nodes, seed: seed)
      try check(devices, ledger, seed: seed, tickMayOutliveRemoval: true)
      try checkKept(contested, on: devices, seed: seed)
      // The phone's stamps, an hour ahead of the clock when it first wrote, are in the file
      // every device reads: ahead of it by an hour less the time since, at least.
      for device in devices {
        let status = diary(device).run("--json", "sync", "status")
        let since = Int(Date().timeIntervalSince(aheadSince).rounded(.up))
        let report = try JSONSerialization.jsonObject(with: Data(status.output.utf8))
        let files = (report as? [String: Any])?["files"] as? [[String: Any]] ?? []
        let todos = files.first { $0["name"] as? String == "todos" }
        #expect(
          (3_600 - since - 1...3_600).contains(todos?["clockAheadSeconds"] as? Int ?? 0),
          "\(device.name), \(since) s after: \(status.output)")
      }
    }
  }

  /// Runs `round` with a seed and a folder of its own, once — or, under `.ci/run`'s soak,
  /// `STORES_SYNCTHING_ROUNDS` times (under CPU load: every one must lose nothing), with
  /// seeds from `STORES_PROPERTY_SEED` (random when unset).
  func rounds(_ round: (UInt64, URL) throws -> Void) throws {
    let environment = ProcessInfo.processInfo.environment
    let seed =
      UInt64(environment["STORES_PROPERTY_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
    let rounds = max(Int(environment["STORES_SYNCTHING_ROUNDS"] ?? "") ?? 1, 1)
    for index in 0..<rounds {
      let roundFolder = folder.file("round\(index)")
      try FileManager.default.createDirectory(at: roundFolder, withIntermediateDirectories: true)
      try round(seed &+ UInt64(index), roundFolder)
    }
  }

  /// Waits, every node linked, until the devices agree: each runs `diary` (as its user opens
  /// the app) until all folders hold the same bytes and no copy or temporary file — or a
  /// round changes nothing, after which none would. Records an issue when that takes more
  /// than 2 minutes.
  func converge(_ nodes: SyncthingNodes, seed: UInt64) throws {
    let devices = nodes.devices
    let started = ContinuousClock.now
    let deadline = started + .seconds(120)
    var agreed = false
    var before: [[String: Data]] = []
    // What each pass found, for a failure's message: the copies and temporary files left on
    // each device, and the files whose bytes differ between devices.
    var passes: [String] = []
    do {
      while !agreed && ContinuousClock.now < deadline {
        try nodes.settle(within: deadline - ContinuousClock.now)
        for device in devices {
          for store in ["todos", "workouts", "settings"] { _ = diary(device).run(store, "list") }
        }
        try nodes.settle(within: deadline - ContinuousClock.now)
        let now = devices.map(\.contents)
        agreed =
          devices.allSatisfy { $0.conflictCopies.isEmpty && $0.temporaries.isEmpty }
          && now.dropFirst().allSatisfy { $0 == now[0] }
        let differing = Set(now.flatMap(\.keys)).filter { name in
          now.dropFirst().contains { $0[name] != now[0][name] }
        }
        passes.append(
          "at \(ContinuousClock.now - started): "
            + devices.map { "\($0.name) \($0.conflictCopies + $0.temporaries)" }.joined(
              separator: ", ") + "; differing \(differing.sorted())"
            + differing.sorted().map { " — \($0): \(nodes.describe($0))" }.joined())
        // A round that changed nothing does not end the wait: the engine scans a change a
        // second after its watcher saw it, and retries a pull whose source vanished (a copy
        // merged and removed) after 60 s. Until the 2 minutes are up.
        if !agreed && now == before { Thread.sleep(forTimeInterval: 2) }
        before = now
      }
    } catch {
      Issue.record("the engine did not settle within 2 minutes: \(error)")
    }
    let took = ContinuousClock.now - started
    print(
      "syncthing, \(devices.count) devices: agreed \(agreed) after \(took) "
        + "(STORES_PROPERTY_SEED=\(seed))")
    let folders = devices.map { "\($0.name) \($0.names)" }.joined(separator: ", ")
    let lastPasses = passes.suffix(3).joined(separator: " || ")
    #expect(
      agreed,
      "within 2 minutes (STORES_PROPERTY_SEED=\(seed)): \(folders); passes: \(lastPasses)")
  }

  /// Checks that every device lists every todo and workout `ledger` acknowledged but for those
  /// removed, and none removed but for the todos ticked after their removal — or, where
  /// `tickMayOutliveRemoval` (a clock ahead), ticked on a device that did not remove them.
  func check(
    _ devices: [SyncthingNodes.Device], _ ledger: Ledger, seed: UInt64,
    tickMayOutliveRemoval: Bool
  ) throws {
    let outliving =
      tickMayOutliveRemoval
      ? ledger.editedAfterRemoval.union(ledger.tickedOn.filter { !$0.value.isEmpty }.keys)
      : ledger.editedAfterRemoval
    for device in devices {
      let (todos, workouts) = try listed(device)
      #expect(
        ledger.todos.subtracting(ledger.removedTodos).subtracting(todos).isEmpty,
        "\(device.name) lost todos (seed \(seed))")
      #expect(
        ledger.removedTodos.subtracting(outliving).isDisjoint(with: todos),
        "\(device.name) revived todos (seed \(seed))")
      #expect(
        ledger.workouts.subtracting(ledger.removedWorkouts).subtracting(workouts).isEmpty,
        "\(device.name) lost workouts (seed \(seed))")
      #expect(
        ledger.removedWorkouts.isDisjoint(with: workouts),
        "\(device.name) revived workouts (seed \(seed))")
      // A todo back after its removal was ticked on a device that had not seen the removal
      // (it could not tick a todo gone): the removal lost to that edit, and is kept as a
      // conflict — and no other removal is.
      let revived = ledger.removedTodos.intersection(todos)
      #expect(
        try removalConflicts(device) == revived,
        "\(device.name): the removals kept as conflicts are those undone (seed \(seed))")
    }
  }

  /// Checks that every device holds one value of each `contested` setting and lists the
  /// other as a conflict: a change made on either side of a cut, neither seeing the other,
  /// is the setting's value or kept.
  func checkKept(
    _ contested: [String: Set<String>], on devices: [SyncthingNodes.Device], seed: UInt64
  ) throws {
    for device in devices {
      let result = diary(device).run("--json", "sync", "conflicts")
      try #require(result.exitCode == 0, "\(result.errorOutput)")
      let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
      let conflicts = (report as? [String: Any])?["conflicts"] as? [[String: Any]] ?? []
      let file = try Data(contentsOf: device.folder.appendingPathComponent("settings.json"))
      let values =
        (try JSONSerialization.jsonObject(with: file) as? [String: Any])?["values"]
        as? [String: Any] ?? [:]
      for (key, set) in contested {
        let kept = conflicts.filter {
          $0["file"] as? String == "settings" && $0["item"] as? String == key
        }
        .compactMap { $0["value"] as? String }
        let current = values[key] as? String
        #expect(
          kept.count == 1 && Set(kept + [current].compactMap { $0 }) == set,
          "\(device.name): \(key) is \(current ?? "unset"), kept \(kept), set \(set) (seed \(seed))"
        )
      }
    }
  }

  /// Sets the setting `key` to `value` on `device` by a library writer; whether it is
  /// acknowledged.
  func set(_ key: String, to value: String, on device: SyncthingNodes.Device) throws -> Bool {
    let file = device.folder.appendingPathComponent("settings.json")
    let writer = try WriterProcess(
      Self.writer, ["set-setting", file.path, "1", "\(key)=\(value)"],
      environment: device.environment(diary(device).environment))
    while writer.process.isRunning { usleep(5_000) }
    return writer.kill().acknowledged == [0]
  }

  /// The titles of the todos whose removal `diary sync conflicts` on `device` lists as a
  /// conflict.
  func removalConflicts(_ device: SyncthingNodes.Device) throws -> Set<String> {
    let result = diary(device).run("--json", "sync", "conflicts")
    try #require(result.exitCode == 0, "\(result.errorOutput)")
    let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    let conflicts = report?["conflicts"] as? [[String: Any]] ?? []
    return Set(
      conflicts.filter { $0["file"] as? String == "todos" && $0["field"] is NSNull }
        .compactMap { $0["item"] as? String })
  }

  /// One random edit on `device`, by `diary` or by a library writer (`stores-writer`, a
  /// process of the device), recorded in `ledger` once acknowledged.
  ///
  /// While the devices are `linked`, a removal or a tick is made by a library writer that
  /// names what it changes: `diary … remove N` changes the Nth of the list as the engine left
  /// it when the command ran, which may no longer be the list listed just before — the
  /// ledger could not tell what was changed.
  func edit(
    _ device: SyncthingNodes.Device, tag: String, linked: Bool, _ random: inout SeededRandom,
    _ ledger: inout Ledger
  ) throws {
    let diary = diary(device)
    switch random.next(below: 9) {
    case 0:
      if diary.run("todos", "add", tag).exitCode == 0 { ledger.todos.insert(tag) }
    case 1 where linked:
      let shown = try listed(device).todos.sorted()
      guard !shown.isEmpty else { return }
      let title = shown[random.next(in: 1...shown.count) - 1]
      guard try change("toggle-todo", title, on: device, diary) else { return }
      ledger.tick(title, on: device.name)
    case 1:
      let shown = try Self.orderedTitles(diary.run("--json", "todos", "list").output)
      guard !shown.isEmpty else { return }
      let number = random.next(in: 1...shown.count)
      guard diary.run("todos", "done", "\(number)").exitCode == 0 else { return }
      ledger.tick(shown[number - 1], on: device.name)
    case 2 where linked:
      let shown = try listed(device).todos.sorted()
      guard !shown.isEmpty else { return }
      let title = shown[random.next(in: 1...shown.count) - 1]
      if try change("remove-todo", title, on: device, diary) {
        ledger.remove(title, on: device.name)
      }
    case 2:
      // Cut off: the list `diary` shows is the one the removal meets. Exactly the todo of
      // that number goes — anything else gone would be lost, not removed.
      let shown = try Self.orderedTitles(diary.run("--json", "todos", "list").output)
      guard !shown.isEmpty else { return }
      let number = random.next(in: 1...shown.count)
      let after = diary.run("--json", "todos", "remove", "\(number)")
      guard after.exitCode == 0 else { return }
      #expect(Set(shown).subtracting(try Self.titles(after.output, "title")) == [shown[number - 1]])
      ledger.remove(shown[number - 1], on: device.name)
    case 3:
      if diary.run("workouts", "add", tag, "--distance", "\(random.next(in: 1...42))").exitCode
        == 0
      {
        ledger.workouts.insert(tag)
      }
    case 4 where linked:
      let shown = try listed(device).workouts.sorted()
      guard !shown.isEmpty else { return }
      let name = shown[random.next(in: 1...shown.count) - 1]
      if try change("remove-workout", name, on: device, diary) {
        ledger.removedWorkouts.insert(name)
      }
    case 4:
      let shown = try Self.ordered(diary.run("--json", "workouts", "list").output, "name")
      guard !shown.isEmpty else { return }
      let number = random.next(in: 1...shown.count)
      let after = diary.run("--json", "workouts", "remove", "\(number)")
      guard after.exitCode == 0 else { return }
      #expect(Set(shown).subtracting(try Self.titles(after.output, "name")) == [shown[number - 1]])
      ledger.removedWorkouts.insert(shown[number - 1])
    case 5:
      diary.run("settings", "set", "sleepGoal", "\(random.next(in: 4...12))")
    default:
      let kind = ["todos", "workouts", "settings", "settings"][Int(random.next(below: 4))]
      try write(kind, on: device, tag: tag, &ledger)
    }
  }

  /// Three changes to the `kind` file of `device` (`todos`, `workouts`, `settings`) by a
  /// library writer, a short-lived process of the device, recorded in `ledger` as
  /// acknowledged.
  @discardableResult
  func write(
    _ kind: String, on device: SyncthingNodes.Device, tag: String, _ ledger: inout Ledger
  ) throws -> Int {
    let file = device.folder.appendingPathComponent("\(kind).json")
    let writer = try WriterProcess(
      Self.writer, [kind, file.path, "3", tag],
      environment: device.environment(diary(device).environment))
    while writer.process.isRunning { usleep(5_000) }
    let acknowledged = writer.kill().acknowledged.map { "\(tag) \($0)" }
    if kind == "todos" { ledger.todos.formUnion(acknowledged) }
    if kind == "workouts" { ledger.workouts.formUnion(acknowledged) }
    return acknowledged.count
  }

  static let writer = BuildProducts.executable("stores-writer")

  /// Makes the `change` of a library writer (`remove-todo`, `remove-workout`, `toggle-todo`)
  /// to the item named `name` in `device`'s file; whether it was there and is changed.
  func change(
    _ change: String, _ name: String, on device: SyncthingNodes.Device, _ diary: DiaryProcess
  ) throws -> Bool {
    let kind = change.hasSuffix("workout") ? "workouts" : "todos"
    let file = device.folder.appendingPathComponent("\(kind).json")
    let writer = try WriterProcess(
      Self.writer, [change, file.path, "1", name],
      environment: device.environment(diary.environment))
    while writer.process.isRunning { usleep(5_000) }
    return writer.kill().acknowledged == [0]
  }

  /// The todos' titles and the workouts' names `diary --json … list` shows on `device`.
  func listed(_ device: SyncthingNodes.Device) throws -> (todos: Set<String>, workouts: Set<String>)
  {
    let diary = diary(device)
    let todos = diary.run("--json", "todos", "list")
    let workouts = diary.run("--json", "workouts", "list")
    try #require(todos.exitCode == 0 && workouts.exitCode == 0, "\(todos.errorOutput)")
    return (try Self.titles(todos.output, "title"), try Self.titles(workouts.output, "name"))
  }

  /// The titles in a JSON list of todos, in order.
  static func orderedTitles(_ json: String) throws -> [String] {
    try ordered(json, "title")
  }

  /// The values of `key` in a JSON list of objects, in order.
  static func ordered(_ json: String, _ key: String) throws -> [String] {
    let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
    return (list ?? []).compactMap { $0[key] as? String }
  }

  /// The values of `key` in a JSON list of objects.
  static func titles(_ json: String, _ key: String) throws -> Set<String> {
    let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
    return Set((list ?? []).compactMap { $0[key] as? String })
  }
}
