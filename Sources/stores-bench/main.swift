import Foundation

// stores-bench: what the package exists for, measured against baselines in the same
// process, interleaved, as medians of repeats. Ratios only: the machine is noisy.
//
//   swift run -c release stores-bench            everything, each section in a process
//                                                of its own
//   swift run -c release stores-bench --quick    tiny sizes, seconds (a smoke run)
//   swift run -c release stores-bench actions offsets indexed todos persistence observers
//     overhead watch sync codable background memory import

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--peak-memory" { peakMemoryMain(Array(arguments.dropFirst())) }
let quick = arguments.contains("--quick")
let sections = Set(arguments.filter { !$0.hasPrefix("--") })
let allSections = [
  "actions", "offsets", "indexed", "todos", "persistence", "observers", "overhead", "watch",
  "sync", "codable", "background", "memory", "import",
]
// Several sections run each in a process of its own, one after the other: the heap a section
// leaves (glibc raises its threshold for mapping large blocks to the largest it freed) would
// change the page faults of the next — after `offsets`, the 1M-todo lines of `todos` faulted
// 245,000 times more — so every line is measured as in a run of its section alone.
if sections.count != 1, !arguments.contains("--section") {
  runSectionsApart(
    sections.isEmpty ? allSections : allSections.filter(sections.contains), quick: quick)
}
let report = Report(repeats: quick ? 3 : 7, header: !arguments.contains("--section"))

@MainActor
func run(_ section: String, _ body: (Report, Bool) -> Void) {
  if sections.contains(section) { body(report, quick) }
}

run("actions", actionBenchmarks)
run("offsets", offsetBenchmarks)
run("indexed", indexedBenchmarks)
run("todos", todosBenchmarks)
run("persistence", persistenceBenchmarks)
run("observers", observerBenchmarks)
run("overhead", overheadBenchmarks)
run("watch", watchBenchmarks)
run("sync", syncBenchmarks)
run("codable", codableBenchmarks)
run("background", backgroundBenchmarks)
run("memory", memoryBenchmarks)
run("import", importBenchmarks)
