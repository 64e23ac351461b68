import Foundation

// Step 2 of a transaction: what a sync engine left of the file — conflict copies beside it,
// versions the platform keeps of it — merged into the state stored.
extension JSONFileBacking {
  /// Something a sync engine left of the file: a conflict copy beside it in its folder, or a
  /// version the platform keeps of it elsewhere (iCloud Drive's).
  enum Leftover {
    /// A copy, by name in the file's folder.
    case copy(String)
    case version(ConflictVersion)

    /// Its name, for messages.
    var name: String {
      switch self {
      case .copy(let name): name
      case .version(let version): version.name
      }
    }
  }

  /// Merges into `stored` the conflict copies of `name` beside it in `folder` and the
  /// versions the platform keeps of the file at `target`, in one loop: each is read, refused
  /// when it is not a valid file of this state (left where it is, reported), or merged.
  ///
  /// Each is weighed against the file as stored, whatever was merged before it (see
  /// ``StateSync/forgottenRemovals(_:_:)``). A copy that cannot be merged is read once per
  /// change of it (see ``read(_:in:limit:)``). O(entries of the folder), plus one `lstat` per
  /// copy and one read of each copy or version that is new or changed.
  func mergeLeftovers(
    of name: String, in folder: DataFolder, target: String, into stored: inout Stored
  ) -> Leftovers {
    var leftovers = Leftovers()
    if stored.forgottenRemovals > 0 {
      leftovers.forgottenRemovals.append((name, stored.forgottenRemovals))
    }
    guard Sync.self != NoSync<State>.self else { return leftovers }
    let base = (stored.state, stored.stamps)
    let copies = ConflictCopies.copies(of: name, inFolder: folder.path)
    leftovers.arriving = ConflictCopies.arriving(of: name, inFolder: folder.path)
    let limit = copies.isEmpty ? 0 : Self.copySizeLimit(of: name, in: folder.path)
    let found =
      copies.map(Leftover.copy)
      + conflictVersions.unresolved(URL(fileURLWithPath: target)).map(Leftover.version)
    var refused: [String: RefusedCopy] = [:]
    for leftover in found {
      do throws(StoreFileError) {
        guard let other = try read(leftover, in: folder, limit: limit, refused: &refused) else {
          continue
        }
        if let latest = other.1.latest { observe(latest) }
        stored.hasKnownStamps = false
        if let count = merge(other, into: &stored.state, &stored.stamps, base: base) {
          leftovers.forgottenRemovals.append((leftover.name, count))
        }
        leftovers.merged.append(leftover)
      } catch {
        leftovers.notMerged.append(error)
        if case .version = leftover { leftovers.allVersionsMerged = false }
      }
    }
    refusedCopies = refused
    return leftovers
  }

  /// The state and stamps of `leftover`, or `nil` when it is gone. A copy is read from
  /// `folder`, at most `limit` bytes; one refused before (in ``refusedCopies``) and unchanged
  /// since is refused again without being read, and one refused now is remembered in `refused`
  /// with its identity (device, inode, size, modification and change times) — unless a change
  /// could keep that identity (where the folder's change times are coarse and the copy's is
  /// recent, see ``FileVersion``): such a copy is read again until its change time is safely
  /// old. A version whose bytes are not on this device yet is refused (merged once they are).
  ///
  /// - Throws: The ``StoreFileError`` of a leftover that is not a valid file of this state.
  private func read(
    _ leftover: Leftover, in folder: DataFolder, limit: Int64,
    refused: inout [String: RefusedCopy]
  ) throws(StoreFileError) -> (State, Sync)? {
    switch leftover {
    case .version(let version):
      guard version.hasLocalContents else {
        throw StoreFileError(path: path, problem: .versionNotDownloaded(version: version.name))
      }
      guard let (data, _) = try FileSystem.read(version.url.path, path: version.url.path) else {
        return nil
      }
      return try decodeCopy(data, version.url.path)
    case .copy(let copy):
      let copyPath = (folder.path as NSString).appendingPathComponent(copy)
      let identity = Self.entryIdentity(copyPath)
      if let known = refusedCopies[copy], let identity, known.identity == identity {
        refused[copy] = known
        throw known.error
      }
      do throws(StoreFileError) {
        guard let file = try OpenFile(copy, in: folder.descriptor, path: copyPath) else {
          return nil
        }
        return try decodeCopy(try file.contents(path: copyPath, limit: limit), copyPath)
      } catch {
        if let identity, folder.changeTimesAreExact == true || Self.isSafelyOld(identity) {
          refused[copy] = RefusedCopy(identity: identity, error: error)
        }
        throw error
      }
    }
  }

  /// What a transaction merged of what the sync engine left beside the file.
  struct Leftovers {
    /// The copies and versions merged.
    var merged: [Leftover] = []
    /// The errors of the copies and versions that are not valid files of the store, left
    /// where they are.
    var notMerged: [StoreFileError] = []
    /// Whether every version the platform keeps was merged.
    var allVersionsMerged = true
    /// See ``MergeReport/forgottenRemovals``.
    var forgottenRemovals: [(name: String, count: Int)] = []
    /// See ``MergeReport/arriving``.
    var arriving: [String] = []

    var isEmpty: Bool { merged.isEmpty }

    var report: MergeReport {
      MergeReport(
        merged: merged.map(\.name), notMerged: notMerged, forgottenRemovals: forgottenRemovals,
        arriving: arriving)
    }

    /// Removes what was merged, once the merge is durable: the copies are deleted, the
    /// versions marked merged — and, once all are, removed by the platform.
    func removeMerged(in folder: DataFolder, target: String, versions platform: ConflictVersions) {
      var mergedVersions = false
      for leftover in merged {
        switch leftover {
        case .copy(let copy): unlinkat(folder.descriptor, copy, 0)
        case .version(let version):
          version.markMerged()
          mergedVersions = true
        }
      }
      if mergedVersions, allVersionsMerged { platform.removeMerged(URL(fileURLWithPath: target)) }
    }
  }

  /// Merges `other`, a copy or version of the file just read, into `state` and `stamps`;
  /// returns how many of the removals it or `base` (the file as stored) may have forgotten it
  /// brought back (see ``StateSync/forgottenRemovals(_:_:)``), if any.
  private func merge(
    _ other: (State, Sync), into state: inout State, _ stamps: inout Sync, base: (State, Sync)
  ) -> Int? {
    let other = (other.0, adopt(other.0, other.1, knowing: nil).stamps)
    let forgotten = Sync.forgottenRemovals(base, other)
    (state, stamps) = Sync.merge((state, stamps), other)
    return forgotten > 0 ? forgotten : nil
  }

  /// A conflict copy that could not be merged, as it was then.
  struct RefusedCopy {
    /// The copy's identity when it was refused.
    var identity: FileIdentity
    /// Why it was refused.
    var error: StoreFileError
  }

  /// The most bytes read from a conflict copy of the file `name` in the folder at `folder`:
  /// four times the file's size, and at least 64 MiB. A copy is another device's version of
  /// the file, which differs from it by what that device changed meanwhile; one far larger is
  /// not read into memory (a 2 GB file named as a copy cost every action 4 GB and 20 s).
  private static func copySizeLimit(of name: String, in folder: String) -> Int64 {
    let size = entryIdentity((folder as NSString).appendingPathComponent(name))?.size ?? 0
    return max(64 << 20, size.multipliedReportingOverflow(by: 4).partialValue)
  }

  /// Whether the change time of the file of `identity` is old enough that any change to the
  /// file, however coarse the file system's clock, would change it (see ``FileVersion``).
  private static func isSafelyOld(_ identity: FileIdentity) -> Bool {
    let changed = Double(identity.changed.tv_sec) + Double(identity.changed.tv_nsec) / 1e9
    return Date().timeIntervalSince1970 - changed >= FileVersion.safeAge
  }

  /// The identity of the entry at `path` (a link itself, not followed), or `nil` when there
  /// is none.
  private static func entryIdentity(_ path: String) -> FileIdentity? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return FileIdentity(info)
  }

  /// Whether a copy among `copies` of the folder at `folder` is new or changed since it was
  /// refused: one to read and merge. Reports the others, still refused, in ``mergeReport``.
  /// One `lstat` per copy.
  func hasCopiesToRead(_ copies: [String], inFolder folder: String) -> Bool {
    var notMerged: [StoreFileError] = []
    for copy in copies {
      guard let known = refusedCopies[copy],
        Self.entryIdentity((folder as NSString).appendingPathComponent(copy)) == known.identity
      else { return true }
      notMerged.append(known.error)
    }
    mergeReport.notMerged = notMerged
    return false
  }

  /// The state and stamps of a copy or version of the file, `data` read from `path`; one
  /// stamped after ``Stamp/latestFollowedMilliseconds`` (a clock far past the year 9998) is
  /// refused, so that no stamp merged is one this device's clock cannot pass.
  private func decodeCopy(_ data: Data, _ path: String) throws(StoreFileError) -> (State, Sync) {
    let copy = try decode(data, path)
    if let latest = copy.1.latest, latest.milliseconds > Stamp.latestFollowedMilliseconds {
      throw StoreFileError(
        path: path,
        problem: .invalidContent(
          keyPath: "sync",
          detail:
            "a change stamped \(latest), later than the year 9998: made by a clock far ahead, "
            + "it would win over every later change; set that device's clock right"))
    }
    return copy
  }
}
