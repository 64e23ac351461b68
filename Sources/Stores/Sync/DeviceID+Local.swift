import Foundation

extension DeviceID {
  /// This machine's identity: read from the file `stores/device` in this device's local state
  /// folder (see ``localStateFolder(environment:)``), made there on first use. On Apple
  /// platforms the file is excluded from backups, so a device restored or migrated from one
  /// makes an identity of its own rather than share another device's. Where there is no such
  /// folder, or it cannot be written, an identity for this process alone — still unique, so
  /// merges stay right.
  package static let local: DeviceID = {
    guard
      let state = localStateFolder(environment: ProcessInfo.processInfo.environment)
    else { return random() }
    let folder = state.appendingPathComponent("stores", isDirectory: true)
    let file = folder.appendingPathComponent("device")
    if let id = read(file) {
      // Also for a file an earlier version made without the mark.
      Platform.excludeFromBackup(file)
      return id
    }
    let id = random()
    try? FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // Made atomically, and never over an identity another process made first.
    let temporary = folder.appendingPathComponent("device.\(getpid()).tmp")
    if (try? Data((id.text + "\n").utf8).write(to: temporary)) != nil {
      let linked = link(temporary.path, file.path) == 0
      unlink(temporary.path)
      if !linked, let other = read(file) { return other }
      if linked { Platform.excludeFromBackup(file) }
    }
    return id
  }()

  /// The environment variable that names the local state folder on every platform, before
  /// the platform's own place: `STORES_STATE_HOME`. Tests, sandboxes and scripts set it.
  package static let stateHomeVariable = "STORES_STATE_HOME"

  /// The folder of this device's own state, which is never synced — the device id here,
  /// `diary`'s undo history beside it: `$STORES_STATE_HOME` (an absolute path) on every
  /// platform; else Application Support on Apple platforms; else `$XDG_STATE_HOME` (absolute),
  /// else `~/.local/state`, on Linux. `nil` when there is none (Linux without an absolute
  /// `HOME`). Creates nothing.
  package static func localStateFolder(environment: [String: String]) -> URL? {
    Platform.localStateFolder(environment: environment)
  }

  private static func read(_ file: URL) -> DeviceID? {
    guard let data = try? Data(contentsOf: file), data.count <= 64 else { return nil }
    return DeviceID(
      Substring(
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
  }
}
