import Foundation
import Stores

/// `diary sync`: the data folder as a sync engine shares it with other devices.
enum SyncCommands {
  static let group = CommandGroup(
    name: "sync", summary: "See the data files as other devices share them",
    commands: [Status.self, Conflicts.self, Resolve.self])

  /// A conflict kept in a data file, as `diary sync conflicts` lists it.
  struct ListedConflict {
    var file: String
    /// What a person calls the item: a todo's title, a workout's name, a setting's key.
    var item: String
    var conflict: SyncConflict
    /// The field's current value, as JSON text (`nil` for a removal, or a setting at its
    /// default).
    var current: String?

    /// The field's key (a setting's: `value`), or "-" for a removal.
    var field: String { conflict.item == nil ? "value" : conflict.field ?? "-" }

    /// What was kept: `value`, or an item's `removal`, or a setting's `reset` (whose value is
    /// `null` in `--json`, as a JSON `null` kept is).
    var kind: String {
      conflict.value != nil ? "value" : conflict.item == nil ? "reset" : "removal"
    }

    /// The kept value as the table shows it.
    var kept: String { conflict.value ?? (conflict.item == nil ? "default" : "removed") }

    /// The current value as the table shows it.
    var now: String { current ?? (conflict.item == nil ? "default" : "in the list") }

    /// The conflict's short name, which `diary sync resolve` takes: six base-36 digits of a
    /// hash of its identity (its item, field and change) — the same on every device and run,
    /// so that it names that conflict whatever else changed meanwhile.
    var code: String {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
      for byte in conflict.id.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      let digits = String(hash % 2_176_782_336, radix: 36)  // 36^6
      return String(repeating: "0", count: 6 - digits.count) + digits
    }

    var json: JSONValue {
      func parsed(_ text: String?) -> JSONValue {
        text.flatMap { JSONValue(parsing: $0) } ?? .null
      }
      return .object([
        "id": JSONValue(code), "file": JSONValue(file),
        "itemID": conflict.item.map { JSONValue($0.uuidString) } ?? .null,
        "item": JSONValue(item),
        "field": conflict.field.map { JSONValue($0) } ?? .null,
        "kind": JSONValue(kind),
        "value": parsed(conflict.value), "current": parsed(current),
        "device": JSONValue(conflict.device),
        "date": JSONValue(ISO8601DateFormatter().string(from: conflict.date)),
      ])
    }
  }

  /// The stores whose conflicts `diary sync conflicts` lists.
  struct Stores {
    var settings: SettingsStore
    var todos: TodosStore
    var workouts: WorkoutsStore
  }

  /// The conflicts the settings, todos and workouts keep, in that order (each in the order of
  /// its keys or items).
  @MainActor
  static func conflicts(_ context: Context) throws -> (listed: [ListedConflict], stores: Stores) {
    let stores = Stores(
      settings: try context.appSettings(), todos: try context.todos(),
      workouts: try context.workouts())
    var listed: [ListedConflict] = []
    for conflict in try stores.settings.core.syncStatusReadingStamps().conflicts {
      guard let key = conflict.field else { continue }
      let current = stores.settings.state.values[key]?.jsonText
      listed.append(
        ListedConflict(file: "settings", item: key, conflict: conflict, current: current))
    }
    func add<Item: ListItem, S: Store>(
      _ file: String, _ store: S, _ items: [Item], _ name: (Item) -> String
    ) throws where S.State: PersistentState {
      let status = try store.core.syncStatusReadingStamps()
      let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      for conflict in status.conflicts {
        guard let id = conflict.item, let item = byID[id] else { continue }
        var current: String?
        if let field = Item.fieldTable.fields.first(where: { $0.name == conflict.field }) {
          var writer = JSONWriter()
          if (try? field.writeValue(item, &writer)) != nil {
            current = String(decoding: writer.finish(), as: UTF8.self)
          }
        }
        listed.append(
          ListedConflict(file: file, item: name(item), conflict: conflict, current: current))
      }
    }
    try add("todos", stores.todos, stores.todos.todos, \.title)
    try add("workouts", stores.workouts, stores.workouts.state.workouts, \.name)
    return (listed, stores)
  }

  struct Conflicts: ParsableCommand {
    static let name = "conflicts"
    static let summary = "List the values that lost to a change made at once on another device"
    static let discussion = """
      When two devices change one setting, or one field of a todo or workout, before either \
      sees the other's change, the later change wins and the other is kept, not lost: this \
      lists each kept value beside the current one, and a removal that an edit on another \
      device undid. \
      Resolve one by its ID with 'diary sync resolve ID' (its value wins on every device) or \
      'diary sync resolve ID --current' (the current value stays).
      """

    func run(_ context: Context) throws {
      let listed = try SyncCommands.conflicts(context).listed
      if context.json {
        return try JSONOutput.write(
          JSONValue.object(["conflicts": .array(listed.map(\.json))]), to: context.output)
      }
      guard !listed.isEmpty else {
        return try context.output.line("No conflicts: no change was lost to another device's.")
      }
      var table = TextTable(
        headers: ["ID", "FILE", "ITEM", "FIELD", "KEPT", "NOW", "DEVICE", "WHEN"],
        alignments: [.left, .left, .left, .left, .left, .left, .left, .left])
      table.rows = listed.map { entry in
        [
          entry.code, entry.file, entry.item, entry.field,
          entry.kept, entry.now,
          entry.conflict.device,
          HumanDate.formatWithTime(entry.conflict.date, timeZone: context.time.timeZone),
        ]
      }
      try context.output.line(table.render(context.terminal))
      try context.output.line(
        "Resolve one with 'diary sync resolve ID' (its kept value wins) "
          + "or 'diary sync resolve ID --current'.")
    }
  }

  struct Resolve: ParsableCommand {
    static let name = "resolve"
    static let summary = "Resolve a conflict: its kept value wins, or the current one stays"
    static let arguments: [Argument<Resolve>] = [
      .value(\.code, .text("ID"), summary: "The conflict's ID in 'diary sync conflicts'")
    ]
    static let options: [Option<Resolve>] = [
      .flag(\.keepsCurrent, "current", summary: "Keep the current value instead")
    ]
    static let discussion = """
      The kept value is set (a kept removal removes the item, a kept reset resets the setting \
      to its default), or with --current the current \
      value stays: a change like any other, which syncs, and every device drops the conflict. \
      Example: diary sync resolve 4k7q2m
      """
    var code = ""
    var keepsCurrent = false

    func run(_ context: Context) throws {
      let (listed, stores) = try SyncCommands.conflicts(context)
      let matching = listed.filter { $0.code == code.lowercased() }
      guard matching.count == 1, let entry = matching.first else {
        throw DiaryError(
          listed.isEmpty
            ? "there is no conflict to resolve: 'diary sync conflicts' lists none"
            : "no open conflict has the ID '\(Terminal.escaped(code))': 'diary sync conflicts' lists "
              + listed.map(\.code).joined(separator: ", ")
              + " (a conflict another device resolved is no longer listed)",
          exitCode: .usage)
      }
      if entry.file == "settings", !keepsCurrent, let key = entry.conflict.field,
        let text = entry.conflict.value, let value = JSONValue(parsing: text),
        let problem = stores.settings.keys.first(where: { $0.name == key })?.problem(with: value)
      {
        // A value another device's app allowed that this one does not: never written.
        throw DiaryError(
          "conflict \(entry.code) keeps \(Terminal.escaped(text)) for \(Terminal.escapedKey(key)), "
            + "which it does not allow (\(Terminal.escaped(problem))): keep the current value with "
            + "'diary sync resolve \(entry.code) --current', or set another with "
            + "'diary settings set \(Terminal.escapedKey(key)) VALUE'")
      }
      let choice: SyncConflict.Choice = keepsCurrent ? .current : .conflict
      let resolved =
        switch entry.file {
        case "settings": try stores.settings.resolve(entry.conflict, choosing: choice)
        case "todos": try stores.todos.resolve(entry.conflict, choosing: choice)
        default: try stores.workouts.resolve(entry.conflict, choosing: choice)
        }
      guard resolved else {
        throw DiaryError(
          "conflict \(code) is not open any more: another program resolved it, or the item is "
            + "gone — 'diary sync conflicts' lists those left")
      }
      let kept =
        switch (keepsCurrent, entry.conflict.item, entry.conflict.field, entry.conflict.value) {
        case (true, nil, _, _): "kept the current value"
        case (true, _, nil, _): "kept it in the list"
        case (true, _, _, _): "kept the current \(entry.field)"
        case (false, nil, _, nil): "reset it to its default"
        case (false, nil, _, let value?): "set it to \(value)"
        case (false, _, nil, _): "removed it"
        case (false, _, _, let value): "set \(entry.field) to \(value ?? "")"
        }
      context.output.recordSaved("resolved a conflict of \(entry.file)")
      if context.json {
        return try JSONOutput.write(
          JSONValue.object([
            "resolved": entry.json, "choice": JSONValue(keepsCurrent ? "current" : "conflict"),
          ]), to: context.output)
      }
      try context.output.line("Resolved conflict \(entry.code) (\(entry.item)): \(kept).")
    }
  }

  struct Status: ParsableCommand {
    static let name = "status"
    static let summary = "Show the data files, this device's id and the copies not merged"
    static let discussion = """
      Every command merges the conflict copies a sync engine (Syncthing, Dropbox, Nextcloud) \
      leaves beside the data files, and removes them — and, on Apple platforms, the conflicting \
      versions iCloud Drive keeps of them. A copy that is not a valid file of its store is \
      left where it is: this lists each, and why. It also names the versions an engine is \
      still bringing from another device, and a file stamped ahead of this device's clock.
      """

    /// What the command found of one data file.
    struct File {
      var name: String
      var path: String
      var exists: Bool
      var copiesNotMerged: [Copy]
      /// The store's sync status, its stamps read: what this command merged, and how far
      /// ahead of this device's clock the file's changes are stamped.
      var status: SyncStatus

      /// What `--json` prints of the file.
      var json: JSONValue {
        .object([
          "name": JSONValue(name), "path": JSONValue(path), "exists": .bool(exists),
          "copiesNotMerged": .array(
            copiesNotMerged.map {
              .object(["path": JSONValue($0.path), "problem": JSONValue($0.problem)])
            }),
          "merged": .array((status.lastMerge?.copies ?? []).map { JSONValue($0) }),
          "copiesArriving": .array(status.copiesArriving.map { JSONValue($0) }),
          "oldCopies": .array(
            status.oldCopies.map {
              .object(["name": JSONValue($0.name), "count": JSONValue($0.count)])
            }),
          "clockAheadSeconds": JSONValue(Self.seconds(status.largestClockSkew)),
        ])
      }

      /// `duration` in whole seconds.
      static func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }

      /// What the text output says of the versions of the file an engine is bringing, if any.
      var arriving: String? {
        guard !status.copiesArriving.isEmpty else { return nil }
        return "\(name): a version from another device is on its way ("
          + status.copiesArriving.joined(separator: ", ")
          + ") — merged once the sync engine puts it in place"
      }

      /// What the text output says of the file's clock, if it runs ahead by a second or more.
      var clockAhead: String? {
        let seconds = Self.seconds(status.largestClockSkew)
        guard seconds > 0 else { return nil }
        let (hours, minutes) = (seconds / 3600, seconds % 3600 / 60)
        let amount =
          hours > 0 ? "\(hours) h \(minutes) min" : minutes > 0 ? "\(minutes) min" : "\(seconds) s"
        return "\(name): changes stamped up to \(amount) ahead of this device's clock — that "
          + "device wins concurrent edits of a field until this clock catches up"
      }
    }

    struct Copy {
      var path: String
      var problem: String
    }

    func run(_ context: Context) throws {
      let paths = context.paths
      let files = [
        try file("settings", paths.settings, context) { try SettingsStore(contentsOf: $0) },
        try file("todos", paths.todos, context) { try TodosStore(contentsOf: $0) },
        try file("workouts", paths.workouts, context) { try WorkoutsStore(contentsOf: $0) },
      ]
      let device = DeviceID.local.text
      if context.json {
        return try JSONOutput.write(
          JSONValue.object(["device": JSONValue(device), "files": .array(files.map(\.json))]),
          to: context.output)
      }
      try context.output.line("This device: \(device)")
      var table = TextTable(headers: ["FILE", "PATH", "STATE"], alignments: [.left, .left, .left])
      table.rows = files.map { file in
        let state =
          switch (file.exists, file.copiesNotMerged.count) {
          case (false, 0): "not made yet"
          case (_, 0): "up to date"
          case (_, 1): "1 copy not merged"
          case (_, let count): "\(count) copies not merged"
          }
        return [file.name, file.path, state]
      }
      try context.output.line(table.render(context.terminal))
      for line in files.compactMap(\.arriving) + files.compactMap(\.clockAhead) {
        try context.output.line(line)
      }
      let copies = files.flatMap(\.copiesNotMerged)
      guard !copies.isEmpty else {
        return try context.output.line("No conflict copies left to merge.")
      }
      for copy in copies {
        try context.output.line("Not merged: \(copy.problem)")
      }
    }

    /// Opens the store on `url` with `open`, which merges the copies it can, once the file is
    /// downloaded if it is in iCloud Drive; reports the rest.
    @MainActor
    private func file<S: Store>(
      _ name: String, _ url: URL, _ context: Context, open: (URL) throws -> S
    ) throws -> File where S.State: PersistentState {
      try context.download(url)
      let store = try open(url)
      try store.refresh()
      // Stamps that are not valid fail the next change, which says so: not this report.
      let status = (try? store.core.syncStatusReadingStamps()) ?? store.syncStatus
      return File(
        name: name, path: url.path, exists: FileManager.default.fileExists(atPath: url.path),
        copiesNotMerged: store.core.mergeReport.notMerged.map {
          Copy(path: $0.path, problem: DiaryError($0).message)
        }, status: status)
    }
  }
}
