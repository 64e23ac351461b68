/// A collection of the indices and elements of a base collection, side by side.
///
/// Made by `indexed()`. Each element is a pair `(index:element:)` whose
/// `index` is the base collection's own index — not an offset — so it is right for every
/// collection, including slices that do not start at 0, strings and dictionaries:
///
/// ```swift
/// let slice = [10, 20, 30, 40][2...]
/// for (index, element) in slice.indexed() {
///   print(index, element)   // 2 30, then 3 40
/// }
/// ```
///
/// `IndexedCollection` shares its base's indices, so it is bidirectional or random-access
/// when the base is, and iterating it costs what a loop over `base.indices` that subscripts
/// `base` costs: everything is `@inlinable`, so it is as fast as that loop from any module.
public struct IndexedCollection<Base: Collection> {
  /// The collection whose indices and elements this collection pairs.
  public let base: Base

  @inlinable
  init(base: Base) {
    self.base = base
  }
}

extension IndexedCollection: Collection {
  public typealias Index = Base.Index
  public typealias Indices = Base.Indices
  public typealias Element = (index: Base.Index, element: Base.Element)

  /// An iterator that walks the base's indices once and subscripts the base at each.
  public struct Iterator: IteratorProtocol {
    @usableFromInline
    let base: Base
    @usableFromInline
    var indexIterator: Base.Indices.Iterator

    @inlinable
    init(base: Base) {
      self.base = base
      self.indexIterator = base.indices.makeIterator()
    }

    /// - Complexity: O(1), plus the base's cost of advancing an index.
    @inlinable
    public mutating func next() -> Element? {
      guard let index = indexIterator.next() else { return nil }
      return (index, base[index])
    }
  }

  @inlinable
  public func makeIterator() -> Iterator { Iterator(base: base) }

  @inlinable
  public var startIndex: Index { base.startIndex }

  @inlinable
  public var endIndex: Index { base.endIndex }

  @inlinable
  public var indices: Indices { base.indices }

  @inlinable
  public var count: Int { base.count }

  @inlinable
  public var isEmpty: Bool { base.isEmpty }

  @inlinable
  public subscript(position: Index) -> Element { (position, base[position]) }

  @inlinable
  public func index(after i: Index) -> Index { base.index(after: i) }

  @inlinable
  public func formIndex(after i: inout Index) { base.formIndex(after: &i) }

  @inlinable
  public func index(_ i: Index, offsetBy distance: Int) -> Index {
    base.index(i, offsetBy: distance)
  }

  @inlinable
  public func index(_ i: Index, offsetBy distance: Int, limitedBy limit: Index) -> Index? {
    base.index(i, offsetBy: distance, limitedBy: limit)
  }

  @inlinable
  public func distance(from start: Index, to end: Index) -> Int {
    base.distance(from: start, to: end)
  }
}

extension IndexedCollection: BidirectionalCollection where Base: BidirectionalCollection {
  @inlinable
  public func index(before i: Index) -> Index { base.index(before: i) }

  @inlinable
  public func formIndex(before i: inout Index) { base.formIndex(before: &i) }
}

extension IndexedCollection: RandomAccessCollection where Base: RandomAccessCollection {}

extension IndexedCollection: LazySequenceProtocol, LazyCollectionProtocol
where Base: LazySequenceProtocol {}

extension IndexedCollection: Sendable where Base: Sendable {}
extension IndexedCollection.Iterator: Sendable
where Base: Sendable, Base.Indices.Iterator: Sendable {}

extension Collection {
  /// The indices and elements of this collection, side by side, as `(index:element:)` pairs.
  ///
  /// Use it instead of `enumerated()` when you need a position to subscript the collection
  /// with: `enumerated()` counts from 0, which is not an index of a slice, a string or a
  /// dictionary.
  ///
  /// ```swift
  /// let word = "héllo"
  /// for (index, character) in word.indexed() where character == "l" {
  ///   print(word[..<index])   // "hé", then "hél"
  /// }
  /// ```
  ///
  /// Over a lazy collection (`items.lazy.indexed()`), the result is lazy too: `map` and
  /// `filter` on it compute nothing until iterated.
  ///
  /// This is a disfavoured overload: where swift-algorithms' `indexed()` is imported too, a
  /// call picks that one (no "ambiguous use"); the two give the same pairs.
  ///
  /// - Complexity: O(1) to create; iterating it costs what iterating `indices` and
  ///   subscripting the collection cost.
  @inlinable @_disfavoredOverload
  public func indexed() -> IndexedCollection<Self> {
    IndexedCollection(base: self)
  }
}
