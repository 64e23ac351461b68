import Foundation
import StoreTesting
import Stores
import Testing

/// A plain, obviously correct model of the workouts reducer: the workouts in the order they
/// were added and the sort; the list shown is computed from them.
struct WorkoutsModel: Equatable {
  var added: [Workout] = []
  var sortType: WorkoutsStore.SortType?

  static func key(_ workout: Workout, _ sortType: WorkoutsStore.SortType) -> Double {
    switch sortType {
    case .distance: workout.distance
    case .complexity: Double(workout.complexity.rawValue)
    case .date: workout.date.timeIntervalSinceReferenceDate
    }
  }

  /// The list shown: the order added, stably sorted by descending key while sorted.
  var shown: [Workout] {
    guard let sortType else { return added }
    return added.enumerated().sorted {
      Self.key($0.element, sortType) != Self.key($1.element, sortType)
        ? Self.key($0.element, sortType) > Self.key($1.element, sortType) : $0.offset < $1.offset
    }.map(\.element)
  }

  static func apply(_ action: WorkoutsStore.Action, to model: WorkoutsModel) -> WorkoutsModel {
    var model = model
    switch action {
    case .addWorkout(let workout):
      if !model.added.contains(where: { $0.id == workout.id }) { model.added.append(workout) }
    case .addWorkouts(let workouts):
      for workout in workouts where !model.added.contains(where: { $0.id == workout.id }) {
        model.added.append(workout)
      }
    case .updateWorkout(let workout):
      if let index = model.added.firstIndex(where: { $0.id == workout.id }) {
        model.added[index] = workout
      }
    case .removeWorkouts(let ids):
      model.added.removeAll { ids.contains($0.id) }
    case .removeWorkoutsAtOffsets(let offsets):
      let shown = model.shown
      let ids = Set(offsets.filter { $0 < shown.count }.map { shown[$0].id })
      model.added.removeAll { ids.contains($0.id) }
    case .sort(let sortType):
      model.sortType = sortType
    case .finishImport(let imported):
      // Rows without an id are left out when a workout from before the import has their
      // date, name and distance (name and distance for rows without a date).
      let before = model.added
      var taken = Set(before.map(\.id))
      for row in imported.rows {
        let workout = row.workout
        let isThere = before.contains {
          $0.name == workout.name && $0.distance == workout.distance
            && (!row.hasDate || $0.date == workout.date)
        }
        if !row.hasID, isThere { continue }
        if taken.insert(workout.id).inserted { model.added.append(workout) }
      }
    case .importWorkouts, .cancelImport, .importProgress, .failImport:
      break  // The import status only, which the model leaves out.
    case .restoreWorkouts(let runs):
      var taken = Set(model.added.map(\.id))
      model.added = RunsModel.restore(runs, in: model.added) { taken.insert($0.id).inserted }
    case .discardWorkouts(let workouts):
      for workout in workouts {
        if let index = model.added.lastIndex(of: workout) { model.added.remove(at: index) }
      }
    case .discardWorkout(let workout):
      if let index = model.added.lastIndex(of: workout) { model.added.remove(at: index) }
    case .editWorkout(let edit):
      if let index = model.added.firstIndex(where: { $0.id == edit.to.id }) {
        let old = model.added[index]
        model.added[index] = try! Workout(
          id: old.id, name: old.name == edit.from.name ? edit.to.name : old.name,
          meters: old.meters == edit.from.meters ? edit.to.meters : old.meters,
          date: old.date == edit.from.date ? edit.to.date : old.date,
          complexity: old.complexity == edit.from.complexity ? edit.to.complexity : old.complexity,
          duration: old.duration == edit.from.duration ? edit.to.duration : old.duration,
          sport: old.sport == edit.from.sport ? edit.to.sport : old.sport)
      }
    case .restoreSort(let sortType, let replacing):
      if model.sortType == replacing { model.sortType = sortType }
    }
    return model
  }

  /// The model of a store's state.
  init(_ state: WorkoutsStore.State) {
    added = state.workoutsInAddedOrder
    sortType = state.sortType
  }

  init(added: [Workout], sortType: WorkoutsStore.SortType?) {
    self.added = added
    self.sortType = sortType
  }
}

@MainActor
@Suite("WorkoutsStore")
struct WorkoutsStoreTests {
  static let statesAndActions = Gen<
    ([Workout], WorkoutsStore.SortType?, [WorkoutsStore.Action])
  >.zip(
    .workouts(maxCount: 10),
    Gen<WorkoutsStore.SortType>.element(of: WorkoutsStore.SortType.allCases).optional,
    Gen<WorkoutsStore.Action>.workoutAction().array(maxCount: 12))

  let folder = TemporaryFolder()

  @Test("the store agrees with the model after every action, and notifies once per change")
  func modelBased() {
    check(Self.statesAndActions) { workouts, sortType, actions in
      let store = WorkoutsStore(workouts: workouts)
      if let sortType { store.send(.sort(by: sortType)) }
      try requireAgreement(
        of: store, with: WorkoutsModel(added: workouts, sortType: sortType),
        after: actions, apply: WorkoutsModel.apply, observe: { WorkoutsModel($0.state) })
      try requireEqual(
        store.state.workouts, WorkoutsModel(store.state).shown, "the list shown is the sorted one")
    }
  }

  @Test("clearing the sort puts the workouts back in the order they were added")
  func clearingTheSort() throws {
    let five = try Workout(name: "Five", distance: 5, complexity: .high)
    let ten = try Workout(name: "Ten", distance: 10, complexity: .low)
    let three = try Workout(name: "Three", distance: 3, complexity: .medium)
    var state = WorkoutsStore.State(workouts: [five, ten, three])
    #expect(WorkoutsStore.reduce(&state, .sort(by: .distance)))
    #expect(state.workouts.map(\.name) == ["Ten", "Five", "Three"])
    #expect(WorkoutsStore.reduce(&state, .sort(by: .complexity)))
    #expect(state.workouts.map(\.name) == ["Five", "Three", "Ten"])
    #expect(WorkoutsStore.reduce(&state, .sort(by: nil)))
    #expect(state.workouts.map(\.name) == ["Five", "Ten", "Three"])
    #expect(state.sortType == nil)
    #expect(!WorkoutsStore.reduce(&state, .sort(by: nil)), "clearing twice changes nothing")
  }

  @Test("sorting by date puts the newest first; equal ones keep the order they were added")
  func sortingByDate() throws {
    let day = { (day: Double) in Date(timeIntervalSinceReferenceDate: day * 86_400) }
    let old = try Workout(name: "Old", distance: 1, date: day(1))
    let new = try Workout(name: "New", distance: 1, date: day(3))
    let alsoOld = try Workout(name: "Also old", distance: 1, date: day(1))
    var state = WorkoutsStore.State(workouts: [old, new, alsoOld], sortType: .date)
    #expect(state.workouts.map(\.name) == ["New", "Old", "Also old"])
    WorkoutsStore.reduce(
      &state, .addWorkout(try Workout(name: "Middle", distance: 1, date: day(2))))
    #expect(state.workouts.map(\.name) == ["New", "Middle", "Old", "Also old"])
  }

  @Test("while a sort type is set, the list stays sorted by it after every action")
  func staysSorted() {
    check(Self.statesAndActions) { workouts, sortType, actions in
      var state = WorkoutsStore.State(workouts: workouts, sortType: sortType)
      for action in actions {
        WorkoutsStore.reduce(&state, action)
        guard let sortType = state.sortType else { continue }
        let keys = state.workouts.map { WorkoutsModel.key($0, sortType) }
        try require(zip(keys, keys.dropFirst()).allSatisfy(>=), "sorted after \(action)")
      }
    }
  }

  @Test("sorting is a stable permutation, numeric, and a second sort changes nothing")
  func sorting() {
    let cases = Gen<([Workout], WorkoutsStore.SortType)>.zip(
      .workouts(maxCount: 12), .element(of: WorkoutsStore.SortType.allCases))
    check(cases) { workouts, sortType in
      var state = WorkoutsStore.State(workouts: workouts)
      try require(WorkoutsStore.reduce(&state, .sort(by: sortType)))
      try requireEqual(
        state.workouts, WorkoutsModel(added: workouts, sortType: sortType).shown)
      try require(!WorkoutsStore.reduce(&state, .sort(by: sortType)), "sorting twice")
    }
    var state = WorkoutsStore.State()
    for distance in [9.0, 10, 2.5, 100] {
      WorkoutsStore.reduce(&state, .addWorkout(try! Workout(name: "Run", distance: distance)))
    }
    WorkoutsStore.reduce(&state, .sort(by: .distance))
    #expect(state.workouts.map(\.distance) == [100, 10, 9, 2.5])
  }

  @Test("removal keeps the order of the others")
  func removal() {
    let cases = Gen<([Workout], IndexSet)>.zip(
      .workouts(maxCount: 12), .offsets(in: 14, includingOutOfRange: true))
    check(cases) { workouts, offsets in
      var state = WorkoutsStore.State(workouts: workouts)
      WorkoutsStore.reduce(&state, .removeWorkoutsAtOffsets(offsets))
      return state.workouts
        == workouts.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
    }
  }

  @Test("the reducer is pure: equal inputs, equal outputs; the store is the fold")
  func purity() {
    check(Self.statesAndActions) { workouts, sortType, actions in
      var first = WorkoutsStore.State(workouts: workouts, sortType: sortType)
      var second = first
      let store = WorkoutsStore(workouts: workouts)
      if let sortType { store.send(.sort(by: sortType)) }
      for action in actions {
        let firstChanged = WorkoutsStore.reduce(&first, action)
        let secondChanged = WorkoutsStore.reduce(&second, action)
        try requireEqual(first, second)
        try requireEqual(firstChanged, secondChanged)
        store.send(action)
      }
      try requireEqual(store.state, first)
    }
  }

  @Test("statistics agree with a direct computation")
  func statistics() {
    check(Gen<[Workout]>.workouts(maxCount: 12)) { workouts in
      let utc = TimeZone(identifier: "UTC")!
      let statistics = WorkoutsStore.State(workouts: workouts).statistics(timeZone: utc)
      try requireEqual(statistics.count, workouts.count)
      try require(abs(statistics.totalDistance - workouts.map(\.distance).reduce(0, +)) < 1e-9)
      try requireEqual(statistics.longestDistance, workouts.map(\.distance).max())
      for complexity in Workout.Complexity.allCases {
        try requireEqual(
          statistics.countByComplexity[complexity],
          workouts.filter { $0.complexity == complexity }.count)
      }
      try requireEqual(statistics.weeks.map(\.count).reduce(0, +), workouts.count)
      var calendar = Calendar(identifier: .iso8601)
      calendar.timeZone = utc
      for week in statistics.weeks {
        let members = workouts.filter {
          calendar.component(.weekOfYear, from: $0.date) == week.week
            && calendar.component(.yearForWeekOfYear, from: $0.date) == week.year
        }
        try requireEqual(members.count, week.count)
      }
      try require(
        zip(statistics.weeks, statistics.weeks.dropFirst()).allSatisfy {
          ($0.year, $0.week) < ($1.year, $1.week)
        })
      // Time: in total, per week and per sport.
      func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
      func elapsed(_ members: [Workout]) -> Double {
        members.map { $0.duration?.elapsed ?? 0 }.reduce(0, +)
      }
      try require(close(statistics.totalDuration, elapsed(workouts)))
      try require(
        close(statistics.weeks.map(\.duration).reduce(0, +), statistics.totalDuration),
        "the weeks' times add up")
      try requireEqual(
        statistics.sports.map(\.sport),
        Array(Set(workouts.map(\.sport))).sorted { a, b in
          let order = { (sport: Sport?) -> (Int, String, String) in
            guard let sport else { return (2, "", "") }
            let known = Sport.known.firstIndex(of: sport)
            return (
              known == nil ? 1 : 0, known.map { "\($0)" } ?? sport.name.lowercased(), sport.name
            )
          }
          return order(a) < order(b)
        }, "known sports first, in order, then the others by name, then none")
      for totals in statistics.sports {
        let members = workouts.filter { $0.sport == totals.sport }
        try requireEqual(totals.count, members.count)
        try require(close(totals.distance, members.map(\.distance).reduce(0, +)))
        try require(close(totals.duration, elapsed(members)))
        let timed = members.filter { $0.duration != nil && $0.meters > 0 }
        let seconds = timed.map { $0.duration!.moving ?? $0.duration!.elapsed }.reduce(0, +)
        let kilometers = timed.map(\.distance).reduce(0, +)
        if kilometers > 0 {
          try require(totals.secondsPerKilometer.map { close($0, seconds / kilometers) } ?? false)
        } else {
          try requireEqual(totals.secondsPerKilometer, nil)
        }
      }
    }
  }

  @Test("a pace is made of the moving time where it was measured, of timed workouts only")
  func paceOfTimedWorkouts() throws {
    let workouts = [
      try Workout(
        name: "Intervals", meters: 10_000, duration: WorkoutDuration(elapsed: 3_300, moving: 3_000),
        sport: .run),
      try Workout(
        name: "Easy", meters: 5_000, duration: WorkoutDuration(elapsed: 1_800), sport: .run),
      // No time: counted in the distance, not in the pace.
      try Workout(name: "Untimed", meters: 7_000, sport: .run),
      // No distance: counted in the time, not in the pace.
      try Workout(name: "Drills", meters: 0, duration: WorkoutDuration(elapsed: 600), sport: .run),
    ]
    let run = try #require(WorkoutStatistics(workouts).sports.first)
    #expect(run.sport == .run && run.count == 4)
    #expect(run.distance == 22 && run.duration == 5_700)
    #expect(run.secondsPerKilometer == 4_800.0 / 15, "5:20 /km over 15 km in 80 minutes")
    #expect(WorkoutStatistics([workouts[2]]).sports.first?.secondsPerKilometer == nil)
  }

  @Test("ISO weeks: the days around New Year can belong to the other year's week")
  func isoWeeks() throws {
    let utc = TimeZone(identifier: "UTC")!
    func week(_ secondsSince2001: Double) throws -> (Int, Int) {
      let workout = try Workout(
        name: "Run", distance: 5, date: Date(timeIntervalSinceReferenceDate: secondsSince2001))
      let week = try #require(WorkoutStatistics([workout], timeZone: utc).weeks.first)
      return (week.year, week.week)
    }
    #expect(try week(788_832_000) == (2026, 1))  // Wednesday 2025-12-31
    #expect(try week(820_454_400) == (2026, 53))  // Friday 2027-01-01
    #expect(try week(817_630_200) == (2026, 48))  // Sunday 2026-11-29
  }

  @Test("distances convert to miles")
  func miles() {
    #expect(DistanceUnit.miles.convert(kilometers: 1.609344) == 1)
    #expect(DistanceUnit.kilometers.convert(kilometers: 5) == 5)
    #expect(abs(DistanceUnit.miles.kilometers(from: 26.2188) - 42.195) < 1e-3)
    #expect(DistanceUnit.miles.symbol == "mi")
  }

  @Test(
    "invalid workouts are refused with a clear error",
    arguments: [
      ("Run", -1.0, WorkoutError.invalidDistance(-1)),
      ("Run", .infinity, .invalidDistance(.infinity)),
      ("Run", -.infinity, .invalidDistance(-.infinity)), ("  \n ", 5, .emptyName),
      ("", 0, .emptyName),
    ])
  func invalidWorkouts(name: String, distance: Double, expected: WorkoutError) {
    #expect(throws: expected) { try Workout(name: name, distance: distance) }
    #expect(WorkoutError.emptyName.description == "a workout needs a name")
  }

  @Test("NaN is refused too, and -0 is stored as 0")
  func nanAndNegativeZero() throws {
    #expect(throws: WorkoutError.self) { try Workout(name: "Run", distance: .nan) }
    #expect(try Workout(name: "Run", distance: -0.0).distance.sign == .plus)
  }

  @Test("a callback per real change, none for a no-op")
  func callbacks() throws {
    let run = try Workout(name: "Run", distance: 5)
    let store = WorkoutsStore(workouts: [run])
    var changes: [WorkoutsStore.Action] = []
    let token = store.onChange { change, _ in change.action.map { changes.append($0) } }
    store.send(.sort(by: .distance))
    store.send(.sort(by: .distance))
    store.send(.updateWorkout(run))
    store.send(.removeWorkoutsAtOffsets([3]))
    store.send(.updateWorkout(try Workout(name: "Ghost", distance: 1)))
    store.send(.removeWorkoutsAtOffsets([0]))
    #expect(changes == [.sort(by: .distance), .removeWorkoutsAtOffsets([0])])
    token.cancel()
  }

  @Test("a fresh store on the file equals the store after any actions")
  func fileRoundTrip() throws {
    let url = folder.file("workouts.json")
    check(Self.statesAndActions, iterations: 30) { workouts, sortType, actions in
      try? FileManager.default.removeItem(at: url)
      let store = try WorkoutsStore(contentsOf: url)
      for workout in workouts { try store.trySend(.addWorkout(workout)) }
      if let sortType { try store.trySend(.sort(by: sortType)) }
      for action in actions { try store.trySend(action) }
      return try WorkoutsStore(contentsOf: url).state == store.state
    }
  }

  @Test(
    "fixtures: each reads as stated",
    arguments: [
      ("sample.json", 4, WorkoutsStore.SortType?.some(.distance)), ("empty.json", 0, nil),
      ("version-0.json", 2, nil),
    ])
  func fixtures(name: String, count: Int, sortType: WorkoutsStore.SortType?) throws {
    let url = folder.copy(fixture: "workouts/\(name)")
    let before = contents(url)
    let store = try WorkoutsStore(contentsOf: url)
    #expect(store.state.workouts.count == count)
    #expect(store.state.sortType == sortType)
    #expect(contents(url) == before)
  }

  @Test("a file sorted by a type but out of order is read sorted")
  func unsortedFixture() throws {
    let url = folder.copy(fixture: "workouts/unsorted.json")
    #expect(try WorkoutsStore(contentsOf: url).state.workouts.map(\.name) == ["Long", "Short"])
  }

  @Test(
    "broken fixtures are refused with the place, and left as they are",
    arguments: [
      ("truncated.json", "line "),
      ("negative-distance.json", "workouts[0].distance: a distance must be a finite number"),
      ("distance-as-text.json", "workouts[0].distance: expected a number, found a string"),
      (
        "unknown-complexity.json",
        #"workouts[0].complexity: expected "low", "medium" or "high", found "extreme""#
      ),
      (
        "unknown-sort-type.json",
        #"sortType: expected "distance", "complexity" or "date", found "name""#
      ),
    ])
  func brokenFixtures(name: String, expected: String) throws {
    let url = folder.copy(fixture: "workouts/\(name)")
    let before = contents(url)
    let error = #expect(throws: StoreFileError.self) { try WorkoutsStore(contentsOf: url) }
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    #expect(contents(url) == before)
  }
}
