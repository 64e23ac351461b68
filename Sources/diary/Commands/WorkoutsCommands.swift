import Foundation
import Stores

/// `diary workouts …`: the workouts diary.
enum WorkoutsCommands {
  static let group = CommandGroup(
    name: "workouts", summary: "Keep a diary of workouts.",
    commands: [
      Command(
        name: "list", summary: "List the workouts, numbered, distances in your distance unit.",
        run: list),
      Command(
        name: "add", summary: "Add a workout.",
        arguments: [.init(name: "NAME", summary: "What the workout was, such as Run.")],
        options: [
          .init(
            name: "distance", valueName: "KM", summary: "The distance in kilometres, 0 to 100,000.",
            isRequired: true),
          .init(
            name: "complexity", valueName: "LEVEL", summary: "low, medium or high (default medium)."
          ),
          .init(
            name: "date", valueName: "DATE",
            summary: "YYYY-MM-DD, today, yesterday or ISO 8601 (default now)."),
        ],
        discussion: """
          While the list is sorted (see 'diary workouts sort'), a new workout goes to its sorted place.
          Example: diary workouts add "Morning run" --distance 5.2 --complexity high
          """,
        run: add),
      Command(
        name: "remove", summary: "Remove workouts.",
        arguments: [.init(name: "N", summary: "The numbers of the workouts.", isRepeated: true)],
        run: remove),
      Command(
        name: "sort", summary: "Sort by distance or complexity, largest first, and keep it sorted.",
        arguments: [.init(name: "BY", summary: "distance or complexity.")],
        run: sort),
      Command(
        name: "stats",
        summary: "Show totals: count, distance, longest, per complexity and per week.",
        run: stats),
    ])

  @MainActor
  private static func list(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let store = try context.workouts()
    let workouts = store.state.workouts
    if context.json { return try JSONOutput.encode(workouts.numbered) }
    guard !workouts.isEmpty else {
      return "No workouts yet. Add one with: diary workouts add Run --distance 5"
    }
    let unit = try distanceUnit(context)
    var table = TextTable(
      headers: ["#", "DATE", "DISTANCE", "COMPLEXITY", "NAME"],
      alignments: [.right, .left, .right, .left, .left])
    for (index, workout) in workouts.enumerated() {
      table.rows.append([
        "\(index + 1)", HumanDate.format(workout.date, timeZone: context.timeZone),
        format(workout.distance, unit), workout.complexity.name, workout.name,
      ])
    }
    let sorted =
      store.state.sortType.map { "Sorted by \($0.rawValue), \(firstOf($0)) first.\n" } ?? ""
    return sorted + table.render(context.terminal)
  }

  @MainActor
  private static func add(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let distance = try Values.distance(parsed.option("distance") ?? "")
    let complexity =
      try parsed.option("complexity").map { name in
        guard let complexity = Workout.Complexity(name: name.lowercased()) else {
          throw DiaryError(
            "invalid complexity '\(Terminal.escaped(name))': use low, medium or high"
              + Suggestion.phrase(for: name, among: Workout.Complexity.allCases.map(\.name)))
        }
        return complexity
      } ?? .medium
    let date = try parsed.option("date").map { try Values.date($0, in: context) } ?? context.now
    let workout = try Workout(
      name: parsed.arguments[0], distance: distance, date: date, complexity: complexity)
    // Everything that can fail is read before the write: a failed command changes nothing.
    let unit = context.json ? .kilometers : try distanceUnit(context)
    let store = try context.workouts()
    try store.trySend(.addWorkout(workout))
    let number = (store.state.workouts.lastIndex { $0.id == workout.id } ?? 0) + 1
    if context.json { return try JSONOutput.encode(Numbered(number: number, item: workout)) }
    return "Added workout \(number): \(Terminal.escaped(workout.name)), "
      + format(workout.distance, unit)
  }

  @MainActor
  private static func remove(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let store = try context.workouts()
    let workouts = store.state.workouts
    let picked = try Values.offsets(parsed.arguments, count: workouts.count, of: "workouts").map {
      (number: $0 + 1, id: workouts[$0].id)
    }
    try store.trySend(.removeWorkouts(ids: Set(picked.map(\.id)))) { state in
      try Values.requireStillThere(picked, in: state.workouts.map(\.id), of: "workouts")
    }
    if context.json { return try JSONOutput.encode(store.state.workouts.numbered) }
    return "Removed \(picked.count == 1 ? "1 workout" : "\(picked.count) workouts")."
  }

  @MainActor
  private static func sort(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    guard let sortType = WorkoutsStore.SortType(rawValue: parsed.arguments[0].lowercased()) else {
      throw DiaryError(
        "cannot sort by '\(Terminal.escaped(parsed.arguments[0]))': use distance or complexity"
          + Suggestion.phrase(
            for: parsed.arguments[0], among: WorkoutsStore.SortType.allCases.map(\.rawValue)),
        exitCode: .usage, usage: parsed.usage)
    }
    let store = try context.workouts()
    try store.trySend(.sort(by: sortType))
    if context.json { return try JSONOutput.encode(store.state.workouts.numbered) }
    return
      "Sorted by \(sortType.rawValue), \(firstOf(sortType)) first; new workouts go to their place."
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
    var longestDistance: Double?
    var countByComplexity: [String: Int]
    var weeks: [Week]
  }

  @MainActor
  private static func stats(_ parsed: ParsedCommand, _ context: Context) throws -> String {
    let statistics = try context.workouts().state.statistics(timeZone: context.timeZone)
    if context.json {
      return try JSONOutput.encode(
        Statistics(
          count: statistics.count, totalDistance: statistics.totalDistance,
          longestDistance: statistics.longestDistance,
          countByComplexity: Dictionary(
            uniqueKeysWithValues: statistics.countByComplexity.map { ($0.key.name, $0.value) }),
          weeks: statistics.weeks.map {
            .init(year: $0.year, week: $0.week, count: $0.count, distance: $0.distance)
          }))
    }
    guard statistics.count > 0 else {
      return "No workouts yet. Add one with: diary workouts add Run --distance 5"
    }
    let unit = try distanceUnit(context)
    var lines = [
      "Workouts:       \(statistics.count)",
      "Total distance: \(format(statistics.totalDistance, unit))",
      "Longest:        \(format(statistics.longestDistance ?? 0, unit))",
      "By complexity:  "
        + Workout.Complexity.allCases.map { "\($0.name) \(statistics.countByComplexity[$0] ?? 0)" }
        .joined(separator: ", "),
      "",
    ]
    var table = TextTable(
      headers: ["WEEK", "WORKOUTS", "DISTANCE"], alignments: [.left, .right, .right])
    for week in statistics.weeks {
      table.rows.append([
        "\(week.year)-W\(week.week < 10 ? "0" : "")\(week.week)", "\(week.count)",
        format(week.distance, unit),
      ])
    }
    lines.append(table.render(context.terminal))
    return lines.joined(separator: "\n")
  }

  /// "longest" or "hardest": what a sort puts first.
  private static func firstOf(_ sortType: WorkoutsStore.SortType) -> String {
    sortType == .distance ? "longest" : "hardest"
  }

  /// The unit chosen in the settings.
  @MainActor
  private static func distanceUnit(_ context: Context) throws -> DistanceUnit {
    try context.settings().distanceUnit
  }

  /// "5.20 km", "3.23 mi".
  private static func format(_ kilometers: Double, _ unit: DistanceUnit) -> String {
    String(format: "%.2f", unit.convert(kilometers: kilometers)) + " " + unit.symbol
  }
}
