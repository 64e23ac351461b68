/// The package's version, as `diary --version` prints it.
///
/// No version of the package is tagged yet: ``current`` is the version the next release will
/// have, followed by `-dev` while the code is unreleased. A release drops the suffix in the
/// commit that is tagged with it. Until a tag exists, depend on the package by its main branch
/// or a revision (the README says how); before 1.0, a minor version (0.x) may change the API.
public enum StoresVersion {
  /// `MAJOR.MINOR.PATCH` of a release, or — in unreleased code — of the next release,
  /// followed by `-dev`: `0.3.0-dev`.
  public static let current = "0.3.0-dev"

  /// Whether this code is a release (tagged ``current``), not unreleased code.
  public static var isRelease: Bool { !current.hasSuffix("-dev") }

  /// The newest format version of the data files this code writes — the `"version"` of a
  /// workouts file: 3 since workouts carry a duration and a sport (todos and settings files
  /// are version 2, since their values carry stamps for several devices). A file of a newer
  /// version is refused.
  package static var fileFormat: Int {
    max(
      StateFileCoding.writtenVersion(of: TodosStore.State.self),
      StateFileCoding.writtenVersion(of: WorkoutsStore.State.self),
      StateFileCoding.writtenVersion(of: KeyValues.self))
  }
}

extension StateFileCoding {
  /// The format version of the files written of `State` (with its sync section, if any).
  package static func writtenVersion<State: PersistentState>(of state: State.Type) -> Int {
    func version<Sync: StateSync<State>>(_ sync: Sync.Type) -> Int {
      fileVersion(State.self, Sync.self)
    }
    return version(syncType(of: State.self))
  }
}
