import Foundation
import StoreTesting
import Stores
import TestSupport
import Testing

/// A writer process started in the background: `diary` or `stores-writer`.
final class WriterProcess {
  let process = Process()
  private let output = Pipe()
  private let errors = Pipe()
  /// What the process printed to standard error, once it ended (see ``kill()``).
  private(set) var errorOutput = ""

  /// Starts `binary` with `arguments`; with `line`, returns once it printed that line.
  init(
    _ binary: URL, _ arguments: [String], environment: [String: String],
    waitingFor line: String? = nil
  ) throws {
    process.executableURL = binary
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    guard let line else { return }
    var printed = ""
    while !printed.split(separator: "\n").contains(Substring(line)) {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw CancellationError() }
      printed += String(decoding: data, as: UTF8.self)
    }
  }

  /// Kills the process with SIGKILL if it still runs, waits for it, and returns whether it
  /// had finished successfully before (so its write was acknowledged) and the `ack` lines
  /// it printed.
  func kill() -> (succeeded: Bool, acknowledged: [Int]) {
    if process.isRunning { TestPlatform.send(SIGKILL, to: process.processIdentifier) }
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    errorOutput = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let succeeded = process.terminationReason == .exit && process.terminationStatus == 0
    let acks = printed.split(separator: "\n").compactMap { line in
      line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
    }
    return (succeeded, acks)
  }
}

extension DiaryFolderSuite {
  /// Runs `diary` with `arguments`, killing it after `seconds` (a hang fails the test).
  func runWithin(seconds: Int, _ arguments: [String]) throws -> DiaryProcess.Result {
    let process = try BackgroundDiary(arguments, environment: diary.environment)
    let deadline = ContinuousClock.now + .seconds(seconds)
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    let hung = process.isRunning
    if hung { process.kill() }
    let result = process.wait()
    try #require(!hung, "diary \(arguments) hung")
    return result
  }

  /// Runs `binary` with `arguments` through `bash -c "SETUP; exec …"` (after `launcher`), and returns its exit
  /// status (a signal that killed it as 128 + the signal) and its standard error.
  func run(
    _ binary: URL, _ arguments: [String], after setup: String, output: String = "/dev/null",
    as launcher: [String] = []
  ) throws -> (status: Int32, errorOutput: String) {
    let process = Process()
    let shell = ["/bin/bash", "-c", "\(setup); exec \"$0\" \"$@\" > '\(output)'", binary.path]
    process.executableURL = URL(fileURLWithPath: (launcher + shell)[0])
    process.arguments = Array((launcher + shell).dropFirst()) + arguments
    process.environment = diary.environment
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorOutput = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let status =
      process.terminationStatus + (process.terminationReason == .uncaughtSignal ? 128 : 0)
    return (status, errorOutput)
  }
}
