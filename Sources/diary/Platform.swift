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
