import Foundation
import Stores

/// A list whose items `diary` numbers.
enum NumberedList: String {
  case todos, workouts
}

/// The order of a list as `diary` last numbered it for this machine's user, so that a number
/// typed later names the item that was shown under it: when the list changed in between in a
/// way the user did not see — an item added, removed or moved by an app, on another device,
/// or by another `diary` reordering it — a command given numbers refuses rather than change
/// another item than the one meant.
///
/// `diary todos list` (and a command that prints the numbered list as JSON) records the
/// order; a command of this machine that changes the list in a way its user can tell (`add`,
/// `remove`, `move`, `undo`: a numbered list shifts after a removal) records the order it
/// leaves, when the order it found was the one recorded and nothing from elsewhere came in
/// on the way. Kept in the local state folder, beside the undo history
/// (`diary/history/KEY/todos.listed`, see ``CommandHistory``): the number of items and a
/// hash of their ids in order, a few bytes whatever the list's size, replaced under its own
/// lock. A list never numbered on this machine (a script that knows its numbers) is taken as
/// it is.
struct ListedOrder: Equatable {
  let count: Int
  let hash: UInt64

  /// The order of `ids`. O(*n*).
  init(of ids: some Sequence<UUID>) {
    var (count, hash) = (0, UInt64(0xcbf2_9ce4_8422_2325))
    for id in ids {
      count += 1
      withUnsafeBytes(of: id.uuid) {
        for byte in $0 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      }
    }
    (self.count, self.hash) = (count, hash)
  }

  /// The order `text` (see ``text``) holds, or `nil` when it holds none.
  private init?(text: String) {
    let words = text.split(whereSeparator: \.isWhitespace)
    guard words.count == 2, let count = Int(words[0]), let hash = UInt64(words[1], radix: 16)
    else { return nil }
    (self.count, self.hash) = (count, hash)
  }

  /// The file's text: the count and the hash, in hexadecimal.
  private var text: String { "\(count) \(String(hash, radix: 16))\n" }

  /// The order recorded for `list`, or `nil` when none is (or it cannot be read).
  @MainActor
  static func recorded(_ list: NumberedList, _ context: Context) -> ListedOrder? {
    folder(context, creating: false).flatMap { read(list, in: $0) }
  }

  /// Records that `list` is numbered in the order of `ids` now (a command showed it).
  @MainActor
  static func record(_ ids: some Sequence<UUID>, of list: NumberedList, _ context: Context) {
    record(ListedOrder(of: ids), of: list, replacing: nil, context)
  }

  /// Records `order` as the order `list` is numbered in — with `expected`, only while the
  /// record is still that order (another `diary` of this machine may have numbered the list
  /// since). Best effort: a command's work is done whether or not the record can be written
  /// (no usable state folder, a full disk, a lock held more than a second). The state folder
  /// is made for a list with items only: a command that reads an empty data folder creates
  /// nothing.
  @MainActor
  static func record(
    _ order: ListedOrder, of list: NumberedList, replacing expected: ListedOrder?,
    _ context: Context
  ) {
    guard let folder = folder(context, creating: order.count > 0) else { return }
    let name = "\(list.rawValue).listed"
    try? folder.withLock(of: name, timeout: .seconds(1)) {
      let current = read(list, in: folder)
      guard current != order, expected == nil || current == expected else { return }
      try folder.write(Data(order.text.utf8), to: name)
    }
  }

  /// Refuses numbers typed for `list` when its items, `ids` as the command opened them, are
  /// not in the order recorded.
  ///
  /// - Throws: A ``DiaryError`` (exit 65) naming the change and the fix.
  @MainActor
  static func requireUnchanged(
    _ ids: some Sequence<UUID>, of list: NumberedList, _ context: Context
  ) throws(DiaryError) {
    guard let listed = recorded(list, context), listed != ListedOrder(of: ids) else { return }
    let name = list.rawValue
    throw DiaryError(
      "the \(name) changed since 'diary \(name) list' numbered them (added, removed or "
        + "reordered by an app, on another device or by another command), so the numbers may "
        + "name other \(name) now; nothing was changed — run 'diary \(name) list' again and "
        + "use its numbers")
  }

  /// The order recorded for `list` in `folder`, or `nil`.
  private static func read(_ list: NumberedList, in folder: PrivateFolder) -> ListedOrder? {
    guard let data = try? folder.read("\(list.rawValue).listed") else { return nil }
    return ListedOrder(text: String(decoding: data, as: UTF8.self))
  }

  /// The folder of the records, the undo history's: made when `creating`, else only when it
  /// exists.
  @MainActor
  private static func folder(_ context: Context, creating: Bool) -> PrivateFolder? {
    guard
      let url = try? CommandHistory.url(for: context.paths, environment: context.environment),
      creating || FileManager.default.fileExists(atPath: url.path)
    else { return nil }
    return try? PrivateFolder(creating: url.path)
  }
}
