import Foundation
import StoreTesting
import Testing

/// The documentation's `diary` section is true: its transcript replays on an empty data folder
/// (TZ=UTC, NO_COLOR) with the same output, and its usage block and exit-code table are the
/// tool's help.
@Suite("Documentation: the diary tool")
struct ReadmeTranscriptTests {
  /// The article that holds the section.
  static let article = fixturesFolder.deletingLastPathComponent()
    .appendingPathComponent("Sources/Stores/Stores.docc/FilesAndTheTool.md")

  /// The code blocks of the article's `## The diary tool` section, in order.
  static func blocks() throws -> [String] {
    let readme = try String(contentsOf: Self.article, encoding: .utf8)
    let section = try #require(Self.section(of: readme))
    return section.components(separatedBy: "```\n").enumerated().filter { $0.offset % 2 == 1 }
      .map(\.element)
  }

  /// The article's text from `## The `diary` tool` to the next `## ` heading.
  static func section(of readme: String) -> Substring? {
    guard let start = readme.range(of: "## The `diary` tool\n") else { return nil }
    let rest = readme[start.upperBound...]
    return rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
  }

  let folder = TemporaryFolder()

  @Test("the transcript replays with the same output, on any day")
  func transcript() throws {
    try replay(try #require(try Self.blocks().first), atLeast: 10)
  }

  @Test("the README's workouts transcript replays with the same output, on any day")
  func readmeWorkouts() throws {
    let readme = try String(
      contentsOf: fixturesFolder.deletingLastPathComponent().appendingPathComponent("README.md"),
      encoding: .utf8)
    let block = try #require(
      readme.components(separatedBy: "```\n").first {
        $0.hasPrefix("$ diary workouts import Fixtures/")
      }, "the README shows imports as they run")
    try replay(block, atLeast: 4)
  }

  /// Replays `block`, a transcript of at least `count` `diary` commands, each followed by
  /// what it printed, on an empty data folder, and expects the same output.
  func replay(_ block: String, atLeast count: Int) throws {
    var steps: [(command: String, output: [String])] = []
    for line in block.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      if line.hasPrefix("$ ") {
        steps.append((String(line.dropFirst(2)), []))
      } else {
        try #require(!steps.isEmpty, "output before the first command: \(line)")
        steps[steps.count - 1].output.append(String(line))
      }
    }
    try #require(steps.count >= count, "the transcript has its commands")
    var diary = DiaryProcess(folder: folder.url)
    // Paths such as Fixtures/import/… are the repository's.
    diary.currentDirectory = fixturesFolder.deletingLastPathComponent()
    for (command, expected) in steps {
      let words = try #require(Self.words(command), "cannot split: \(command)")
      try #require(words.first == "diary", "not a diary command: \(command)")
      let result = diary.run(Array(words.dropFirst()))
      let printed = (result.output + result.errorOutput).split(
        separator: "\n", omittingEmptySubsequences: false
      ).dropLast().map(String.init)
      #expect(printed == expected, "$ \(command)")
    }
  }

  @Test("the usage block is the list of commands of diary --help")
  func usageBlock() throws {
    let blocks = try Self.blocks()
    try #require(blocks.count >= 2)
    let help = DiaryProcess(folder: folder.url).run("--help").output
    // A usage line wider than the help's 80 columns goes on, indented, on the next lines.
    var commands: [String] = []
    for line in help.components(separatedBy: "COMMANDS:\n").last?
      .components(separatedBy: "\n\n").first?.split(separator: "\n") ?? []
    {
      if line.hasPrefix("    "), !commands.isEmpty {
        commands[commands.count - 1] += " " + line.drop { $0 == " " }
      } else {
        commands.append(String(line.dropFirst(2)))
      }
    }
    #expect(blocks[1].split(separator: "\n").map(String.init) == commands)
  }

  @Test("the exit-code table is the one of diary --help")
  func exitCodes() throws {
    let readme = try String(contentsOf: Self.article, encoding: .utf8)
    let section = try #require(Self.section(of: readme))
    let table = section.components(separatedBy: "| code | meaning |\n| --- | --- |\n").last?
      .components(separatedBy: "\n\n").first?.split(separator: "\n")
      .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    let help = DiaryProcess(folder: folder.url).run("--help").output
    let codes = help.components(separatedBy: "EXIT CODES:\n").last?.split(separator: "\n")
      .map { line in
        let parts = line.trimmingCharacters(in: .whitespaces).split(
          separator: " ", maxSplits: 1)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }
      }
    #expect(table == codes)
    #expect(table?.map(\.first) == ["0", "64", "65", "66", "73", "74", "75", "78"])
  }

  /// `line` split into words as a shell does: at spaces, except inside "…" and '…'.
  static func words(_ line: String) -> [String]? {
    var words: [String] = []
    var word: String?
    var quote: Character?
    for character in line {
      if let open = quote {
        if character == open { quote = nil } else { word!.append(character) }
      } else if character == "\"" || character == "'" {
        quote = character
        word = word ?? ""
      } else if character == " " {
        if let finished = word { words.append(finished) }
        word = nil
      } else {
        word = (word ?? "") + String(character)
      }
    }
    guard quote == nil else { return nil }
    return words + (word.map { [$0] } ?? [])
  }

  @Test("the README's diary transcripts are real runs")
  @MainActor
  func readmeTranscripts() throws {
    let readme = try String(
      contentsOf: fixturesFolder.deletingLastPathComponent().appendingPathComponent("README.md"),
      encoding: .utf8)
    // The code blocks whose first line is a `$ diary` command, with the output after each.
    var blocks: [[Substring]] = []
    var block: [Substring]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        if let finished = block, finished.first?.hasPrefix("$ diary ") == true {
          blocks.append(finished)
        }
        block = block == nil ? [] : nil
      } else {
        block?.append(line)
      }
    }
    try #require(blocks.count >= 2, "the README shows diary --version and a JSON error")
    for block in blocks {
      let replay = TemporaryFolder()
      var steps: [(command: String, output: [String])] = []
      for line in block {
        if line.hasPrefix("$ ") {
          steps.append((String(line.dropFirst(2)), []))
        } else {
          steps[steps.count - 1].output.append(String(line))
        }
      }
      for (command, expected) in steps {
        let words = try #require(ReadmeTranscriptTests.words(command), "\(command)")
        try #require(words.first == "diary", "not a diary command: \(command)")
        let result = DiaryProcess(folder: replay.url).run(Array(words.dropFirst()))
        let printed = (result.output + result.errorOutput).split(
          separator: "\n", omittingEmptySubsequences: false
        ).dropLast().map(String.init)
        #expect(printed == expected, "$ \(command)")
      }
    }
  }
}
