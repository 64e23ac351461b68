/// "Did you mean …?" for a mistyped name.
enum Suggestion {
  /// The candidate closest to `name`, when it is close enough to be what was meant: the
  /// same but for case, the only one that starts with it, or within an edit distance of
  /// about a third of its length.
  static func closest(to name: String, among candidates: [String]) -> String? {
    let lowered = name.lowercased()
    let extensions = candidates.filter { $0.lowercased().hasPrefix(lowered) }
    if lowered.count >= 2, extensions.count == 1 { return extensions[0] }
    let scored = candidates.map { ($0, distance(lowered, $0.lowercased())) }
    guard let (best, score) = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return score <= max(1, min(best.count, name.count) / 3) ? best : nil
  }

  /// " — did you mean 'x'?", or nothing.
  static func phrase(for name: String, among candidates: [String]) -> String {
    closest(to: name, among: candidates).map { " — did you mean '\($0)'?" } ?? ""
  }

  /// The edit distance between `a` and `b`, in characters: insertions, deletions,
  /// substitutions and swaps of two neighbours ("miels" for "miles") count one each (the
  /// optimal string alignment distance).
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var beforePrevious = Array(repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = Swift.min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
