// A stand-in for Foundation's `NSFileVersion`, which swift-corelibs-foundation lacks: the
// declarations the iCloud adapter uses, as the Apple SDKs declare them, so that the adapter's
// source (Sources/Stores/Platform/ICloudDrive.swift) compiles on Linux; and a registry a
// test fills with the versions iCloud Drive would have kept, so that it is tested here.
#if !canImport(Darwin)
  import Foundation

  /// A version of a file, kept outside its folder.
  open class NSFileVersion {
    /// Where the version's bytes are. (SDK: `var url: URL { get }`.)
    open private(set) var url: URL
    /// The name of the device that saved the version, when known. (SDK: `var
    /// localizedNameOfSavingComputer: String? { get }`.)
    open private(set) var localizedNameOfSavingComputer: String?
    /// Whether the version's bytes are on this device. (SDK: `var hasLocalContents: Bool { get }`.)
    open private(set) var hasLocalContents: Bool
    /// Whether the conflict is resolved: a resolved version is no longer among the item's
    /// unresolved conflict versions. (SDK: `var isResolved: Bool { get set }`.) Apple: set it
    /// inside a coordinated write of the item; the stand-in records whether it was
    /// (``resolvedOutsideCoordinatedWrite``).
    open var isResolved = false {
      didSet {
        if isResolved, !ICloudDrive.isInCoordinatedWrite(of: item ?? url) {
          resolvedOutsideCoordinatedWrite = true
        }
      }
    }
    /// Whether ``isResolved`` was set outside a coordinated write (stand-in only).
    public private(set) var resolvedOutsideCoordinatedWrite = false
    /// The item this is a version of (stand-in only).
    var item: URL?

    /// A version at `url`, saved on `computer`: for ``register(_:for:)``.
    public init(url: URL, savedOn computer: String?, hasLocalContents: Bool = true) {
      self.url = url
      localizedNameOfSavingComputer = computer
      self.hasLocalContents = hasLocalContents
    }

    /// The versions of the item at `url` in conflict with it and not resolved; `nil` when
    /// it has none. (SDK: `class func unresolvedConflictVersionsOfItem(at url: URL) ->
    /// [NSFileVersion]?`.)
    open class func unresolvedConflictVersionsOfItem(at url: URL) -> [NSFileVersion]? {
      let all = lock.withLock {
        calls[url.standardizedFileURL, default: 0] += 1
        return registry[url.standardizedFileURL] ?? []
      }
      let versions = all.filter { !$0.isResolved }
      return versions.isEmpty ? nil : versions
    }

    /// Removes the versions of the item at `url` other than the current one. (SDK: `class
    /// func removeOtherVersionsOfItem(at url: URL) throws`.)
    open class func removeOtherVersionsOfItem(at url: URL) throws {
      let inside = ICloudDrive.isInCoordinatedWrite(of: url)
      lock.withLock {
        calls[url.standardizedFileURL, default: 0] += 1
        registry[url.standardizedFileURL] = nil
        removed[url.standardizedFileURL] = inside
      }
    }

    // The versions the stand-in keeps: what iCloud Drive would have.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registry: [URL: [NSFileVersion]] = [:]
    nonisolated(unsafe) private static var removed: [URL: Bool] = [:]
    nonisolated(unsafe) private static var calls: [URL: Int] = [:]

    /// Keeps `version` as a conflict version of the item at `url` (a test's setup).
    public static func register(_ version: NSFileVersion, for url: URL) {
      version.item = url
      lock.withLock { registry[url.standardizedFileURL, default: []].append(version) }
    }

    /// Whether ``removeOtherVersionsOfItem(at:)`` was called for the item at `url`.
    public static func removedOtherVersions(of url: URL) -> Bool {
      lock.withLock { removed[url.standardizedFileURL] != nil }
    }

    /// Whether ``removeOtherVersionsOfItem(at:)`` was called for the item at `url` inside a
    /// coordinated write of it.
    public static func removedOtherVersionsInCoordinatedWrite(of url: URL) -> Bool {
      lock.withLock { removed[url.standardizedFileURL] == true }
    }

    /// Whether the item at `url` has unresolved conflict versions, as its
    /// `ubiquitousItemHasUnresolvedConflicts` resource value says (not counted as a call).
    static func hasUnresolvedVersions(of url: URL) -> Bool {
      lock.withLock { registry[url.standardizedFileURL]?.contains { !$0.isResolved } ?? false }
    }

    /// How many calls of the class methods above were made for the item at `url`: a test of
    /// a file outside iCloud Drive expects none.
    public static func callCount(for url: URL) -> Int {
      lock.withLock { calls[url.standardizedFileURL] ?? 0 }
    }
  }
#endif
