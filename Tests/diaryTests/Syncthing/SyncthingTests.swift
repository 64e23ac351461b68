import Foundation
import StoreTesting
import Stores
import Testing

/// Issue 25 on a real sync engine: two Syncthing nodes on loopback (see ``SyncthingPair``),
/// each "device" running `diary` on its own copy of the data folder, linked and cut off.
@Suite(
  "Two devices on real Syncthing", .serialized,
  .enabled(if: SyncthingPair.isInstalled, "needs syncthing (Debian package; .ci/run installs it)"))
struct SyncthingTests {
  let folder = TemporaryFolder()

  /// `diary` playing `device`: its data folder is the device's synced folder.
  func diary(_ device: SyncthingPair.Device) -> DiaryProcess {
    var diary = DiaryProcess(folder: device.folder)
    diary.environment = device.environment(diary.environment)
    return diary
  }

  @Test(
    "today: edits on both devices, linked and cut off, leave conflict copies of the data and lock files"
  )
  func conflictCopiesToday() throws {
    let pair = try SyncthingPair(in: folder.url)
    defer { pair.stop() }
    let devices = pair.devices
    // Linked: each device adds within a few seconds of the other.
    for round in 0..<3 {
      for device in devices {
        #expect(diary(device).run("todos", "add", "\(device.name) linked \(round)").exitCode == 0)
      }
    }
    let linked = try pair.settle()
    try pair.pause()
    for round in 0..<3 {
      for device in devices {
        let diary = diary(device)
        #expect(diary.run("todos", "add", "\(device.name) cut off \(round)").exitCode == 0)
        #expect(
          diary.run("workouts", "add", "\(device.name) \(round)", "--distance", "5").exitCode == 0)
      }
    }
    try pair.resume()
    let reconnected = try pair.settle()
    print(
      "syncthing: settled in \(linked) linked, \(reconnected) after reconnecting; copies: "
        + devices.map { "\($0.name) \($0.conflictCopies)" }.joined(separator: ", "))
    for device in devices {
      let copies = device.conflictCopies
      #expect(copies.contains { $0.hasPrefix("todos.sync-conflict-") }, "\(device.name)")
      #expect(copies.contains { $0.hasPrefix("workouts.sync-conflict-") }, "\(device.name)")
      #expect(copies.contains { $0.hasPrefix("todos.json.sync-conflict-") }, "\(device.name)")
    }
  }
}
