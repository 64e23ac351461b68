/// Shrinks a failing input by editing its recorded choice sequence (Hypothesis-style internal
/// shrinking).
///
/// A candidate sequence is replayed through the test case (the generator and the property, or a
/// state machine's run); the edit is kept when the case still fails and its (re-recorded)
/// choice sequence is smaller in shortlex order (shorter, or as long and lexicographically
/// smaller). That order is well-founded, and the number of replays is capped, so shrinking
/// always terminates.
///
/// Passes, repeated until a round makes no progress:
/// 1. replace levels of recursive values with levels inside them (a tree with a subtree),
///    delete whole collection elements, last first (also lowering the values after one by
///    one, positions that shift), and runs of 2, 3, 4 and 8 adjacent elements (steps that
///    only fail together), then blocks of 32, 16, 8, 4, 3, 2 and 1 consecutive
///    choices (3: a level of a recursive value with one choice for its kind and two for its
///    number, so that a subtree takes its parent's place), also together with decrementing
///    the choice before the block (a count that governs it);
/// 2. zero blocks of 8, 4, 2 choices (simplifies whole sub-values at once);
/// 3. minimise each choice: try 0, then binary-search the smallest failing value; then lower
///    equal values together — values drawn the same way (same maxima) with the same choices,
///    choice by choice, so that `[-7, -7]` becomes `[0, 0]`; then lower nearby pairs of values
///    drawn the same way by a common amount, keeping their difference;
/// 4. only when 1–3 are stuck: lower a choice by 1 and drop all choices after it, swap
///    out-of-order pairs (sorting) and move value from an earlier choice to a later one
///    (redistribution, e.g. `[50, 50]` → `[0, 100]`);
/// 5. only when 1–4 are stuck: delete elements raising the values after them by one (positions
///    among the items that qualify, which the deleted element had disqualified one of), and
///    lower a value's first choice while trying its next one at 0...15 (`-1` becoming `4`);
/// 6. only when 1–5 are stuck, once: the `search` the caller gave, for a smaller failing input
///    that no edit of this one reaches (a state machine's breadth-first search for a shorter
///    program, see `Property.shorterProgram`), with at most a quarter of the budget.
struct Shrinker<Value> {
  struct Candidate {
    var choices: [UInt64]
    var values: [ChoiceSource.ValueSpan]
    var elements: [Range<Int>]
    var nodes: [ChoiceSource.Node]
    var value: Value
    var failure: String
    var isIssue: Bool

    /// The case recorded by `source`, which failed with `value` for `failure`.
    init(_ source: ChoiceSource, value: Value, failure: String, isIssue: Bool) {
      choices = source.choices
      values = source.values
      elements = source.elements
      nodes = source.nodes
      self.value = value
      self.failure = failure
      self.isIssue = isIssue
    }
  }

  /// Runs one test case from a source (here always in replay mode).
  private let run: (inout ChoiceSource) -> CaseOutcome<Value>
  private let maxAttempts: Int
  /// Looks for a failing input smaller than the given choices with at most the given number
  /// of runs; returns its choices (`nil` when none was found) and the runs it made.
  typealias Search = (_ best: [UInt64], _ budget: Int) -> (choices: [UInt64]?, attempts: Int)
  private let search: Search?
  /// Hashes of the candidates already evaluated (hashes, not sequences, to bound memory; a
  /// collision merely skips one candidate).
  private var tried: Set<Int> = []

  /// The smallest failing candidate found so far.
  private(set) var best: Candidate
  /// How many candidates were replayed and evaluated.
  private(set) var attempts = 0
  /// How many candidates were accepted as smaller failing inputs.
  private(set) var steps = 0

  init(
    failing: Candidate, maxAttempts: Int, search: Search? = nil,
    run: @escaping (inout ChoiceSource) -> CaseOutcome<Value>
  ) {
    self.best = failing
    self.maxAttempts = maxAttempts
    self.search = search
    self.run = run
  }

  private var exhausted: Bool { attempts >= maxAttempts }

  /// Runs the passes until no pass makes progress or the attempt budget is spent.
  mutating func shrink() {
    var searched = false
    while !exhausted {
      let before = best.choices
      replaceNodesWithDescendants()
      deleteElements()
      deleteBlocks()
      zeroBlocks()
      minimizeChoices()
      minimizeDuplicates()
      lowerPairsTogether()
      if best.choices == before {
        lowerAndTruncate()
        swapPairs()
        redistributePairs()
      }
      if best.choices == before {
        deleteElementsRaisingValuesAfter()
        lowerAndPickNext()
      }
      if best.choices == before, !searched, !exhausted, let search {
        searched = true
        // A quarter of the budget at most, and one attempt left to take what it finds.
        let budget = Swift.min(maxAttempts / 4, maxAttempts - attempts - 1)
        let (found, used) = search(best.choices, budget)
        attempts += used
        if let found { consider(found) }
      }
      if best.choices == before {
        return
      }
    }
  }

  /// Replays `choices`; keeps the result if it still fails and is smaller than `best` (and, with
  /// `shorter`, has fewer choices).
  @discardableResult
  private mutating func consider(_ choices: [UInt64], shorter: Bool = false) -> Bool {
    guard !exhausted, Self.shortlexPrecedes(choices, best.choices),
      tried.insert(choices.hashValue).inserted
    else { return false }
    attempts += 1
    var source = ChoiceSource(replaying: choices)
    guard case .failed(let value, let failure, let isIssue) = run(&source),
      Self.shortlexPrecedes(source.choices, best.choices),
      !shorter || source.choices.count < best.choices.count
    else { return false }
    best = Candidate(source, value: value, failure: failure, isIssue: isIssue)
    steps += 1
    return true
  }

  /// Replaces each level of a recursive value with a level inside it drawn by the same
  /// generator, outermost first: a sum with one of its terms, a tree with one of its subtrees.
  private mutating func replaceNodesWithDescendants() {
    // Levels are recorded as they finish, so an outer level comes after the levels inside it.
    var index = best.nodes.count - 1
    while index >= 0 && !exhausted {
      let node = best.nodes[index]
      for inner in best.nodes.reversed()
      where inner.label == node.label && inner.range != node.range
        && node.range.contains(inner.range.lowerBound)
        && inner.range.upperBound <= node.range.upperBound
      {
        var candidate = best.choices
        candidate.replaceSubrange(node.range, with: best.choices[inner.range])
        if consider(candidate) { break }
      }
      index = Swift.min(index, best.nodes.count) - 1
    }
  }

  /// Lowers one choice by 1 and drops every choice after it (they replay as 0): finds minimal
  /// inputs that need a choice and the ones after it changed together, such as turning the
  /// divisor `x / 1` into the sum `0 + 0`.
  private mutating func lowerAndTruncate() {
    var index = best.choices.count - 1
    while index >= 0 && !exhausted {
      if index < best.choices.count && best.choices[index] > 0 {
        var candidate = Array(best.choices[...index])
        candidate[index] -= 1
        consider(candidate)
      }
      index -= 1
    }
  }

  /// Lowers the first choice of a value (a sign, a kind) by 1 and tries the next choice (its
  /// magnitude) at each of 0...15, smallest first: the way out of a minimum where a value must
  /// grow as it changes kind, such as `-1` becoming `4` in `[0, 1, -1, 2, 3]`, a list that
  /// fails with 5 different values. O(16 × choices) attempts.
  private mutating func lowerAndPickNext() {
    var index = best.values.count - 1
    while index >= 0 && !exhausted {
      let span = best.values[index]
      for offset in 0..<(span.range.count - 1) where !exhausted {
        let first = span.range.lowerBound + offset
        guard span.range.upperBound <= best.choices.count, best.choices[first] > 0 else {
          continue
        }
        var candidate = best.choices
        candidate[first] -= 1
        for next in 0...Swift.min(span.maxima[offset + 1], 15) {
          candidate[first + 1] = next
          if consider(candidate) { break }
        }
      }
      index = Swift.min(index, best.values.count) - 1
    }
  }

  /// Deletes whole collection elements (an element's choices and the choice that asked for it),
  /// from the last one to the first; each deletion also with the values after it lowered by
  /// one.
  private mutating func deleteElements() {
    var index = best.elements.count - 1
    while index >= 0 && !exhausted {
      let element = best.elements[index]
      var candidate = best.choices
      candidate.removeSubrange(element)
      if !consider(candidate) {
        consider(shifting(valuesAfter: element, in: candidate, up: false))
      }
      index = Swift.min(index, best.elements.count) - 1
    }
    for count in [2, 3, 4, 8] { deleteRuns(of: count) }
  }

  /// Deletes whole collection elements, last first, with the values after each raised by one
  /// (see `shifting(valuesAfter:in:up:)`).
  private mutating func deleteElementsRaisingValuesAfter() {
    var index = best.elements.count - 1
    while index >= 0 && !exhausted {
      let element = best.elements[index]
      var candidate = best.choices
      candidate.removeSubrange(element)
      consider(shifting(valuesAfter: element, in: candidate, up: true))
      index = Swift.min(index, best.elements.count) - 1
    }
  }

  /// `candidate` — the best choices with `deleted` removed — with each value after the
  /// deleted range lowered (or raised, `up`) by one, in its last choice: values that are
  /// positions in a list shift when an element before them goes (`[0, 2, 1]` without its
  /// first element is `[1, 0]`, not `[2, 1]`), and positions among the items that qualify
  /// shift the other way when the deleted step made one stop qualifying (a state machine's
  /// pop that emptied one of the heaps its later pops pick among).
  private func shifting(valuesAfter deleted: Range<Int>, in candidate: [UInt64], up: Bool)
    -> [UInt64]
  {
    var shifted = candidate
    for span in best.values where span.range.lowerBound >= deleted.upperBound {
      let last = span.range.upperBound - 1 - deleted.count
      if up {
        // Not bounded by the maximum it was drawn with: the list may be longer now (replay
        // clamps a choice to its draw's maximum).
        if shifted[last] < .max { shifted[last] += 1 }
      } else if shifted[last] > 0 {
        shifted[last] -= 1
      }
    }
    return shifted
  }

  /// Deletes runs of `count` adjacent elements (whose choices follow each other), last first:
  /// steps that only matter together (a push and its pop) go at once.
  private mutating func deleteRuns(of count: Int) {
    var index = best.elements.count - count
    while index >= 0 && !exhausted {
      let run = best.elements[index..<(index + count)]
      if zip(run, run.dropFirst()).allSatisfy({ $0.upperBound == $1.lowerBound }) {
        var candidate = best.choices
        candidate.removeSubrange(run.first!.lowerBound..<run.last!.upperBound)
        consider(candidate)
      }
      index = Swift.min(index, best.elements.count - count + 1) - 1
    }
  }

  private mutating func deleteBlocks() {
    for length in [32, 16, 8, 4, 3, 2, 1] {
      var start = best.choices.count - length
      while start >= 0 && !exhausted {
        var candidate = best.choices
        candidate.removeSubrange(start..<(start + length))
        if consider(candidate) || deletingWithDecrement(candidate, before: start) {
          start = Swift.min(start, best.choices.count - length)
        } else {
          start -= 1
        }
      }
    }
  }

  /// Retries a deletion with the choice just before the deleted block decremented: when that
  /// choice is a count (e.g. the length in `flatMap { n in element.array(count: n...n) }`),
  /// deleting one element only works together with lowering the count.
  private mutating func deletingWithDecrement(_ candidate: [UInt64], before start: Int) -> Bool {
    guard start > 0, candidate[start - 1] > 0 else { return false }
    var decremented = candidate
    decremented[start - 1] -= 1
    return consider(decremented, shorter: true)
  }

  private mutating func zeroBlocks() {
    for length in [8, 4, 2] {
      var start = 0
      while start + length <= best.choices.count && !exhausted {
        let block = start..<(start + length)
        if best.choices[block].contains(where: { $0 != 0 }) {
          var candidate = best.choices
          candidate.replaceSubrange(block, with: repeatElement(0, count: length))
          consider(candidate)
        }
        start += 1
      }
    }
  }

  private mutating func minimizeChoices() {
    var index = 0
    while index < best.choices.count && !exhausted {
      minimize([index])
      index += 1
    }
  }

  /// Lowers equal values together, e.g. `[1000, 1000]` → `[0, 0]` for a property that needs
  /// two equal elements (lowering one alone would make the input pass). Values are grouped by
  /// their choices and the maxima they were drawn with, so that a sign is only lowered with
  /// signs and a magnitude with magnitudes; each group is lowered one choice position at a time.
  private mutating func minimizeDuplicates() {
    let spans = best.values.filter { span in best.choices[span.range].contains { $0 != 0 } }
    let groups = Dictionary(grouping: spans) { span in
      DrawnValue(choices: best.choices[span.range], maxima: span.maxima)
    }
    for group in groups.values.sorted(by: { $0[0].range.lowerBound < $1[0].range.lowerBound })
    where group.count > 1 {
      for offset in 0..<group[0].range.count {
        guard !exhausted else { return }
        minimize(group.map { $0.range.lowerBound + offset })
      }
    }
  }

  /// Finds (by binary search, assuming rough monotonicity) the smallest value that the choices
  /// at `indices`, which hold equal values, can all take while the input still fails.
  /// O(log value) attempts.
  private mutating func minimize(_ indices: [Int]) {
    var passing: UInt64 = 0  // Known not to fail (or not to be smaller).
    var firstTry = true
    while !exhausted, let last = indices.last, last < best.choices.count {
      let current = best.choices[indices[0]]
      guard indices.allSatisfy({ best.choices[$0] == current }), current > passing else { return }
      guard firstTry || current - passing > 1 else { return }
      // Try 0 first, then bisect between the largest passing value and the current one.
      let target = firstTry ? 0 : passing + (current - passing) / 2
      firstTry = false
      var candidate = best.choices
      for index in indices {
        candidate[index] = target
      }
      if !consider(candidate) {
        passing = target
      } else if target == 0 {
        return
      }
    }
  }

  /// Sorting moves: swaps nearby choices that are out of order (a lexicographic decrease).
  private mutating func swapPairs() {
    var first = 0
    while first < best.choices.count && !exhausted {
      var second = first + 1
      while second < Swift.min(best.choices.count, first + 9) && !exhausted {
        if best.choices[first] > best.choices[second] {
          var candidate = best.choices
          candidate.swapAt(first, second)
          consider(candidate)
        }
        second += 1
      }
      first += 1
    }
  }

  /// Moves value from a choice to a later, nearby one (all of it, then halves), keeping their
  /// sum: unsticks properties over sums such as `[50, 50]` → `[0, 100]`.
  private mutating func redistributePairs() {
    var first = 0
    while first < best.choices.count && !exhausted {
      var second = first + 1
      while second < Swift.min(best.choices.count, first + 9) && !exhausted {
        var amount = best.choices[first]
        while amount > 0 && !exhausted && second < best.choices.count {
          var candidate = best.choices
          guard candidate[first] >= amount, candidate[second] <= UInt64.max - amount else { break }
          candidate[first] -= amount
          candidate[second] += amount
          if !consider(candidate) {
            amount /= 2
          } else if first < best.choices.count {
            amount = best.choices[first]
          } else {
            break
          }
        }
        second += 1
      }
      first += 1
    }
  }

  /// Lowers two nearby values drawn the same way by a common amount, choice by choice (the
  /// largest amount found by binary search): keeps a difference between them, e.g.
  /// `(7_000, 6_999)` → `(10, 9)` for a property that fails when they differ by 1 and the first
  /// is at least 10.
  private mutating func lowerPairsTogether() {
    var first = 0
    while first < best.values.count && !exhausted {
      var second = first + 1
      while second < Swift.min(best.values.count, first + 8) && !exhausted {
        let a = best.values[first]
        let b = best.values[second]
        if a.maxima == b.maxima {
          for offset in 0..<a.range.count {
            lowerTogether(a.range.lowerBound + offset, b.range.lowerBound + offset)
          }
        }
        second += 1
      }
      first += 1
    }
  }

  /// Binary-searches the largest amount by which the choices at `i` and `j` can both be lowered
  /// while the input still fails, after checking that lowering both by 1 does. O(log value)
  /// attempts, 1 when lowering them together does not work.
  private mutating func lowerTogether(_ i: Int, _ j: Int) {
    guard i < best.choices.count, j < best.choices.count else { return }
    let original = best.choices
    let smaller = Swift.min(original[i], original[j])
    var works: UInt64 = 0
    var fails = smaller + 1  // Known not to work (or too much).
    for amount in [1, smaller] {
      guard amount > works, amount < fails else { continue }
      if lowered(original, i, j, by: amount) {
        works = amount
      } else {
        fails = amount
      }
      guard works > 0, best.choices.count == original.count else { return }
    }
    while fails - works > 1 && !exhausted {
      let amount = works + (fails - works) / 2
      if lowered(original, i, j, by: amount) {
        works = amount
        guard best.choices.count == original.count else { return }
      } else {
        fails = amount
      }
    }
  }

  private mutating func lowered(_ choices: [UInt64], _ i: Int, _ j: Int, by amount: UInt64)
    -> Bool
  {
    var candidate = choices
    candidate[i] -= amount
    candidate[j] -= amount
    return consider(candidate)
  }

  /// Shortlex order: shorter sequences first, then lexicographic.
  static func shortlexPrecedes(_ lhs: [UInt64], _ rhs: [UInt64]) -> Bool {
    if lhs.count != rhs.count {
      return lhs.count < rhs.count
    }
    return lhs.lexicographicallyPrecedes(rhs)
  }
}

/// What identifies equal values drawn the same way: their choices and the maxima of those.
private struct DrawnValue: Hashable {
  let choices: ArraySlice<UInt64>
  let maxima: [UInt64]
}
