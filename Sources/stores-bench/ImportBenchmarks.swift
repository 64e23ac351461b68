import Foundation
import Stores

// 13. Importing workouts: a CSV file read, every row checked and made a workout, against the
// least any import does — the file read, cut into rows and fields, its numbers parsed.

/// A CSV of `count` rows as a person's log or an export writes them: a name, a distance in
/// kilometres, an ISO 8601 date, a sport and a time in seconds (the same on every run).
func sampleWorkoutsCSV(_ count: Int) -> String {
  let sports = ["run", "ride", "swim", "walk"]
  let dates = Date.ISO8601FormatStyle()
  var text = "name,distance,date,sport,time\n"
  text.reserveCapacity(count * 64)
  for index in 0..<count {
    let date = Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 3_600)
    text +=
      "Workout \(index % 100),\(Double(index % 4_200) / 100),\(dates.format(date)),"
      + "\(sports[index % 4]),\(1_800 + index % 3_600)\n"
  }
  return text
}

/// The least an import does: the file read, cut into rows and fields, each distance and
/// time parsed as a number. Returns the sum of the distances.
@inline(never)
func bareReadCSV(_ url: URL) -> Double {
  guard let data = try? Data(contentsOf: url) else { return 0 }
  var total = 0.0
  for line in data.split(separator: UInt8(ascii: "\n")).dropFirst() {
    let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    guard fields.count == 5 else { continue }
    total += Double(String(decoding: fields[1], as: UTF8.self)) ?? 0
    total += Double(String(decoding: fields[4], as: UTF8.self)) ?? 0
  }
  return total
}

func importBenchmarks(_ report: Report, quick: Bool) {
  let rows = quick ? 10_000 : 300_000
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-import-\(getpid()).csv")
  defer { try? FileManager.default.removeItem(at: url) }
  do {
    try Data(sampleWorkoutsCSV(rows).utf8).write(to: url)
  } catch {
    print("| import: could not write \(url.path): \(error) |")
    return
  }
  let options = WorkoutsImportOptions(unit: .kilometers, timeZone: TimeZone(identifier: "UTC")!)
  let read = { () -> Int in
    guard var importer = try? WorkoutsImporter(files: [url], options: options),
      let imported = try? importer.readAll(
        rowsPerPart: 5_000, now: Date.init, makeID: UUID.init, goOn: { _ in true })
    else { return -1 }
    return imported.rows.count
  }
  precondition(read() == rows, "the sample imports whole")
  report.compare(
    "workouts import: a CSV read and checked vs the file cut into fields", size: count(rows),
    goal: "300,000 rows in seconds (issue 39)",
    ours: Side("", prepare: {}) { _ in blackHole(read()) },
    baseline: Side("(rows and fields split, numbers parsed)", prepare: {}) { _ in
      blackHole(bareReadCSV(url))
    })
}
