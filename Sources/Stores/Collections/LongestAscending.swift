/// The offsets of a longest subsequence of `elements` ascending by `precedes` (a strict
/// order); of equally long ones, the one whose last element is the least, then whose last
/// but one is, and so on. O(*n* log *n*) (patience sorting).
///
/// What tells the items a reordering kept in place from those it moved: the merge's places
/// (``ListSync``) and undo's orderings.
func longestAscendingOffsets<Element>(
  _ elements: [Element], by precedes: (Element, Element) -> Bool
) -> [Int] {
  // tails[k]: the offset of the least last element of an ascending run of length k + 1.
  var tails: [Int] = []
  var previous = [Int](repeating: -1, count: elements.count)
  for (offset, element) in elements.enumerated() {
    var (low, high) = (0, tails.count)
    while low < high {
      let middle = (low + high) / 2
      if precedes(elements[tails[middle]], element) { low = middle + 1 } else { high = middle }
    }
    if low > 0 { previous[offset] = tails[low - 1] }
    if low == tails.count { tails.append(offset) } else { tails[low] = offset }
  }
  var result: [Int] = []
  var offset = tails.last ?? -1
  while offset >= 0 {
    result.append(offset)
    offset = previous[offset]
  }
  return result.reversed()
}
