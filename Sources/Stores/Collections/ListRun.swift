import Foundation

/// Elements that stood together in a list, and where: what the inverse of a removal or a move
/// keeps to put them back next to the neighbours they had (see
/// ``TodosStore/Action/restoreTodos(_:)``, ``WorkoutsStore/Action/restoreWorkouts(_:)``).
///
/// The runs of one inverse share one buffer of their elements: recording a removal copies
/// the removed elements once, into one array, whatever the number of runs.
public struct ListRun<Element: Identifiable>: Equatable, Sendable, Codable
where Element: Equatable & Sendable & Codable, Element.ID == UUID {
  /// The elements, in their order in the list. Reading it copies them into an array of their
  /// own, O(*k*).
  public var elements: [Element] {
    get { Array(slice) }
    set { slice = ArraySlice(newValue) }
  }
  /// The element they stood just before, or `nil` when they were at the end.
  public var before: UUID?
  /// The element they stood just after, or `nil` when they were first: where they go back
  /// when `before` is gone.
  public var after: UUID?
  /// How many of the elements that stay stood before them: where they go back when `before`
  /// and `after` are both gone.
  public var offset: Int
  /// The elements, in place: a part of the buffer the runs of one inverse share.
  private(set) var slice: ArraySlice<Element>

  /// The run of `elements`, which stood just before `before` and just after `after`, with
  /// `offset` of the elements that stay before them.
  public init(_ elements: [Element], before: UUID?, after: UUID? = nil, offset: Int) {
    self.init(ArraySlice(elements), before: before, after: after, offset: offset)
  }

  /// The run of the elements of `slice`, kept in place.
  init(_ slice: ArraySlice<Element>, before: UUID?, after: UUID?, offset: Int) {
    self.slice = slice
    self.before = before
    self.after = after
    self.offset = offset
  }

  /// The runs of consecutive elements of `list` that `isPicked` picks (given each one's
  /// index), each with its neighbours among the elements not picked.
  ///
  /// `isPicked` is asked once per element. The picked elements are copied once, into one
  /// array that the runs share; it and the array of runs are made at their final size, as
  /// growing them would copy them and touch twice their memory (page faults, at this size,
  /// cost more than the copy).
  ///
  /// - Complexity: O(*n*).
  static func runs(in list: [Element], where isPicked: (Int, Element) -> Bool) -> [ListRun] {
    var bits = PickedBits(count: list.count)
    var pickedCount = 0
    var runCount = 0
    var inRun = false
    for index in list.indices {
      if isPicked(index, list[index]) {
        bits.insert(index)
        pickedCount += 1
        if !inRun { runCount += 1 }
        inRun = true
      } else {
        inRun = false
      }
    }
    guard pickedCount > 0 else { return [] }
    let picked = [Element](unsafeUninitializedCapacity: pickedCount) { buffer, count in
      bits.forEachOffset { index in
        buffer.initializeElement(at: count, to: list[index])
        count += 1
      }
    }
    var runs: [ListRun] = []
    runs.reserveCapacity(runCount)
    var start: Int?
    var end = 0
    var staying = 0
    var previous: UUID?
    for index in list.indices {
      if bits.contains(index) {
        if start == nil { start = end }
        end += 1
      } else {
        let id = list[index].id
        if let first = start {
          runs.append(ListRun(picked[first..<end], before: id, after: previous, offset: staying))
          start = nil
        }
        staying += 1
        previous = id
      }
    }
    if let first = start {
      runs.append(ListRun(picked[first...], before: nil, after: previous, offset: staying))
    }
    return runs
  }

  /// The elements of `runs`, in order. O(*k*) for *k* elements.
  static func elements(of runs: [ListRun]) -> [Element] {
    var elements: [Element] = []
    elements.reserveCapacity(runs.reduce(0) { $0 + $1.slice.count })
    for run in runs { elements += run.slice }
    return elements
  }

  private enum CodingKeys: String, CodingKey {
    case elements, before, after, offset
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode([Element].self, forKey: .elements),
      before: try container.decodeIfPresent(UUID.self, forKey: .before),
      after: try container.decodeIfPresent(UUID.self, forKey: .after),
      offset: try container.decode(Int.self, forKey: .offset))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var elements = container.nestedUnkeyedContainer(forKey: .elements)
    try elements.encode(contentsOf: slice)
    try container.encodeIfPresent(before, forKey: .before)
    try container.encodeIfPresent(after, forKey: .after)
    try container.encode(offset, forKey: .offset)
  }

  /// Inserts the elements of `runs` that `isNew` accepts into `list`: each run's just before
  /// its `before` (at the end when `nil`), or — `before` gone — just after its `after`, or —
  /// both gone — at its offset, clamped. Returns whether any was inserted. `isNew` is asked
  /// once per element, in order, before anything is inserted.
  ///
  /// - Complexity: O(*n* + *k*) for *k* elements in the runs, plus O(*k* log *k*) for the runs
  ///   whose neighbours are both gone.
  static func restore(
    _ runs: [ListRun], in list: inout [Element], where isNew: (Element) -> Bool
  ) -> Bool {
    let present = Set(list.lazy.map(\.id))
    var beforeElement: [UUID: [Element]] = [:]
    var afterElement: [UUID: [Element]] = [:]
    var atEnd: [Element] = []
    var atOffset: [(offset: Int, elements: [Element])] = []
    var count = 0
    for run in runs {
      let new = run.slice.filter(isNew)
      guard !new.isEmpty else { continue }
      count += new.count
      if let before = run.before, present.contains(before) {
        beforeElement[before, default: []] += new
      } else if let after = run.after, present.contains(after) {
        afterElement[after, default: []] += new
      } else if run.before == nil {
        atEnd += new
      } else {
        atOffset.append((run.offset, new))
      }
    }
    guard count > 0 else { return false }
    var result: [Element] = []
    result.reserveCapacity(list.count + count)
    for element in list {
      // Each group goes next to the first element with the id, should two have it.
      if let new = beforeElement.removeValue(forKey: element.id) { result += new }
      result.append(element)
      if let new = afterElement.removeValue(forKey: element.id) { result += new }
    }
    result += atEnd
    if !atOffset.isEmpty {
      atOffset.sort { $0.offset < $1.offset }
      var merged: [Element] = []
      merged.reserveCapacity(result.count)
      var next = 0
      for (index, element) in result.enumerated() {
        while next < atOffset.count, atOffset[next].offset <= index {
          merged += atOffset[next].elements
          next += 1
        }
        merged.append(element)
      }
      for run in atOffset[next...] { merged += run.elements }
      result = merged
    }
    list = result
    return true
  }
}

/// A set of the offsets `0..<count`, one bit each.
private struct PickedBits {
  private var words: [UInt64]

  init(count: Int) {
    words = Array(repeating: 0, count: (count + 63) / 64)
  }

  mutating func insert(_ offset: Int) {
    words[offset >> 6] |= 1 << UInt64(offset & 63)
  }

  func contains(_ offset: Int) -> Bool {
    words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
  }

  /// Calls `body` with each offset in the set, ascending.
  func forEachOffset(_ body: (Int) -> Void) {
    for (index, word) in words.enumerated() {
      var word = word
      while word != 0 {
        body(index << 6 | word.trailingZeroBitCount)
        word &= word - 1
      }
    }
  }
}
