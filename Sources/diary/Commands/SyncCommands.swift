import Foundation
import Stores

/// `diary sync`: the data folder as a sync engine shares it with other devices.
enum SyncCommands {
  static let group = CommandGroup(
    name: "sync", summary: "See the data files as other devices share them",
    commands: [Status.self])

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
