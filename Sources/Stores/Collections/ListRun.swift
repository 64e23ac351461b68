import Foundation

/// Elements that stood together in a list, and where: what the inverse of a removal or a move
/// keeps to put them back next to the neighbours they had (see
/// ``TodosStore/Action/restoreTodos(_:)``, ``WorkoutsStore/Action/restoreWorkouts(_:)``).
public struct ListRun<Element: Identifiable>: Equatable, Sendable, Codable
where Element: Equatable & Sendable & Codable, Element.ID == UUID {
  /// The elements, in their order in the list.
  public var elements: [Element]
  /// The element they stood just before, or `nil` when they were at the end.
  public var before: UUID?
  /// The element they stood just after, or `nil` when they were first: where they go back
  /// when `before` is gone.
  public var after: UUID?
  /// How many of the elements that stay stood before them: where they go back when `before`
  /// and `after` are both gone.
  public var offset: Int

  /// The run of `elements`, which stood just before `before` and just after `after`, with
  /// `offset` of the elements that stay before them.
  public init(_ elements: [Element], before: UUID?, after: UUID? = nil, offset: Int) {
    self.elements = elements
    self.before = before
    self.after = after
    self.offset = offset
  }

  /// The runs of consecutive elements of `list` that `isPicked` picks (given each one's
  /// index), each with its neighbours among the elements not picked.
  ///
  /// - Complexity: O(*n*).
  static func runs(in list: [Element], where isPicked: (Int, Element) -> Bool) -> [ListRun] {
    var runs: [ListRun] = []
    var start: Int?
    var staying = 0
    var previous: UUID?
    // Elements are read in place; each run's are copied once, into an array of their count.
    for index in list.indices {
      if isPicked(index, list[index]) {
        if start == nil { start = index }
      } else {
        let id = list[index].id
        if let first = start {
          runs.append(
            ListRun(Array(list[first..<index]), before: id, after: previous, offset: staying))
          start = nil
        }
        staying += 1
        previous = id
      }
    }
    if let first = start {
      runs.append(ListRun(Array(list[first...]), before: nil, after: previous, offset: staying))
    }
    return runs
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
      let new = run.elements.filter(isNew)
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
