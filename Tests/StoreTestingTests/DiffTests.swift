import Foundation
import Testing

@testable import StoreTesting

private struct Pet: Equatable {
  var name: String
  var tags: Set<String> = []
  var age: Int?
}

private enum Event: Equatable {
  case renamed(from: String, to: String)
  case removed
}

private struct Home: Equatable {
  var pets: [Pet]
  var owners: [String: Int] = [:]
  var last: Event = .removed
}

/// The message `requireEqual` throws for the two values.
private func failure<T: Equatable>(_ actual: T, _ expected: T) -> String {
  do {
    try requireEqual(actual, expected, "the home")
    return "no failure"
  } catch {
    return error.message
  }
}

@Suite struct DiffTests {
  fileprivate static let home = Home(
    pets: [Pet(name: "Rex", tags: ["dog"], age: 3), Pet(name: "Tom")], owners: ["Ann": 1],
    last: .renamed(from: "Felix", to: "Tom"))

  @Test func aChangedFieldIsShownWithItsPath() {
    var changed = Self.home
    changed.pets[1].name = "Kitty"
    #expect(
      failure(changed, Self.home)
        == "the home: 1 difference from the expected value:\n"
        + "  .pets[1].name: \"Kitty\", expected \"Tom\"")
  }

  @Test func everyKindOfDifferenceIsListed() {
    var changed = Self.home
    changed.pets[0].tags = ["cat"]
    changed.pets[0].age = nil
    changed.pets.append(Pet(name: "Nemo"))
    changed.owners = ["Ann": 2, "Bob": 1]
    changed.last = .renamed(from: "Felix", to: "Tim")
    let lines = failure(changed, Self.home).split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "the home: 7 differences from the expected value:",
        "  .pets[0].tags: has \"cat\", expected without it",
        "  .pets[0].tags: lacks \"dog\", expected with it",
        "  .pets[0].age: nil, expected 3",
        "  .pets[2]: Pet(name: \"Nemo\", tags: [], age: nil), expected nothing",
        "  .owners[\"Ann\"]: 2, expected 1",
        "  .owners[\"Bob\"]: 1, expected nothing",
        "  .last.renamed.to: \"Tim\", expected \"Tom\"",
      ])
  }

  @Test func missingElementsAndOtherCasesAreShownWhole() {
    var changed = Self.home
    changed.pets.removeLast()
    changed.last = .removed
    let lines = failure(changed, Self.home).split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "the home: 2 differences from the expected value:",
        "  .pets[1]: missing, expected Pet(name: \"Tom\", tags: [], age: nil)",
        "  .last: .removed, expected .renamed(from: \"Felix\", to: \"Tom\")",
      ])
  }

  @Test func manyDifferencesAreCounted() {
    let message = failure(Array(0..<15), Array(100..<115))
    #expect(
      message.hasPrefix(
        "the home: 15 differences from the expected value:\n  [0]: 0, expected 100\n"))
    #expect(message.hasSuffix("  [9]: 9, expected 109\n  … and 5 more"))
  }

  @Test func valuesWithoutStructureAreShownWhole() {
    #expect(failure(1, 0) == "the home: 1 is not equal to 0")
    #expect(failure("a", "b") == "the home: \"a\" is not equal to \"b\"")
    #expect(failure(IndexSet([1, 2]), IndexSet([1])) == "the home: [1...2] is not equal to [1]")
    #expect(
      failure(Event.removed, .renamed(from: "a", to: "b")).hasSuffix(
        ".removed is not equal to .renamed(from: \"a\", to: \"b\")"))
  }
}
