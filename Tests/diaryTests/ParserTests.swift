import Foundation
import Stores
import Testing

@testable import diary

@Suite("Argument parser")
@MainActor
struct ParserTests {
  /// 2026-11-29T07:30:00Z.
  let time = LocalTime(
    now: Date(timeIntervalSinceReferenceDate: 817_630_200), timeZone: TimeZone(identifier: "UTC")!)
  var parser: Parser { Parser(groups: Diary.groups, time: time) }

  func parse(_ line: String) throws(DiaryError) -> Invocation {
    try parser.parse(line.split(separator: " ").map(String.init))
  }

  /// The command `line` parses to, as `Command`.
  func command<Command: ParsableCommand>(_ line: String, as _: Command.Type) throws -> Command {
    try parsed(line, as: Command.self).0
  }

  func parsed<Command: ParsableCommand>(_ line: String, as _: Command.Type) throws
    -> (Command, GlobalOptions)
  {
    guard case .run(let command, let globals) = try parse(line), let command = command as? Command
    else {
      Issue.record("'\(line)' did not parse to a \(Command.self)")
      throw DiaryError("not a command")
    }
    return (command, globals)
  }

  func error(_ line: String) -> DiaryError? {
    do {
      _ = try parse(line)
      Issue.record("'\(line)' parsed")
      return nil
    } catch {
      return error
    }
  }

  @Test("options take their value after a space or an equals sign, into typed properties")
  func optionValues() throws {
    let spaced = try command("todos add milk --priority 2 --date today", as: TodosCommands.Add.self)
    let joined = try command("todos add milk --priority=2 --date=today", as: TodosCommands.Add.self)
    #expect(spaced.title == "milk")
    #expect(spaced.priority == 2)
    #expect(spaced.date == Date(timeIntervalSinceReferenceDate: 817_603_200))
    #expect(joined.priority == 2 && joined.date == spaced.date && joined.title == "milk")
    let defaults = try command("todos add milk", as: TodosCommands.Add.self)
    #expect(defaults.priority == 0 && defaults.date == nil)
  }

  @Test("global options go before or after the command, once")
  func globalOptions() throws {
    let (_, before) = try parsed("--json --data-dir /d todos list", as: TodosCommands.List.self)
    let (_, after) = try parsed("todos list --data-dir=/d --json", as: TodosCommands.List.self)
    let (_, between) = try parsed("todos --json list --data-dir /d", as: TodosCommands.List.self)
    #expect(before == GlobalOptions(dataDirectory: "/d", json: true))
    #expect(after == before)
    #expect(between == before)
    #expect(error("--data-dir /a todos list --data-dir /b")?.message == "--data-dir is given twice")
    #expect(error("--json todos list --json")?.message == "--json is given twice")
  }

  @Test("-- ends the options, so a title can start with a dash")
  func doubleDash() throws {
    let (add, globals) = try parsed("todos add --priority 1 -- --json", as: TodosCommands.Add.self)
    #expect(add.title == "--json")
    #expect(add.priority == 1)
    #expect(!globals.json)
    #expect(error("todos add -- -a -b")?.message == "unexpected argument '-b'")
  }

  @Test("negative numbers are values, not options")
  func negativeNumbers() throws {
    #expect(try command("todos done -1 2", as: TodosCommands.Done.self).numbers == [-1, 2])
    #expect(try command("todos add x --priority -3", as: TodosCommands.Add.self).priority == -3)
  }

  @Test("choices, distances and dates are read by their types")
  func typedValues() throws {
    let add = try command(
      "workouts add Run --distance 3.1mi --complexity HIGH --date 2026-11-28T06:00 "
        + "--time 1:02:03 --moving-time 58m --sport Trail_Running",
      as: WorkoutsCommands.Add.self)
    #expect(add.distance == TypedDistance(value: ScaledDecimal(3.1), unit: .miles))
    #expect(add.time == 3_723)
    #expect(add.movingTime == 3_480)
    #expect(add.sport == .run)
    #expect(add.complexity == .high)
    #expect(add.date == Date(timeIntervalSinceReferenceDate: 817_538_400))
    #expect(try command("workouts sort none", as: WorkoutsCommands.Sort.self).ordering == .none)
    #expect(try command("todos order Priority", as: TodosCommands.Order.self).ordering == .priority)
    let set = try command(
      "settings set theme dark --type string", as: SettingsCommands.SetValue.self)
    #expect(set.key == "theme" && set.value == "dark" && set.type == .string)
  }

  @Test("help at every level, for help too, and the version")
  func help() throws {
    for line in [
      "--help", "-h", "help", "todos --help", "help todos", "todos add -h", "help todos add",
      "todos add --help --json", "help help",
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
    guard case .help(let helpHelp) = try parse("help help") else { return }
    #expect(helpHelp.contains("USAGE: diary help [<group> [<command>]]"))
    guard case .version(json: false) = try parse("--version"),
      case .version(json: true) = try parse("--json --version")
    else {
      Issue.record("--version")
      return
    }
  }

  @Test(
    "mistakes get the closest valid name",
    arguments: [
      ("todo list", "unknown command 'todo' — did you mean 'todos'?"),
      ("todos lst", "unknown command 'lst' for 'todos' — did you mean 'list'?"),
      ("workouts chart", "unknown command 'chart' for 'workouts' — did you mean 'stats'?"),
      ("workouts Graph", "unknown command 'Graph' for 'workouts' — did you mean 'stats'?"),
      ("todos delete 1", "unknown command 'delete' for 'todos' — did you mean 'remove'?"),
      ("todos check 1", "unknown command 'check' for 'todos' — did you mean 'done'?"),
      ("workouts ls", "unknown command 'ls' for 'workouts' — did you mean 'list'?"),
      ("todos add x --priorty 2", "unknown option '--priorty' — did you mean '--priority'?"),
      ("todos list --jsno", "unknown option '--jsno' — did you mean '--json'?"),
      ("workouts add Run --distnce 5", "unknown option '--distnce' — did you mean '--distance'?"),
      ("todos list --done", "unknown option '--done' — did you mean '--completed'?"),
      ("-v", "unknown option '-v' — did you mean '--version'?"),
      ("-j todos list", "unknown option '-j' — did you mean '--json'?"),
    ])
  func suggestions(line: String, message: String) {
    #expect(error(line)?.message == message)
  }

  @Test(
    "a missing or extra argument names it and shows the usage line",
    arguments: [
      (
        "todos add", "missing TITLE: what to do, on one line",
        "diary todos add TITLE [--priority N] [--date DATE]"
      ),
      (
        "settings set", "missing KEY: the setting, such as sleepGoal, or a new one",
        "diary settings set KEY [VALUE] [--type TYPE] [--unset]"
      ),
      ("todos done", "missing N: the numbers of the todos", "diary todos done N…"),
      (
        "todos list extra", "unexpected argument 'extra'",
        "diary todos list [--active] [--completed] [--search TEXT] [--min-priority N]"
      ),
    ])
  func missingArguments(line: String, message: String, usage: String) {
    let error = error(line)
    #expect(error?.message == message)
    #expect(error?.usage == usage)
    #expect(error?.exitCode == .usage)
  }

  @Test(
    "option mistakes are usage errors that end with the usage line",
    arguments: [
      ("todos add x --priority", "--priority needs a value: --priority N"),
      ("todos add x --priority 1 --priority 2", "--priority is given twice"),
      ("todos list --active=yes", "--active takes no value"),
      ("todos list --data-dir", "--data-dir needs a value: --data-dir DIR"),
      ("--frob todos list", "unknown option '--frob'"),
      ("todos list -x", "unknown option '-x'"),
      (
        "todos add -x",
        "unknown option '-x' (to give it as a value, put it after '--': diary todos add -- -x)"
      ),
      ("--json", "missing command: say what to work on, 'settings', 'todos', 'workouts' or 'sync'"),
      (
        "todos",
        "missing command for 'todos': 'list', 'add', 'edit', 'done', 'undone', 'remove', 'move', 'order' or 'remove-completed'"
      ),
      ("help todos add extra", "help takes a group and a command: diary help todos add"),
    ])
  func optionMistakes(line: String, message: String) {
    let error = error(line)
    #expect(error?.message == message)
    #expect(error?.exitCode == .usage)
    #expect(error?.usage != nil)
  }

  @Test(
    "a value that is not of its option's or argument's type exits 65 with what is expected",
    arguments: [
      ("todos list --data-dir=", "--data-dir must be a folder's path, not ''"),
      ("todos add x --priority 2x", "--priority must be a whole number, not '2x'"),
      (
        "todos order dates",
        "the order must be date or priority, not 'dates' — did you mean 'date'?"
      ),
      (
        "workouts add Run --distance 5 --complexity extreme",
        "--complexity must be low, medium or high, not 'extreme'"
      ),
      (
        "workouts sort speed",
        "the order must be distance, complexity, date or none, not 'speed'"
      ),
      (
        "settings set theme dark --type strng",
        "--type must be string, number, integer, bool, date, url, uuid, data or json, not 'strng' "
          + "— did you mean 'string'?"
      ),
    ])
  func invalidValues(line: String, message: String) {
    let error = error(line)
    #expect(error?.message == message)
    #expect(error?.exitCode == .dataError)
  }

  @Test("an unknown command is found before a value that is not valid")
  func shapeBeforeValues() {
    #expect(error("todos add --priority x")?.exitCode == .usage)
    #expect(error("todos add x y --priority x")?.message == "unexpected argument 'y'")
  }

  @Test("suggestions are only made for close names")
  func suggestionDistance() {
    #expect(
      Suggestion.closest(to: "sleepgoal", among: ["sleepGoal", "distanceUnit"]) == "sleepGoal")
    #expect(Suggestion.closest(to: "xyz", among: ["sleepGoal", "distanceUnit"]) == nil)
    #expect(Suggestion.closest(to: "lst", among: ["list", "add"]) == "list")
    #expect(Suggestion.distance("kitten", "sitting") == 3)
    #expect(Suggestion.distance("miels", "miles") == 1)
    #expect(Suggestion.closest(to: "ture", among: ["true", "false"]) == "true")
  }

  @Test("every setting of the library has a type on the command line, in the library's order")
  func everySettingIsTyped() {
    #expect(Setting.builtIn.map(\.name) == SettingsStore().keys.map(\.name))
  }
}
