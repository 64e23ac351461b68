import Testing

@testable import diary

@Suite("Argument parser")
struct ParserTests {
  let parser = Parser(groups: Diary.groups)

  func parse(_ line: String) throws(UsageError) -> Invocation {
    try parser.parse(line.split(separator: " ").map(String.init))
  }

  func command(_ line: String) throws -> (ParsedCommand, GlobalOptions) {
    guard case .run(let parsed, let globals) = try parse(line) else {
      Issue.record("'\(line)' did not parse to a command")
      throw UsageError(message: "not a command")
    }
    return (parsed, globals)
  }

  func usageError(_ line: String) -> UsageError? {
    do {
      _ = try parse(line)
      Issue.record("'\(line)' parsed")
      return nil
    } catch {
      return error
    }
  }

  @Test("options take their value after a space or an equals sign")
  func optionValues() throws {
    let (spaced, _) = try command("todos add milk --priority 2 --date today")
    let (joined, _) = try command("todos add milk --priority=2 --date=today")
    #expect(spaced.options == ["priority": "2", "date": "today"])
    #expect(joined.options == spaced.options)
    #expect(spaced.arguments == ["milk"])
    #expect(spaced.command.name == "add" && spaced.group.name == "todos")
  }

  @Test("global options go before or after the command")
  func globalOptions() throws {
    let (_, before) = try command("--json --data-dir /d todos list")
    let (_, after) = try command("todos list --data-dir=/d --json")
    let (_, between) = try command("todos --json list --data-dir /d")
    #expect(before == GlobalOptions(dataDirectory: "/d", json: true))
    #expect(after == before)
    #expect(between == before)
  }

  @Test("-- ends the options, so a title can start with a dash")
  func doubleDash() throws {
    let (parsed, globals) = try command("todos add --priority 1 -- --json")
    #expect(parsed.arguments == ["--json"])
    #expect(parsed.options == ["priority": "1"])
    #expect(!globals.json)
    #expect(usageError("todos add -- -a -b")?.message == "unexpected argument '-b'")
  }

  @Test("negative numbers are values, not options")
  func negativeNumbers() throws {
    #expect(try command("todos done -1 2").0.arguments == ["-1", "2"])
    #expect(try command("todos add x --priority -3").0.options["priority"] == "-3")
  }

  @Test("help at every level, and the version")
  func help() throws {
    for line in [
      "--help", "-h", "help", "todos --help", "help todos", "todos add -h", "help todos add",
      "todos add --help --json",
    ] {
      guard case .help(let text) = try parse(line) else {
        Issue.record("'\(line)' is not help")
        continue
      }
      #expect(text.contains("USAGE:"))
    }
    guard case .help(let text) = try parse("todos add --help") else { return }
    #expect(text.contains("USAGE: diary todos add TITLE [--priority N] [--date DATE]"))
    #expect(text.contains("--priority N"))
    guard case .version = try parse("--version") else {
      Issue.record("--version")
      return
    }
  }

  @Test(
    "mistakes get the closest valid name",
    arguments: [
      ("todo list", "unknown command 'todo' — did you mean 'todos'?"),
      ("todos lst", "unknown command 'lst' for 'todos' — did you mean 'list'?"),
      ("todos add x --priorty 2", "unknown option '--priorty' — did you mean '--priority'?"),
      ("todos list --jsno", "unknown option '--jsno' — did you mean '--json'?"),
      ("workouts add Run --distnce 5", "unknown option '--distnce' — did you mean '--distance'?"),
    ])
  func suggestions(line: String, message: String) {
    #expect(usageError(line)?.message == message)
  }

  @Test(
    "a missing or extra argument names it and shows the usage line",
    arguments: [
      (
        "todos add", "missing TITLE: what to do, on one line.",
        "diary todos add TITLE [--priority N] [--date DATE]"
      ),
      (
        "settings set sleepGoal", "missing VALUE: its new value, such as 7.5, yes or miles.",
        "diary settings set KEY VALUE"
      ),
      ("todos done", "missing N: the numbers of the todos.", "diary todos done N…"),
      (
        "todos list extra", "unexpected argument 'extra'",
        "diary todos list [--active] [--completed] [--search TEXT] [--min-priority N]"
      ),
    ])
  func missingArguments(line: String, message: String, usage: String) {
    let error = usageError(line)
    #expect(error?.message == message)
    #expect(error?.usage == usage)
  }

  @Test(
    "option mistakes are usage errors",
    arguments: [
      ("todos add x --priority", "--priority needs a value: --priority N"),
      ("todos add x --priority 1 --priority 2", "--priority is given twice"),
      ("todos list --active=yes", "--active takes no value"),
      ("todos list --data-dir", "--data-dir needs a value: --data-dir DIR"),
      ("todos list --data-dir=", "--data-dir cannot be empty"),
      ("--frob todos list", "unknown option '--frob'"),
      (
        "todos list -x",
        "unknown option '-x' (to give it as a value, put it after '--': diary … -- -x)"
      ),
      ("", "missing command: say what to work on, 'settings', 'todos' or 'workouts'"),
      (
        "todos",
        "missing command for 'todos': 'list', 'add', 'done', 'undone', 'remove', 'move', 'order' or 'remove-completed'"
      ),
      ("help todos add extra", "help takes a group and a command: diary help todos add"),
    ])
  func optionMistakes(line: String, message: String) {
    #expect(usageError(line)?.message == message)
  }

  @Test("suggestions are only made for close names")
  func suggestionDistance() {
    #expect(
      Suggestion.closest(to: "sleepgoal", among: ["sleepGoal", "distanceUnit"]) == "sleepGoal")
    #expect(Suggestion.closest(to: "xyz", among: ["sleepGoal", "distanceUnit"]) == nil)
    #expect(Suggestion.closest(to: "lst", among: ["list", "add"]) == "list")
    #expect(Suggestion.distance("kitten", "sitting") == 3)
  }
}
