import Stores

// 3. indexed() against a raw index loop, from this module (another one than Stores, as a
// user's is).

#if STORES_BENCH_NO_CMO
  let buildLabel = ", cross-module optimisation off"
#else
  let buildLabel = ""
#endif

@inline(never)
func indexedSum(_ array: [Int]) -> Int {
  var sum = 0
  for (index, element) in array.indexed() { sum &+= element &* index }
  return sum
}

@inline(never)
func rawSum(_ array: [Int]) -> Int {
  var sum = 0
  for index in array.indices { sum &+= array[index] &* index }
  return sum
}

func indexedBenchmarks(_ report: Report, quick: Bool) {
  let n = quick ? 100_000 : 10_000_000
  let array = Array(0..<n)
  precondition(indexedSum(array) == rawSum(array))
  report.compare(
    "indexed() vs raw index loop\(buildLabel)", size: count(n), goal: "≤ 1.05×",
    times: quick ? 3 : 21,
    ours: Side("", prepare: { 0 }) { _ in blackHole(indexedSum(array)) },
    baseline: Side("(for i in a.indices { a[i] })", prepare: { 0 }) { _ in blackHole(rawSum(array))
    })
}
