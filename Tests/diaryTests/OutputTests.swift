import Foundation
import Testing

@testable import diary

@Suite("Output for people")
struct OutputTests {
  let utc = TimeZone(identifier: "UTC")!
  let tokyo = TimeZone(identifier: "Asia/Tokyo")!
  /// 2026-11-29T07:30:00Z.
  let now = Date(timeIntervalSinceReferenceDate: 817_630_200)

  @Test("dates read as people write them: a day, today, yesterday, tomorrow, ISO 8601")
  func parsingDates() {
    #expect(
      HumanDate.parse("today", LocalTime(now: now, timeZone: utc))
        == Date(timeIntervalSinceReferenceDate: 817_603_200))
    #expect(
      HumanDate.parse("Yesterday", LocalTime(now: now, timeZone: utc))
        == Date(timeIntervalSinceReferenceDate: 817_516_800))
    #expect(
      HumanDate.parse("2026-11-29", LocalTime(now: now, timeZone: utc))
        == Date(timeIntervalSinceReferenceDate: 817_603_200))
    #expect(
      HumanDate.parse("2026-11-29", LocalTime(now: now, timeZone: tokyo))
        == Date(timeIntervalSinceReferenceDate: 817_570_800))
    #expect(HumanDate.parse("2026-11-29T07:30:00Z", LocalTime(now: now, timeZone: tokyo)) == now)
    #expect(HumanDate.parse("2026-11-29T16:30:00+09:00", LocalTime(now: now, timeZone: utc)) == now)
    for invalid in [
      "2026-02-29", "2026-13-01", "2026-1-01", "26-11-29", "", "2026-11-29 ",
      "２０２６-11-29",
    ] {
      #expect(HumanDate.parse(invalid, LocalTime(now: now, timeZone: utc)) == nil, "\(invalid)")
    }
  }

  @Test("dates show as day, month and year, in the time zone")
  func formattingDates() {
    #expect(HumanDate.format(now, timeZone: utc) == "29 Nov 2026")
    #expect(
      HumanDate.format(Date(timeIntervalSinceReferenceDate: 817_682_400), timeZone: tokyo)
        == "30 Nov 2026")
  }

  @Test("control characters and bidirectional overrides never reach the terminal raw")
  func escaping() {
    #expect(Terminal.escaped("a\u{1B}[31mred\u{7}\n") == "a\\u{1B}[31mred\\u{7}\\u{A}")
    #expect(Terminal.escaped("\u{202E}evil") == "\\u{202E}evil")
    #expect(Terminal.escaped("Café ✓ 日本") == "Café ✓ 日本")
  }

  @Test("colour only at a terminal, never with NO_COLOR or TERM=dumb")
  func colour() {
    #expect(!Terminal.forStandardOutput(environment: ["NO_COLOR": "1"]).usesColor)
    #expect(!Terminal.forStandardOutput(environment: ["TERM": "dumb"]).usesColor)
    #expect(Terminal(usesColor: false).bold("x") == "x")
    #expect(Terminal(usesColor: true).bold("x") == "\u{1B}[1mx\u{1B}[0m")
  }

  @Test("tables align columns, counting wide characters as two")
  func tables() {
    var table = TextTable(headers: ["#", "NAME", "N"], alignments: [.right, .left, .right])
    table.rows = [["1", "日本", "5"], ["10", "ab", "12"]]
    #expect(
      table.render(Terminal(usesColor: false)) == """
         #  NAME   N
         1  日本   5
        10  ab    12
        """)
  }
}
