import Foundation
import StoreTesting
import Stores
import Testing

/// The Settings article's key catalog section is true: its catalog is the file an app that
/// registered `theme` and `volume` writes, and its `diary` transcript replays on that file.
@MainActor
@Suite("Documentation: diary on an app's keys")
struct SettingsArticleTests {
  /// The article's text from `## The key catalog` to its end.
  static func section() throws -> Substring {
    let article = fixturesFolder.deletingLastPathComponent()
      .appendingPathComponent("Sources/Stores/Stores.docc/Settings.md")
    let text = try String(contentsOf: article, encoding: .utf8)
    let start = try #require(text.range(of: "## The key catalog\n"))
    return text[start.upperBound...]
  }

  /// The code block of `section` that starts with `opening`, without its fences.
  static func block(_ opening: String, in section: Substring) throws -> Substring {
    let start = try #require(section.range(of: opening))
    let rest = section[start.upperBound...]
    return rest[..<(try #require(rest.range(of: "```\n"))).lowerBound]
  }

  let folder = TemporaryFolder()

  /// The file after an app opened it with `theme` and `volume` registered.
  func openedByTheApp() throws -> SettingsStore {
    folder.write(#"{"values": {}, "version": 1}"#, to: "settings.json")
    return try SettingsStore(
      contentsOf: folder.file("settings.json"), keys: [.key(\.theme), .key(\.volume)])
  }

  @Test("the catalog shown is the one the app writes")
  func catalog() throws {
    _ = try openedByTheApp()
    let written = try String(contentsOf: folder.file("settings.keys.json"), encoding: .utf8)
    #expect(try Self.block("```json\n", in: Self.section()) == written[...])
  }

  @Test("the transcript replays with the same output")
  func transcript() throws {
    _ = try openedByTheApp()
    let block = try Self.block("```\n$ ", in: Self.section())
    var steps: [(command: String, output: [String])] = []
    for line in ("$ " + block).split(separator: "\n") {
      if line.hasPrefix("$ ") {
        steps.append((String(line.dropFirst(2)), []))
      } else {
        steps[steps.count - 1].output.append(String(line))
      }
    }
    try #require(steps.count >= 6)
    let diary = DiaryProcess(folder: folder.url)
    for (command, expected) in steps {
      let words = try #require(ReadmeTranscriptTests.words(command))
      let result = diary.run(Array(words.dropFirst()))
      let printed = (result.output + result.errorOutput).split(
        separator: "\n", omittingEmptySubsequences: false
      ).dropLast().map(String.init)
      #expect(printed == expected, "$ \(command)\n\(printed.joined(separator: "\n"))")
    }
  }
}
