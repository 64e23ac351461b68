import Foundation
import Stores

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// 11. Peak memory of the `diary` process against the size of the file it works on.

/// Runs the `diary` built beside this benchmark on todos files of 100k and 1M todos (1,000
/// with `quick`), written as the library writes them, and notes each command's peak resident
/// memory — the child's maximum resident set size, from `wait4` — beside the file's size.
/// The goal: at most 3× the file.
///
/// The command is started by a fresh `stores-bench --peak-memory`, not by this process: on
/// Linux a process's maximum resident size includes the memory it had when it called `exec`,
/// and a child spawned from here has, until then, this process's memory (hundreds of MB after
/// the other sections; the todos made here). The fresh one is smaller than `diary` itself.
@MainActor
func memoryBenchmarks(_ report: Report, quick: Bool) {
  let diary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("diary").path
  guard FileManager.default.isExecutableFile(atPath: diary) else {
    print(
      "| peak memory of diary: no diary beside stores-bench (swift build -c release) | | | | | |")
    return
  }
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-memory-\(getpid())")
  defer { try? FileManager.default.removeItem(at: home) }
  let environment = [
    "DIARY_HOME": home.appendingPathComponent("data").path,
    "STORES_STATE_HOME": home.appendingPathComponent("state").path,
  ]
  for todos in quick ? [1000] : [100_000, 1_000_000] {
    try? FileManager.default.removeItem(at: home)
    try! FileManager.default.createDirectory(
      at: home.appendingPathComponent("data"), withIntermediateDirectories: true)
    let file = home.appendingPathComponent("data/todos.json")
    try! StateFileCoding.encode(TodosStore.State(todos: sampleTodos(todos)), path: file.path)
      .write(to: file)
    for command in [["todos", "list"], ["todos", "add", "One more todo"]] {
      let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
      guard let peak = peakMemoryThroughFreshProcess(diary, command, environment: environment)
      else {
        print(
          "| peak memory of diary \(command.prefix(2).joined(separator: " ")): failed | | | | | |")
        continue
      }
      report.noteMemory(
        "peak memory of diary \(command.prefix(2).joined(separator: " ")) vs the file's size",
        size: count(todos), peak: peak, file: size, goal: "≤ 3×")
    }
  }
}

/// ``peakMemory(_:_:environment:)``, measured by a new `stores-bench --peak-memory` process.
func peakMemoryThroughFreshProcess(
  _ executable: String, _ arguments: [String], environment: [String: String]
) -> Int? {
  let result = FileManager.default.temporaryDirectory
    .appendingPathComponent("stores-bench-peak-\(getpid())")
  defer { try? FileManager.default.removeItem(at: result) }
  let bench = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
  guard
    peakMemory(
      bench, ["--peak-memory", result.path, executable] + arguments, environment: environment)
      != nil,
    let text = try? String(contentsOf: result, encoding: .utf8)
  else { return nil }
  return Int(text)
}

/// `stores-bench --peak-memory RESULT EXECUTABLE ARGUMENTS…`: runs the executable with this
/// process's environment and writes its peak memory in bytes to the file RESULT; exits 1 when
/// it could not run or failed.
func peakMemoryMain(_ arguments: [String]) -> Never {
  guard arguments.count >= 2,
    let peak = peakMemory(
      arguments[1], Array(arguments.dropFirst(2)),
      environment: ProcessInfo.processInfo.environment),
    (try? String(peak).write(toFile: arguments[0], atomically: true, encoding: .utf8)) != nil
  else { exit(1) }
  exit(0)
}

/// Runs each of `sections` in a child process of this executable (`SECTION --section`, and
/// `--quick` when `quick`), which prints its lines under one header, then exits: 1 when a
/// section failed.
func runSectionsApart(_ sections: [String], quick: Bool) -> Never {
  Report.printHeader()
  let executable = CommandLine.arguments[0]
  let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { for string in envp { free(string) } }
  var failed = false
  for section in sections {
    let arguments: [String] = [executable, section, "--section"] + (quick ? ["--quick"] : [])
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for string in argv { free(string) } }
    fflush(nil)
    var pid = pid_t()
    var status: Int32 = 0
    if posix_spawn(&pid, executable, nil, nil, argv, envp) != 0
      || waitpid(pid, &status, 0) != pid || status != 0
    {
      FileHandle.standardError.write(Data("stores-bench: section \(section) failed\n".utf8))
      failed = true
    }
  }
  exit(failed ? 1 : 0)
}

/// The peak resident memory in bytes of `executable` run with `arguments` and `environment`
/// (its output discarded), or `nil` when it could not run or failed.
func peakMemory(_ executable: String, _ arguments: [String], environment: [String: String])
  -> Int?
{
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for string in argv + envp { free(string) }
  }
  // The child inherits standard output: /dev/null for the moment of the spawn.
  fflush(nil)
  let saved = dup(1)
  let null = open("/dev/null", O_WRONLY)
  dup2(null, 1)
  close(null)
  var pid = pid_t()
  let spawned = posix_spawn(&pid, executable, nil, nil, argv, envp)
  dup2(saved, 1)
  close(saved)
  guard spawned == 0 else { return nil }
  var status: Int32 = 0
  var usage = rusage()
  guard wait4(pid, &status, 0, &usage) == pid, status == 0 else { return nil }
  #if canImport(Darwin)
    return Int(usage.ru_maxrss)  // bytes on Apple platforms
  #else
    return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
  #endif
}
