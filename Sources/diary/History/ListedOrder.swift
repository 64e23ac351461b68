import Foundation
import Stores

/// The order of a list as `diary` last numbered it for this machine's user, so that a number
/// typed later names the item that was shown under it: when the list changed elsewhere in
/// between — an item added, removed or moved by an app or on another device — a command given
/// numbers refuses rather than change another item than the one meant.
///
/// `diary todos list` records the order; a command of this machine that changes the list
/// (`add`, `remove`, `move`, `undo`) records the order it leaves, when the order it found
/// was the one recorded — the user knows what their own command did, as a numbered list
/// always shifts after a removal. Kept beside the undo history
/// (`diary/history/KEY/todos.listed`, see ``CommandHistory``), once that folder exists: the
/// number of items and a hash of their ids in order, a few bytes whatever the list's size. A
/// list never numbered on this machine (a script that knows its numbers) is taken as it is.
struct ListedOrder: Equatable {
  var count: Int
  var hash: UInt64

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

  /// The order recorded for `list` ("todos"), or `nil` when none is (or it cannot be read).
  @MainActor
  static func recorded(_ list: String, _ context: Context) -> ListedOrder? {
    guard let folder = folder(context), let data = try? folder.read("\(list).listed") else {
      return nil
    }
    return ListedOrder(text: String(decoding: data, as: UTF8.self))
  }

  /// Records `ids` as the order `list` is numbered in. Best effort, and only once the undo
  /// history's folder exists: a list is shown whether or not the record can be written, and a
  /// command that only reads creates nothing.
  @MainActor
  static func record(_ ids: some Sequence<UUID>, of list: String, _ context: Context) {
    record(ListedOrder(of: ids), of: list, context)
  }

  /// Records `order` as the order `list` is numbered in (see the other `record`).
  @MainActor
  static func record(_ order: ListedOrder, of list: String, _ context: Context) {
    try? folder(context)?.write(Data(order.text.utf8), to: "\(list).listed")
  }

  /// Refuses numbers typed for `list` when its items, `ids` as the command opened them, are
  /// not in the order recorded.
  ///
  /// - Throws: A ``DiaryError`` (exit 65) naming the change and the fix.
  @MainActor
  static func requireUnchanged(_ ids: some Sequence<UUID>, of list: String, _ context: Context)
    throws(DiaryError)
  {
    guard let listed = recorded(list, context), listed != ListedOrder(of: ids) else { return }
    throw DiaryError(
      "the \(list) changed since 'diary \(list) list' numbered them (an item added, removed "
        + "or moved by an app or on another device), so the numbers may name other \(list) "
        + "now; run 'diary \(list) list' again and use its numbers")
  }

  /// The folder of the records, the undo history's, when it exists.
  @MainActor
  private static func folder(_ context: Context) -> PrivateFolder? {
    guard
      let url = try? CommandHistory.url(for: context.paths, environment: context.environment),
      FileManager.default.fileExists(atPath: url.path)
    else { return nil }
    return try? PrivateFolder(creating: url.path)
  }
}
