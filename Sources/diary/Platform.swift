import Foundation
import Stores

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// What differs between the platforms `diary` runs on is here, and nowhere else in the tool
// (`.ci/platform-check` fails on a platform-only name used elsewhere).

/// The system calls whose names the tool's own methods hide.
enum Platform {
  /// `write(2)`: the C library's, which an output's own `write` method hides.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
      Musl.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }
}

extension Platform {
  /// The folder for what `diary` keeps about this machine (its undo history), never synced:
  /// the library's local state folder, where the device id is too — `$STORES_STATE_HOME` on
  /// every platform, else Application Support on Apple platforms, else `$XDG_STATE_HOME`,
  /// else `~/.local/state` (see `DeviceID.localStateFolder(environment:)`).
  ///
  /// - Throws: A ``DiaryError`` (78) when there is none (on Linux: neither variable set to an
  ///   absolute path, and `HOME` not one).
  static func stateFolder(environment: [String: String]) throws -> URL {
    guard let folder = DeviceID.localStateFolder(environment: environment) else {
      throw DiaryError(
        "no home folder for the undo history: HOME is not set to an absolute path — set HOME, "
          + "or \(DeviceID.stateHomeVariable) to the folder to keep this machine's state in",
        exitCode: .configuration)
    }
    return folder
  }
}
