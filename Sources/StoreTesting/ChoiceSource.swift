/// The stream of choices every generator draws from (the heart of the shrinking design).
///
/// A generator never touches randomness directly: it asks for *choices*, unsigned integers in
/// `0...max`, where 0 always encodes the simplest outcome. Every choice is recorded, so a value is
/// fully described by its choice sequence.
///
/// - In *random* mode the caller decides which value it wants (with the `random(_:)` escape
///   hatch, which only runs in this mode) and records the choices that encode it.
/// - In *replay* mode the choices come from a given sequence (clamped to each draw's `max`);
///   once it runs out, every draw returns 0, the simplest value. The shrinker edits recorded
///   sequences and replays them.
///
/// Besides the choices, the source records where each primitive value (`value(_:)`), each
/// collection element (`element(_:)`) and each level of a recursive value (`node(label:_:)`)
/// lies in the sequence, which the shrinker uses to lower equal values together, to delete
/// whole elements and to replace a subtree with a smaller one inside it.
struct ChoiceSource {
  /// A hard cap on draws per value, so a runaway recursive generator fails instead of hanging.
  static let maxChoices = 1_000_000

  /// Where one primitive value's choices are, and the maxima they were drawn with (values drawn
  /// the same way have the same maxima).
  struct ValueSpan: Hashable {
    let range: Range<Int>
    let maxima: [UInt64]
  }

  private var rng: SeededRandom?
  private let prefix: [UInt64]
  private var position = 0
  /// The size (0...100) of the case being generated; only meaningful in random mode.
  let size: Int
  /// Every choice drawn so far, after clamping: the canonical description of the value.
  private(set) var choices: [UInt64] = []
  /// The maximum of each choice in `choices`.
  private var maxima: [UInt64] = []
  /// The primitive values drawn so far, in the order they were finished.
  private(set) var values: [ValueSpan] = []
  /// The collection elements drawn so far, each with the choice that decided to draw it.
  private(set) var elements: [Range<Int>] = []
  /// The levels of recursive values drawn so far (see `node(label:_:)`).
  private(set) var nodes: [Node] = []

  /// Where one level of a recursive value is, and which recursive generator drew it.
  struct Node {
    let range: Range<Int>
    let label: ObjectIdentifier
  }
  /// Random mode only: the values drawn so far in this case, by type, so that generators can
  /// repeat one (failures often need two equal or nearby values).
  private var earlier: [ObjectIdentifier: [Any]] = [:]
  /// Random mode only: the swarm of the collection whose elements are being drawn; `nil`
  /// outside a collection.
  var swarm: Swarm?

  /// Which alternatives of each `Gen.frequency` the elements of one collection may pick: a
  /// collection of actions then often leaves some kinds of action out altogether (swarm
  /// testing), and goes deeper with the others.
  struct Swarm {
    /// Whether this collection restricts its alternatives (3 in 4 do), decided at its first
    /// `frequency`, so that collections without one draw nothing more.
    var isSwarming: Bool?
    /// The alternatives allowed, by `frequency` generator.
    var allowed: [ObjectIdentifier: [Bool]] = [:]

    /// The alternatives (of `count`) the `frequency` generator `id` may pick in this
    /// collection — each with probability 1/2, at least one — or `nil` when every one may.
    /// O(count) the first time in a collection, O(1) after.
    mutating func alternatives(
      of id: ObjectIdentifier, count: Int, using random: inout SeededRandom
    )
      -> [Bool]?
    {
      if isSwarming == nil { isSwarming = random.next(below: 4) != 0 }
      guard isSwarming == true else { return nil }
      if let allowed = allowed[id] { return allowed }
      var chosen = (0..<count).map { _ in random.next(below: 2) == 0 }
      if !chosen.contains(true) { chosen[Int(random.next(below: UInt64(count)))] = true }
      allowed[id] = chosen
      return chosen
    }
  }

  /// A random-mode source for one test case.
  init(seed: UInt64, size: Int) {
    self.rng = SeededRandom(seed: seed)
    self.prefix = []
    self.size = size
  }

  /// A replay-mode source that re-plays `choices` and then returns zeros.
  init(replaying choices: [UInt64]) {
    self.rng = nil
    self.prefix = choices
    self.size = 0
  }

  /// Whether this source replays a recorded sequence.
  var isReplaying: Bool { rng == nil }

  /// Runs `body` with the random generator and the case size in random mode; returns `nil`
  /// without running it in replay mode. Use it to pick the value you intend to encode.
  mutating func random<T>(_ body: (inout SeededRandom, _ size: Int) -> T) -> T? {
    guard var generator = rng else { return nil }
    defer { rng = generator }
    return body(&generator, size)
  }

  /// Draws one choice in `0...max` and records it. In random mode the result is
  /// `min(intended, max)`; in replay mode `intended` is ignored. O(1) amortized.
  mutating func draw(max: UInt64, intended: UInt64) throws -> UInt64 {
    guard choices.count < Self.maxChoices else {
      throw GenerationError(
        "A generator drew more than \(Self.maxChoices) choices for one value; "
          + "is a recursive generator missing a base case?")
    }
    let value: UInt64
    if isReplaying {
      value = position < prefix.count ? Swift.min(prefix[position], max) : 0
      position += 1
    } else {
      value = Swift.min(intended, max)
    }
    choices.append(value)
    maxima.append(max)
    return value
  }

  /// Draws a Boolean choice (0 = `false`, the simplest).
  mutating func drawBool(intended: Bool) throws -> Bool {
    try draw(max: 1, intended: intended ? 1 : 0) == 1
  }

  /// Draws an index in `0..<count` (0 is the simplest).
  mutating func drawIndex(count: Int, intended: Int) throws -> Int {
    precondition(count > 0, "drawIndex needs a positive count")
    return Int(try draw(max: UInt64(count - 1), intended: UInt64(Swift.max(0, intended))))
  }

  /// Draws an unsigned magnitude in `0...max`. Types up to 64 bits take one choice; wider ones
  /// take one choice per 64-bit word, most significant first, so shrinking still minimises the
  /// value.
  mutating func drawMagnitude<M: FixedWidthInteger & UnsignedInteger>(
    max: M, intended: M
  ) throws -> M {
    if M.bitWidth <= 64 {
      let value = try draw(
        max: UInt64(truncatingIfNeeded: max), intended: UInt64(truncatingIfNeeded: intended))
      return M(truncatingIfNeeded: value)
    }
    var result: M = 0
    var tight = true  // Whether the words so far equal `max`'s, so the next word is bounded.
    var shift = (M.bitWidth - 1) / 64 * 64
    while shift >= 0 {
      let maxWord = UInt64(truncatingIfNeeded: max >> shift)
      let word = try draw(
        max: tight ? maxWord : .max, intended: UInt64(truncatingIfNeeded: intended >> shift))
      tight = tight && word == maxWord
      result |= M(truncatingIfNeeded: word) << shift
      shift -= 64
    }
    return result
  }

  /// Draws one primitive value (a number, a character, …) with `body` and records where its
  /// choices are. In random mode, the value is also remembered for `earlierValue(of:)`.
  mutating func value<T>(_ body: (inout ChoiceSource) throws -> T) throws -> T {
    let start = choices.count
    let value = try body(&self)
    values.append(ValueSpan(range: start..<choices.count, maxima: Array(maxima[start...])))
    if !isReplaying {
      earlier[ObjectIdentifier(T.self), default: []].append(value)
    }
    return value
  }

  /// Draws one collection element with `body`, where `body` starts with the choice that
  /// decides whether there is one more element; records where its choices are.
  mutating func element<T>(_ body: (inout ChoiceSource) throws -> T?) throws -> T? {
    let start = choices.count
    let element = try body(&self)
    if element != nil {
      elements.append(start..<choices.count)
    }
    return element
  }

  /// Draws one level of a recursive value with `body` and records where its choices are, so
  /// that the shrinker can replace it with a level inside it drawn by the same generator
  /// (`label`), e.g. a sum with one of its terms.
  mutating func node<T>(label: ObjectIdentifier, _ body: (inout ChoiceSource) throws -> T) throws
    -> T
  {
    let start = choices.count
    let node = try body(&self)
    nodes.append(Node(range: start..<choices.count, label: label))
    return node
  }

  /// Random mode: one of the values of type `T` drawn so far in this case (by `value(_:)`),
  /// picked uniformly; `nil` in replay mode or when there is none. O(1).
  mutating func earlierValue<T>(of type: T.Type) -> T? {
    guard let pool = earlier[ObjectIdentifier(type)], !pool.isEmpty else { return nil }
    return random { random, _ in pool[Int(random.next(below: UInt64(pool.count)))] as? T } ?? nil
  }
}
