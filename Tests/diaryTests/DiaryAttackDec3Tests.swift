import Foundation
import StoreTesting
import Stores
import Testing

/// Problems found by attacking the changes of December 3 (imports told by their decimal
/// marks, workout statistics in narrow terminals), end to end on the binary.
@Suite("diary: attack on the changes of December 3")
struct DiaryAttackDec3Tests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// `4,742` in a file separated by semicolons was read with the decimal mark the file had
  /// shown so far: 4.742 seconds on the first line (nothing shown yet: a comma, as such
  /// files most often mean), 4742 on the line after `5.2` showed a decimal point — one text,
  /// two times 1000 apart, in one import.
  @Test("import reads a time of 4,742 as the whole file tells, on every line")
  func timeReadAsTheWholeFileTells() throws {
    let file = folder.write("name;distance;time\nA;5;4,742\nB;5.2;4,742\n", to: "times.csv")
    let imported = diary.run("workouts", "import", file.path)
    #expect(imported.exitCode == 0, "\(imported.errorOutput)")
    let listed = diary.run("--json", "workouts", "list")
    let workouts = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
    let elapsed = workouts.map { ($0["duration"] as? [String: Any])?["elapsed"] as? Double }
    #expect(elapsed == [4_742, 4_742])
  }

  /// A file that shows both decimal marks cannot tell what `4,742` is: refused (65), with the
  /// place and the option to give, nothing imported.
  @Test("a time that the file cannot tell is refused with its place, nothing written")
  func ambiguousTimeRefused() {
    let file = folder.write("name;distance;time\nA;5;4,742\nB;5,25;60\nC;5.2;60\n", to: "both.csv")
    expectFailure(
      ["workouts", "import", file.path], exitCode: 65,
      message: "line 2, column 5: \"4,742\" could be 4.742 or 4742 seconds")
  }

  /// In a terminal too narrow for the sports table's three columns, `TextTable` cut every
  /// column to fit — "1000…" for 100000.00 km, "5.00…" — though the stats table promises
  /// never to cut a figure. A sport's name and a header are cut; a figure never.
  @Test("workouts stats never cuts a figure, however narrow the terminal")
  func narrowStatsKeepFigures() {
    #expect(
      diary.run("workouts", "add", "Long", "--distance", "100000", "--sport", "Ultra")
        .exitCode == 0)
    #expect(diary.run("workouts", "add", "Run", "--distance", "5", "--sport", "run").exitCode == 0)
    var run = diary
    for columns in [1, 5, 12, 20, 24, 28] {
      run.environment["COLUMNS"] = "\(columns)"
      let result = run.run("workouts", "stats", "--weeks", "1")
      #expect(result.exitCode == 0)
      // The summary, the table (its header first), the chart: between blank lines.
      let parts = result.output.components(separatedBy: "\n\n")
      let table = parts.count > 1 ? parts[1].split(separator: "\n").dropFirst() : []
      #expect(table.count == 2, "\(columns): \(result.output)")
      for row in table {
        #expect(
          row.hasSuffix("100000.00 km") || row.hasSuffix(" 5.00 km"),
          "COLUMNS=\(columns): \(row)")
      }
    }
  }

  /// A key catalog edited by hand (or hostile) with a shape 500 lists deep — within what the
  /// JSON reader takes — made `settings set` print an error of 5 KB ("a list of a list of …"
  /// 500 times, twice). The shape's words are cut now: a short error, still 65.
  @Test("a shape hundreds of lists deep makes a short error")
  func deepShapeShortError() {
    var shape = #""integer""#
    for _ in 0..<500 { shape = #"{"list":"# + shape + "}" }
    folder.write(
      #"{"version":1,"keys":[{"name":"deep","type":"json","default":[],"summary":"d","shape":"#
        + shape + "}]}", to: "settings.keys.json")
    expectFailure(
      ["settings", "set", "deep", "[[1]]"], exitCode: 65,
      message: "has [0][0] 1, not a list of a list of")
  }
}
