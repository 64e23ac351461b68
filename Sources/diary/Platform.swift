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

extension Platform {
  /// Keeps the C library from holding on to the freed memory of large buffers. glibc's
  /// allocator raises its threshold for mapping a buffer on its own (`M_MMAP_THRESHOLD`) to
  /// the size of the largest one freed, so the large buffers of a command's later steps come
  /// from the heap, whose freed middle it never gives back: `diary todos add` on a file of
  /// 100,000 todos peaked at 83 MB instead of 69. Fixed at 256 KiB, larger buffers are mapped
  /// and given back when freed. Nothing to do on Apple platforms, whose allocator gives large
  /// blocks back itself, nor on musl.
  static func giveLargeBuffersBackWhenFreed() {
    #if canImport(Glibc)
      _ = glibcMallopt(glibcMmapThreshold, 256 * 1024)
    #endif
  }
}

#if canImport(Glibc)
  /// `mallopt(3)`, declared in `<malloc.h>`, which the `Glibc` module does not include.
  @_silgen_name("mallopt")
  private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
  /// `M_MMAP_THRESHOLD` of `<malloc.h>`.
  private let glibcMmapThreshold: Int32 = -3
#endif
