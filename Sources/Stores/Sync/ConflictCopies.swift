import Foundation

/// The copies of a data file that file-sync engines leave beside it when two devices changed
/// it at once, found by their names.
///
/// For `todos.json`:
/// - Syncthing: `todos.sync-conflict-20261201-135016-E7BDN4G.json`;
/// - Dropbox: `todos (Anna's conflicted copy 2026-12-01).json`, and `… (1).json` after it;
/// - Nextcloud and ownCloud: `todos (conflicted copy 2026-12-01 135016).json` and
///   `todos_conflict-20261201-135016.json`.
///
/// iCloud Drive keeps its conflicting versions out of the folder, as `NSFileVersion`s: see
/// ``ConflictVersion``.
package enum ConflictCopies {
  /// Whether `name`, an entry of the data file's folder, is a conflict copy of `file`.
  package static func isCopy(_ name: String, of file: String) -> Bool {
    let dot = file.lastIndex(of: ".") ?? file.endIndex
    let (stem, ext) = (file[..<dot], file[dot...])
    guard name != file, name.count < 1_000, name.hasPrefix(stem), name.hasSuffix(ext),
      name.utf8.count > stem.utf8.count + ext.utf8.count
    else { return false }
    let middle = Array(
      name.utf8.dropFirst(stem.utf8.count).dropLast(ext.utf8.count))
    return isSyncthing(middle) || isConflictedCopy(middle) || isNextcloud(middle)
  }

  /// The conflict copies of `file` in the folder at `folder`, in the order of their names.
  /// O(entries of the folder).
  package static func copies(of file: String, inFolder folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { isCopy($0, of: file) }.sorted {
      $0.utf8.lexicographicallyPrecedes($1.utf8)
    }
  }

  /// `.sync-conflict-YYYYMMDD-HHMMSS-DEVICE`, the device's short id being 7 letters or digits.
  private static func isSyncthing(_ middle: [UInt8]) -> Bool {
    let prefix = Array(".sync-conflict-".utf8)
    guard middle.count == prefix.count + 8 + 1 + 6 + 1 + 7, middle.starts(with: prefix) else {
      return false
    }
    let rest = middle.dropFirst(prefix.count)
    return matches(rest, "dddddddd-dddddd-aaaaaaa")
  }

  /// ` (… conflicted copy …)`, then maybe ` (N)`: Dropbox, Nextcloud and ownCloud.
  private static func isConflictedCopy(_ middle: [UInt8]) -> Bool {
    var text = String(decoding: middle, as: UTF8.self)
    if text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards),
      open.lowerBound != text.startIndex,
      text[open.upperBound..<text.index(before: text.endIndex)].allSatisfy(\.isASCIIDigit),
      text.distance(from: open.upperBound, to: text.endIndex) > 1
    {
      text = String(text[..<open.lowerBound])
    }
    return text.hasPrefix(" (") && text.hasSuffix(")") && text.contains("conflicted copy")
  }

  /// `_conflict-YYYYMMDD-HHMMSS`: ownCloud and Nextcloud's desktop clients.
  private static func isNextcloud(_ middle: [UInt8]) -> Bool {
    let prefix = Array("_conflict-".utf8)
    guard middle.count == prefix.count + 15, middle.starts(with: prefix) else { return false }
    return matches(middle.dropFirst(prefix.count), "dddddddd-dddddd")
  }

  /// Whether `bytes` fit `pattern`: `d` a digit, `a` an ASCII letter or digit, else itself.
  private static func matches(_ bytes: ArraySlice<UInt8>, _ pattern: String) -> Bool {
    guard bytes.count == pattern.utf8.count else { return false }
    return zip(bytes, pattern.utf8).allSatisfy { byte, expected in
      switch expected {
      case UInt8(ascii: "d"): return (48...57).contains(byte)
      case UInt8(ascii: "a"):
        return (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
      default: return byte == expected
      }
    }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// A version of a data file that a sync engine keeps outside the folder — iCloud Drive's
/// unresolved conflict versions, on Apple platforms — merged as a copy is, then marked
/// merged.
package struct ConflictVersion {
  /// The version, for messages.
  package let name: String
  /// Where its bytes are.
  package let url: URL
  /// Marks it merged (resolved), once the merge is durable.
  package let markMerged: () -> Void

  package init(name: String, url: URL, markMerged: @escaping () -> Void) {
    self.name = name
    self.url = url
    self.markMerged = markMerged
  }
}

/// Where a store finds the versions of its file kept outside the folder, and lets go of them
/// once all are merged: iCloud Drive's on Apple platforms (``platform``), none elsewhere; a
/// test's own in tests, so that the merge of versions runs on every platform.
package struct ConflictVersions {
  /// The unresolved versions of the file at a URL.
  package var unresolved: (URL) -> [ConflictVersion]
  /// Removes the versions of the file at a URL other than the current one, once every one
  /// was merged and marked so.
  package var removeMerged: (URL) -> Void

  package init(
    unresolved: @escaping (URL) -> [ConflictVersion], removeMerged: @escaping (URL) -> Void
  ) {
    self.unresolved = unresolved
    self.removeMerged = removeMerged
  }

  /// The platform's: iCloud Drive's `NSFileVersion`s where there are any.
  package static var platform: ConflictVersions {
    ConflictVersions(
      unresolved: Platform.conflictVersions(of:), removeMerged: Platform.removeMergedVersions(of:))
  }
}
