#if os(macOS) || os(iOS) || os(visionOS) || FILE_VERSION_STAND_IN
  // iCloud Drive's conflict versions (`NSFileVersion`, on the Apple platforms that have it),
  // adapted for ``Platform/conflictVersions(of:)``. This file is compiled a second time, on
  // Linux, in the test target FileVersionClient, against a stand-in with NSFileVersion's
  // declarations as the SDKs have them (Tests/StandIns/FileVersion), and tested there.
  #if FILE_VERSION_STAND_IN
    import FileVersionStandIn
  #endif
  import Foundation

  /// The unresolved conflict versions iCloud Drive keeps of the file at `url`: for each, a
  /// name for messages (the device that saved it, where iCloud says), where its bytes are,
  /// and how to mark it resolved.
  package func iCloudConflictVersions(of url: URL)
    -> [(name: String, url: URL, markResolved: () -> Void)]
  {
    (NSFileVersion.unresolvedConflictVersionsOfItem(at: url) ?? []).map { version in
      (
        name: version.localizedNameOfSavingComputer.map { "iCloud version from \($0)" }
          ?? "iCloud version \(version.url.lastPathComponent)",
        url: version.url, markResolved: { version.isResolved = true }
      )
    }
  }

  /// Removes the versions iCloud Drive keeps of the file at `url`, other than the current
  /// one; a failure leaves them, harmlessly (they are resolved).
  package func removeOtherICloudVersions(of url: URL) {
    try? NSFileVersion.removeOtherVersionsOfItem(at: url)
  }
#endif
