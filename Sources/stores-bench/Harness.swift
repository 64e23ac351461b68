import Dispatch

/// One side of a comparison: prepares its input (not timed), then times the work on it.
struct Side {
  let label: String
  let measure: () -> Double

  /// A side that runs `run` on a fresh `prepare()` each time it is measured.
  init<Input>(_ label: String, prepare: @escaping () -> Input, run: @escaping (inout Input) -> Void)
  {
    self.label = label
    measure = {
      var input = prepare()
      let start = DispatchTime.now().uptimeNanoseconds
      run(&input)
      let elapsed = DispatchTime.now().uptimeNanoseconds - start
      blackHole(input)
      return Double(elapsed) / 1e9
    }
  }
}

/// A line of the report: our time, the baseline's, their ratio and the goal.
struct Comparison {
  var name: String
  var size: String
  var ours: Double
  var baseline: Double
  /// The median of the ratios of the two sides measured back to back, each pair in the same
  /// moment of the machine: steadier than the ratio of the medians when the machine's speed
  /// drifts (the disk's latency, say) between one pair and the next.
  var ratio: Double
  var baselineLabel: String
  var goal: String
  /// The bytes each side moves, to show MB/s beside the times; `nil` for none.
  var bytes: Int? = nil
  /// What the two sides count, when not seconds ("writes").
  var unit: String? = nil
}

/// Runs benchmarks and prints one line per comparison, as a Markdown table.
final class Report {
  let repeats: Int

  /// A report of `repeats` pairs a line, which prints the table's header first when `header`.
  init(repeats: Int, header: Bool = true) {
    self.repeats = repeats
    if header { Self.printHeader() }
  }

  static func printHeader() {
    print("| benchmark | size | ours | baseline | ratio | goal |")
    print("| --- | ---: | ---: | --- | ---: | --- |")
  }

  /// Times `ours` and `baseline` interleaved, `repeats` times each (or `times`), and prints
  /// the medians and the median of the ratios of each pair.
  func compare(
    _ name: String, size: String, goal: String, times: Int? = nil, bytes: Int? = nil,
    ours: Side, baseline: Side
  ) {
    var oursTimes: [Double] = []
    var baselineTimes: [Double] = []
    // Alternate which side goes first, so that neither always runs in the state (caches,
    // allocator) the other leaves behind.
    for round in 0..<(times ?? repeats) {
      if round.isMultiple(of: 2) {
        oursTimes.append(ours.measure())
        baselineTimes.append(baseline.measure())
      } else {
        baselineTimes.append(baseline.measure())
        oursTimes.append(ours.measure())
      }
    }
    record(
      Comparison(
        name: name, size: size, ours: median(oursTimes), baseline: median(baselineTimes),
        ratio: median(zip(oursTimes, baselineTimes).map { $0 / $1 }),
        baselineLabel: baseline.label, goal: goal, bytes: bytes))
  }

  /// Prints a comparison of times measured elsewhere (each side's median) — or of counts of
  /// `unit`, when given — and their ratio.
  func note(
    _ name: String, size: String, ours: Double, baseline: Double, baselineLabel: String,
    goal: String, unit: String? = nil
  ) {
    record(
      Comparison(
        name: name, size: size, ours: ours, baseline: baseline, ratio: ours / baseline,
        baselineLabel: baselineLabel, goal: goal, unit: unit))
  }

  /// Prints a peak of memory measured elsewhere, `peak` bytes, beside the size of the `file`
  /// it worked on, and their ratio.
  func noteMemory(_ name: String, size: String, peak: Int, file: Int, goal: String) {
    let megabytes = { (bytes: Int) in "\(format2(Double(bytes) / 1e6)) MB" }
    print(
      "| \(name) | \(size) | \(megabytes(peak)) | \(megabytes(file)) (the file) | "
        + "\(format2(Double(peak) / Double(file)))× | \(goal) |")
  }

  /// Prints a comparison.
  private func record(_ comparison: Comparison) {
    let ratio = comparison.ratio
    let ratioText =
      ratio >= 100
      ? String(Int(ratio.rounded()))
      : ratio < 0.1 ? "1/\(Int((1 / ratio).rounded()))" : format2(ratio)
    let rate = { (seconds: Double) in
      comparison.bytes.map { " (\(format2(Double($0) / seconds / 1e6)) MB/s)" } ?? ""
    }
    let value = { (value: Double) in
      comparison.unit.map { "\(Int(value)) \($0)" } ?? format(value) + rate(value)
    }
    print(
      "| \(comparison.name) | \(comparison.size) | \(value(comparison.ours)) | "
        + "\(value(comparison.baseline)) \(comparison.baselineLabel) | "
        + "\(ratioText)× | \(comparison.goal) |"
    )
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// "12.3 ms", "840 ns".
func format(_ seconds: Double) -> String {
  switch seconds {
  case ..<1e-6: "\(Int((seconds * 1e9).rounded())) ns"
  case ..<1e-3: "\(format2(seconds * 1e6)) µs"
  case ..<1: "\(format2(seconds * 1e3)) ms"
  default: "\(format2(seconds)) s"
  }
}

/// Three significant digits.
func format2(_ value: Double) -> String {
  let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
  let scale = [1.0, 10, 100][digits]
  let rounded = (value * scale).rounded() / scale
  return digits == 0 ? String(Int(rounded)) : String(rounded)
}

/// "100k", "1M".
func count(_ n: Int) -> String {
  n >= 1_000_000 && n % 1_000_000 == 0
    ? "\(n / 1_000_000)M" : n >= 1000 && n % 1000 == 0 ? "\(n / 1000)k" : "\(n)"
}

/// Keeps the optimiser from deleting work whose result is unused: a function it may not
/// look into (with `@inline(never)` alone, it drops the unused argument, and the work).
@_optimize(none)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
