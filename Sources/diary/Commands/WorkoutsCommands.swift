import Foundation
import Stores

/// `diary workouts …`: the workouts diary.
enum WorkoutsCommands {
  static let group = CommandGroup(
    name: "workouts", summary: "Keep a diary of workouts",
    commands: [
      List.self, Add.self, Edit.self, Remove.self, Sort.self, Stats.self, Import.self, Export.self,
    ])

  /// Prints `workouts` numbered, as JSON, and records that order as the one numbers name
  /// (see ``ListedOrder``).
  @MainActor
  static func writeNumbered(_ workouts: [Workout], _ context: Context) throws {
    ListedOrder.record(workouts.lazy.map(\.id), of: .workouts, context)
    try JSONOutput.writeArray(workouts.numbered, to: context.output)
  }

  struct List: ParsableCommand {
    static let name = "list"
    static let typedByMistake = ["ls", "show"]
    static let summary = "List the workouts, numbered, distances in your distance unit"
    static let discussion = """
      TIME is the elapsed time (h:mm:ss or m:ss), followed by the moving time in parentheses \
      where it is known and shorter; SPORT is the sport's name. Each column is shown when a \
      workout has one. Where the terminal is narrow, the name gives way first, then the sport.
      """

    func run(_ context: Context) throws {
      let store = try context.workouts()
      let workouts = store.state.workouts
      if context.json { return try writeNumbered(workouts, context) }
      ListedOrder.record(workouts.lazy.map(\.id), of: .workouts, context)
      guard !workouts.isEmpty else {
        return try context.output.line(
          "No workouts yet. Add one with: diary workouts add Run --distance 5")
      }
      let unit = shownUnit(context)
      if let sortType = store.state.sortType {
        try context.output.line("Sorted by \(sortType.rawValue), \(firstOf(sortType)) first.")
      }
      // TIME and SPORT only when some workout has one: a diary without them reads as before.
      let showsTime = workouts.contains { $0.duration != nil }
      let showsSport = workouts.contains { $0.sport != nil }
      var table = TextTable(
        headers: ["#", "DATE", "DISTANCE"] + (showsTime ? ["TIME"] : [])
          + (showsSport ? ["SPORT"] : []) + ["COMPLEXITY", "NAME"],
        alignments: [.right, .left, .right] + (showsTime ? [.right] : [])
          + (showsSport ? [.left] : []) + [.left, .left])
      // The name gives way first, then the sport.
      table.givingWay = [table.headers.count - 1] + (showsSport ? [showsTime ? 4 : 3] : [])
      let timeZone = context.time.timeZone
      try table.write(workouts.indexed(), terminal: context.terminal, to: context.output) {
        index, workout in
        [
          String(index + 1), HumanDate.format(workout.date, timeZone: timeZone),
          format(workout.meters, unit),
        ]
          + (showsTime ? [workout.duration.map(format) ?? ""] : [])
          + (showsSport ? [workout.sport?.name ?? ""] : [])
          + [workout.complexity.name, workout.name]
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
      .option(\.time, "time", .time, summary: "How long it took (elapsed)"),
      .option(\.movingTime, "moving-time", .time, summary: "How long of it was spent moving"),
      .option(\.sport, "sport", .sport, summary: "What kind of workout it was"),
      .option(\.complexity, "complexity", .choice(), summary: "How hard it was"),
      .option(\.date, "date", .date, whenLeftOut: "now", summary: "When it was"),
    ]
    static let discussion = """
      While the list is sorted (see 'diary workouts sort'), a new workout goes to its sorted \
      place.
      Example: diary workouts add "Morning run" --distance 5.2km --time 28:30 --sport run
      """

    var name = ""
    var distance = TypedDistance(value: ScaledDecimal(0), unit: nil)
    var time: Double?
    var movingTime: Double?
    var sport: Sport?
    var complexity = Workout.Complexity.medium
    var date: Date?

    func run(_ context: Context) throws {
      // Everything that can fail is read before the write: a failed command changes nothing.
      // A distance typed with its unit (5km) does not need the settings: it is shown, with a
      // warning, in kilometers when they cannot be read.
      let unit = distance.unit == nil ? try distanceUnit(context) : shownUnit(context)
      let workout = try Workout(
        name: try Values.oneLine(name, "NAME"), meters: distance.meters(shownIn: unit),
        date: date ?? context.time.now, complexity: complexity,
        duration: try WorkoutsCommands.duration(
          elapsed: time, moving: movingTime, before: nil, usage: Self.usage(in: "workouts")),
        sport: sport)
      let store = try context.workouts()
      try store.trySend(.addWorkout(workout))
      let number = (store.state.workouts.lastIndex { $0.id == workout.id } ?? 0) + 1
      context.output.recordSaved("added workout \(number)")
      if context.json {
        return try JSONOutput.write(Numbered(number: number, item: workout), to: context.output)
      }
      try context.output.line(
        "Added workout \(number): \(Terminal.escaped(workout.name)), "
          + WorkoutsCommands.summary(of: workout, unit) + unitNote(distance, unit))
    }
  }

  struct Edit: ParsableCommand {
    static let name = "edit"
    static let summary =
      "Change a workout's name, distance, time, sport, date or complexity, keeping its id"
    static let arguments: [Argument<Edit>] = [
      .value(\.number, .integer(), label: "a workout number", summary: "The number of the workout")
    ]
    static let options: [Option<Edit>] = [
      .option(\.name, "name", .text("NAME"), summary: "The new name, on one line"),
      .option(\.distance, "distance", .distance, summary: "The new distance"),
      .option(\.time, "time", .time, summary: "The new elapsed time"),
      .option(
        \.movingTime, "moving-time", .time,
        summary: "The new moving time (a new --time alone drops the old one)"),
      .option(\.sport, "sport", .sport, summary: "The new sport"),
      .option(\.date, "date", .date, summary: "The new date"),
      .option(\.complexity, "complexity", .choice(), summary: "The new complexity"),
    ]
    static let discussion = """
      While the list is sorted, the workout moves to its sorted place: the new number is shown.
      Example: diary workouts edit 2 --distance 5.5km --time 31:05 --sport run --name "Easy jog"
      """

    var number = 0
    var name: String?
    var distance: TypedDistance?
    var time: Double?
    var movingTime: Double?
    var sport: Sport?
    var date: Date?
    var complexity: Workout.Complexity?

    func run(_ context: Context) throws {
      guard
        name != nil || distance != nil || time != nil || movingTime != nil || sport != nil
          || date != nil || complexity != nil
      else {
        throw DiaryError.usage(
          "nothing to change: give --name, --distance, --time, --moving-time, --sport, --date "
            + "or --complexity",
          Self.usage(in: "workouts"))
      }
      if let name { _ = try Values.oneLine(name, "--name") }
      let unit = try distanceUnit(context)
      let store = try context.workouts()
      let workouts = store.state.workouts
      try ListedOrder.requireUnchanged(workouts.lazy.map(\.id), of: .workouts, context)
      let offset = try Values.offsets([number], count: workouts.count, of: "workouts")[0]
      let before = workouts[offset]
      let after = try Workout(
        id: before.id, name: name ?? before.name,
        meters: distance?.meters(shownIn: unit) ?? before.meters,
        date: date ?? before.date, complexity: complexity ?? before.complexity,
        duration: try WorkoutsCommands.duration(
          elapsed: time, moving: movingTime, before: before.duration,
          usage: Self.usage(in: "workouts")),
        sport: sport ?? before.sport)
      try store.trySend(.updateWorkout(after)) { state in
        try Values.requireStillThere(
          [(number, before.id)], in: state.workouts.map(\.id), of: "workouts")
        guard state.workouts.first(where: { $0.id == before.id }) == before else {
          throw DiaryError(
            "workout \(number) was changed by another process meanwhile; nothing changed — see "
              + "'diary workouts list'")
        }
      }
      let shown = (store.state.workouts.firstIndex { $0.id == after.id } ?? 0) + 1
      if after != before { context.output.recordSaved("edited workout \(shown)") }
      if context.json {
        return try JSONOutput.write(Numbered(number: shown, item: after), to: context.output)
      }
      try context.output.line(
        after == before
          ? "Workout \(shown) already is so; nothing changed."
          : "Edited workout \(shown): \(Terminal.escaped(after.name)), "
            + WorkoutsCommands.summary(of: after, unit) + ", " + after.complexity.name + ", "
            + HumanDate.format(after.date, timeZone: context.time.timeZone)
            + (distance.map { unitNote($0, unit) } ?? ""))
    }
  }

  struct Remove: ParsableCommand {
    static let name = "remove"
    static let typedByMistake = ["delete", "rm", "del"]
    static let summary = "Remove workouts"
    static let arguments: [Argument<Remove>] = [
      .list(
        \.numbers, .integer(), label: "a workout number", summary: "The numbers of the workouts")
    ]
    var numbers: [Int] = []

    func run(_ context: Context) throws {
      let store = try context.workouts()
      let workouts = store.state.workouts
      try ListedOrder.requireUnchanged(workouts.lazy.map(\.id), of: .workouts, context)
      let picked = try Values.offsets(numbers, count: workouts.count, of: "workouts").map {
        (number: $0 + 1, id: workouts[$0].id)
      }
      try store.trySend(.removeWorkouts(ids: Set(picked.map(\.id)))) { state in
        try Values.requireStillThere(picked, in: state.workouts.map(\.id), of: "workouts")
      }
      context.output.recordSaved("removed \(Values.count(picked.count, "workout"))")
      if context.json { return try writeNumbered(store.state.workouts, context) }
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
      context.recorder.forget(.workouts)
      guard let sortType = ordering.sortType else {
        context.output.recordSaved("put the workouts back in the order they were added")
        if context.json { return try writeNumbered(store.state.workouts, context) }
        return try context.output.line(
          "Not sorted any more: the workouts are in the order they were added.")
      }
      context.output.recordSaved("sorted the workouts by \(sortType.rawValue)")
      if context.json { return try writeNumbered(store.state.workouts, context) }
      try context.output.line(
        "Sorted by \(sortType.rawValue), \(firstOf(sortType)) first; new workouts go to their "
          + "place.")
    }
  }

  /// The statistics as `--json` prints them, distances in kilometres like the files, times
  /// in seconds: `count`, `totalDistance`, `totalDuration`, `longestDistance` (`null` when
  /// there are no workouts), `countByComplexity`, `sports` (each sport's `sport` — `null` for
  /// none — `count`, `distance`, `duration` and `secondsPerKilometer`, `null` without a timed
  /// distance), `weeks` (every week with workouts) and `recentWeeks` (the weeks of the chart:
  /// the last `--weeks`, with or without workouts), each week with its `duration`.
  private static func json(
    _ statistics: WorkoutStatistics, recentWeeks: [WorkoutStatistics.Week]
  ) -> JSONValue {
    func week(_ week: WorkoutStatistics.Week) -> JSONValue {
      .object([
        "year": JSONValue(week.year), "week": JSONValue(week.week),
        "count": JSONValue(week.count), "distance": JSONValue(week.distance),
        "duration": JSONValue(week.duration),
      ])
    }
    func sport(_ totals: WorkoutStatistics.SportTotals) -> JSONValue {
      .object([
        "sport": totals.sport.map { .string($0.name) } ?? .null,
        "count": JSONValue(totals.count), "distance": JSONValue(totals.distance),
        "duration": JSONValue(totals.duration),
        "secondsPerKilometer": JSONValue(totals.secondsPerKilometer, JSONValue.init),
      ])
    }
    return .object([
      "count": JSONValue(statistics.count),
      "totalDistance": JSONValue(statistics.totalDistance),
      "totalDuration": JSONValue(statistics.totalDuration),
      "longestDistance": JSONValue(statistics.longestDistance, JSONValue.init),
      "sports": .array(statistics.sports.map(sport)),
      "countByComplexity": .object(
        Dictionary(
          uniqueKeysWithValues: statistics.countByComplexity.map {
            ($0.key.name, JSONValue($0.value))
          })),
      "weeks": .array(statistics.weeks.map(week)),
      "recentWeeks": .array(recentWeeks.map(week)),
    ])
  }

  struct Stats: ParsableCommand {
    static let name = "stats"
    static let typedByMistake = ["chart", "graph", "summary", "totals", "statistics"]
    static let summary =
      "Show totals per sport, and a chart of each recent week's distance and time"
    static let options: [Option<Stats>] = [
      .option(
        \.weeks, "weeks", .integer(), summary: "How many ISO weeks the chart shows, 1 to 520"),
      .option(
        \.until, "until", .date, whenLeftOut: "today", summary: "The day whose week ends the chart"),
    ]
    static let discussion = """
      Per sport: how many, the distance, the time, and how fast — a ride's speed, a swim's \
      pace per 100 m (or 100 yd), any other sport's pace per km (or mi) — over the workouts \
      with a time and a distance, moving time where it was measured. The chart shows the \
      distance of each week in your distance unit, and its time when workouts have one, as \
      wide as the terminal, with block characters where the locale is UTF-8, else with #; \
      too narrow for bars, it shows the figures alone.
      Example: diary workouts stats --weeks 26
      """

    var weeks = 12
    var until: Date?

    func run(_ context: Context) throws {
      guard (1...520).contains(weeks) else {
        throw DiaryError("--weeks must be from 1 to 520, not \(weeks)")
      }
      let timeZone = context.time.timeZone
      let statistics = try context.workouts().state.statistics(timeZone: timeZone)
      let recent = statistics.recentWeeks(
        weeks, endingAt: until ?? context.time.now, timeZone: timeZone)
      if context.json {
        return try JSONOutput.write(
          WorkoutsCommands.json(statistics, recentWeeks: recent), to: context.output)
      }
      guard statistics.count > 0 else {
        return try context.output.line(
          "No workouts yet. Add one with: diary workouts add Run --distance 5")
      }
      let unit = shownUnit(context)
      let output = context.output
      try output.line("Workouts:       \(statistics.count)")
      try output.line("Total distance: \(format(statistics.totalDistance * 1_000, unit))")
      let timed = statistics.totalDuration > 0
      if timed {
        try output.line(
          "Total time:     \(DurationText.format(statistics.totalDuration.rounded()))")
      }
      try output.line("Longest:        \(format((statistics.longestDistance ?? 0) * 1_000, unit))")
      try output.line(
        "By complexity:  "
          + Workout.Complexity.allCases.map {
            "\($0.name) \(statistics.countByComplexity[$0] ?? 0)"
          }.joined(separator: ", "))
      if statistics.sports.contains(where: { $0.sport != nil }) {
        try output.line("")
        try output.line(sportsTable(statistics.sports, unit: unit, context.terminal))
      }
      try output.line("")
      try output.line(
        "\(timed ? "Distance and time" : "Distance") per week, the last \(Values.count(weeks, "week")):"
      )
      try chart(recent, timed: timed, unit: unit, context)
    }

    /// The totals of each sport: its name, how many, the distance, the time and the pace.
    /// Where the terminal is too narrow for them all, the pace goes, then the time — never cut
    /// short, a figure would mislead — and only then are sports' names and headers cut; the
    /// figures of the workouts and distances stay whole, in a line wider than the terminal
    /// if it must be.
    private func sportsTable(
      _ sports: [WorkoutStatistics.SportTotals], unit: DistanceUnit, _ terminal: Terminal
    ) -> String {
      var table = TextTable(
        headers: ["SPORT", "WORKOUTS", "DISTANCE", "TIME", "PACE"],
        alignments: [.left, .right, .right, .right, .left])
      table.rows = sports.map { totals in
        [
          totals.sport?.name ?? "(none)", "\(totals.count)", format(totals.distance * 1_000, unit),
          totals.duration > 0 ? DurationText.format(totals.duration.rounded()) : "",
          rate(of: totals, unit) ?? "",
        ]
      }
      table.givingWay = [0]
      table.uncut = [1, 2, 3, 4]
      while terminal.limitsWidth, table.headers.count > 3,
        table.naturalWidths(of: table.rows, limit: terminal.columns).line > terminal.columns
      {
        table.headers.removeLast()
        table.alignments.removeLast()
        table.rows = table.rows.map { Array($0.dropLast()) }
      }
      return table.render(terminal)
    }

    /// The chart of `recent` weeks: a bar of each week's distance, then the distance and,
    /// when workouts are `timed`, the time — the figures alone where the terminal is too
    /// narrow for bars of 5 columns, which could not be told apart.
    @MainActor private func chart(
      _ recent: [WorkoutStatistics.Week], timed: Bool, unit: DistanceUnit, _ context: Context
    ) throws {
      let distances = recent.map { format($0.distance * 1_000, unit) }
      let times = recent.map { timed ? DurationText.format($0.duration.rounded()) : "" }
      let (distanceWidth, timeWidth) = (
        distances.map(\.count).max() ?? 0, times.map(\.count).max() ?? 0
      )
      let valuesWidth = distanceWidth + (timed ? 2 + timeWidth : 0)
      let barWidth = context.terminal.columns - 8 - valuesWidth - 4
      let longest = recent.map(\.distance).max() ?? 0
      func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: width - text.count) + text
      }
      for (week, (distance, time)) in zip(recent, zip(distances, times)) {
        var line = "\(week.year)-W\(week.week < 10 ? "0" : "")\(week.week)  "
        if barWidth >= 5 {
          line +=
            BarChart.bar(
              week.distance, of: longest, width: barWidth, blocks: context.terminal.showsBlocks
            ).padding(toLength: barWidth, withPad: " ", startingAt: 0) + "  "
        }
        line += padded(distance, distanceWidth) + (timed ? "  " + padded(time, timeWidth) : "")
        try context.output.line(line)
      }
    }
  }

  /// How fast the workouts of `totals` went, as their sport is told: a ride's speed
  /// ("26.7 km/h", "16.6 mph"), a swim's pace per 100 metres or yards ("1:55 /100 m"), any
  /// other sport's pace per kilometre or mile ("5:32 /km") — yards and miles where `unit` is
  /// one of them. `nil` for strength training, and without a timed distance.
  static func rate(of totals: WorkoutStatistics.SportTotals, _ unit: DistanceUnit) -> String? {
    guard totals.sport != .strength, let pace = totals.secondsPerKilometer else { return nil }
    let imperial = unit == .miles || unit == .yards
    if totals.sport == .ride {
      let speed = 3_600 / pace / (imperial ? 1.609_344 : 1)
      return String(format: "%.1f", speed) + (imperial ? " mph" : " km/h")
    }
    if totals.sport == .swim {
      // 100 yards are 0.09144 km; 100 metres 0.1 km.
      let seconds = pace * (imperial ? 0.091_44 : 0.1)
      return DurationText.format(seconds.rounded()) + (imperial ? " /100 yd" : " /100 m")
    }
    return DurationText.format((pace * (imperial ? 1.609_344 : 1)).rounded())
      + (imperial ? " /mi" : " /km")
  }

  /// What `--unit` takes: `km`, `mi`, `m` or `yd` (or the units' other names).
  enum BareUnit: Choice {
    case km, mi, m, yd

    var names: [String] { [unit.symbol] + unit.spellings }

    var unit: DistanceUnit {
      switch self {
      case .km: .kilometers
      case .mi: .miles
      case .m: .meters
      case .yd: .yards
      }
    }
  }

  /// The mappings `--from` knows.
  enum Source: Choice {
    case strava, garmin

    var names: [String] { self == .strava ? ["strava"] : ["garmin"] }
  }

  /// What `--decimal` takes.
  enum DecimalChoice: Choice {
    case comma, point

    var names: [String] { self == .comma ? ["comma"] : ["point"] }
    var mark: WorkoutsImportOptions.DecimalMark { self == .comma ? .comma : .point }
  }

  struct Import: ParsableCommand {
    static let name = "import"
    static let summary = "Add the workouts of CSV or GPX files; what the diary has is skipped"
    static let arguments: [Argument<Import>] = [
      .list(
        \.files, .text("FILE"), label: "a file",
        summary: "CSV files (UTF-8), GPX files, or folders of them; - reads standard input")
    ]
    static let options: [Option<Import>] = [
      .option(
        \.source, "from", .choice(),
        summary:
          "The columns of an app's export: strava for Strava's activities.csv, garmin for "
          + "Garmin Connect's activities CSV"),
      .repeated(
        \.columns, "column", .column,
        summary: "The column that holds a field, such as --column name=\"Activity Name\""),
      .option(
        \.unit, "unit", .choice(), whenLeftOut: "km",
        summary: "What a distance without a unit is in"),
      .option(
        \.dateFormat, "date-format", .datePattern,
        summary: "How the file writes dates, such as %d/%m/%Y or %b %d, %Y, %I:%M:%S %p"),
      .option(
        \.decimal, "decimal", .choice(),
        summary: "The decimal mark of the file's numbers, where 1,500 could be 1.5 or 1500"),
      .flag(
        \.skipInvalid, "skip-invalid",
        summary: "Import the valid rows, and list each row left out with its problem"),
      .flag(\.verbose, "verbose", summary: "List every row skipped and every column ignored"),
    ]
    static let discussion = """
      CSV: the header names the columns, in any order, separated by commas, semicolons or \
      tabs. name and distance are required; date, complexity (low, medium, high), sport, \
      time, movingTime and id are optional; other columns are ignored and named. Strava's \
      activities.csv and Garmin Connect's activities CSV are told by their header (--from \
      says so when a header does not tell). Distances are typed as for 'diary workouts add' \
      (5.2, 5km, 1500 m, 3.1 mi; 10,02 and 1,500.5 too), in the unit of a header such as \
      "Distance (km)", else of --unit; dates as for --date, or YYYY-MM-DD HH:MM[:SS], or as \
      --date-format says (%Y %m %d %b %H %I %M %S %p).
      GPX: one workout per track: the distance along its points, the time of the first, the \
      track's name or else the file's.
      A bad row adds nothing: every problem is listed with its line and column; with \
      --skip-invalid the other rows are added and each bad one is listed. A workout faster, \
      slower or longer than people do in its sport is added and flagged. A row whose id is in \
      the diary, or without an id but with the date, name and distance of a workout in it, \
      is skipped: importing a file twice adds nothing the second time. 'diary workouts \
      export' writes such a file.
      Example: diary workouts import activities.csv
      """
    var files: [String] = []
    var source: Source?
    var columns: [(WorkoutsImportOptions.Field, String)] = []
    var unit: BareUnit?
    var dateFormat: DatePattern?
    var decimal: DecimalChoice?
    var skipInvalid = false
    var verbose = false

    /// The import's options: `--from`'s, then each `--column`, `--unit` and `--date-format`.
    func options(_ timeZone: TimeZone) -> WorkoutsImportOptions {
      var options =
        switch source {
        case .strava: WorkoutsImportOptions.strava()
        case .garmin: WorkoutsImportOptions.garmin(timeZone: timeZone)
        case nil: WorkoutsImportOptions(timeZone: timeZone)
        }
      for (field, header) in columns { options.columns[field] = header }
      options.unit = unit?.unit
      if let dateFormat { options.dateFormat = dateFormat }
      options.decimalMark = decimal?.mark
      options.skipsInvalidRows = skipInvalid
      return options
    }

    /// The files to read: `-` is standard input (``WorkoutsImporter/standardInput``: read
    /// from its current offset, its flags untouched), which must not be the terminal and is
    /// read once.
    ///
    /// - Throws: For `-` given twice (exit 64: the second would read nothing); for `-` on a
    ///   terminal, a device such as /dev/null or a folder (exit 66), where nothing would ever
    ///   be read.
    func urls() throws -> [URL] {
      guard files.count(where: { $0 == "-" }) < 2 else {
        throw DiaryError.usage(
          "- (standard input) is given twice, but it can be read only once: give it once, "
            + "or save the input to a file and import that", Self.usage(in: "workouts"))
      }
      return try files.map { file in
        guard file == "-" else { return URL(fileURLWithPath: file) }
        guard isatty(STDIN_FILENO) != 1 else {
          throw DiaryError(
            "- reads the workouts from standard input, which is the terminal: pipe a file in, "
              + "such as diary workouts import - < activities.csv", exitCode: .noInput)
        }
        // /dev/null (also what a closed standard input is reopened as) or a folder: the
        // file's "remove it or choose another path" would not help.
        var info = stat()
        let type = fstat(STDIN_FILENO, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard type == S_IFREG || type == S_IFIFO || type == S_IFSOCK else {
          throw DiaryError(
            "- reads the workouts from standard input, which is a device or a folder, not a "
              + "file, pipe or socket: pipe a file in, such as diary workouts import - < "
              + "activities.csv", exitCode: .noInput)
        }
        return WorkoutsImporter.standardInput
      }
    }

    func run(_ context: Context) throws {
      let unitShown = try distanceUnit(context)
      var importer = try WorkoutsImporter(
        files: try urls(), options: options(context.time.timeZone))
      let started = ContinuousClock.now
      let imported = try readAll(&importer, context, started: started)
      context.output.progress("")
      let store = try context.workouts()
      // Never nil: the import goes on to its end.
      guard let imported else { return }
      try store.trySend(.finishImport(imported))
      guard case .finished(let summary) = store.state.importStatus else { return }
      try report(summary, unitShown: unitShown, context)
    }

    /// Reads every file, with a progress bar on a terminal for an import that takes long.
    ///
    /// - Throws: The import's error, with how to import the valid rows where that helps.
    @MainActor
    private func readAll(
      _ importer: inout WorkoutsImporter, _ context: Context, started: ContinuousClock.Instant
    ) throws -> WorkoutsImport? {
      do throws(WorkoutsImportError) {
        return try importer.readAll(
          rowsPerPart: 5_000, now: { context.time.now }, makeID: UUID.init,
          goOn: { progress in
            // A bar only for a file that takes long.
            if ContinuousClock.now - started > .milliseconds(300) {
              let filled = Int(progress.fraction * 30)
              context.output.progress(
                "Importing [\(String(repeating: "#", count: filled))"
                  + "\(String(repeating: " ", count: 30 - filled))] \(progress.rows) workouts")
            }
            return true
          })
      } catch {
        context.output.progress("")
        var failure = DiaryError(error)
        guard error.isInRows, !skipInvalid else { throw failure }
        if case .invalidRows = error.problem {
          failure.message += "\n  (--skip-invalid imports the valid rows and lists these)"
        } else {
          failure.message += " (--skip-invalid imports the valid rows)"
        }
        throw failure
      }
    }

    /// Prints what the import added, left out, flagged and did not read.
    @MainActor
    private func report(
      _ summary: WorkoutsImportSummary, unitShown: DistanceUnit, _ context: Context
    ) throws {
      context.output.recordSaved("imported \(Values.count(summary.added, "workout"))")
      if unit == nil, unitShown != .kilometers, summary.added > 0,
        summary.distancesWithoutUnit > 0
      {
        context.output.message(
          "note: \(Values.count(summary.distancesWithoutUnit, "distance")) without a unit "
            + (summary.distancesWithoutUnit == 1 ? "was" : "were")
            + " read as kilometres, though your distanceUnit is \(unitShown.rawValue); if they "
            + "are \(unitShown.rawValue), import with --unit \(unitShown.symbol)")
      }
      if context.json {
        return try JSONOutput.write(WorkoutsCommands.json(summary), to: context.output)
      }
      try context.output.line(
        "Added \(Values.count(summary.added, "workout")) from \(Terminal.escaped(summary.file))"
          + (summary.recognized.map { ", read as \($0.exportName) (told by its header)" } ?? "")
          + ".")
      func place(_ file: String?, _ line: Int, _ column: Int? = nil) -> String {
        "  " + (file.map { Terminal.escaped($0) + ": " } ?? "") + "line \(line)"
          + (column.map { ", column \($0)" } ?? "") + ": "
      }
      // Rows left out as not valid are listed (the first ones, unless --verbose): each is a
      // workout the diary does not have.
      let invalid = summary.skipped.filter(\.isInvalid)
      if !invalid.isEmpty {
        let shown = verbose ? invalid : Array(invalid.prefix(WorkoutsImporter.problemsListed))
        try context.output.line(
          "Left out \(Values.count(invalid.count, "row")) that "
            + (invalid.count == 1 ? "is" : "are") + " not valid:")
        for row in shown {
          try context.output.line(
            place(row.file, row.line, row.column) + Terminal.escaped(row.reason))
        }
        if shown.count < invalid.count {
          try context.output.line(
            "  … and \(invalid.count - shown.count) more (--verbose lists them)")
        }
      }
      let others = summary.skipped.filter { !$0.isInvalid }
      if !others.isEmpty {
        let inDiary = others.count(where: \.isInDiary)
        let repeated = others.count - inDiary
        let reasons = [
          inDiary > 0 ? "\(inDiary) already in the diary" : nil,
          repeated > 0 ? "\(repeated) repeating an earlier row's id" : nil,
        ].compactMap { $0 }
        try context.output.line(
          "Skipped \(Values.count(others.count, "row")): "
            + reasons.joined(separator: ", ") + (verbose ? ":" : " (--verbose lists them)."))
        if verbose {
          for row in others {
            try context.output.line(place(row.file, row.line) + row.reason)
          }
        }
      }
      if !summary.flagged.isEmpty {
        let flagged = summary.flagged
        let shown = verbose ? flagged : Array(flagged.prefix(WorkoutsImporter.problemsListed))
        try context.output.line(
          "Flagged \(Values.count(flagged.count, "workout")) outside what people do "
            + "(added; check \(flagged.count == 1 ? "it" : "them")):")
        for row in shown {
          try context.output.line(place(row.file, row.line) + Terminal.escaped(row.reason))
        }
        if shown.count < flagged.count {
          try context.output.line(
            "  … and \(flagged.count - shown.count) more (--verbose lists them)")
        }
      }
      let ignored = summary.ignoredColumns
      if !ignored.isEmpty {
        // A few names on one line; --verbose names them all.
        let shown = verbose || ignored.count <= 6 ? ignored : Array(ignored.prefix(5))
        try context.output.line(
          "Ignored \(Values.count(ignored.count, "column")): "
            + shown.map { Terminal.escaped($0) }.joined(separator: ", ")
            + (shown.count < ignored.count
              ? " and \(ignored.count - shown.count) more (--verbose names them)." : "."))
      }
    }
  }

  /// What `workouts import --json` prints: `file`, `added`, `skipped` (each row's `line` and
  /// `reason`, its `column` when it is not valid, and its `file` when the import read
  /// several), `flagged` (each workout's `line`, `reason`, `id` and `file`), `ignoredColumns`,
  /// `distancesWithoutUnit` and `recognized` (`strava`, `garmin` or `null`).
  private static func json(_ summary: WorkoutsImportSummary) -> JSONValue {
    .object([
      "file": JSONValue(summary.file),
      "added": JSONValue(summary.added),
      "skipped": .array(
        summary.skipped.map { row in
          var skipped = ["line": JSONValue(row.line), "reason": JSONValue(row.reason)]
          if let file = row.file { skipped["file"] = JSONValue(file) }
          if let column = row.column { skipped["column"] = JSONValue(column) }
          return .object(skipped)
        }),
      "flagged": .array(
        summary.flagged.map { row in
          var flagged = [
            "line": JSONValue(row.line), "reason": JSONValue(row.reason),
            "id": JSONValue(row.id.uuidString),
          ]
          if let file = row.file { flagged["file"] = JSONValue(file) }
          return .object(flagged)
        }),
      "ignoredColumns": .array(summary.ignoredColumns.map(JSONValue.init)),
      "distancesWithoutUnit": JSONValue(summary.distancesWithoutUnit),
      "recognized": JSONValue(summary.recognized?.rawValue, JSONValue.init),
    ])
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
      if context.json { return try writeNumbered(workouts, context) }
      let csv = WorkoutsCSV.export(workouts)
      guard context.terminal.isTerminal else { return try context.output.write(csv) }
      // On a terminal, what a name holds is shown, never obeyed: each line escaped.
      for line in csv.split(separator: "\r\n") {
        try context.output.line(Terminal.escaped(String(line)))
      }
    }
  }

  /// " (5 read in miles, your distanceUnit)" for a distance typed without a unit, which is in
  /// the unit of the settings — another device may have changed it; nothing for one typed
  /// with its unit.
  private static func unitNote(_ distance: TypedDistance, _ unit: DistanceUnit) -> String {
    guard distance.unit == nil else { return "" }
    return " (\(distance.value.text) read in \(unit.rawValue), your distanceUnit)"
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

  /// "5.20 km", "3.23 mi", "1500 m", "1650 yd": hundredths of kilometres and miles, whole
  /// metres and yards.
  private static func format(_ meters: Double, _ unit: DistanceUnit) -> String {
    let value = unit.convert(meters: meters)
    switch unit {
    case .kilometers, .miles: return String(format: "%.2f", value) + " " + unit.symbol
    case .meters, .yards: return String(format: "%.0f", value) + " " + unit.symbol
    }
  }

  /// "45:00", "1:02:03 (58:40)": the elapsed time, then the moving time where it is shorter.
  private static func format(_ duration: WorkoutDuration) -> String {
    let elapsed = DurationText.format(duration.elapsed)
    guard let moving = duration.moving, moving < duration.elapsed else { return elapsed }
    return elapsed + " (" + DurationText.format(moving) + ")"
  }

  /// "5.20 km, 28:30, run": the distance, and the time and sport where known.
  private static func summary(of workout: Workout, _ unit: DistanceUnit) -> String {
    ([format(workout.meters, unit)]
      + [workout.duration.map(format), workout.sport.map { Terminal.escaped($0.name) }]
      .compactMap { $0 }).joined(separator: ", ")
  }

  /// The duration typed as `--time` `elapsed` and `--moving-time` `moving`, in place of
  /// `before` (an edited workout's): a new elapsed time alone drops the old moving time,
  /// which it may be shorter than; a moving time alone keeps the elapsed time.
  ///
  /// - Throws: When the times are not a valid duration (exit 65), or a moving time has no
  ///   elapsed time beside it (exit 64).
  private static func duration(
    elapsed: Double?, moving: Double?, before: WorkoutDuration?, usage: String
  ) throws -> WorkoutDuration? {
    guard elapsed != nil || moving != nil else { return before }
    guard let total = elapsed ?? before?.elapsed else {
      throw DiaryError.usage(
        "--moving-time needs --time, the elapsed time: give both, such as --time 45:00 "
          + "--moving-time 42:10", usage)
    }
    do {
      return try WorkoutDuration(elapsed: total, moving: moving)
    } catch {
      throw DiaryError("\(error); give --time and --moving-time such as 45:00 and 42:10")
    }
  }
}

extension Workout.Complexity: Choice {
  var names: [String] { [name] }
  static var placeholder: String { "LEVEL" }
}
