import Foundation
import StoreTesting
import Testing

@testable import Stores

/// Problems found by attacking the day's changes (workouts in metres, FieldStamps). Each test
/// fails on the code it was written against.
@Suite("Attack on today's changes")
struct TodayAttackTests {
  typealias WorkoutsSync = ListSync<WorkoutsStore.State>

  /// A workouts file of format `version` (1: no stamps) holding one workout `distance` long,
  /// the distance spelled as given.
  static func workoutsFile(version: Int = 1, distance: String) -> Data {
    Data(
      """
      {
        "version" : \(version),
        "workouts" : [
          { "complexity" : "low", "date" : "2026-11-20T07:00:00Z", "distance" : \(distance),
            "id" : "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C31", "name" : "Run" }
        ]
      }
      """.utf8)
  }

  /// An older device wrote `0.1 + 0.2` km (its Double's shortest spelling, 17 digits). The new
  /// code reads the decimal as metres, the nearest Double of which is 300.00000000000006: the
  /// file written back says 0.30000000000000006 — within the 15 digits `Meters` promises, and
  /// written the same from then on.
  @Test("a format-1 file's 17-digit distance keeps 15 digits, and is stable once written")
  func oldSeventeenDigitDistanceKept() throws {
    let old = 0.1 + 0.2  // 0.30000000000000004, as the old code wrote it
    let data = Self.workoutsFile(distance: "\(old)")
    let (state, sync) = try StateFileCoding.decode(data, path: "w.json", sync: WorkoutsSync.self)
    #expect(abs(state.workouts[0].distance - old) <= old * 1e-15, "the kilometres read")
    let written = try StateFileCoding.encode(state, sync: sync, path: "w.json")
    let (again, againSync) = try StateFileCoding.decode(
      written, path: "w.json", sync: WorkoutsSync.self)
    #expect(again.workouts == state.workouts, "read back as written")
    #expect(try StateFileCoding.encode(again, sync: againSync, path: "w.json") == written)
  }

  /// A format-1 file with a large but finite distance (1e306 km) was valid and read before
  /// today; the metres (1e309) overflow to infinity and the whole file is now refused, so the
  /// diary can no longer be opened.
  @Test("a format-1 file with a large finite distance can still be opened")
  func oldHugeDistanceStillReadable() throws {
    let data = Self.workoutsFile(distance: "1e306")
    let error = #expect(throws: StoreFileError.self) {
      _ = try StateFileCoding.decode(data, path: "w.json", sync: WorkoutsSync.self)
    }
    #expect(
      error?.description.contains("too large to hold") == true, "\(String(describing: error))")
  }

  /// `Workout` is Codable and "exact both ways", but its `encode` goes through
  /// `Decimal(string:) ?? 0`: a distance `Decimal` cannot hold (beyond about 1e165, or below
  /// 1e-165) is silently encoded as 0 km.
  @Test(
    "Codable round trip keeps a workout's distance",
    arguments: [1e300, 1e200, 1e-200])
  func codableRoundTripKeepsDistance(meters: Double) throws {
    let workout = try Workout(
      id: UUID(uuidString: "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C31")!, name: "Run", meters: meters,
      date: Date(timeIntervalSince1970: 0))
    let data = try JSONEncoder().encode(workout)
    let decoded = try JSONDecoder().decode(Workout.self, from: data)
    #expect(decoded.meters == workout.meters, "\(String(decoding: data, as: UTF8.self))")
  }

  /// Two equal `FieldStamps` (equality is by elements) can answer `latest` differently: the
  /// shared stamp counts in `latest` even when every field is stamped otherwise. `latest`
  /// is what a removal is weighed against (`ItemStamps.latestEdit`).
  @Test("equal FieldStamps have the same latest stamp")
  func equalFieldStampsSameLatest() throws {
    let early = try ListSync<TodosStore.State>.stamp("mip1k3c0.0.aaaa")
    let middle = try ListSync<TodosStore.State>.stamp("mip1k3c1.0.aaaa")
    let late = try ListSync<TodosStore.State>.stamp("mip1k3c9.0.aaaa")
    var a = FieldStamps(repeating: late, count: 2)
    a[0] = early
    a[1] = middle
    let b = FieldStamps([early, middle])
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(
      a.latest == b.latest,
      "latest of equal values: \(String(describing: a.latest)) vs \(String(describing: b.latest))")
  }

  /// `Decimal`'s own `Codable` form is keyed: an encoder that does not write it as a number
  /// (a property list) must still read back the workout it wrote.
  @Test("a workout round-trips through a property list, to the metre")
  func propertyListRoundTrip() throws {
    for meters in [1508.76, 21_097.5, 1e300, 0] {
      let workout = try Workout(
        id: UUID(uuidString: "0B5E6C1A-2D3F-4A5B-8C9D-1E2F3A4B5C32")!, name: "Swim",
        meters: meters, date: Date(timeIntervalSince1970: 0))
      let data = try PropertyListEncoder().encode([workout])
      #expect(try PropertyListDecoder().decode([Workout].self, from: data) == [workout])
    }
  }
}
