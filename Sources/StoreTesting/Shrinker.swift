/// Shrinks a failing input by editing its recorded choice sequence (Hypothesis-style internal
/// shrinking).
///
/// A candidate sequence is replayed through the generator; the edit is kept when the generated
/// value still fails the property and its (re-recorded) choice sequence is smaller in shortlex
/// order (shorter, or as long and lexicographically smaller). That order is well-founded, and the
/// number of property evaluations is capped, so shrinking always terminates.
///
/// Passes, repeated until a round makes no progress:
/// 1. delete blocks of 32, 16, …, 1 consecutive choices (removes collection elements), also
///    together with decrementing the choice before the block (a count that governs it);
/// 2. zero blocks of 8, 4, 2 choices (simplifies whole sub-values at once);
/// 3. minimise each choice: try 0, then binary-search the smallest failing value; then the same
///    for groups of equal choices lowered together (e.g. two equal elements);
/// 4. only when 1–3 are stuck: swap out-of-order pairs (sorting) and move value from an
///    earlier choice to a later one (redistribution, e.g. `[50, 50]` → `[0, 100]`).
struct Shrinker<Value> {
  struct Candidate {
    var choices: [UInt64]
    var value: Value
    var failure: String
  }

  private let gen: Gen<Value>
  /// Returns the failure description when the property fails for the value, `nil` if it holds.
  private let evaluate: (Value) -> String?
  private let maxAttempts: Int
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
    gen: Gen<Value>, failing: Candidate, maxAttempts: Int,
    evaluate: @escaping (Value) -> String?
  ) {
    self.gen = gen
    self.best = failing
    self.maxAttempts = maxAttempts
    self.evaluate = evaluate
  }

  private var exhausted: Bool { attempts >= maxAttempts }

  /// Runs the passes until no pass makes progress or the attempt budget is spent.
  mutating func shrink() {
    while !exhausted {
      let before = best.choices
      deleteBlocks()
      zeroBlocks()
      minimizeChoices()
      minimizeDuplicates()
      if best.choices == before {
        swapPairs()
        redistributePairs()
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
    guard let (value, recorded) = try? gen.replay(choices),
      Self.shortlexPrecedes(recorded, best.choices),
      !shorter || recorded.count < best.choices.count,
      let failure = evaluate(value)
    else { return false }
    best = Candidate(choices: recorded, value: value, failure: failure)
    steps += 1
    return true
  }

  private mutating func deleteBlocks() {
    for length in [32, 16, 8, 4, 2, 1] {
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

  /// Lowers groups of equal choices together, e.g. `[1000, 1000]` → `[0, 0]` for a property
  /// that needs two equal elements (lowering one alone would make the input pass).
  private mutating func minimizeDuplicates() {
    let groups = Dictionary(grouping: best.choices.indices.filter { best.choices[$0] > 0 }) {
      best.choices[$0]
    }
    for indices in groups.values.sorted(by: { $0[0] < $1[0] }) where indices.count > 1 {
      guard !exhausted else { return }
      minimize(indices)
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

  /// Shortlex order: shorter sequences first, then lexicographic.
  static func shortlexPrecedes(_ lhs: [UInt64], _ rhs: [UInt64]) -> Bool {
    if lhs.count != rhs.count {
      return lhs.count < rhs.count
    }
    return lhs.lexicographicallyPrecedes(rhs)
  }
}
