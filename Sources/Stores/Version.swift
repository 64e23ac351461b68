/// The package's version, as its releases are tagged and as `diary --version` prints it.
///
/// Before 1.0, a minor version (0.x) may change the API; depend on the package with
/// `.upToNextMinor(from:)`.
public enum StoresVersion {
  /// The version of this release: `MAJOR.MINOR.PATCH`.
  public static let current = "0.2.0"
}
