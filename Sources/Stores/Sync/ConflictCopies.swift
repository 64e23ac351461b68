import Foundation

/// The copies of a data file that file-sync engines leave beside it when two devices changed
/// it at once, found by their names.
///
/// For `todos.json`:
/// - Syncthing: `todos.sync-conflict-20261201-135016-E7BDN4G.json` (and, from versions before
///   0.14, without the device: `todos.sync-conflict-20261201-135016.json`);
/// - Dropbox: `todos (Anna's conflicted copy 2026-12-01).json`;
/// - Nextcloud and ownCloud: `todos (conflicted copy 2026-12-01 135016).json`, with the
///   user's name after `copy` where the client knows it, and `todos_conflict-20261201-135016.json`;
/// - each of those numbered when the name was taken (`… (1).json`), and copies of copies,
///   whose markers follow each other (`todos.sync-conflict-A-B.sync-conflict-C-D.json`,
///   `todos.sync-conflict-A-B (Anna's conflicted copy 2026-12-01).json`).
///
/// The name must start with the data file's stem and end with its extension (its last dot on),
/// and what is between must start with an engine's marker: `todos (1).json` is someone's copy,
/// and `todos (1).sync-conflict-….json` a copy of that other file. Where the folder's file
/// system ignores case (as on Apple platforms by default), an engine may spell the stem or the
/// extension otherwise (`TODOS.sync-conflict-….json`): such a name is a copy of this file only
/// when the name it is a copy of (`TODOS.json`) names this very file in the folder — checked
/// by the file's identity, so that on a file system that tells case apart it stays a copy of
/// another file. ASCII letters only are compared without case.
///
/// iCloud Drive keeps its conflicting versions out of the folder, as `NSFileVersion`s: see
/// ``ConflictVersion``.
package enum ConflictCopies {
  /// Whether `name`, an entry of the data file's folder, is named as a conflict copy of
  /// `file`, spelled as `file` is. O(length of the name).
  package static func isCopy(_ name: String, of file: String) -> Bool {
    original(ofCopy: name, of: file) == file
  }

  /// The name of the file that `name` is a conflict copy of, when that is `file` up to the
  /// case of ASCII letters (`file` itself when spelled alike), or `nil` when `name` is not
  /// named as a conflict copy of such a file. O(length of the name).
  package static func original(ofCopy name: String, of file: String) -> String? {
    // Most names in a folder are no longer, or end otherwise than the file's extension:
    // told apart with no copy made.
    guard name.utf8.count > file.utf8.count else { return nil }
    let dot = file.utf8.lastIndex(of: UInt8(ascii: ".")) ?? file.utf8.endIndex
    if dot != file.utf8.endIndex, let last = name.utf8.last, let fileLast = file.utf8.last,
      lowered(last) != lowered(fileLast)
    {
      return nil
    }
    let (stem, ext) = (Array(file.utf8[..<dot]), Array(file.utf8[dot...]))
    let bytes = Array(name.utf8)
    guard name != file, bytes.count < 1_000, bytes.count > stem.count + ext.count else {
      return nil
    }
    let (nameStem, nameExt) = (bytes.prefix(stem.count), bytes.suffix(ext.count))
    guard sameUpToASCIICase(nameStem, stem[...]), sameUpToASCIICase(nameExt, ext[...]),
      isMarkers(bytes.dropFirst(stem.count).dropLast(ext.count))
    else { return nil }
    if nameStem.elementsEqual(stem) && nameExt.elementsEqual(ext) { return file }
    return String(decoding: nameStem + nameExt, as: UTF8.self)
  }

  /// The conflict copies of `file` in the folder at `folder`, in the order of their names: those
  /// named as copies of `file`, and those named as copies of a name that differs from it in case
  /// only and is this very file (same device and inode, links not followed), as on a file system
  /// that ignores case. O(entries of the folder), and one `lstat` per such other spelling.
  package static func copies(of file: String, inFolder folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var sameFile: [String: Bool] = [:]
    let fileKey = entryKey(file, in: folder)
    return names.filter { name in
      guard let original = original(ofCopy: name, of: file) else { return false }
      if original == file { return true }
      if let known = sameFile[original] { return known }
      let same = fileKey != nil && entryKey(original, in: folder) == fileKey
      sameFile[original] = same
      return same
    }.sorted {
      $0.utf8.lexicographicallyPrecedes($1.utf8)
    }
  }

  /// The files in the folder at `folder` that hold a version of `file` a sync engine is
  /// bringing from another device and has not put in its place yet: Syncthing's
  /// (``arrivingName(of:)``), a pull in progress — or kept from one that failed, for its
  /// blocks, for up to a day. Not this package's own temporary files
  /// (`.syncthing.FILE.RANDOM.tmp`). One `lstat`.
  package static func arriving(of file: String, inFolder folder: String) -> [String] {
    let name = arrivingName(of: file)
    var info = stat()
    guard lstat((folder as NSString).appendingPathComponent(name), &info) == 0,
      info.st_mode & S_IFMT == S_IFREG
    else { return [] }
    return [name]
  }

  /// The name of Syncthing's temporary file for `file`, into which it pulls another device's
  /// version before renaming it over `file`: `.syncthing.FILE.tmp`. (iCloud Drive downloads
  /// a newer version out of sight; one not downloaded yet is among the versions not merged.)
  package static func arrivingName(of file: String) -> String {
    ".syncthing.\(file).tmp"
  }

  /// The device and inode of the entry `name` of the folder at `folder`, not following a link.
  private static func entryKey(_ name: String, in folder: String) -> FileKey? {
    var info = stat()
    guard lstat((folder as NSString).appendingPathComponent(name), &info) == 0 else { return nil }
    return FileKey(info)
  }

  /// Whether `middle`, what a name holds between the data file's stem and its extension, is a
  /// sequence of an engine's markers, maybe numbered: it starts with a marker, then markers
  /// and numbers (` (2)`) follow each other.
  private static func isMarkers(_ middle: ArraySlice<UInt8>) -> Bool {
    var rest = middle
    var first = true
    while !rest.isEmpty {
      guard let (length, isNumber) = marker(at: rest), !(first && isNumber) else { return false }
      rest = rest.dropFirst(length)
      first = false
    }
    return !first
  }

  /// The length of the marker or number `bytes` start with, and whether it is a number, or
  /// `nil` when they start with neither.
  private static func marker(at bytes: ArraySlice<UInt8>) -> (Int, isNumber: Bool)? {
    let syncthing = Array(".sync-conflict-".utf8)
    let nextcloud = Array("_conflict-".utf8)
    if bytes.starts(with: syncthing) {
      // `.sync-conflict-YYYYMMDD-HHMMSS`, then the device's short id (7 letters or digits).
      let rest = bytes.dropFirst(syncthing.count)
      guard matches(rest.prefix(15), "dddddddd-dddddd") else { return nil }
      let device = rest.dropFirst(15)
      if device.count >= 8, matches(device.prefix(8), "-aaaaaaa") {
        return (syncthing.count + 23, false)
      }
      return (syncthing.count + 15, false)
    }
    if bytes.starts(with: nextcloud) {
      // `_conflict-YYYYMMDD-HHMMSS`.
      let rest = bytes.dropFirst(nextcloud.count)
      guard matches(rest.prefix(15), "dddddddd-dddddd") else { return nil }
      return (nextcloud.count + 15, false)
    }
    // ` (…conflicted copy…)` (parentheses inside balanced), or a number ` (N)`.
    guard bytes.starts(with: Array(" (".utf8)) else { return nil }
    var depth = 0
    for (offset, byte) in bytes.dropFirst(1).enumerated() {
      if byte == UInt8(ascii: "(") { depth += 1 }
      guard byte == UInt8(ascii: ")") else { continue }
      depth -= 1
      guard depth == 0 else { continue }
      let length = offset + 2
      let inside = bytes.dropFirst(2).prefix(length - 3)
      if !inside.isEmpty, inside.allSatisfy({ (48...57).contains($0) }) {
        return (length, true)
      }
      let text = String(decoding: inside, as: UTF8.self).lowercased()
      return text.contains("conflicted copy") ? (length, false) : nil
    }
    return nil
  }

  /// Whether `a` and `b` are the same bytes, ASCII letters compared without case.
  private static func sameUpToASCIICase(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { lowered($0) == lowered($1) }
  }

  private static func lowered(_ byte: UInt8) -> UInt8 {
    (65...90).contains(byte) ? byte + 32 : byte
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

/// A version of a data file that a sync engine keeps outside the folder — iCloud Drive's
/// unresolved conflict versions, on Apple platforms — merged as a copy is, then marked
/// merged.
package struct ConflictVersion {
  /// The version, for messages.
  package let name: String
  /// Where its bytes are.
  package let url: URL
  /// Whether its bytes are on this device: one that is not is skipped and reported, not
  /// read, and merged by a later transaction once they are.
  package let hasLocalContents: Bool
  /// Marks it merged (resolved), once the merge is durable.
  package let markMerged: () -> Void

  package init(
    name: String, url: URL, hasLocalContents: Bool = true, markMerged: @escaping () -> Void
  ) {
    self.name = name
    self.url = url
    self.hasLocalContents = hasLocalContents
    self.markMerged = markMerged
  }
}

/// Where a store finds the versions of its file kept outside the folder, and lets go of them
/// once all are merged: those of the file's ``FileCoordination`` (iCloud Drive's for a file
/// there, none for a local file); a test's own in tests, so that the merge of versions runs
/// on every platform.
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

  /// The versions `coordination` knows of its file.
  init(_ coordination: any FileCoordination) {
    self.init(
      unresolved: { _ in
        coordination.conflictVersions().map {
          ConflictVersion(
            name: $0.name, url: $0.url, hasLocalContents: $0.hasLocalContents,
            markMerged: $0.markResolved)
        }
      },
      removeMerged: { _ in coordination.removeOtherVersions() })
  }
}
