import Foundation
import StoreTesting
import Stores
import Testing

@Suite("the local state folder: one place per device, one override everywhere")
struct LocalStateFolderTests {
  @Test("STORES_STATE_HOME comes first, on every platform, whatever HOME and XDG say")
  func override() {
    let folder = DeviceID.localStateFolder(environment: [
      "STORES_STATE_HOME": "/srv/state", "HOME": "/home/ann", "XDG_STATE_HOME": "/var/state",
    ])
    #expect(folder?.path == "/srv/state")
  }

  @Test("a relative or empty STORES_STATE_HOME is not used")
  func relativeOverride() {
    for value in ["", "state", "./state"] {
      let folder = DeviceID.localStateFolder(environment: [
        "STORES_STATE_HOME": value, "HOME": "/home/ann",
      ])
      #expect(folder?.path != value)
      #expect(folder != nil)
    }
  }

  #if os(Linux)
    @Test("on Linux: $XDG_STATE_HOME when absolute, else ~/.local/state, else none")
    func linux() {
      #expect(
        DeviceID.localStateFolder(environment: ["XDG_STATE_HOME": "/var/state", "HOME": "/h"])?
          .path == "/var/state")
      #expect(
        DeviceID.localStateFolder(environment: ["XDG_STATE_HOME": "state", "HOME": "/h"])?.path
          == "/h/.local/state")
      #expect(DeviceID.localStateFolder(environment: ["HOME": "relative"]) == nil)
      #expect(DeviceID.localStateFolder(environment: [:]) == nil)
    }
  #endif

  @Test("the tests' own process has its state in a folder of its own, not the user's")
  func testsAreIsolated() throws {
    _ = TemporaryFolder()
    let variable = try #require(ProcessInfo.processInfo.environment["STORES_STATE_HOME"])
    let folder = try #require(
      DeviceID.localStateFolder(environment: ProcessInfo.processInfo.environment))
    #expect(folder.path == variable)
    var withoutOverride = ProcessInfo.processInfo.environment
    withoutOverride["STORES_STATE_HOME"] = nil
    #expect(folder != DeviceID.localStateFolder(environment: withoutOverride))
  }
}
