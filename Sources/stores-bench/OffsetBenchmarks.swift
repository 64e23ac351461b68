import Foundation
import Stores

// 2. Offset operations against naive per-offset removal, the standard library's RangeSet
// operations, and an unsafe-buffer compaction: the practical limit.

/// Removes each offset on its own, last first: O(n) per offset.
@inline(never)
func naiveRemove(_ array: inout [Int], _ offsets: IndexSet) {
  for offset in offsets.reversed() { array.remove(at: offset) }
}

/// Takes the elements out one by one, then inserts them one by one.
@inline(never)
func naiveMove(_ array: inout [Int], _ offsets: IndexSet, to destination: Int) {
  var moved: [Int] = []
  for offset in offsets.reversed() { moved.append(array.remove(at: offset)) }
  let target = destination - offsets.count(in: 0..<destination)
  for element in moved { array.insert(element, at: target) }
}

/// The practical limit of removal: moves each run of kept elements down into the gaps, one
/// `memmove` per run, then drops the tail. Only right for trivial elements such as `Int`.
@inline(never)
func unsafeRemove(_ array: inout [Int], _ offsets: IndexSet) {
  let kept = array.withUnsafeMutableBufferPointer { buffer -> Int in
    guard let base = buffer.baseAddress, let first = offsets.first else { return buffer.count }
    var write = first
    var read = first
    for removed in offsets.rangeView {
      let run = removed.lowerBound - read
      if run > 0 { (base + write).update(from: base + read, count: run) }
      write += run
      read = removed.upperBound
    }
    let run = buffer.count - read
    if run > 0 { (base + write).update(from: base + read, count: run) }
    return write + run
  }
  array.removeLast(array.count - kept)
}

/// The practical limit of a move: copies the moved elements aside, moves the runs that stay
/// toward either end, and copies the moved ones into the gap — one `memmove` per run each.
@inline(never)
func unsafeMove(_ array: inout [Int], _ offsets: IndexSet, to destination: Int) {
  array.withUnsafeMutableBufferPointer { buffer in
    guard let base = buffer.baseAddress else { return }
    let moved = UnsafeMutableBufferPointer<Int>.allocate(capacity: offsets.count)
    defer { moved.deallocate() }
    var movedCount = 0
    for range in offsets.rangeView {
      (moved.baseAddress! + movedCount).update(from: base + range.lowerBound, count: range.count)
      movedCount += range.count
    }
    // Before the destination: close up toward the start.
    var write = 0
    var read = 0
    for range in offsets.rangeView where range.lowerBound < destination {
      let run = range.lowerBound - read
      if run > 0, write != read { (base + write).update(from: base + read, count: run) }
      write += run
      read = range.upperBound
    }
    if read < destination {
      if write != read { (base + write).update(from: base + read, count: destination - read) }
      write += destination - read
    }
    let gap = write
    // From the destination on: close up toward the end.
    var end = buffer.count
    var upper = buffer.count
    for range in offsets.rangeView.reversed() where range.upperBound > destination {
      let run = upper - range.upperBound
      if run > 0, end != upper {
        (base + end - run).update(from: base + range.upperBound, count: run)
      }
      end -= run
      upper = max(range.lowerBound, destination)
    }
    if upper > destination {
      let run = upper - destination
      if end != upper { (base + end - run).update(from: base + destination, count: run) }
    }
    if movedCount > 0 { (base + gap).update(from: moved.baseAddress!, count: movedCount) }
  }
}

func rangeSet(_ offsets: IndexSet) -> RangeSet<Int> {
  RangeSet(offsets.rangeView.map { $0 })
}

/// Checks that every baseline computes what ours does, on small cases.
func verifyOffsetBaselines() {
  for size in [0, 1, 2, 7, 40] {
    for offsets in [
      IndexSet(), IndexSet(integersIn: 0..<size), IndexSet(stride(from: 0, to: size, by: 3)),
    ] {
      var ours = Array(0..<size)
      ours.remove(atOffsets: offsets)
      for baseline in [naiveRemove, unsafeRemove] {
        var theirs = Array(0..<size)
        baseline(&theirs, offsets)
        precondition(theirs == ours, "a removal baseline is wrong")
      }
      var ranges = Array(0..<size)
      ranges.removeSubranges(rangeSet(offsets))
      precondition(ranges == ours, "the RangeSet removal differs")
      for destination in 0...size {
        var ours = Array(0..<size)
        ours.move(fromOffsets: offsets, toOffset: destination)
        for baseline in [naiveMove, unsafeMove] {
          var theirs = Array(0..<size)
          baseline(&theirs, offsets, destination)
          precondition(theirs == ours, "a move baseline is wrong")
        }
        var ranges = Array(0..<size)
        _ = ranges.moveSubranges(rangeSet(offsets), to: destination)
        precondition(ranges == ours, "the RangeSet move differs")
      }
    }
  }
}

func offsetBenchmarks(_ report: Report, quick: Bool) {
  verifyOffsetBaselines()
  let n = quick ? 10_000 : 1_000_000
  let naiveSize = quick ? 2_000 : 100_000
  var generator = SystemRandomNumberGenerator()
  func randomOffsets(_ count: Int, in size: Int) -> IndexSet {
    var offsets = IndexSet()
    while offsets.count < count { offsets.insert(Int.random(in: 0..<size, using: &generator)) }
    return offsets
  }
  let everyOther = { (size: Int) in IndexSet(stride(from: 0, to: size, by: 2)) }
  let removals: [(String, (Int) -> IndexSet)] = [
    ("every other element", everyOther),
    ("1,000 random offsets", { randomOffsets(min(1000, $0 / 2), in: $0) }),
  ]
  for (label, makeOffsets) in removals {
    let offsets = makeOffsets(n)
    let ours = Side("", prepare: { Array(0..<n) }, run: { $0.remove(atOffsets: offsets) })
    report.compare(
      "remove(atOffsets:) \(label) vs unsafe compaction", size: count(n), goal: "≤ 1.5×",
      ours: ours,
      baseline: Side("(unsafe buffer)", prepare: { Array(0..<n) }) { unsafeRemove(&$0, offsets) })
    let ranges = rangeSet(offsets)
    report.compare(
      "remove(atOffsets:) \(label) vs RangeSet", size: count(n), goal: "≤ 1×", times: 3,
      ours: ours,
      baseline: Side("(removeSubranges)", prepare: { Array(0..<n) }) { $0.removeSubranges(ranges) })
    let small = makeOffsets(naiveSize)
    report.compare(
      "remove(atOffsets:) \(label) vs naive", size: count(naiveSize), goal: "≤ 1×", times: 1,
      ours: Side("", prepare: { Array(0..<naiveSize) }) { $0.remove(atOffsets: small) },
      baseline: Side("(remove(at:) each)", prepare: { Array(0..<naiveSize) }) {
        naiveRemove(&$0, small)
      })
  }

  let moves: [(String, (Int) -> (IndexSet, Int))] = [
    ("1,000 random offsets to the middle", { (randomOffsets(min(1000, $0 / 2), in: $0), $0 / 2) }),
    ("every other element to 0", { (everyOther($0), 0) }),
  ]
  for (label, makeMove) in moves {
    let (offsets, destination) = makeMove(n)
    let ours = Side(
      "", prepare: { Array(0..<n) }, run: { $0.move(fromOffsets: offsets, toOffset: destination) })
    report.compare(
      "move(fromOffsets:) \(label) vs unsafe", size: count(n), goal: "≤ 1.5×", ours: ours,
      baseline: Side("(unsafe buffer)", prepare: { Array(0..<n) }) {
        unsafeMove(&$0, offsets, to: destination)
      })
    let ranges = rangeSet(offsets)
    report.compare(
      "move(fromOffsets:) \(label) vs RangeSet", size: count(n), goal: "≤ 1×", times: 3, ours: ours,
      baseline: Side("(moveSubranges)", prepare: { Array(0..<n) }) {
        _ = $0.moveSubranges(ranges, to: destination)
      })
    let (small, smallDestination) = makeMove(naiveSize)
    report.compare(
      "move(fromOffsets:) \(label) vs naive", size: count(naiveSize), goal: "≤ 1×", times: 1,
      ours: Side("", prepare: { Array(0..<naiveSize) }) {
        $0.move(fromOffsets: small, toOffset: smallDestination)
      },
      baseline: Side("(remove(at:) and insert each)", prepare: { Array(0..<naiveSize) }) {
        naiveMove(&$0, small, to: smallDestination)
      })
  }
}
