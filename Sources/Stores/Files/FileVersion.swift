import Foundation

/// What a backing knows of its file's content as it last read or wrote it.
///
/// A file rewritten in place (an editor, `cp` over it) within one tick of the file system's
/// timestamps, with the same size, keeps its whole identity — git's "racily clean" problem. So
/// a version whose modification time is not safely older than the moment it was recorded is
/// *racy*: it keeps a hash of the content, and finding the same identity is confirmed by
/// reading the file and comparing hashes, until a check comes safely after that time. Files
/// this library writes are not racy: ``FileSystem/replace(_:in:creating:path:writing:)``
/// dates their modification a few seconds back, so any later write changes it.
struct FileVersion: Sendable {
  /// How much older than now a modification time must be for any later write to change it,
  /// whatever the file system's granularity (a second or two on some).
  static let safeAge: Double = 2.5

  var identity: FileIdentity
  /// The content's hash while the identity alone cannot tell a change; `nil` otherwise.
  private(set) var racyHash: Int?
  /// Whether this is a racy version with no hash to confirm it by: never current.
  private var isUnconfirmable = false

  /// The version of `content`, just read from a file whose identity is `identity`.
  init(identity: FileIdentity, content: Data) {
    self.identity = identity
    racyHash = Self.isRacy(identity) ? Self.hash(content) : nil
  }

  /// The version of a file just written by ``FileSystem/replace(_:in:creating:path:writing:)``,
  /// whose modification time it set back: not racy — unless the clock went back since, and
  /// then, with no content to hash, it is never taken as current (the file is read again).
  init(written identity: FileIdentity) {
    self.identity = identity
    isUnconfirmable = Self.isRacy(identity)
  }

  /// Whether a file whose identity is now `current` still holds this version; `content` reads
  /// it, for a racy version. A racy version confirmed after it is safely old stops being racy.
  mutating func isCurrent<Failure: Error>(
    _ current: FileIdentity, content: () throws(Failure) -> Data?
  ) throws(Failure) -> Bool {
    guard current == identity, !isUnconfirmable else { return false }
    guard let racyHash else { return true }
    guard let data = try content(), Self.hash(data) == racyHash else { return false }
    if !Self.isRacy(identity) { self.racyHash = nil }
    return true
  }

  private static func isRacy(_ identity: FileIdentity) -> Bool {
    let modified = Double(identity.modified.tv_sec) + Double(identity.modified.tv_nsec) / 1e9
    return Date().timeIntervalSince1970 - modified < safeAge
  }

  private static func hash(_ data: Data) -> Int {
    var hasher = Hasher()
    data.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
  }
}
