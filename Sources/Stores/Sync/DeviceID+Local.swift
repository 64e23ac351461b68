import Foundation

extension DeviceID {
  /// This machine's identity: read from the file `stores/device` in the user's local state
  /// folder (see ``localStateFolder``), made there on first use. Where that folder cannot be
  /// written, an identity for this process alone — still unique, so merges stay right.
  package static let local: DeviceID = {
    let folder = localStateFolder.appendingPathComponent("stores", isDirectory: true)
    let file = folder.appendingPathComponent("device")
    if let id = read(file) { return id }
    let id = random()
    try? FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // Made atomically, and never over an identity another process made first.
    let temporary = folder.appendingPathComponent("device.\(getpid()).tmp")
    if (try? Data((id.text + "\n").utf8).write(to: temporary)) != nil {
      let linked = link(temporary.path, file.path) == 0
      unlink(temporary.path)
      if !linked, let other = read(file) { return other }
    }
    return id
  }()

  /// The folder of this user's state that belongs to this machine and is never synced:
  /// `$XDG_STATE_HOME` (or `~/.local/state`) on Linux, Application Support on Apple
  /// platforms (see ``Platform/localStateFolder(home:environment:)``).
  package static var localStateFolder: URL {
    Platform.localStateFolder(
      home: FileManager.default.homeDirectoryForCurrentUser,
      environment: ProcessInfo.processInfo.environment)
  }

  private static func read(_ file: URL) -> DeviceID? {
    guard let data = try? Data(contentsOf: file), data.count <= 64 else { return nil }
    return DeviceID(
      Substring(
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
  }
}
