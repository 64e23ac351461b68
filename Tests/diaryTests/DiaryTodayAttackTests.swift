import Foundation
import StoreTesting
import Stores
import Testing

/// Problems found by attacking the day's `diary workouts` changes, end to end on the binary.
@Suite("diary: attack on today's workouts changes")
struct DiaryTodayAttackTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  /// The name is escaped (`Terminal.escaped`) in "Added workout …" and "Edited workout …", but
  /// the sport of `WorkoutsCommands.summary(of:_:)` is not: a sport typed, or imported from a
  /// GPX `<type>` or a CSV, with control characters writes them raw to the terminal (an OSC
  /// sequence here sets the window title). `list` escapes the same sport.
  @Test("add and edit escape the sport they print")
  func sportEscaped() {
    let escape = "x\u{1B}]0;pwned\u{07}"
    let added = diary.run("workouts", "add", "Run", "--distance", "5km", "--sport", escape)
    #expect(added.exitCode == 0)
    #expect(!added.output.contains("\u{1B}"), "raw ESC in: \(added.output.debugDescription)")
    let edited = diary.run("workouts", "edit", "1", "--sport", "y\u{1B}[2J")
    #expect(edited.exitCode == 0)
    #expect(!edited.output.contains("\u{1B}"), "raw ESC in: \(edited.output.debugDescription)")
  }
}
