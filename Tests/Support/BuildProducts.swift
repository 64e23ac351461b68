import Foundation

/// The products of the build a test runs in — executables, the `Modules` folder — for tests
/// that run the package's own tools as processes.
///
/// SwiftPM puts them in one folder (`.build/debug`), beside the test bundle. On Linux the
/// bundle is the running executable; on macOS tests run inside a test helper of the
/// toolchain's (`swiftpm-testing-helper`, `xctest`) that loads the `.xctest` bundle, so the
/// folder is found from the loaded bundles first.
public enum BuildProducts {
  /// The folder of the build's products.
  public static let folder: URL = {
    // The bundle of this code, found from its address however it was loaded (`dlopen` by
    // the test helper on macOS), then the bundles Foundation loaded.
    let candidates = [Bundle(for: Marker.self)] + Bundle.allBundles
    for bundle in candidates where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }()

  /// A class of this module, whose bundle is the test bundle's.
  private final class Marker {}

  /// The built executable `name`: in ``folder``, or the folder above it.
  public static func executable(_ name: String) -> URL {
    for candidate in [folder, folder.deletingLastPathComponent()] {
      let binary = candidate.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
    }
    return folder.appendingPathComponent(name)
  }
}
