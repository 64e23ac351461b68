import Foundation

extension Gen where Value == UUID {
  /// One of `count` fixed ids: small pools make actions hit existing items often and miss
  /// sometimes. Shrinks toward the first id, `Gen.testID(0)`.
  public static func id(among count: Int = 16) -> Gen<UUID> {
    Gen<Int>.integer(in: 0...max(count - 1, 0)).map { testID($0) }
  }

  /// The fixed id number `index`: `00000000-0000-0000-0000-0000000000` followed by the index
  /// in hexadecimal, easy to read in a counterexample.
  public static func testID(_ index: Int) -> UUID {
    let bytes = withUnsafeBytes(of: UInt64(truncatingIfNeeded: index).bigEndian, Array.init)
    return UUID(
      uuid: (
        0, 0, 0, 0, 0, 0, 0, 0, bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5],
        bytes[6], bytes[7]
      ))
  }
}

extension Gen where Value == Date {
  /// A date that is often one of a few fixed dates (so that equal dates, and so the
  /// stability of sorts, are tested) and otherwise any date with sub-second precision.
  public static var sometimesEqualDate: Gen<Date> {
    .frequency([
      (
        1,
        .element(
          of: (0..<3).map {
            Date(timeIntervalSinceReferenceDate: 817_600_000 + Double($0) * 86_400)
          })
      ),
      (2, .date()),
    ])
  }
}
