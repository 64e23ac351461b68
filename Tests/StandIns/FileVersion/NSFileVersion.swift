// A stand-in for Foundation's `NSFileVersion`, which swift-corelibs-foundation lacks: the
// declarations the iCloud adapter uses, as the Apple SDKs declare them, so that the adapter's
// source (Sources/Stores/Platform/ICloudVersions.swift) compiles on Linux; and a registry a
// test fills with the versions iCloud Drive would have kept, so that it is tested here.
#if !canImport(Darwin)
  import Foundation

  /// A version of a file, kept outside its folder.
  open class NSFileVersion {
    /// Where the version's bytes are.
    open private(set) var url: URL
    /// The name of the device that saved the version, when known.
    open private(set) var localizedNameOfSavingComputer: String?
    /// Whether the conflict is resolved: a resolved version is no longer among the item's
    /// unresolved conflict versions.
    open var isResolved = false

    /// A version at `url`, saved on `computer`: for ``register(_:for:)``.
    public init(url: URL, savedOn computer: String?) {
      self.url = url
      localizedNameOfSavingComputer = computer
    }

    /// The versions of the item at `url` in conflict with it and not resolved; `nil` when
    /// it has none.
    open class func unresolvedConflictVersionsOfItem(at url: URL) -> [NSFileVersion]? {
      let versions = lock.withLock { registry[url.standardizedFileURL] ?? [] }
        .filter { !$0.isResolved }
      return versions.isEmpty ? nil : versions
    }

    /// Removes the versions of the item at `url` other than the current one.
    open class func removeOtherVersionsOfItem(at url: URL) throws {
      lock.withLock {
        registry[url.standardizedFileURL] = nil
        removed.insert(url.standardizedFileURL)
      }
    }

    // The versions the stand-in keeps: what iCloud Drive would have.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registry: [URL: [NSFileVersion]] = [:]
    nonisolated(unsafe) private static var removed: Set<URL> = []

    /// Keeps `version` as a conflict version of the item at `url` (a test's setup).
    public static func register(_ version: NSFileVersion, for url: URL) {
      lock.withLock { registry[url.standardizedFileURL, default: []].append(version) }
    }

    /// Whether ``removeOtherVersionsOfItem(at:)`` was called for the item at `url`.
    public static func removedOtherVersions(of url: URL) -> Bool {
      lock.withLock { removed.contains(url.standardizedFileURL) }
    }
  }
#endif
