// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Stores",
  // The floor: Synchronization's Mutex and Atomic need these (see README, "Platforms").
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
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
    .testTarget(
      name: "StoresTests",
      dependencies: [
        "Stores", "StoreTesting", "StandInClient", "UndoManagerClient", "FileVersionClient",
        "stores-writer", "TestSupport",
      ],
      // Members only from modules a file imports: the stand-ins stay out of files that do not.
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
    .testTarget(name: "StoreTestingTests", dependencies: ["StoreTesting"]),
    // An app's own tests: the built-in stores tested exhaustively through the public API
    // alone (no @testable import), as an app outside this package tests them.
    .testTarget(name: "AppTests", dependencies: ["Stores", "StoreTesting"]),
    .testTarget(
      name: "diaryTests",
      dependencies: [
        "diary", "stores-writer", "stores-fuzz", "Stores", "StoreTesting", "FileVersionClient",
        "TestSupport",
      ]),
    // What the repository's own tests need and apps do not: the built tools, found, and the
    // stores they share with stores-writer.
    .target(name: "TestSupport", dependencies: ["Stores"], path: "Tests/Support"),
    // A writer on the library as a process of its own, for the crash and concurrency tests.
    .executableTarget(
      name: "stores-writer", dependencies: ["Stores", "TestSupport"], path: "Tests/StoresWriter"),
    // Stand-ins with the exact public signatures of SwiftUI's offset operations and
    // swift-algorithms' `indexed()`, and an app file importing them beside Stores: it must
    // compile (see Tests/StoresTests/Collections/CollisionTests.swift).
    .target(name: "SwiftUIStandIn", path: "Tests/StandIns/SwiftUI"),
    .target(name: "AlgorithmsStandIn", path: "Tests/StandIns/Algorithms"),
    // The UndoManager bridge's source compiled against a stand-in of UndoManager (which
    // Linux's Foundation lacks), for its tests (Tests/StoresTests/Undo/UndoManagerTests.swift).
    .target(name: "UndoManagerStandIn", path: "Tests/StandIns/UndoManager"),
    // The same for iCloud Drive's versions (NSFileVersion): the adapter's source compiled on
    // Linux against a stand-in (Tests/StoresTests/Sync/ICloudVersionTests.swift), also for
    // diary's wait for downloads (Tests/diaryTests/DiaryICloudDriveTests.swift).
    .target(name: "FileVersionStandIn", path: "Tests/StandIns/FileVersion"),
    .target(
      name: "FileVersionClient", dependencies: ["FileVersionStandIn"],
      path: "Tests/StandIns/FileVersionClient",
      swiftSettings: [.define("FILE_VERSION_STAND_IN", .when(platforms: [.linux]))]),
    .target(
      name: "UndoManagerClient", dependencies: ["Stores", "UndoManagerStandIn"],
      path: "Tests/StandIns/UndoManagerClient",
      swiftSettings: [.define("UNDO_MANAGER_STAND_IN")]),
    .target(
      name: "StandInClient", dependencies: ["Stores", "SwiftUIStandIn", "AlgorithmsStandIn"],
      path: "Tests/StandIns/Client"),
    // The fuzz target of the file decoders (see .ci/fuzz); built normally, it replays files.
    .executableTarget(name: "stores-fuzz", dependencies: ["Stores"], path: "Tests/Fuzz"),
  ],
  swiftLanguageModes: [.v6]
)
