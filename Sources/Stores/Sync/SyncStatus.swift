import Foundation

/// How a store on a file stands with the devices that share the file through a sync engine:
/// its latest merge of what the engine left beside the file, the copies it could not merge and
/// why, the versions on their way, the old copies it merged, and how far ahead of this
/// device's clock the changes it read were stamped. ``Store/syncStatus`` publishes it through
/// Observation, so a view can show it; a store in memory keeps the empty status.
public struct SyncStatus: Equatable, Sendable {
  /// A merge of conflict copies (or of the versions iCloud Drive keeps) into the file.
  public struct Merge: Equatable, Sendable {
    /// When this store made it, by this device's clock.
    public var date: Date
    /// The copies and versions merged, by name, in the order merged.
    public var copies: [String]

    /// A merge made at `date` of `copies` (for a preview or a test).
    public init(date: Date, copies: [String]) {
      self.date = date
      self.copies = copies
    }
  }

  /// A copy, merged, that was made more than 90 days (the tombstones' lifetime) before the file's
  /// writers last wrote: the removals since may be forgotten, and the items or keys they
  /// removed back.
  public struct OldCopy: Equatable, Sendable {
    /// The copy's name (the file's own, for a write of this device's merged back).
    public var name: String
    /// How many items or keys it may have brought back.
    public var count: Int

    /// The copy `name`, which may have brought back `count` items or keys.
    public init(name: String, count: Int) {
      self.name = name
      self.count = count
    }
  }

  /// The store's latest merge, if it made one since it opened.
  public var lastMerge: Merge?
  /// The copies beside the file, and the versions, that are not valid files of the store —
  /// left where they are — each with why, as of the store's latest transaction or reload.
  public var copiesNotMerged: [StoreFileError] = []
  /// The files beside the file that hold a version of it a sync engine is bringing from
  /// another device and has not put in place yet — Syncthing's `.syncthing.todos.json.tmp`
  /// — by name, as of the store's latest transaction or reload (a store watching the file
  /// reloads as such a file comes and goes): read once the engine renames it over the file.
  /// Syncthing keeps the file of a pull that failed for up to a day, to reuse its blocks.
  /// (iCloud Drive downloads a newer version out of sight: one not downloaded yet is among
  /// ``copiesNotMerged``.)
  public var copiesArriving: [String] = []
  /// The old copies merged since the store opened (the latest 100).
  public var oldCopies: [OldCopy] = []
  /// The furthest ahead of this device's wall clock that a change the store read was stamped
  /// (`.zero` when none was ahead): a device whose clock runs ahead wins the concurrent edits
  /// of a field for as long as it runs ahead.
  public var largestClockSkew: Duration = .zero
  /// The changes that lost to a concurrent change on another device and are kept, in the
  /// order of the items or keys (see ``SyncConflict``): what each lost and to what, until
  /// someone resolves it with ``Store/resolve(_:choosing:)``. As of the store's latest
  /// transaction or reload, once the file's stamps are read — which opening does when the
  /// file keeps conflicts.
  public var conflicts: [SyncConflict] = []

  /// The empty status: nothing merged or left, no clock ahead.
  public init() {}

  /// A status with these fields (for a preview or a test).
  public init(
    lastMerge: Merge?, copiesNotMerged: [StoreFileError] = [], copiesArriving: [String] = [],
    oldCopies: [OldCopy] = [], largestClockSkew: Duration = .zero,
    conflicts: [SyncConflict] = []
  ) {
    self.lastMerge = lastMerge
    self.copiesNotMerged = copiesNotMerged
    self.copiesArriving = copiesArriving
    self.oldCopies = oldCopies
    self.largestClockSkew = largestClockSkew
    self.conflicts = conflicts
  }

  /// How many old copies are kept.
  static let oldCopiesKept = 100

  /// The status after a transaction or reload that made `report` (now), this store's backing
  /// having seen stamps up to `skew` milliseconds ahead of the wall clock, and the file
  /// keeping `conflicts` open (`nil`: its stamps are not read yet, so as before).
  func updated(
    with report: MergeReport, skew: Int64, conflicts: [SyncConflict]?
  ) -> SyncStatus {
    var status = self
    if let conflicts { status.conflicts = conflicts }
    if !report.merged.isEmpty { status.lastMerge = Merge(date: Date(), copies: report.merged) }
    status.copiesNotMerged = report.notMerged
    status.copiesArriving = report.arriving
    status.oldCopies.append(
      contentsOf: report.forgottenRemovals.map { OldCopy(name: $0.name, count: $0.count) })
    status.oldCopies.removeFirst(max(0, status.oldCopies.count - Self.oldCopiesKept))
    status.largestClockSkew = .milliseconds(max(skew, 0))
    return status
  }
}
