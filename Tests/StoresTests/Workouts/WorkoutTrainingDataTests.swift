import Foundation
import StoreTesting
import Testing

@testable import Stores

/// What a workout carries as training data: its duration, its sport, its distance in exact
/// metres typed in four units — checked, stored in format 3 beside older files, merged field
/// by field, undone, and read from Strava's, Garmin Connect's and a watch's files.
@Suite("Workouts as training data")
struct WorkoutTrainingDataTests {
  let utc = TimeZone(identifier: "UTC")!
  let now = Date(timeIntervalSinceReferenceDate: 817_600_000)

  // MARK: The model

  @Test("a duration of 0 or less, or whose moving time is longer, is refused, saying why")
  func invalidDurations() throws {
    #expect(throws: WorkoutError.invalidDuration(elapsed: 0, moving: nil)) {
      try WorkoutDuration(elapsed: 0)
    }
    #expect(throws: WorkoutError.invalidDuration(elapsed: -60, moving: nil)) {
      try WorkoutDuration(elapsed: -60)
    }
    #expect(throws: WorkoutError.invalidDuration(elapsed: 2_700, moving: 0)) {
      try WorkoutDuration(elapsed: 2_700, moving: 0)
    }
    #expect(throws: WorkoutError.self) { try WorkoutDuration(elapsed: .nan) }
    #expect(
      WorkoutError.invalidDuration(elapsed: 0, moving: nil).description
        == "a time must be more than 0 and at most 100 days, not 0:00")
    #expect(
      WorkoutError.invalidDuration(elapsed: 2_700, moving: 2_760).description
        == "the moving time (46:00) cannot be more than the elapsed time (45:00): moving time "
        + "leaves the pauses out")
    #expect(try WorkoutDuration(elapsed: 2_700, moving: 2_700).moving == 2_700)
  }

  @Test("a sport is a known one by any of its names, or the source's own name, kept")
  func sports() {
    #expect(Sport("Run") == .run)
    #expect(Sport("TRAIL_RUNNING") == .run)
    #expect(Sport("Road Cycling") == .ride)
    #expect(Sport("Pool Swim") == .swim)
    #expect(Sport("Weight Training") == .strength)
    #expect(Sport("Workout") == .other)
    #expect(Sport("  Kite\nsurf ")?.name == "Kite surf")
    #expect(Sport("Kite surf")?.isKnown == false)
    #expect(Sport(" \n") == nil)
    for sport in Sport.known { #expect(Sport(sport.name) == sport) }
  }

  @Test("distances in m, km, yd and mi are exact metres; km keeps its decimal")
  func distancesInFourUnits() throws {
    func meters(_ text: String) -> Double? {
      DistanceText.parse(text).map { ($0.unit ?? .kilometers).meters(of: $0.value) }
    }
    #expect(meters("1500 m") == 1_500)
    #expect(meters("1.5 km") == 1_500)
    #expect(meters("1650 yd") == 1_508.76)
    #expect(meters("3.1 mi") == 4_988.9664)
    #expect(meters("1.005") == 1_005)
    #expect(meters("10.02km") == 10_020)
    #expect(meters("5 furlongs") == nil)
    #expect(try Workout(name: "Swim", distance: 1.005).meters == 1_005)
    #expect(try Workout(name: "Swim", meters: 1_508.76).distance == 1.50876)
  }

  @Test("times as people type them, and as Strava and Garmin write them")
  func times() {
    #expect(DurationText.seconds("45:00") == 2_700)
    #expect(DurationText.seconds("1:02:03") == 3_723)
    #expect(DurationText.seconds("00:04:40.37") == 280.37)
    #expect(DurationText.seconds("45m") == 2_700)
    #expect(DurationText.seconds("1h2m") == 3_720)
    #expect(DurationText.seconds("1h 30m 5s") == 5_405)
    #expect(DurationText.seconds("00:04:40,37") == 280.37)
    #expect(DurationText.seconds("4742") == nil)
    #expect(DurationText.seconds("4742.0") == nil)
    for wrong in [
      "", "1:60", "1:2", "2m1h", "1h1h", "h", "-5m", "1:02:03:04", "45:00x", "45:00,", "1:02,5:03",
      "45:00.5.1",
    ] {
      #expect(DurationText.seconds(wrong) == nil, "\(wrong)")
    }
    #expect(DurationText.format(3_723) == "1:02:03")
    #expect(DurationText.format(2_700) == "45:00")
    #expect(DurationText.format(280.37) == "4:40.37")
    // Not a time: no trap (a pace of 1e-300 m/s, a NaN), nor past 32 bits (watchOS).
    for wrong in [Double.nan, .infinity, 1e300, -1e300] {
      #expect(DurationText.format(wrong) == "—")
    }
    #expect(DurationText.format(300 * 86_400) == "7200:00:00")
  }

  @Test("the day of a date outside the years 1...9999 in its time zone is none, never a trap")
  func daysOutOfRange() throws {
    let first = try #require(ISO8601Timestamp.date(from: "0001-01-01T00:00:00Z"))
    let behind = try #require(TimeZone(secondsFromGMT: -5 * 3_600))
    #expect(LocalDate.day(of: first, in: behind) == nil)
    #expect(LocalDate.day(of: first, in: .gmt).map { [$0.year, $0.month, $0.day] } == [1, 1, 1])
    #expect(LocalDate.day(of: Date(timeIntervalSince1970: .nan), in: .gmt) == nil)
  }

  @Test("the exact metres of any workout come back from its file, with its time and sport")
  func fileRoundTrip() {
    check(Gen<[Workout]>.workouts(maxCount: 8)) { workouts in
      let state = WorkoutsStore.State(workouts: workouts)
      let data = try StateFileCoding.encode(state, path: "w.json")
      let read: WorkoutsStore.State = try StateFileCoding.decode(data, path: "w.json")
      try requireEqual(read, state)
      try require(String(decoding: data, as: UTF8.self).contains("\"version\" : 3"))
    }
  }

  // MARK: Format versions

  @Test("a version 2 file is read with its stamps; its workouts have no time or sport")
  func versionTwoKeepsItsStamps() throws {
    let run = try Workout(name: "Run", distance: 5.2, date: now)
    var replica = Replica(
      state: WorkoutsStore.State(workouts: [run]),
      sync: ListSync(unstamped: WorkoutsStore.State(workouts: [run])),
      clock: Devices(steps: 1...1).clock("phone"))
    replica.apply { WorkoutsStore.reduce(&$0, .sort(by: .distance)) }
    let version3 = String(decoding: replica.bytes, as: UTF8.self)
    #expect(version3.contains("\"version\" : 3"))
    let version2 = Data(
      version3.replacingOccurrences(of: "\"version\" : 3", with: "\"version\" : 2").utf8)
    let (state, sync) = try StateFileCoding.decode(
      version2, path: "w.json", sync: ListSync<WorkoutsStore.State>.self)
    #expect(state == replica.state)
    #expect(sync.state == replica.sync.state)
    #expect(sync.items.map(\.fields) == replica.sync.items.map(\.fields))
  }

  @Test("the format 1 fixtures open as before, with no time or sport")
  @MainActor func olderFixtures() throws {
    for name in ["sample.json", "version-0.json"] {
      let store = try WorkoutsStore(
        contentsOf: fixturesFolder.appendingPathComponent("workouts/\(name)"))
      #expect(!store.state.workouts.isEmpty)
      #expect(store.state.workouts.allSatisfy { $0.duration == nil && $0.sport == nil })
    }
    let sample = try WorkoutsStore(
      contentsOf: fixturesFolder.appendingPathComponent("workouts/sample.json"))
    #expect(sample.state.workouts.map(\.meters) == [21_100, 10_000, 5_200, 0])
  }

  @Test("a file of format 4 is refused as newer")
  func newerFormatRefused() {
    let data = Data(#"{"version": 4, "workouts": []}"#.utf8)
    #expect(throws: StoreFileError.self) {
      let _: WorkoutsStore.State = try StateFileCoding.decode(data, path: "w.json")
    }
  }

  // MARK: Two devices, undo

  @Test("a time changed on one device and the sport on the other both survive")
  func timeAndSportMerge() throws {
    let run = try Workout(name: "Run", distance: 10, date: now)
    let devices = Devices(steps: 1...1)
    let base = WorkoutsStore.State(workouts: [run])
    typealias WorkoutReplica = Replica<WorkoutsStore.State, ListSync<WorkoutsStore.State>>
    var phone = WorkoutReplica(
      state: base, sync: ListSync(unstamped: base), clock: devices.clock("phone"))
    var laptop = WorkoutReplica(
      state: base, sync: ListSync(unstamped: base), clock: devices.clock("laptop"))
    let timed = try Workout(
      id: run.id, name: run.name, meters: run.meters, date: run.date,
      duration: WorkoutDuration(elapsed: 3_000, moving: 2_900))
    let sported = try Workout(
      id: run.id, name: run.name, meters: run.meters, date: run.date, sport: .run)
    phone.apply { WorkoutsStore.reduce(&$0, .updateWorkout(timed)) }
    laptop.apply { WorkoutsStore.reduce(&$0, .updateWorkout(sported)) }
    for merged in [phone.merged(with: laptop), laptop.merged(with: phone)] {
      #expect(merged.state.workouts.map(\.duration) == [timed.duration])
      #expect(merged.state.workouts.map(\.sport) == [.run])
    }
    #expect(phone.merged(with: laptop).bytes == laptop.merged(with: phone).bytes)
  }

  @Test("workouts: the merge is commutative, associative and idempotent, to the byte")
  func workoutLaws() {
    typealias WorkoutReplica = Replica<WorkoutsStore.State, ListSync<WorkoutsStore.State>>
    let histories = Gen<([Workout], [[WorkoutsStore.Action]])>.zip(
      .workouts(maxCount: 5),
      Gen<WorkoutsStore.Action>.workoutAction(maxCount: 5).array(maxCount: 5).array(count: 3...3))
    check(histories, iterations: 200) { base, histories in
      let devices = Devices()
      let state = WorkoutsStore.State(workouts: base)
      let replicas = histories.enumerated().map { device, actions in
        var replica = WorkoutReplica(
          state: state, sync: ListSync(unstamped: state), clock: devices.clock("d\(device)"))
        for action in actions {
          replica.apply { WorkoutsStore.reduce(&$0, WorkoutsStore.resolve(action, in: $0)) }
        }
        return replica
      }
      let (a, b, c) = (replicas[0], replicas[1], replicas[2])
      try requireEqual(a.merged(with: b).bytes, b.merged(with: a).bytes, "a ∪ b = b ∪ a")
      try requireEqual(
        a.merged(with: b).merged(with: c).bytes, a.merged(with: b.merged(with: c)).bytes,
        "(a ∪ b) ∪ c = a ∪ (b ∪ c)")
      try requireEqual(a.merged(with: a).bytes, a.bytes, "a ∪ a = a")
    }
  }

  @Test("an edit of the time and sport is undone and redone, fields changed since kept")
  @MainActor func undoTimeAndSport() throws {
    let run = try Workout(name: "Run", distance: 10, date: now)
    let store = WorkoutsStore(workouts: [run])
    let edited = try Workout(
      id: run.id, name: run.name, meters: run.meters, date: run.date,
      duration: WorkoutDuration(elapsed: 3_000), sport: Sport("Trail Run"))
    store.update(edited)
    #expect(store.state.workouts == [edited])
    store.undo()
    #expect(store.state.workouts == [run])
    store.redo()
    #expect(store.state.workouts == [edited])
  }

  @Test("adding or updating sets the time and sport; the reducer agrees with replacing")
  func addAndUpdateProperty() {
    let cases = Gen<([Workout], Workout)>.zip(
      .workouts(maxCount: 6), Gen<Workout>.workout(id: .id(among: 8)))
    check(cases) { workouts, workout in
      var state = WorkoutsStore.State(workouts: workouts)
      let known = workouts.contains { $0.id == workout.id }
      WorkoutsStore.reduce(&state, known ? .updateWorkout(workout) : .addWorkout(workout))
      let stored = state.workouts.first { $0.id == workout.id }
      try requireEqual(stored?.duration, workout.duration)
      try requireEqual(stored?.sport, workout.sport)
      try requireEqual(stored, workout)
    }
  }

  // MARK: Imports

  func read(_ file: String, _ options: WorkoutsImportOptions) throws -> [Workout] {
    var importer = try WorkoutsImporter(
      files: [fixturesFolder.appendingPathComponent("import/\(file)")], options: options)
    let imported = try importer.readAll(
      rowsPerPart: 500, now: { now }, makeID: UUID.init, goOn: { _ in true })
    return try #require(imported).rows.map(\.workout)
  }

  /// Per sport: how many, elapsed and moving seconds.
  func totals(_ workouts: [Workout]) -> [String: [Double]] {
    var totals: [String: [Double]] = [:]
    for workout in workouts {
      var sums = totals[workout.sport?.name ?? "", default: [0, 0, 0]]
      sums[0] += 1
      sums[1] += workout.duration?.elapsed ?? 0
      sums[2] += workout.duration?.moving ?? 0
      totals[workout.sport?.name ?? ""] = sums
    }
    return totals
  }

  @Test("Strava's export: Elapsed Time, Moving Time and Activity Type, totals to the second")
  func stravaTimesAndSports() throws {
    let workouts = try read("strava-activities.csv", .strava())
    #expect(workouts.count == 2_000)
    // Summed by a script from the file's first Elapsed Time column and its Moving Time.
    #expect(
      totals(workouts) == [
        "run": [1_007, 4_149_106, 3_941_174], "ride": [605, 5_227_987, 4_966_304],
        "swim": [193, 671_521, 637_869], "walk": [195, 707_097, 671_650],
      ])
    #expect(workouts[0].duration == (try WorkoutDuration(elapsed: 4_742, moving: 4_504)))
    #expect(workouts[0].meters == 14_370)
  }

  @Test("Garmin Connect's CSV: hh:mm:ss times, Activity Type, -- for none, totals to the second")
  func garminTimesAndSports() throws {
    let workouts = try read("garmin-activities.csv", .garmin(timeZone: utc))
    #expect(
      workouts.map(\.name) == [
        "Paris Running", "Vallée de Chevreuse", "Lower body", "Lunch walk", "Evening yoga",
      ])
    #expect(workouts.map(\.sport?.name) == ["run", "ride", "strength", "walk", "Yoga"])
    #expect(workouts.map(\.meters) == [10_020, 64_310, 0, 3_480, 0])
    #expect(workouts.map(\.duration?.elapsed) == [3_182, 9_067, 3_941, 2_496, 2_700])
    #expect(workouts.map(\.duration?.moving) == [3_118, 8_310, nil, 2_451, nil])
    #expect(workouts[0].date == ISO8601Timestamp.date(from: "2026-11-29T07:30:12Z"))
  }

  @Test("an older Garmin file without Elapsed Time takes its Time column")
  func garminTimeColumn() throws {
    let text =
      "Activity Type,Date,Title,Distance,Time\nRunning,2026-11-29 07:30:12,Run,5.02,48:12\n"
    let imported = try WorkoutsCSV.read(
      Data(text.utf8), path: "a.csv", options: .garmin(timeZone: utc), now: now, makeID: UUID.init)
    #expect(imported.rows.map(\.workout.duration?.elapsed) == [2_892])
  }

  @Test("a moving time longer than the elapsed time is refused with its place and the reason")
  func movingLongerRefused() {
    let text = "name,distance,time,movingTime\nRun,5,45:00,46:00\n"
    #expect {
      try WorkoutsCSV.read(
        Data(text.utf8), path: "a.csv", options: WorkoutsImportOptions(timeZone: utc), now: now,
        makeID: UUID.init)
    } throws: { error in
      "\(error)".contains("line 2, column 13")
        && "\(error)".contains("the moving time (46:00) cannot be more than the elapsed time")
    }
  }

  @Test("a GPX run with a stop and a pause: elapsed first to last point, moving without them")
  func gpxPausedRun() throws {
    let workouts = try read("paused-run.gpx", WorkoutsImportOptions())
    // 325 s from the first point to the last; moving: 9 + 1 + 9 intervals of 5 s in the first
    // segment (not the 2-minute stop), 9 in the second (not the minute between the segments).
    #expect(workouts.map(\.duration) == [try WorkoutDuration(elapsed: 325, moving: 140)])
    #expect(workouts.map(\.sport) == [.run])
  }
}
