// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Stores",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "Stores", targets: ["Stores"]),
    .library(name: "StoreTesting", targets: ["StoreTesting"]),
    .executable(name: "diary", targets: ["diary"]),
    .executable(name: "stores-bench", targets: ["stores-bench"]),
  ],
  targets: [
    .target(name: "Stores"),
    .target(name: "StoreTesting", dependencies: ["Stores"]),
    .executableTarget(name: "diary", dependencies: ["Stores"]),
    .executableTarget(name: "stores-bench", dependencies: ["Stores"]),
    .testTarget(name: "StoresTests", dependencies: ["Stores", "StoreTesting"]),
    .testTarget(name: "StoreTestingTests", dependencies: ["StoreTesting"]),
    .testTarget(
      name: "diaryTests",
      dependencies: ["diary", "stores-writer", "stores-fuzz", "Stores", "StoreTesting"]),
    // A writer on the library as a process of its own, for the crash and concurrency tests.
    .executableTarget(name: "stores-writer", dependencies: ["Stores"], path: "Tests/StoresWriter"),
    // The fuzz target of the file decoders (see .ci/fuzz); built normally, it replays files.
    .executableTarget(name: "stores-fuzz", dependencies: ["Stores"], path: "Tests/Fuzz"),
  ],
  swiftLanguageModes: [.v6]
)
