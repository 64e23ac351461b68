import Foundation

Platform.giveLargeBuffersBackWhenFreed()
// A reader that goes away (`diary todos list | head -1`) makes a write fail with EPIPE, which
// `Diary.run` handles, rather than kill the process.
signal(SIGPIPE, SIG_IGN)
// A file size limit (`ulimit -f`) makes a write fail with EFBIG, handled as any failed write
// (exit 74, nothing left behind), rather than kill the process in the middle of it.
signal(SIGXFSZ, SIG_IGN)
let outputIsOpen = StandardStreams.reserve()
let environment = ProcessInfo.processInfo.environment
let exitCode = Diary.run(
  Array(CommandLine.arguments.dropFirst()), environment: environment,
  output: Output(
    standardOutput: FileDescriptorSink(STDOUT_FILENO, isOpen: outputIsOpen),
    standardError: FileDescriptorSink(STDERR_FILENO),
    showsProgress: isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"),
  terminal: .forStandardOutput(environment: environment),
  time: LocalTime(now: Date(), timeZone: .current))
exit(exitCode.rawValue)
