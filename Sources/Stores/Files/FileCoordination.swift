import Foundation

/// How a store reaches its data file alongside the other processes that present it: directly
/// for a file in a local folder or an App Group (``LocalFile``), through Apple's file
/// coordination for a file in iCloud Drive (on Apple platforms). Chosen once, when the store
/// opens (see ``Platform/fileCoordination(for:timeout:)``).
package protocol FileCoordination: AnyObject {
  /// Whether the file's contents are on this device. A placeholder of a file not downloaded
  /// yet is not: its download is started and `false` returned. Does not wait.
  func hasLocalContents() -> Bool
  /// Runs `body` inside a coordinated read of the file, and returns its result.
  func coordinateReading<T>(_ body: () throws -> T) throws -> T
  /// Runs `body` — a read, a merge and a replace of the file by a rename — inside a
  /// coordinated read with a follow-up write (for replacing) of the file.
  func coordinateReplacing<T>(_ body: () throws -> T) throws -> T
  /// The unresolved conflict versions the platform keeps of the file, outside its folder.
  func conflictVersions()
    -> [(name: String, url: URL, hasLocalContents: Bool, markResolved: () -> Void)]
  /// Removes the versions of the file other than the current one, once all were merged and
  /// marked resolved.
  func removeOtherVersions()
  /// Starts telling `onChange` (on any thread) of changes other processes or devices make.
  func present(onChange: @escaping @Sendable () -> Void)
  /// Stops what ``present(onChange:)`` started.
  func stopPresenting()
}

/// A file in a local folder or an App Group: read and written directly, its changes noticed by
/// the store's ``FileWatcher``, no versions kept elsewhere. Every method does nothing.
package final class LocalFile: FileCoordination {
  package init() {}
  package func hasLocalContents() -> Bool { true }
  package func coordinateReading<T>(_ body: () throws -> T) throws -> T { try body() }
  package func coordinateReplacing<T>(_ body: () throws -> T) throws -> T { try body() }
  package func conflictVersions()
    -> [(name: String, url: URL, hasLocalContents: Bool, markResolved: () -> Void)]
  { [] }
  package func removeOtherVersions() {}
  package func present(onChange: @escaping @Sendable () -> Void) {}
  package func stopPresenting() {}
}
