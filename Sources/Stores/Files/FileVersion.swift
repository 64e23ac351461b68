import Foundation

/// What a backing knows of its file's content as it last read or wrote it.
///
/// A file rewritten in place (an editor, `cp` over it) within one tick of the file system's
/// timestamps, with the same size, keeps its whole identity — git's "racily clean" problem —
/// and so does one whose writer then puts its modification time back, when the change time
/// (which no one can set) moves by ticks that such an edit fits in. So a version is *racy*
/// while its modification time — or, where change times are coarse, its change time — is
/// not safely older than now: it keeps a hash of the content, and finding the same identity
/// is confirmed by reading the file and comparing hashes, until a check comes safely after
/// that time.
///
/// Whether a folder's change times are exact is found out by the first write into it (see
/// ``FileSystem/changeTimesAreExact(_:)``); until then they are taken as coarse. Where they
/// are exact (a file system with fine timestamps, or Linux's multigrain ones), a version
/// costs nothing more than its identity: files this library writes have their modification
/// time set a few seconds back (see ``FileSystem/replace(_:in:creating:path:writing:)``),
/// so any later write changes it.
struct FileVersion: Sendable {
  /// How much older than now a modification time must be for any later write to change it,
  /// whatever the file system's granularity (a second or two on some).
  static let safeAge: Double = 2.5

  var identity: FileIdentity
  /// Whether a change to the file always shows in its change time (see the type's notes).
  private let changeTimesAreExact: Bool
  /// The content's hash while the identity alone cannot tell a change; `nil` otherwise.
  private(set) var racyHash: Int?
  /// Whether this is a racy version with no hash to confirm it by: never current.
  private var isUnconfirmable = false

  /// The version of `content`, just read from a file whose identity is `identity`.
  init(identity: FileIdentity, content: Data, changeTimesAreExact: Bool) {
    self.identity = identity
    self.changeTimesAreExact = changeTimesAreExact
    racyHash = isRacy ? Self.hash(content) : nil
  }

  /// The version of a file just written by ``FileSystem/replace(_:in:creating:path:writing:)``,
  /// whose modification time it set back, and `contentHash` the hash of what it wrote where
  /// change times are coarse: racy only there, or if the clock went back since — and then,
  /// with no hash, never taken as current (the file is read again).
  init(written identity: FileIdentity, contentHash: Int?, changeTimesAreExact: Bool) {
    self.identity = identity
    self.changeTimesAreExact = changeTimesAreExact
    if isRacy {
      racyHash = contentHash
      isUnconfirmable = contentHash == nil
    }
  }

  /// Whether a file whose identity is now `current` still holds this version; `contentHash`
  /// hashes what it holds (as ``hash(_:)`` does, `nil` when it is gone), for a racy version. A
  /// racy version confirmed after it is safely old stops being racy.
  mutating func isCurrent<Failure: Error>(
    _ current: FileIdentity, contentHash: () throws(Failure) -> Int?
  ) throws(Failure) -> Bool {
    guard current == identity, !isUnconfirmable else { return false }
    guard let racyHash else { return true }
    guard let hash = try contentHash(), hash == racyHash else { return false }
    if !isRacy { self.racyHash = nil }
    return true
  }

  /// Whether a write now could leave the identity as it is.
  private var isRacy: Bool {
    let now = Date().timeIntervalSince1970
    return now - Self.seconds(identity.modified) < Self.safeAge
      || !changeTimesAreExact && now - Self.seconds(identity.changed) < Self.safeAge
  }

  private static func seconds(_ time: timespec) -> Double {
    Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The hash of a file's content, as ``FileOutput`` also makes it part by part.
  static func hash(_ data: Data) -> Int {
    var hasher = Hasher()
    data.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
  }
}
