import Foundation
import StoreTesting
import Stores
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

  @Test("tomorrow, and local times without a zone, in the time zone")
  func localTimes() {
    #expect(
      HumanDate.parse("tomorrow", LocalTime(now: now, timeZone: utc))
        == Date(timeIntervalSinceReferenceDate: 817_689_600))
    // 07:30 on 29 November 2026 in Tokyo is 22:30 the day before in UTC.
    #expect(
      HumanDate.parse("2026-11-29T07:30", LocalTime(now: now, timeZone: tokyo))
        == Date(timeIntervalSinceReferenceDate: 817_597_800))
    #expect(
      HumanDate.parse("2026-11-29t07:30:15", LocalTime(now: now, timeZone: utc))
        == now.addingTimeInterval(15))
    // Tokyo is already on 30 November at 07:30Z + 9 h = 16:30: its tomorrow is 1 December.
    #expect(
      HumanDate.parse(
        "tomorrow", LocalTime(now: now.addingTimeInterval(9 * 3_600), timeZone: tokyo))
        == HumanDate.parse("2026-12-01", LocalTime(now: now, timeZone: tokyo)))
    #expect(
      HumanDate.parse("2026-11-29 07:30:15", LocalTime(now: now, timeZone: utc))
        == now.addingTimeInterval(15), "a space for the T, as files write it")
    for invalid in ["2026-11-29T24:00", "2026-11-29T07:60", "2026-11-29T07", "2026-11-29  07:30"] {
      #expect(HumanDate.parse(invalid, LocalTime(now: now, timeZone: utc)) == nil, "\(invalid)")
    }
  }

  @Test("dates before 1582 are proleptic Gregorian both ways, as in the files")
  func prolepticGregorian() {
    let time = LocalTime(now: now, timeZone: utc)
    for (typed, iso) in [
      ("1000-01-01", "1000-01-01T00:00:00Z"), ("0001-01-01", "0001-01-01T00:00:00Z"),
      ("1582-10-10", "1582-10-10T00:00:00Z"), ("1600-02-29", "1600-02-29T00:00:00Z"),
      ("9999-12-31", "9999-12-31T00:00:00Z"),
    ] {
      let date = HumanDate.parse(typed, time)
      #expect(date == ISO8601Timestamp.date(from: iso), "\(typed)")
      #expect(date.map { HumanDate.format($0, timeZone: utc) } != nil)
    }
    #expect(
      HumanDate.format(ISO8601Timestamp.date(from: "1000-01-01T00:00:00Z")!, timeZone: utc)
        == "1 Jan 1000")
    #expect(
      HumanDate.format(ISO8601Timestamp.date(from: "1582-10-10T12:00:00Z")!, timeZone: utc)
        == "10 Oct 1582")
    // Leap years of the Julian calendar that the Gregorian one does not have.
    for invalid in ["1500-02-29", "1900-02-29", "0000-01-01"] {
      #expect(HumanDate.parse(invalid, time) == nil, "\(invalid)")
    }
  }

  @Test("dates show as day, month and year, in the time zone")
  func formattingDates() {
    #expect(HumanDate.format(now, timeZone: utc) == "29 Nov 2026")
    #expect(
      HumanDate.format(Date(timeIntervalSinceReferenceDate: 817_682_400), timeZone: tokyo)
        == "30 Nov 2026")
  }

  @Test("a JSON array written a block at a time is the whole array's JSON, empties compact")
  @MainActor
  func streamedJSON() throws {
    let items = (0..<2_345).map { index in
      JSONValue.object([
        "title": .string("item \(index) [ ] { }"),
        "tags": .array(index % 2 == 0 ? [] : [.string("a")]),
      ])
    }
    let sink = TextSink()
    let output = Output(standardOutput: sink, standardError: TextSink())
    try JSONOutput.writeArray(items, to: output)
    try output.flush()
    var writer = JSONWriter()
    try JSONValue.array(items).write(to: &writer)
    let whole = String(decoding: writer.finish(), as: UTF8.self)
    #expect(sink.text == whole + "\n")
    #expect(sink.text.contains(#""tags" : [],"#))
    #expect(sink.text.contains(#""title" : "item 0 [ ] { }""#))
  }

  @Test("an item --json prints is written as in the files, with its number at its sorted place")
  func numberedItems() throws {
    let id = UUID(uuidString: "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01")!
    let date = Date(timeIntervalSince1970: 1_764_406_800.25)
    func printed(_ item: some JSONObjectCodable) throws -> String {
      var writer = JSONWriter()
      try Numbered(number: 12, item: item).write(to: &writer)
      return String(decoding: writer.finish(), as: UTF8.self)
    }
    #expect(
      try printed(Todo(id: id, title: "Buy \"milk\"", date: date, priority: 2)) == """
        {
          "date" : "2025-11-29T09:00:00.25Z",
          "id" : "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01",
          "isDone" : false,
          "number" : 12,
          "priority" : 2,
          "title" : "Buy \\"milk\\""
        }
        """)
    #expect(
      try printed(Workout(id: id, name: "Run", distance: 5.2, date: date, complexity: .high))
        == """
        {
          "complexity" : "high",
          "date" : "2025-11-29T09:00:00.25Z",
          "distance" : 5.2,
          "id" : "6F1C2A4E-3B1D-4C7A-9E2F-0A1B2C3D4E01",
          "name" : "Run",
          "number" : 12
        }
        """)
  }

  @Test("control characters and bidirectional overrides never reach the terminal raw")
  func escaping() {
    #expect(Terminal.escaped("a\u{1B}[31mred\u{7}\n") == "a\\u{1B}[31mred\\u{7}\\u{A}")
    #expect(Terminal.escaped("\u{202E}evil") == "\\u{202E}evil")
    #expect(Terminal.escaped("Café ✓ 日本") == "Café ✓ 日本")
  }

  @Test("invisible formatting characters are shown escaped; joiners inside words and emoji stay")
  func invisibleCharacters() {
    for (text, shown) in [
      ("a\u{200B}b", "a\\u{200B}b"), ("soft\u{AD}hyphen", "soft\\u{AD}hyphen"),
      ("\u{FEFF}bom", "\\u{FEFF}bom"), ("a\u{2060}b", "a\\u{2060}b"),
      ("line\u{2028}break", "line\\u{2028}break"), ("ad\u{200C}min", "ad\\u{200C}min"),
      ("a\u{200D}", "a\\u{200D}"), ("\u{E0041}", "\\u{E0041}"),
      ("👩\u{200D}💻", "👩\u{200D}💻"), ("می\u{200C}خواهم", "می\u{200C}خواهم"),
      (
        "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
      ),
    ] {
      #expect(Terminal.escaped(text) == shown, "\(shown)")
      // A long cell is escaped a character at a time: the same.
      let long = String(repeating: "x", count: 200) + text
      #expect(Terminal.fitted(long, to: 1_000).text == String(repeating: "x", count: 200) + shown)
    }
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

  /// Empty cells at the end of a row — a right-aligned one, or a left-aligned one before an
  /// empty last cell — are not padded: no line ends with spaces.
  @Test("no line of a table ends with spaces, whatever cells at its end are empty")
  func noTrailingSpaces() {
    var table = TextTable(
      headers: ["SPORT", "TIME", "PACE"], alignments: [.left, .right, .left])
    table.rows = [["run", "1:02:03", "5:12 /km"], ["ride", "", ""], ["swim", "12:00", ""]]
    let lines = table.render(Terminal(usesColor: false)).split(separator: "\n")
    #expect(
      lines == ["SPORT     TIME  PACE", "run    1:02:03  5:12 /km", "ride", "swim     12:00"])
    var right = TextTable(headers: ["#", "N"], alignments: [.right, .right])
    right.rows = [["1", ""]]
    #expect(right.render(Terminal(usesColor: false)) == "#  N\n1")
  }
}

/// The output for people of the built `diary`: tables that fit the terminal.
@Suite("Output for people, end to end")
struct DiaryOutputTests: DiaryFolderSuite {
  let folder = TemporaryFolder()
  var diary: DiaryProcess { DiaryProcess(folder: folder.url) }

  @Test("tables fit the terminal down to 40 columns, cut with …, never wrapped; --json whole")
  func tablesFit() {
    let title = String(repeating: "long title ", count: 30)
    #expect(diary.run("todos", "add", title, "--priority", "3").exitCode == 0)
    #expect(diary.run("workouts", "add", title, "--distance", "12345.5").exitCode == 0)
    #expect(diary.run("settings", "set", "note", title, "--type", "string").exitCode == 0)
    var run = diary
    for columns in [40, 50, 80, 120] {
      run.environment["COLUMNS"] = "\(columns)"
      for arguments in [["todos", "list"], ["workouts", "list"], ["settings", "list"]] {
        let output = run.run(arguments).output
        #expect(
          widths(output).allSatisfy { $0 <= columns }, "\(arguments) at \(columns): \(output)")
        #expect(output.contains("…"), "\(arguments) at \(columns)")
      }
    }
    run.environment["COLUMNS"] = "40"
    #expect(
      run.run("todos", "list").output.contains("1  [ ]          3  "), "the short columns whole")
    #expect(
      run.run("--json", "todos", "list").output.contains(title.trimmingCharacters(in: .whitespaces))
    )
    #expect(
      diary.run("todos", "list").output.contains(title.trimmingCharacters(in: .whitespaces)),
      "a pipe keeps it all")
  }
}
