import Foundation

let result = Diary.run(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
if !result.output.isEmpty {
  FileHandle.standardOutput.write(Data((result.output + "\n").utf8))
}
if !result.errorOutput.isEmpty {
  FileHandle.standardError.write(Data((result.errorOutput + "\n").utf8))
}
exit(result.exitCode.rawValue)
