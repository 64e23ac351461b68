import StoreTesting
import XCTest

/// `check` outside Swift Testing (no `Test.current`): a failure would go to `XCTFail`.
/// Only a passing property runs here, so the suite stays green. This file does not import
/// Testing: everything it calls must compile without it.
final class XCTestSupportTests: XCTestCase {
  func testPassingPropertyThroughXCTest() {
    let result = check(Gen<Int>.integer(in: -100...100).array(maxCount: 10), iterations: 200) {
      values in
      values.reversed().reversed() == values
    }
    XCTAssertTrue(result.passed)
    XCTAssertEqual(result.casesRun, 200)
  }

  func testThrowingPropertyThroughXCTest() {
    let result = check(Gen<String>.string(maxCount: 8)) { text in
      try require(text.count <= 8, "too long: \(text)")
    }
    XCTAssertTrue(result.passed)
  }

  func testPropertyRunNeedsNoImportOfTesting() {
    let result = Property.run(Gen<Int>.integer(in: 0...100), seed: 1, environment: [:]) {
      $0 < 50
    }
    XCTAssertEqual(result.counterexample?.shrunk, 50)
    XCTAssertTrue(result.message?.contains("StoreTestingTests/XCTestSupportTests.swift:") == true)
  }
}
