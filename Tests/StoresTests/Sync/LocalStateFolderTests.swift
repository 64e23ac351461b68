import Foundation
import StoreTesting
import Stores
import Testing

@Suite("the local state folder: one place per device, one override everywhere")
struct LocalStateFolderTests {
  let temporary = TemporaryFolder()
  /// A home folder and others, inside the test's temporary folder.
  var home: String { temporary.file("home").path }
  var stateHome: String { temporary.file("state").path }
  var xdgState: String { temporary.file("xdg-state").path }

  @Test("STORES_STATE_HOME comes first, on every platform, whatever HOME and XDG say")
  func override() {
    let folder = DeviceID.localStateFolder(environment: [
      "STORES_STATE_HOME": stateHome, "HOME": home, "XDG_STATE_HOME": xdgState,
    ])
    #expect(folder?.path == stateHome)
  }

  @Test("a relative or empty STORES_STATE_HOME is not used")
  func relativeOverride() {
    for value in ["", "state", "./state"] {
      let folder = DeviceID.localStateFolder(environment: [
        "STORES_STATE_HOME": value, "HOME": home,
      ])
      #expect(folder?.path != value)
      #expect(folder != nil)
    }
  }

  #if os(Linux)
    @Test("on Linux: $XDG_STATE_HOME when absolute, else ~/.local/state, else none")
    func linux() {
      #expect(
        DeviceID.localStateFolder(environment: ["XDG_STATE_HOME": xdgState, "HOME": home])?
          .path == xdgState)
      #expect(
        DeviceID.localStateFolder(environment: ["XDG_STATE_HOME": "state", "HOME": home])?.path
          == home + "/.local/state")
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
