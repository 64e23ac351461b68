import Foundation
import Stores

/// `diary workouts …`: the workouts diary.
enum WorkoutsCommands {
  static let group = CommandGroup(
    name: "workouts", summary: "Keep a diary of workouts",
    commands: [
      List.self, Add.self, Remove.self, Sort.self, Stats.self, Import.self, Export.self,
    ])

  struct List: ParsableCommand {
    static let name = "list"
    static let summary = "List the workouts, numbered, distances in your distance unit"

    func run(_ context: Context) throws {
      let store = try context.workouts()
      let workouts = store.state.workouts
      if context.json { return try JSONOutput.writeArray(workouts.numbered, to: context.output) }
      guard !workouts.isEmpty else {
        return try context.output.line(
          "No workouts yet. Add one with: diary workouts add Run --distance 5")
      }
      let unit = shownUnit(context)
      if let sortType = store.state.sortType {
        try context.output.line("Sorted by \(sortType.rawValue), \(firstOf(sortType)) first.")
      }
      let table = TextTable(
        headers: ["#", "DATE", "DISTANCE", "COMPLEXITY", "NAME"],
        alignments: [.right, .left, .right, .left, .left])
      let timeZone = context.time.timeZone
      try table.write(workouts.indexed(), terminal: context.terminal, to: context.output) {
        index, workout in
        [
          String(index + 1), HumanDate.format(workout.date, timeZone: timeZone),
          format(workout.distance, unit), workout.complexity.name, workout.name,
        ]
      }
    }
  }

  struct Add: ParsableCommand {
    static let name = "add"
    static let summary = "Add a workout"
    static let arguments: [Argument<Add>] = [
      .value(\.name, .text("NAME"), summary: "What the workout was, such as Run")
    ]
    static let options: [Option<Add>] = [
      .option(\.distance, "distance", .distance, isRequired: true, summary: "How far"),
      .option(\.complexity, "complexity", .choice(), summary: "How hard it was"),
      .option(\.date, "date", .date, whenLeftOut: "now", summary: "When it was"),
    ]
    static let discussion = """
      While the list is sorted (see 'diary workouts sort'), a new workout goes to its sorted \
      place.
      Example: diary workouts add "Morning run" --distance 5.2km --complexity high
      """

    var name = ""
    var distance = TypedDistance(value: 0, unit: nil)
    var complexity = Workout.Complexity.medium
    var date: Date?

    func run(_ context: Context) throws {
      // Everything that can fail is read before the write: a failed command changes nothing.
      // A distance typed with its unit (5km) does not need the settings: it is shown, with a
      // warning, in kilometers when they cannot be read.
      let unit = distance.unit == nil ? try distanceUnit(context) : shownUnit(context)
      let workout = try Workout(
        name: name, distance: distance.kilometers(shownIn: unit), date: date ?? context.time.now,
        complexity: complexity)
      let store = try context.workouts()
      try store.trySend(.addWorkout(workout))
      let number = (store.state.workouts.lastIndex { $0.id == workout.id } ?? 0) + 1
      context.output.recordSaved("added workout \(number)")
      if context.json {
        return try JSONOutput.write(Numbered(number: number, item: workout), to: context.output)
      }
      try context.output.line(
        "Added workout \(number): \(Terminal.escaped(workout.name)), "
          + format(workout.distance, unit))
    }
  }

  struct Remove: ParsableCommand {
    static let name = "remove"
    static let summary = "Remove workouts"
    static let arguments: [Argument<Remove>] = [
      .list(
        \.numbers, .integer(), label: "a workout number", summary: "The numbers of the workouts")
    ]
    var numbers: [Int] = []

    func run(_ context: Context) throws {
      let store = try context.workouts()
      let workouts = store.state.workouts
      let picked = try Values.offsets(numbers, count: workouts.count, of: "workouts").map {
        (number: $0 + 1, id: workouts[$0].id)
      }
      try store.trySend(.removeWorkouts(ids: Set(picked.map(\.id)))) { state in
        try Values.requireStillThere(picked, in: state.workouts.map(\.id), of: "workouts")
      }
      context.output.recordSaved("removed \(Values.count(picked.count, "workout"))")
      if context.json {
        return try JSONOutput.writeArray(store.state.workouts.numbered, to: context.output)
      }
      try context.output.line("Removed \(Values.count(picked.count, "workout")).")
    }
  }

  /// How `workouts sort` sorts: a sort type, or none (the order they were added in).
  enum Ordering: Choice {
    case distance, complexity, date, none

    var names: [String] {
      switch self {
      case .distance: ["distance"]
      case .complexity: ["complexity"]
      case .date: ["date"]
      case .none: ["none"]
      }
    }

    var sortType: WorkoutsStore.SortType? {
      switch self {
      case .distance: .distance
      case .complexity: .complexity
      case .date: .date
      case .none: nil
      }
    }
  }

  struct Sort: ParsableCommand {
    static let name = "sort"
    static let summary = "Sort by distance, complexity or date, and keep it sorted"
    static let arguments: [Argument<Sort>] = [
      .value(
        \.ordering, .choice(), label: "the order",
        summary:
          "What to sort by, longest, hardest or newest first; none puts the workouts back in "
          + "the order they were added")
    ]
    var ordering = Ordering.none

    func run(_ context: Context) throws {
      let store = try context.workouts()
      try store.trySend(.sort(by: ordering.sortType))
      guard let sortType = ordering.sortType else {
        context.output.recordSaved("put the workouts back in the order they were added")
        if context.json {
          return try JSONOutput.writeArray(store.state.workouts.numbered, to: context.output)
        }
        return try context.output.line(
          "Not sorted any more: the workouts are in the order they were added.")
      }
      context.output.recordSaved("sorted the workouts by \(sortType.rawValue)")
      if context.json {
        return try JSONOutput.writeArray(store.state.workouts.numbered, to: context.output)
      }
      try context.output.line(
        "Sorted by \(sortType.rawValue), \(firstOf(sortType)) first; new workouts go to their "
          + "place.")
    }
  }

  /// The statistics as `--json` prints them: distances in kilometres, like the files.
  private struct Statistics: Encodable {
    struct Week: Encodable {
      var year: Int
      var week: Int
      var count: Int
      var distance: Double
    }

    var count: Int
    var totalDistance: Double
    /// `null` when there are no workouts.
    var longestDistance: Double?
    var countByComplexity: [String: Int]
    var weeks: [Week]

    private enum CodingKeys: String, CodingKey {
      case count, totalDistance, longestDistance, countByComplexity, weeks
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(count, forKey: .count)
      try container.encode(totalDistance, forKey: .totalDistance)
      try container.encode(longestDistance, forKey: .longestDistance)
      try container.encode(countByComplexity, forKey: .countByComplexity)
      try container.encode(weeks, forKey: .weeks)
    }
  }

  struct Stats: ParsableCommand {
    static let name = "stats"
    static let summary = "Show totals: count, distance, longest, per complexity and per week"

    func run(_ context: Context) throws {
      let statistics = try context.workouts().state.statistics(timeZone: context.time.timeZone)
      if context.json {
        return try JSONOutput.write(
          Statistics(
            count: statistics.count, totalDistance: statistics.totalDistance,
            longestDistance: statistics.longestDistance,
            countByComplexity: Dictionary(
              uniqueKeysWithValues: statistics.countByComplexity.map { ($0.key.name, $0.value) }),
            weeks: statistics.weeks.map {
              .init(year: $0.year, week: $0.week, count: $0.count, distance: $0.distance)
            }), to: context.output)
      }
      guard statistics.count > 0 else {
        return try context.output.line(
          "No workouts yet. Add one with: diary workouts add Run --distance 5")
      }
      let unit = shownUnit(context)
      let output = context.output
      try output.line("Workouts:       \(statistics.count)")
      try output.line("Total distance: \(format(statistics.totalDistance, unit))")
      try output.line("Longest:        \(format(statistics.longestDistance ?? 0, unit))")
      try output.line(
        "By complexity:  "
          + Workout.Complexity.allCases.map {
            "\($0.name) \(statistics.countByComplexity[$0] ?? 0)"
          }.joined(separator: ", "))
      try output.line("")
      let table = TextTable(
        headers: ["WEEK", "WORKOUTS", "DISTANCE"], alignments: [.left, .right, .right])
      try table.write(statistics.weeks, terminal: context.terminal, to: output) { week in
        [
          "\(week.year)-W\(week.week < 10 ? "0" : "")\(week.week)", "\(week.count)",
          format(week.distance, unit),
        ]
      }
    }
  }

  struct Import: ParsableCommand {
    static let name = "import"
    static let summary = "Add the workouts of a CSV file; rows whose id is here already are skipped"
    static let arguments: [Argument<Import>] = [
      .value(\.file, .text("FILE"), summary: "The CSV file (RFC 4180, UTF-8)")
    ]
    static let discussion = """
      The header names the columns, in any order: name and distance (in kilometres) are
      required; date (YYYY-MM-DD, a local time or ISO 8601), complexity (low, medium, high) and
      id are optional. A bad row adds nothing and says where it is; importing a file twice adds
      nothing the second time. 'diary workouts export' writes such a file.
      Example: diary workouts import runs.csv
      """
    var file = ""

    func run(_ context: Context) throws {
      let url = URL(fileURLWithPath: file)
      let data = try WorkoutsCSV.contents(of: url)
      var reader = try WorkoutsCSV.Reader(data, path: url.path, timeZone: context.time.timeZone)
      let started = ContinuousClock.now
      while try reader.read(rows: 5_000, now: context.time.now, makeID: UUID.init) {
        // A bar only for a file that takes long.
        guard ContinuousClock.now - started > .milliseconds(300) else { continue }
        let progress = reader.progress
        let filled = Int(progress.fraction * 30)
        context.output.progress(
          "Importing [\(String(repeating: "#", count: filled))"
            + "\(String(repeating: " ", count: 30 - filled))] \(progress.rows) workouts")
      }
      context.output.progress("")
      let store = try context.workouts()
      try store.trySend(.finishImport(reader.result))
      guard case .finished(let summary) = store.state.importStatus else { return }
      context.output.recordSaved("imported \(Values.count(summary.added, "workout"))")
      if context.json { return try JSONOutput.write(ImportReport(summary), to: context.output) }
      try context.output.line(
        "Added \(Values.count(summary.added, "workout")) from \(Terminal.escaped(url.path))."
          + (summary.skipped.isEmpty ? "" : " Skipped \(summary.skipped.count):"))
      for row in summary.skipped {
        try context.output.line("  line \(row.line): \(row.reason)")
      }
    }
  }

  /// What `workouts import --json` prints.
  private struct ImportReport: Encodable {
    struct Skipped: Encodable {
      var line: Int
      var reason: String
    }

    var file: String
    var added: Int
    var skipped: [Skipped]

    init(_ summary: ImportSummary) {
      file = summary.file
      added = summary.added
      skipped = summary.skipped.map { Skipped(line: $0.line, reason: $0.reason) }
    }
  }

  struct Export: ParsableCommand {
    static let name = "export"
    static let summary = "Print the workouts as CSV (id,name,distance,date,complexity)"
    static let discussion = """
      Distances are in kilometres, dates in UTC ISO 8601; 'diary workouts import' reads it back.
      With --json, prints the list as 'diary workouts list --json' does.
      Example: diary workouts export > workouts.csv
      """

    func run(_ context: Context) throws {
      let workouts = try context.workouts().state.workouts
      if context.json { return try JSONOutput.writeArray(workouts.numbered, to: context.output) }
      try context.output.write(WorkoutsCSV.export(workouts))
    }
  }

  /// "longest", "hardest" or "newest": what a sort puts first.
  private static func firstOf(_ sortType: WorkoutsStore.SortType) -> String {
    switch sortType {
    case .distance: "longest"
    case .complexity: "hardest"
    case .date: "newest"
    }
  }

  /// The unit chosen in the settings, for reading a distance typed without one.
  ///
  /// - Throws: The settings file's error: the unit typed depends on it.
  @MainActor
  private static func distanceUnit(_ context: Context) throws -> DistanceUnit {
    try context.settings().distanceUnit
  }

  /// The unit chosen in the settings, for showing distances: kilometers, with a warning, when
  /// the settings file cannot be read or its unit is not valid — a settings problem does not
  /// stop a command that only shows distances.
  @MainActor
  private static func shownUnit(_ context: Context) -> DistanceUnit {
    do {
      let settings = try context.settings()
      if let current = SettingsCommands.Current.named("distanceUnit", in: settings) {
        SettingsCommands.warnIfInvalid(current, context)
      }
      return settings.distanceUnit
    } catch {
      context.output.message(
        "diary: warning: \(Terminal.escaped("\(error)")); distances are shown in kilometers")
      return .kilometers
    }
  }

  /// "5.20 km", "3.23 mi".
  private static func format(_ kilometers: Double, _ unit: DistanceUnit) -> String {
    String(format: "%.2f", unit.convert(kilometers: kilometers)) + " " + unit.symbol
  }
}

extension Workout.Complexity: Choice {
  var names: [String] { [name] }
  static var placeholder: String { "LEVEL" }
}
