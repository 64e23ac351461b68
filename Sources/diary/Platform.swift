import Foundation

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
  /// `~/Library/Application Support` on Apple platforms; elsewhere `$XDG_STATE_HOME` when it
  /// is an absolute path, else `~/.local/state`.
  ///
  /// - Throws: A ``DiaryError`` (78) when `HOME` is not an absolute path.
  static func stateFolder(environment: [String: String]) throws -> URL {
    #if canImport(Darwin)
      return try home(environment).appendingPathComponent(
        "Library/Application Support", isDirectory: true)
    #else
      if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
        return URL(fileURLWithPath: state, isDirectory: true)
      }
      return try home(environment).appendingPathComponent(".local/state", isDirectory: true)
    #endif
  }

  private static func home(_ environment: [String: String]) throws -> URL {
    guard let home = environment["HOME"], home.hasPrefix("/") else {
      throw DiaryError(
        "no home folder for the undo history: HOME is not set to an absolute path — set HOME",
        exitCode: .configuration)
    }
    return URL(fileURLWithPath: home, isDirectory: true)
  }
}
