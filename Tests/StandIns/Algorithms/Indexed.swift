// A stand-in for swift-algorithms' `IndexedCollection` and `indexed()`, with their exact
// public signatures, so that the package's tests prove a file importing both Algorithms and
// Stores compiles (no "ambiguous use").

public struct IndexedCollection<Base: Collection> {
  let base: Base
}

extension IndexedCollection: Collection {
  public typealias Element = (index: Base.Index, element: Base.Element)
  public var startIndex: Base.Index { base.startIndex }
  public var endIndex: Base.Index { base.endIndex }
  public subscript(position: Base.Index) -> Element { (index: position, element: base[position]) }
  public func index(after i: Base.Index) -> Base.Index { base.index(after: i) }
}

extension Collection {
  public func indexed() -> IndexedCollection<Self> {
    IndexedCollection(base: self)
  }
}
