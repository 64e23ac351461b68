/// Horizontal bars of text, for the charts of `diary workouts stats`.
enum BarChart {
  /// The eighths of a block, from one to a whole one.
  private static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]

  /// A bar for `value` where `maximum` takes `width` columns: block characters to an eighth
  /// of a column, or `#` to a column where blocks cannot be shown. Empty for 0, at least a
  /// sliver for any other value. O(`width`).
  static func bar(_ value: Double, of maximum: Double, width: Int, blocks: Bool) -> String {
    guard value > 0, maximum > 0, width > 0 else { return "" }
    let share = min(value / maximum, 1)
    guard blocks else {
      return String(repeating: "#", count: max(1, Int((share * Double(width)).rounded())))
    }
    let total = max(1, Int((share * Double(width * 8)).rounded()))
    let whole = total / 8
    return String(repeating: "█", count: whole)
      + (total % 8 == 0 ? "" : String(eighths[total % 8 - 1]))
  }
}
