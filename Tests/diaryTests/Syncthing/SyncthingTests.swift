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
    "edits on both devices, linked and cut off, leave no lock or temporary file to sync, nor a conflict copy of one"
  )
  func noLitter() throws {
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
      let litter = device.names.filter { $0.hasSuffix(".lock") && $0.contains("conflict") }
      #expect(litter.isEmpty, "\(device.name): conflict copies of lock files")
      #expect(device.temporaries.isEmpty, "\(device.name): \(device.names)")
      for name in ["todos.json.lock", "workouts.json.lock"] {
        #expect(device.contents[name] == Data(), "\(device.name): \(name) is there, empty")
      }
    }
  }

  @Test("a scan in the middle of a write never gives its temporary file to the other device")
  func temporaryFileMidWrite() throws {
    let pair = try SyncthingPair(in: folder.url)
    defer { pair.stop() }
    let (a, b) = (pair.devices[0], pair.devices[1])
    var rows = "name,distance\n"
    for index in 0..<30_000 { rows += "Run \(index),\(index % 42)\n" }
    let csv = folder.write(rows, to: "rows.csv")
    let writer = try WriterProcess(
      DiaryProcess.binary, ["workouts", "import", csv.path],
      environment: a.environment(diary(a).environment))
    // Stopped while its temporary file is there, which the scan then finds.
    var temporary: String?
    while temporary == nil && writer.process.isRunning {
      temporary = a.temporaries.first
    }
    let found = try #require(temporary, "the import wrote no temporary file")
    TestPlatform.send(SIGSTOP, to: writer.process.processIdentifier)
    defer { TestPlatform.send(SIGCONT, to: writer.process.processIdentifier) }
    try pair.settle()
    #expect(a.names.contains(found), "still being written")
    #expect(b.temporaries.isEmpty, "b got \(b.names)")

    TestPlatform.send(SIGCONT, to: writer.process.processIdentifier)
    while writer.process.isRunning { usleep(10_000) }
    #expect(writer.kill().succeeded, "\(writer.errorOutput)")
    try pair.settle()
    #expect(a.temporaries.isEmpty, "\(a.names)")
    #expect(a.contents == b.contents, "both devices hold the same files")
    #expect(a.contents["workouts.json"] != nil)
  }
}
